//! The Rust gateway (`gateway/`): its runner component, then its tests against real MCP
//! servers (the npm reference servers the JavaScript tests install, and a Python server
//! on the official `mcp` SDK in its own virtual environment).

use std::path::PathBuf;

use crate::py;
use crate::util::{ensure_npm, run, Ctx, Result};

/// The Python server's environment: the official SDK, pinned.
const SERVER_PACKAGES: &[&str] = &["mcp==2.3.0"];

/// Build the runner (`codemode-gateway-runner`, boa) as a `wasm32-wasip2` component with
/// the size-first `wasm-release` profile, where the gateway's build script finds it.
pub fn build_runner(ctx: &Ctx) -> Result<PathBuf> {
    run(ctx.cargo().args(["build", "--package", "codemode-gateway-runner", "--target", "wasm32-wasip2", "--profile", "wasm-release"]))?;
    let wasm = ctx.target_dir().join("wasm32-wasip2/wasm-release/codemode_gateway_runner.wasm");
    let size = std::fs::metadata(&wasm).map_err(|e| format!("the runner build left no component at {}: {e}", wasm.display()))?.len();
    eprintln!("runner: {} ({size} bytes)", wasm.display());
    Ok(wasm)
}

/// The gateway's tests, with the servers they drive installed first.
pub fn test(ctx: &Ctx) -> Result {
    build_runner(ctx)?;
    ensure_npm(&ctx.root.join("examples/node-sandbox"))?;
    let env = py::venv(ctx, "gateway", SERVER_PACKAGES)?;
    // The runner's parser checks are plain Rust: its unit tests run natively.
    run(ctx.cargo().args(["test", "--package", "codemode-gateway-runner", "--lib"]))?;
    run(ctx
        .cargo()
        .args(["test", "--package", "codemode-gateway"])
        .env("CODEMODE_GATEWAY_PYTHON", py::venv_python(&env))
        .env("CODEMODE_GATEWAY_REQUIRE_PEERS", "1"))
}
