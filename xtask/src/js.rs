//! The npm package's build, demo, test, bench and demo-server steps.
//!
//! `build` compiles `js-package/` (the wasm-bindgen crate) for `wasm32-unknown-unknown`
//! with the `wasm-release` profile, generates bindings with the pinned wasm-bindgen CLI
//! for the `web`, `nodejs` and `bundler` targets into `js-package/pkg/` (after dropping
//! `multivalue` from the module's `target_features`, see `features.rs`), then runs
//! `js-package/scripts/build.mjs` (wasm-opt from the `binaryen` npm package, the ESM and
//! CommonJS layers, the package.json check) to fill `js-package/dist/`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::features::{has_feature, without_feature};
use crate::util::{ensure_chromium, ensure_npm, ensure_wasm_bindgen, run, Ctx, Result};

const CRATE: &str = "codemode-errors-js";
const TARGETS: &[&str] = &["web", "nodejs", "bundler"];

fn package_dir(ctx: &Ctx) -> PathBuf {
    ctx.root.join("js-package")
}

fn node(dir: &Path) -> Command {
    let mut c = Command::new("node");
    c.current_dir(dir);
    c
}

/// The Deno binary the `deno` npm package installs.
fn deno(ctx: &Ctx) -> PathBuf {
    package_dir(ctx).join("node_modules/.bin/deno")
}

/// Compile the wasm-bindgen crate (with `features`, comma-separated, or none) and return
/// the module wasm-bindgen should read.
fn compile(ctx: &Ctx, features: &str) -> Result<PathBuf> {
    // The profile strips everything, including the `target_features` section wasm-bindgen
    // and wasm-opt read the enabled features from; keep sections here and let wasm-opt
    // strip names and producers afterwards (build.mjs), as wasm-bindgen recommends.
    let mut cargo = ctx.cargo();
    cargo.args(["build", "-p", CRATE, "--target", "wasm32-unknown-unknown", "--profile", "wasm-release"]);
    if !features.is_empty() {
        cargo.args(["--features", features]);
    }
    run(cargo.env("CARGO_PROFILE_WASM_RELEASE_STRIP", "debuginfo"))?;
    let built = ctx.target_dir().join("wasm32-unknown-unknown/wasm-release/codemode_errors_js.wasm");
    // wasm-bindgen would turn every export returning a `Result` or a string into a
    // multi-value function, which V8 can only call through a wrapper it compiles per
    // signature at start-up (see features.rs); without the `multivalue` entry it keeps
    // returning through memory.
    let module = std::fs::read(&built).map_err(|e| format!("could not read {}: {e}", built.display()))?;
    // The scanners' lanes form needs SIMD; a `RUSTFLAGS` in the environment replaces the
    // flag `.cargo/config.toml` sets, which would ship the byte-a-step loops unnoticed.
    if !has_feature(&module, "simd128").map_err(|e| format!("{}: {e}", built.display()))? {
        return Err(format!(
            "{} was built without SIMD: RUSTFLAGS in the environment replaces .cargo/config.toml's `-C target-feature=+simd128`; add it to RUSTFLAGS",
            built.display()
        ));
    }
    let module = without_feature(&module, "multivalue").map_err(|e| format!("{}: {e}", built.display()))?;
    let input = ctx.target_dir().join("wasm32-unknown-unknown/wasm-release/bindgen-input");
    std::fs::create_dir_all(&input).map_err(|e| format!("could not create {}: {e}", input.display()))?;
    let wasm = input.join(if features.is_empty() { "codemode_errors_js.wasm" } else { "codemode_errors_js_features.wasm" });
    std::fs::write(&wasm, module).map_err(|e| format!("could not write {}: {e}", wasm.display()))?;
    Ok(wasm)
}

/// Build the package into `js-package/dist/` and return that directory.
pub fn build(ctx: &Ctx) -> Result<PathBuf> {
    let pkg = package_dir(ctx);
    ensure_npm(&pkg)?;
    ensure_wasm_bindgen()?;
    let wasm = compile(ctx, "")?;
    let out = pkg.join("pkg");
    if out.exists() {
        std::fs::remove_dir_all(&out).map_err(|e| format!("could not clear {}: {e}", out.display()))?;
    }
    for target in TARGETS {
        run(Command::new("wasm-bindgen").args(["--target", target, "--no-typescript", "--out-dir"]).arg(out.join(target)).arg(&wasm))?;
    }
    run(node(&pkg).arg("scripts/build.mjs"))?;
    Ok(pkg.join("dist"))
}

/// Every JavaScript test: the vector suite and `execute` under Node and Deno, the API
/// tests, the real MCP server example, the examples under Deno, the browser demo in
/// headless Chromium, and the packed tarball imported, required and type-checked.
pub fn test(ctx: &Ctx) -> Result {
    build(ctx)?;
    let pkg = package_dir(ctx);
    ensure_npm(&ctx.root.join("examples/node-sandbox"))?;
    ensure_npm(&ctx.root.join("examples/deno"))?;
    let chromium = ensure_chromium()?;
    run(node(&pkg).args(["--test", "--test-reporter=spec"]).arg("test/").env("CHROMIUM", chromium))?;
    // The vectors and `execute` (both executors), offline: the QuickJS packages come from
    // node_modules, and `--cached-only` turns any download into a failure.
    run(Command::new(deno(ctx))
        .current_dir(&pkg)
        .args(["test", "--no-check", "--cached-only", "--allow-read", "--allow-env", "test/vectors.test.mjs", "test/execute.test.mjs"])
        .env("CODEMODE_ERRORS_ENTRY", "../dist/deno/index.js")
        .env("NO_COLOR", "1"))
}

/// The node-sandbox example: model-style code against real MCP servers.
pub fn demo(ctx: &Ctx) -> Result {
    build(ctx)?;
    let example = ctx.root.join("examples/node-sandbox");
    ensure_npm(&example)?;
    run(node(&example).arg("main.mjs"))
}

/// Size, start-up and per-call budgets, compared with a naive JavaScript redactor, then
/// redaction against secretlint and a regex list (both write `docs/PERFORMANCE-js.md`),
/// then the cost of a run through `execute`.
pub fn bench(ctx: &Ctx) -> Result {
    build(ctx)?;
    // The bench-only exports (`benchCore`, `benchCoreText`: the core's own time inside
    // WebAssembly) come from a second build with the `bench` feature, kept beside the
    // bench (`js-package/bench/pkg/`, ignored by git) and never in the package.
    let wasm = compile(ctx, "bench")?;
    let out = package_dir(ctx).join("bench/pkg");
    run(Command::new("wasm-bindgen").args(["--target", "nodejs", "--no-typescript", "--out-dir"]).arg(&out).arg(&wasm))?;
    run(node(&package_dir(ctx)).args(["--expose-gc", "bench/bench.mjs"]))?;
    // Against secretlint and a regex list; the peers live in their own folder, never in
    // the package's dependencies.
    ensure_npm(&package_dir(ctx).join("bench/peers"))?;
    // The same texts as the native redaction bench (`benches/texts.rs`).
    let texts = ctx.root.join("target/bench-texts");
    run(ctx.cargo().args(["run", "--release", "--quiet", "--example", "bench_texts", "--"]).arg(&texts))?;
    run(node(&package_dir(ctx)).args(["--expose-gc", "bench/compare.mjs", "--write", "--texts"]).arg(&texts))?;
    // What a run costs through `execute` on each executor (printed; the figures are kept by
    // hand in the "Executors" section of docs/PERFORMANCE-js.md).
    run(node(&package_dir(ctx)).arg("bench/execute.mjs"))
}

/// Serve the browser demo offline on http://127.0.0.1:8080/ until interrupted.
pub fn serve(ctx: &Ctx) -> Result {
    build(ctx)?;
    let port = std::env::var("PORT").unwrap_or_else(|_| "8080".to_owned());
    run(node(&ctx.root.join("examples/browser-demo")).args(["serve.mjs", "--port", &port]))
}
