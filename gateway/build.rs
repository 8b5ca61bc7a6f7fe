//! Finds the runner component (boa in a WASI component, gateway/runner/) the gateway embeds
//! (`include_bytes!` in src/runner.rs), so the binary and the library need no
//! configuration to find it.
//!
//! In order: `$CODEMODE_GATEWAY_RUNNER_WASM`; the component
//! `cargo build -p codemode-gateway-runner --target wasm32-wasip2 --profile wasm-release`
//! put in the target directory, when it is newer than the sources it is built from; else
//! the runner is built here, into this build's own output directory, so a plain
//! `cargo build` in a fresh clone works and a stale component is never embedded. The
//! lookup is host/build-support/component.rs, shared with host/build.rs; this file holds
//! the runner's parameters.

include!("../host/build-support/component.rs");

/// The runner component and how it is built.
const RUNNER: Component = Component {
    name: "runner",
    env: "CODEMODE_GATEWAY_RUNNER_WASM",
    package: "codemode-gateway-runner",
    target: "wasm32-wasip2",
    profile: "wasm-release",
    wasm: "codemode_gateway_runner.wasm",
    sources: &["gateway/runner/src", "gateway/runner/build.rs", "gateway/runner/Cargo.toml", "gateway/wit", "Cargo.toml", "Cargo.lock"],
    stale_note: "",
    advice: "the gateway embeds the runner component: build it with `cargo build -p codemode-gateway-runner --target wasm32-wasip2 --profile wasm-release`, or set CODEMODE_GATEWAY_RUNNER_WASM",
};

fn main() {
    embed(&RUNNER);
}
