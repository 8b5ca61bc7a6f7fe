//! The component surface: build the guest component, demo the CLI on it, run its extra
//! checks and its benchmark.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{output, run, Ctx, Result};

/// Build the guest (`codemode-errors-guest`) as a `wasm32-wasip2` component with the
/// speed-tuned `component-release` profile, where the host's build script finds it to embed.
pub fn build(ctx: &Ctx) -> Result<PathBuf> {
    run(ctx.cargo().args(["build", "--package", "codemode-errors-guest", "--target", "wasm32-wasip2", "--profile", "component-release"]))?;
    let wasm = ctx.target_dir().join("wasm32-wasip2/component-release/codemode_errors_guest.wasm");
    let size = std::fs::metadata(&wasm).map_err(|e| format!("the guest build left no component at {}: {e}", wasm.display()))?.len();
    match gzipped_size(&wasm) {
        Some(gz) => eprintln!("component: {} ({size} bytes, {gz} gzipped)", wasm.display()),
        None => eprintln!("component: {} ({size} bytes)", wasm.display()),
    }
    Ok(wasm)
}

/// `gzip -9` size, when gzip is installed.
fn gzipped_size(path: &Path) -> Option<usize> {
    let out = Command::new("gzip").args(["-9", "-c"]).arg(path).output().ok()?;
    out.status.success().then_some(out.stdout.len())
}

/// Checks beyond the workspace tests (which already ran the host's conformance, limit and
/// CLI tests, and the gateway example): the CLI gives byte-identical answers on both
/// engines for every sample failure. Runs after `cargo test --workspace`, whose build of
/// the CLI it reuses: building it again alone would resolve other features and compile
/// wasmtime a second time.
pub fn test(ctx: &Ctx) -> Result {
    let cli = built_cli(ctx);
    if !cli.exists() {
        return Err(format!("{} is missing: `cargo test --workspace` builds it before this step", cli.display()));
    }
    let samples = samples(ctx)?;
    for sample in &samples {
        let answer = |engine: &str| output(Command::new(&cli).args(["--engine", engine, "normalize"]).arg(sample));
        let (component, native) = (answer("component")?, answer("native")?);
        if component != native {
            return Err(format!("{}: the component and the native core disagree:\n  {component}\n  {native}", sample.display()));
        }
    }
    eprintln!("component: {} sample failures answered byte-identically by both engines", samples.len());
    Ok(())
}

/// Run the CLI, through the component, on every sample failure and show each outcome.
pub fn demo(ctx: &Ctx) -> Result {
    build(ctx)?;
    let cli = build_cli(ctx)?;
    let samples = samples(ctx)?;
    if samples.is_empty() {
        println!("No sample failures in examples/failures/ yet: nothing to show.");
        return Ok(());
    }
    println!("== The codemode-errors CLI, running the WASI component ({} samples) ==", samples.len());
    for sample in samples {
        let name = sample.strip_prefix(&ctx.root).unwrap_or(&sample).display().to_string();
        let result = Command::new(&cli).args(["normalize", "--pretty"]).arg(&sample).output();
        let out = result.map_err(|e| format!("could not start {}: {e}", cli.display()))?;
        println!("\n--- {name} (exit {})", out.status.code().unwrap_or(-1));
        print!("{}", String::from_utf8_lossy(&out.stdout));
        if !out.stderr.is_empty() {
            print!("{}", String::from_utf8_lossy(&out.stderr));
        }
    }
    Ok(())
}

/// The component benchmark (native vs component, fresh-store cost, cold start).
pub fn bench(ctx: &Ctx) -> Result {
    build(ctx)?;
    run(ctx.cargo().args(["bench", "--package", "codemode-errors-host", "--bench", "component"]))
}

/// Build the CLI binary and return its path.
fn build_cli(ctx: &Ctx) -> Result<PathBuf> {
    run(ctx.cargo().args(["build", "--quiet", "--package", "codemode-errors-host", "--bin", "codemode-errors"]))?;
    Ok(built_cli(ctx))
}

/// Where cargo puts the debug CLI binary.
fn built_cli(ctx: &Ctx) -> PathBuf {
    ctx.target_dir().join("debug").join(format!("codemode-errors{}", std::env::consts::EXE_SUFFIX))
}

/// The sample failures, sorted; none when the folder is missing or empty.
fn samples(ctx: &Ctx) -> Result<Vec<PathBuf>> {
    let dir = ctx.root.join("examples/failures");
    let Ok(entries) = std::fs::read_dir(&dir) else { return Ok(Vec::new()) };
    let mut out: Vec<PathBuf> =
        entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    out.sort();
    Ok(out)
}
