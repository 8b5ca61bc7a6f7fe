//! The fuzz campaign and the seed sets, with cargo-fuzz on nightly.
//!
//! What runs where:
//!
//! - the targets' bodies and checks are the stable crate `tests/fuzz-targets/`; its replay
//!   test runs every file of `fuzz/seeds/<target>/` and `fuzz/regressions/<target>/` in a
//!   plain `cargo test` (so `cargo xtask test` needs no nightly);
//! - `cargo xtask fuzz [--seconds N] [TARGET ...]` ([`campaign`]) builds the libFuzzer
//!   binaries of `fuzz/` and runs each target for N seconds (default 20), growing
//!   `fuzz/corpus/<target>/` (git-ignored) from the seeds and the regression inputs. A
//!   crash lands in `fuzz/artifacts/<target>/` (also ignored): minimize it with
//!   `cargo +nightly fuzz tmin`, then save it under `fuzz/regressions/<target>/` with a
//!   name that says what it found, and the replay test keeps it from coming back;
//! - `cargo xtask fuzz-seeds [--max-len N] [TARGET ...]` ([`reseed`]) rewrites
//!   `fuzz/seeds/<target>/` as the smallest set of inputs of at most N bytes (default
//!   4096) that covers what the grown corpus and the old seeds cover (libFuzzer's
//!   `-set_cover_merge`), named by content hash.
//!
//! The fuzz crate is its own workspace on nightly (libFuzzer needs `-Z` flags), so it runs
//! through the rustup proxy with `+nightly`, never through the stable cargo that runs this
//! xtask.
//!
//! The `differential` target runs the WASI component under wasmtime (the targets crate
//! depends on `codemode-errors-host`). The host's build script embeds the guest component,
//! so the guest is built first, plainly (stable, not instrumented,
//! [`crate::component::build`]), and named to the fuzz build with
//! `CODEMODE_ERRORS_GUEST_WASM`: the build script then never starts a nested guest build
//! under cargo-fuzz's toolchain and flags.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::component;
use crate::util::{self, output, run, Ctx, Result};

/// The targets, in the order a campaign runs them (the `[[bin]]`s of fuzz/Cargo.toml and
/// `codemode_errors_fuzz::TARGETS`; the replay test fails when a target has no seeds).
pub const TARGETS: &[&str] = &[
    "normalize_json",
    "redact_text",
    "redact_json",
    "classify_run_json",
    "parse_call_error",
    "policy_from_json",
    "report",
    "host_value",
    "differential",
];

/// Seconds each target runs when `--seconds` is not given.
const DEFAULT_SECONDS: u32 = 20;

/// The longest seed `fuzz-seeds` keeps when `--max-len` is not given.
const DEFAULT_SEED_LEN: u32 = 4096;

/// libFuzzer's seed for a campaign unless `--random` is given: a fixed value gives the
/// same mutations on every machine (a slower one runs a prefix of the same inputs).
const FIXED_SEED: u32 = 20261203;

/// The toolchain the fuzz crate builds with.
const TOOLCHAIN: &str = "nightly";

/// The options of `fuzz` and `fuzz-seeds`.
struct Options {
    seconds: u32,
    max_len: u32,
    random: bool,
    targets: Vec<String>,
}

fn options(args: &[String]) -> Result<Options> {
    let mut o = Options { seconds: DEFAULT_SECONDS, max_len: DEFAULT_SEED_LEN, random: false, targets: Vec::new() };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut number = |flag: &str| -> Result<u32> {
            let value = args.next().ok_or_else(|| format!("{flag} needs a number, as in `{flag} 60`"))?;
            value.parse().ok().filter(|&n| n > 0).ok_or_else(|| format!("{flag} takes a positive whole number, not {value:?}"))
        };
        match arg.as_str() {
            "--seconds" => o.seconds = number("--seconds")?,
            "--max-len" => o.max_len = number("--max-len")?,
            "--random" => o.random = true,
            name if TARGETS.contains(&name) => o.targets.push(name.to_string()),
            other => return Err(format!("unknown fuzz target or option {other:?}; targets: {}", TARGETS.join(", "))),
        }
    }
    if o.targets.is_empty() {
        o.targets = TARGETS.iter().map(|t| t.to_string()).collect();
    }
    Ok(o)
}

/// Install the nightly toolchain (minimal profile) unless rustup already has one.
fn ensure_nightly() -> Result {
    let installed = output(Command::new("rustup").args(["toolchain", "list"])).unwrap_or_default();
    if installed.lines().any(|l| l.starts_with(&format!("{TOOLCHAIN}-"))) {
        return Ok(());
    }
    run(Command::new("rustup").args(["toolchain", "install", TOOLCHAIN, "--profile", "minimal"]))
}

/// Install cargo-fuzz unless it is already on PATH.
fn ensure_cargo_fuzz() -> Result {
    if output(Command::new("cargo-fuzz").arg("--version")).is_ok() {
        return Ok(());
    }
    run(Command::new("cargo").args(["install", "cargo-fuzz", "--locked"]))
}

/// `cargo +nightly fuzz <command> --sanitizer none` from `fuzz/`, through the rustup proxy
/// (the variables the outer, stable cargo set would otherwise pin the stable toolchain),
/// with the guest component named for the host's build script.
fn cargo_fuzz(ctx: &Ctx, command: &str, guest: &Path) -> Command {
    let mut c = Command::new("cargo");
    c.arg(format!("+{TOOLCHAIN}")).arg("fuzz").arg(command).current_dir(ctx.root.join("fuzz"));
    for var in ["CARGO", "RUSTC", "RUSTDOC", "RUSTUP_TOOLCHAIN", "RUSTC_WRAPPER", "CARGO_MANIFEST_DIR"] {
        c.env_remove(var);
    }
    // Without a sanitizer: the core forbids unsafe code.
    c.args(["--sanitizer", "none"]).env("CODEMODE_ERRORS_GUEST_WASM", guest);
    c
}

/// The tools, the guest component and the libFuzzer binaries; the component's path.
fn prepare(ctx: &Ctx) -> Result<PathBuf> {
    ensure_nightly()?;
    ensure_cargo_fuzz()?;
    util::ensure_rust_targets()?;
    let guest = component::build(ctx)?;
    // Absolute: the fuzz build runs from fuzz/, and CARGO_TARGET_DIR may be relative.
    let guest = std::fs::canonicalize(&guest).map_err(|e| format!("{}: {e}", guest.display()))?;
    run(&mut cargo_fuzz(ctx, "build", &guest))?;
    Ok(guest)
}

fn create_dir(dir: &Path) -> Result {
    std::fs::create_dir_all(dir).map_err(|e| format!("could not create {}: {e}", dir.display()))
}

/// `cargo xtask fuzz`: run each chosen target for its seconds, growing its corpus.
pub fn campaign(ctx: &Ctx, args: &[String]) -> Result {
    let o = options(args)?;
    let guest = prepare(ctx)?;
    let started = Instant::now();
    let fuzz = ctx.root.join("fuzz");
    for target in &o.targets {
        let corpus = fuzz.join("corpus").join(target);
        create_dir(&corpus)?;
        let mut c = cargo_fuzz(ctx, "run", &guest);
        c.arg(target).arg(&corpus);
        // Read-only inputs: libFuzzer writes new ones to the first folder only.
        for extra in ["seeds", "regressions"] {
            let dir = fuzz.join(extra).join(target);
            if dir.is_dir() {
                c.arg(dir);
            }
        }
        c.arg("--").arg(format!("-max_total_time={}", o.seconds)).args(["-max_len=65536", "-timeout=10"]);
        if !o.random {
            c.arg(format!("-seed={FIXED_SEED}"));
        }
        run(&mut c)?;
    }
    eprintln!("fuzz: {} targets, {} s each, in {:.0} s", o.targets.len(), o.seconds, started.elapsed().as_secs_f64());
    Ok(())
}

/// `cargo xtask fuzz-seeds`: rewrite each chosen target's seed set, a few dozen small
/// inputs that keep as much of the grown corpus's coverage as that many can.
///
/// libFuzzer's `-set_cover_merge` keeps every edge but hundreds of inputs a target, and the
/// control file of a merge credits each edge to the first input that reached it only, so
/// neither picks a few dozen well. Here the merge's inputs are the candidates; each is run
/// alone under `-merge_control_file` (a one-input merge lists every edge that input
/// reaches), and the seeds are chosen greedily: each next one the input that adds the most
/// edges not yet reached, the smaller on a tie, until [`SEEDS_PER_TARGET`] or nothing adds.
pub fn reseed(ctx: &Ctx, args: &[String]) -> Result {
    let o = options(args)?;
    let guest = prepare(ctx)?;
    let fuzz = ctx.root.join("fuzz");
    let triple = output(Command::new("rustc").arg("-vV"))?
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .ok_or("rustc -vV names no host")?;
    let scratch = ctx.target_dir().join("fuzz-seeds");
    for target in &o.targets {
        let binary = fuzz.join("target").join(&triple).join("release").join(target);
        let seeds = fuzz.join("seeds").join(target);
        let candidates = scratch.join(target).join("candidates");
        let _ = std::fs::remove_dir_all(scratch.join(target));
        create_dir(&candidates)?;
        let mut c = cargo_fuzz(ctx, "run", &guest);
        c.arg(target).arg(&candidates);
        for dir in [fuzz.join("corpus").join(target), seeds.clone()] {
            if dir.is_dir() {
                c.arg(dir);
            }
        }
        let max_len = format!("-max_len={}", o.max_len);
        run(c.arg("--").args(["-set_cover_merge=1", "-use_value_profile=0", "-timeout=10"]).arg(&max_len))?;
        let mut reached: Vec<(PathBuf, u64, Vec<u32>)> = Vec::new();
        for path in files(&candidates)? {
            let one = scratch.join(target).join("one");
            let _ = std::fs::remove_dir_all(&one);
            create_dir(&one)?;
            std::fs::copy(&path, one.join("input")).map_err(|e| format!("{}: {e}", path.display()))?;
            // A control file that exists already is a merge to resume: start afresh.
            let control = scratch.join(target).join("control");
            let _ = std::fs::remove_file(&control);
            let empty = scratch.join(target).join("empty");
            let _ = std::fs::remove_dir_all(&empty);
            create_dir(&empty)?;
            let merged = Command::new(&binary)
                .args(["-merge=1", "-use_value_profile=0", "-timeout=10"])
                .arg(format!("-merge_control_file={}", control.display()))
                .arg(&empty)
                .arg(&one)
                .env("CODEMODE_ERRORS_GUEST_WASM", &guest)
                .output()
                .map_err(|e| format!("{}: {e}", binary.display()))?;
            if !merged.status.success() {
                return Err(format!("{target}: a one-input merge of {} failed", path.display()));
            }
            let edges = std::fs::read_to_string(&control)
                .map_err(|e| format!("{}: {e}", control.display()))?
                .lines()
                .filter_map(|l| l.strip_prefix("COV "))
                .flat_map(|l| l.split(' ').skip(1).filter_map(|e| e.parse().ok()).collect::<Vec<u32>>())
                .collect();
            let size = std::fs::metadata(&path).map_err(|e| e.to_string())?.len();
            reached.push((path, size, edges));
        }
        let chosen = greedy_cover(&reached, SEEDS_PER_TARGET);
        if chosen.is_empty() {
            return Err(format!("{target}: no candidate reached any edge; {} is left as it was", seeds.display()));
        }
        let all: std::collections::HashSet<u32> = reached.iter().flat_map(|(_, _, e)| e.iter().copied()).collect();
        let kept: std::collections::HashSet<u32> = chosen.iter().flat_map(|&i| reached[i].2.iter().copied()).collect();
        let _ = std::fs::remove_dir_all(&seeds);
        create_dir(&seeds)?;
        for &i in &chosen {
            let path = &reached[i].0;
            let name = path.file_name().ok_or("a merged input without a name")?;
            std::fs::copy(path, seeds.join(name)).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        eprintln!(
            "fuzz-seeds: {target}: {} seeds ({} bytes) reach {} of the {} edges the {} candidates reach",
            chosen.len(),
            chosen.iter().map(|&i| reached[i].1).sum::<u64>(),
            kept.len(),
            all.len(),
            reached.len()
        );
    }
    Ok(())
}

/// Seeds a target keeps at most.
const SEEDS_PER_TARGET: usize = 40;

/// The files of `dir`, sorted by name.
fn files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    Ok(out)
}

/// Up to `budget` of `inputs` (path, size, edges), each next the one adding the most edges
/// not yet reached (the smaller, then the earlier, on a tie), while one adds any.
fn greedy_cover(inputs: &[(PathBuf, u64, Vec<u32>)], budget: usize) -> Vec<usize> {
    let mut reached = std::collections::HashSet::new();
    let mut chosen = Vec::new();
    while chosen.len() < budget {
        let best = inputs
            .iter()
            .enumerate()
            .filter(|(i, _)| !chosen.contains(i))
            .map(|(i, (_, size, edges))| {
                (edges.iter().filter(|e| !reached.contains(*e)).count(), std::cmp::Reverse(*size), std::cmp::Reverse(i))
            })
            .max();
        match best {
            Some((gain, _, std::cmp::Reverse(i))) if gain > 0 => {
                reached.extend(inputs[i].2.iter().copied());
                chosen.push(i);
            }
            _ => break,
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_greedy_cover_takes_the_largest_gain_then_the_smaller_input() {
        let input = |size, edges: &[u32]| (PathBuf::from("x"), size, edges.to_vec());
        let inputs = [input(10, &[1, 2, 3]), input(5, &[3, 4]), input(1, &[3, 4]), input(9, &[1, 2]), input(2, &[5])];
        assert_eq!(greedy_cover(&inputs, 10), [0, 2, 4]);
        assert_eq!(greedy_cover(&inputs, 1), [0]);
        assert!(greedy_cover(&[input(1, &[])], 3).is_empty());
    }
}
