//! Finds the runner component (boa in a WASI component, gateway/runner/) the gateway embeds
//! (`include_bytes!` in src/runner.rs), so the binary and the library need no
//! configuration to find it. The same approach as host/build.rs.
//!
//! In order: `$CODEMODE_GATEWAY_RUNNER_WASM`; the component
//! `cargo build -p codemode-gateway-runner --target wasm32-wasip2 --profile wasm-release`
//! put in the target directory, when it is newer than the sources it is built from; else
//! the runner is built here, into this build's own output directory, so a plain
//! `cargo build` in a fresh clone works and a stale component is never embedded.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

const WASM: &str = "codemode_gateway_runner.wasm";

/// What the runner component is built from, relative to the workspace (watched when this
/// script builds the runner itself; a built component lists its own sources, see `inputs`).
const SOURCES: &[&str] =
    &["gateway/runner/src", "gateway/runner/build.rs", "gateway/runner/Cargo.toml", "gateway/wit", "Cargo.toml", "Cargo.lock"];

fn main() {
    println!("cargo:rerun-if-env-changed=CODEMODE_GATEWAY_RUNNER_WASM");
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_DIR");
    let wasm = match located() {
        Some(path) => path,
        None => build_runner().unwrap_or_else(|e| {
            panic!("{e}\nthe gateway embeds the runner component: build it with `cargo build -p codemode-gateway-runner --target wasm32-wasip2 --profile wasm-release`, or set CODEMODE_GATEWAY_RUNNER_WASM")
        }),
    };
    println!("cargo:rerun-if-changed={}", wasm.display());
    println!("cargo:rustc-env=CODEMODE_GATEWAY_RUNNER_WASM={}", wasm.display());
}

fn workspace() -> PathBuf {
    Path::new(&env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
        .parent()
        .expect("gateway/ is in the workspace")
        .into()
}

fn located() -> Option<PathBuf> {
    if let Some(path) = env::var_os("CODEMODE_GATEWAY_RUNNER_WASM") {
        return Some(PathBuf::from(path));
    }
    let target = env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace().join("target"), PathBuf::from);
    let path = target.join("wasm32-wasip2").join("wasm-release").join(WASM);
    // Cargo reruns this script when the component appears there or one of its inputs changes.
    println!("cargo:rerun-if-changed={}", path.display());
    let built = modified(&path)?;
    let inputs = inputs(&path.with_extension("d"))?;
    for input in &inputs {
        println!("cargo:rerun-if-changed={}", input.display());
    }
    // A source cargo would rebuild the component for is newer than the component.
    if inputs.iter().filter_map(|i| modified(i)).any(|m| m > built) {
        println!("cargo:warning=the runner component in the target directory is older than its sources; building a fresh one");
        return None;
    }
    Some(path)
}

fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The files the component was built from, as cargo's dep-info file beside it lists them
/// (`target: input input ...`, spaces in paths escaped with a backslash). `None` when there
/// is no such file, and the component is then not trusted.
fn inputs(dep_info: &Path) -> Option<Vec<PathBuf>> {
    let text = std::fs::read_to_string(dep_info).ok()?;
    let line = text.lines().next()?;
    let (_, list) = line.split_once(": ")?;
    let mut files = Vec::new();
    let mut current = String::new();
    let mut chars = list.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => current.extend(chars.next()),
            ' ' => files.extend((!current.is_empty()).then(|| PathBuf::from(std::mem::take(&mut current)))),
            c => current.push(c),
        }
    }
    files.extend((!current.is_empty()).then(|| PathBuf::from(current)));
    Some(files)
}

/// Build the runner into this build's output directory (a separate target directory, so it
/// never waits on the lock of the build that runs us).
fn build_runner() -> Result<PathBuf, String> {
    let root = workspace();
    for source in SOURCES {
        println!("cargo:rerun-if-changed={}", root.join(source).display());
    }
    let target = PathBuf::from(env::var("OUT_DIR").map_err(|e| e.to_string())?).join("runner-target");
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(&root)
        .args(["build", "--package", "codemode-gateway-runner", "--target", "wasm32-wasip2", "--profile", "wasm-release"])
        .arg("--target-dir")
        .arg(&target)
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET")
        .status()
        .map_err(|e| format!("could not start cargo to build the runner component: {e}"))?;
    if !status.success() {
        return Err(format!(
            "building the runner component failed ({status}); is the wasm32-wasip2 target installed (`rustup target add wasm32-wasip2`)?"
        ));
    }
    Ok(target.join("wasm32-wasip2").join("wasm-release").join(WASM))
}
