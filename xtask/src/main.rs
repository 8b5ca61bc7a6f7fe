//! `cargo xtask <command>`: every build step, so two commands set everything up.
//!
//! - `demo`: normalize the sample failures in `examples/failures/` on every surface.
//! - `test`: install what the tests need, then run every test of every surface (the
//!   replay of every saved fuzz input among them, on stable).
//! - `fuzz [--seconds N] [--random] [TARGET ...]`: the time-boxed fuzz campaign (nightly,
//!   cargo-fuzz), growing the ignored `fuzz/corpus/` from the seeds ([`fuzz`]).
//! - `fuzz-seeds [--max-len N] [TARGET ...]`: rewrite the minimized seed sets in
//!   `fuzz/seeds/` from what the grown corpus covers.
//! - `bless`: rewrite the expected outcomes of `tests/vectors/` from the native core.
//! - `bench`: run the benchmarks whose figures `docs/PERFORMANCE.md` records.
//! - `build-js`: build the npm package into `js-package/dist/` (nothing else).
//! - `build-py`: build the Python package's abi3 wheel into `target/wheels/` (nothing else).
//! - `test-py`: build the wheel and run the Python package's tests only.
//! - `test-gateway`: build the gateway's runner and run the gateway's tests only (with
//!   the npm and Python servers they drive).

mod component;
mod features;
mod fuzz;
mod gateway;
mod js;
mod publish;
mod py;
mod util;

use util::{run, Ctx, Result};

fn main() {
    let ctx = Ctx::new();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("demo") => demo(&ctx),
        Some("test") => test(&ctx),
        Some("bless") => bless(&ctx),
        Some("bench") => bench(&ctx),
        Some("fuzz") => fuzz::campaign(&ctx, &args[1..]),
        Some("fuzz-seeds") => fuzz::reseed(&ctx, &args[1..]),
        Some("serve-demo") => js::serve(&ctx),
        Some("build-js") => setup().and_then(|()| js::build(&ctx).map(|dist| println!("built {}", dist.display()))),
        Some("build-py") => py::build(&ctx).map(|wheel| println!("built {}", wheel.display())),
        Some("test-py") => py::test(&ctx),
        Some("test-gateway") => setup().and_then(|()| gateway::test(&ctx)),
        _ => Err("usage: cargo xtask demo|test|fuzz|fuzz-seeds|bless|bench|build-js|build-py|test-py|test-gateway|serve-demo".into()),
    };
    if let Err(e) = result {
        eprintln!("xtask: {e}");
        std::process::exit(1);
    }
}

/// The tools every surface needs, installed once.
fn setup() -> Result {
    util::ensure_rust_targets()?;
    util::ensure_wasm_bindgen()
}

fn demo(ctx: &Ctx) -> Result {
    setup()?;
    run(ctx.cargo().args(["run", "--quiet", "--example", "normalize_failures", "--", "examples/failures"]))?;
    component::demo(ctx)?;
    js::demo(ctx)
}

fn test(ctx: &Ctx) -> Result {
    setup()?;
    // Formatting first: it takes a second and names the file to run `cargo fmt` on.
    run(ctx.cargo().args(["fmt", "--all", "--", "--check"]))?;
    // Surfaces build their artifacts first: the host embeds the component.
    component::build(ctx)?;
    // The two extension crates build for their own targets (WebAssembly, a CPython
    // extension module); their tests are their packages' own, below.
    run(ctx.cargo().args([
        "test",
        "--workspace",
        "--exclude",
        "codemode-errors-guest",
        "--exclude",
        "codemode-errors-js",
        "--exclude",
        "codemode-errors-py",
        "--exclude",
        "codemode-gateway-runner",
        // Its tests drive the npm and Python servers the steps below install.
        "--exclude",
        "codemode-gateway",
    ]))?;
    component::test(ctx)?;
    js::test(ctx)?;
    py::test(ctx)?;
    gateway::test(ctx)?;
    publish::check(ctx)?;
    Ok(())
}

fn bless(ctx: &Ctx) -> Result {
    run(ctx.cargo().args(["test", "--package", "codemode-errors-vectors", "--test", "vectors"]).env("BLESS", "1"))
}

fn bench(ctx: &Ctx) -> Result {
    setup()?;
    run(ctx.cargo().args(["bench", "-p", "codemode-errors", "--bench", "normalize"]))?;
    run(ctx.cargo().args(["bench", "-p", "codemode-errors", "--bench", "redact"]))?;
    component::bench(ctx)?;
    js::bench(ctx)
}
