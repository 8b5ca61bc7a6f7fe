//! Finds the guest component the host embeds (`include_bytes!`), so the CLI and the
//! library need no configuration to find it.
//!
//! In order: `$CODEMODE_ERRORS_GUEST_WASM`; the component `cargo xtask test` (or
//! `cargo build -p codemode-errors-guest --target wasm32-wasip2 --profile component-release`)
//! put in the target directory, when it is newer than the sources it is built from; else
//! the guest is built here, into this build's own output directory, so a plain
//! `cargo build` in a fresh clone works and a stale component is never embedded. The
//! lookup is build-support/component.rs, shared with gateway/build.rs; this file holds the
//! guest's parameters.

include!("build-support/component.rs");

/// The guest component and how it is built.
const GUEST: Component = Component {
    name: "guest",
    env: "CODEMODE_ERRORS_GUEST_WASM",
    package: "codemode-errors-guest",
    target: "wasm32-wasip2",
    profile: "component-release",
    wasm: "codemode_errors_guest.wasm",
    sources: &["guest/src", "guest/build.rs", "guest/Cargo.toml", "wit", "src", "schema", "Cargo.toml", "Cargo.lock"],
    stale_note: " (`cargo xtask test` keeps it current)",
    advice: "the host embeds the guest component: run `cargo xtask test` (it builds the guest first), or set CODEMODE_ERRORS_GUEST_WASM",
};

fn main() {
    embed(&GUEST);
}
