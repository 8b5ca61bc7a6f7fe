//! Finds the guest component the host embeds (`include_bytes!`), so the CLI and the
//! library need no configuration to find it.
//!
//! In order: `$CODEMODE_ERRORS_GUEST_WASM`; the component `cargo xtask test` (or
//! `cargo build -p codemode-errors-guest --target wasm32-wasip2 --profile component-release`)
//! put in the target directory; else the guest is built here, into this build's own
//! output directory, so a plain `cargo build` in a fresh clone still works.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

const WASM: &str = "codemode_errors_guest.wasm";

fn main() {
    println!("cargo:rerun-if-env-changed=CODEMODE_ERRORS_GUEST_WASM");
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_DIR");
    let wasm = match located() {
        Some(path) => path,
        None => build_guest().unwrap_or_else(|e| {
            panic!("{e}\nthe host embeds the guest component: run `cargo xtask test` (it builds the guest first), or set CODEMODE_ERRORS_GUEST_WASM")
        }),
    };
    println!("cargo:rerun-if-changed={}", wasm.display());
    println!("cargo:rustc-env=CODEMODE_ERRORS_GUEST_WASM={}", wasm.display());
}

fn workspace() -> PathBuf {
    Path::new(&env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR")).parent().expect("host/ is in the workspace").into()
}

fn located() -> Option<PathBuf> {
    if let Some(path) = env::var_os("CODEMODE_ERRORS_GUEST_WASM") {
        return Some(PathBuf::from(path));
    }
    let target = env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace().join("target"), PathBuf::from);
    let path = target.join("wasm32-wasip2").join("component-release").join(WASM);
    if path.exists() {
        return Some(path);
    }
    // Cargo reruns this script once the component appears there.
    println!("cargo:rerun-if-changed={}", path.display());
    None
}

/// Build the guest into this build's output directory (a separate target directory, so it
/// never waits on the lock of the build that runs us).
fn build_guest() -> Result<PathBuf, String> {
    let root = workspace();
    for watched in ["guest/src", "guest/Cargo.toml", "wit", "src", "Cargo.toml"] {
        println!("cargo:rerun-if-changed={}", root.join(watched).display());
    }
    let target = PathBuf::from(env::var("OUT_DIR").map_err(|e| e.to_string())?).join("guest-target");
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(&root)
        .args(["build", "--package", "codemode-errors-guest", "--target", "wasm32-wasip2", "--profile", "component-release"])
        .arg("--target-dir")
        .arg(&target)
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET")
        .status()
        .map_err(|e| format!("could not start cargo to build the guest component: {e}"))?;
    if !status.success() {
        return Err(format!(
            "building the guest component failed ({status}); is the wasm32-wasip2 target installed (`rustup target add wasm32-wasip2`)?"
        ));
    }
    Ok(target.join("wasm32-wasip2").join("component-release").join(WASM))
}
