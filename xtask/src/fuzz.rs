//! The fuzz smoke: every cargo-fuzz target in `fuzz/` for a short run on its committed
//! corpus (`fuzz/corpus/<target>/`), failing when a target finds a crash or breaks one of
//! its invariants. The campaign itself, and what each target asserts, is in
//! `docs/RELIABILITY.md`.
//!
//! The fuzz crate is its own workspace on nightly (libFuzzer needs `-Z` flags), so it runs
//! through the rustup proxy with `+nightly`, never through the stable cargo that runs this
//! xtask. New inputs the smoke finds go to a scratch directory under the target
//! directory, so the committed corpus is only read.
//!
//! The `differential` target runs the WASI component under wasmtime (the fuzz crate's
//! `differential` feature, which brings in `codemode-errors-host`). The host's build script
//! embeds the guest component, so the guest is built first, plainly (stable, not
//! instrumented, [`crate::component::build`]), and named to the fuzz build with
//! `CODEMODE_ERRORS_GUEST_WASM`: the build script then never starts a nested guest build
//! under cargo-fuzz's toolchain and flags.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::component;
use crate::util::{self, output, run, Ctx, Result};

/// The targets, in the order the smoke runs them (the `[[bin]]`s of fuzz/Cargo.toml).
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

/// The fuzz crate's features the smoke builds and runs with: `differential` brings in the
/// host crate (wasmtime) and the target of that name. Every `cargo fuzz` call passes the
/// same features, so `run` reuses the build instead of rebuilding the crate.
const FEATURES: &str = "differential";

/// Seconds each target runs in the smoke.
const SMOKE_SECONDS: u32 = 20;

/// libFuzzer's seed in the smoke (any fixed value: the point is that it is fixed).
const SMOKE_SEED: u32 = 20261203;

/// The toolchain the fuzz crate builds with.
const TOOLCHAIN: &str = "nightly";

/// Install the nightly toolchain (minimal profile) unless rustup already has one.
pub fn ensure_nightly() -> Result {
    let installed = output(Command::new("rustup").args(["toolchain", "list"])).unwrap_or_default();
    if installed.lines().any(|l| l.starts_with(&format!("{TOOLCHAIN}-"))) {
        return Ok(());
    }
    run(Command::new("rustup").args(["toolchain", "install", TOOLCHAIN, "--profile", "minimal"]))
}

/// Install cargo-fuzz unless it is already on PATH.
pub fn ensure_cargo_fuzz() -> Result {
    if output(Command::new("cargo-fuzz").arg("--version")).is_ok() {
        return Ok(());
    }
    run(Command::new("cargo").args(["install", "cargo-fuzz", "--locked"]))
}

/// `cargo +nightly fuzz <command> --sanitizer none --features …` from `fuzz/`, through the
/// rustup proxy (the variables the outer, stable cargo set would otherwise pin the stable
/// toolchain), with the guest component named for the host's build script.
fn cargo_fuzz(ctx: &Ctx, command: &str, guest: &Path) -> Command {
    let mut c = Command::new("cargo");
    c.arg(format!("+{TOOLCHAIN}")).arg("fuzz").arg(command).current_dir(ctx.root.join("fuzz"));
    for var in ["CARGO", "RUSTC", "RUSTDOC", "RUSTUP_TOOLCHAIN", "RUSTC_WRAPPER", "CARGO_MANIFEST_DIR"] {
        c.env_remove(var);
    }
    // Without a sanitizer: the core forbids unsafe code, and the campaign runs the same way.
    c.args(["--sanitizer", "none", "--features", FEATURES]).env("CODEMODE_ERRORS_GUEST_WASM", guest);
    c
}

/// Build every target and run each for [`SMOKE_SECONDS`] on its committed corpus.
pub fn smoke(ctx: &Ctx) -> Result {
    ensure_nightly()?;
    ensure_cargo_fuzz()?;
    let started = Instant::now();
    // The component the differential target embeds (a no-op when `cargo xtask test` just
    // built it).
    util::ensure_rust_targets()?;
    let guest = component::build(ctx)?;
    // Absolute: the fuzz build runs from fuzz/, and CARGO_TARGET_DIR may be relative.
    let guest = std::fs::canonicalize(&guest).map_err(|e| format!("{}: {e}", guest.display()))?;
    run(&mut cargo_fuzz(ctx, "build", &guest))?;
    let scratch = ctx.target_dir().join("fuzz-smoke");
    for target in TARGETS {
        let corpus = ctx.root.join("fuzz/corpus").join(target);
        if !corpus.is_dir() {
            return Err(format!("{} is missing: the smoke runs on the committed corpus", corpus.display()));
        }
        let fresh = scratch.join(target);
        let _ = std::fs::remove_dir_all(&fresh);
        std::fs::create_dir_all(&fresh).map_err(|e| format!("could not create {}: {e}", fresh.display()))?;
        run(cargo_fuzz(ctx, "run", &guest)
            .arg(target)
            .arg(&fresh)
            .arg(&corpus)
            .arg("--")
            .arg(format!("-max_total_time={SMOKE_SECONDS}"))
            // One seed: every run mutates the committed corpus the same way, so the test
            // command gives the same verdict on every machine (a slower one runs a
            // prefix of the same inputs). Campaigns, not this smoke, explore.
            .arg(format!("-seed={SMOKE_SEED}"))
            .args(["-max_len=65536", "-timeout=10"]))?;
    }
    eprintln!("fuzz smoke: {} targets in {:.0} s", TARGETS.len(), started.elapsed().as_secs_f64());
    Ok(())
}
