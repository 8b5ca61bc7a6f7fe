// The component lookup both build scripts share: host/build.rs (the normalizer's guest
// component) and gateway/build.rs (the gateway's JavaScript runner) `include!` this file and
// call `embed` with their own `Component`.
//
// In order: the component's environment variable; the component a workspace build put in
// the target directory, when it is newer than the sources it is built from (its dep-info
// file lists them); else the component is built here, into the build's own output
// directory, so a plain `cargo build` in a fresh clone works and a stale component is never
// embedded.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One component a build script embeds, and how to build it.
struct Component {
    /// What messages call it (`guest`, `runner`); also names the private target directory.
    name: &'static str,
    /// The environment variable that names a prebuilt component, and that the build script
    /// sets for the crate's `include_bytes!(env!(..))`.
    env: &'static str,
    /// The cargo package that builds it.
    package: &'static str,
    /// The target it is built for.
    target: &'static str,
    /// The cargo profile it is built with.
    profile: &'static str,
    /// The file name of the built component.
    wasm: &'static str,
    /// What it is built from, relative to the workspace (watched when this script builds it
    /// itself; a built component lists its own sources, see `inputs`).
    sources: &'static [&'static str],
    /// Added to the warning about a stale component (may be empty).
    stale_note: &'static str,
    /// What to do when the build here fails (after the error).
    advice: &'static str,
}

/// Find or build `component` and hand its path to the crate (`cargo:rustc-env`).
fn embed(component: &Component) {
    println!("cargo:rerun-if-env-changed={}", component.env);
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_DIR");
    let wasm = match located(component) {
        Some(path) => path,
        None => build(component).unwrap_or_else(|e| panic!("{e}\n{}", component.advice)),
    };
    println!("cargo:rerun-if-changed={}", wasm.display());
    println!("cargo:rustc-env={}={}", component.env, wasm.display());
}

/// The workspace root: the parent of the crate's folder.
fn workspace() -> PathBuf {
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    Path::new(&manifest).parent().expect("the crate is in the workspace").into()
}

/// The component named by its environment variable, or the target directory's when it is
/// current.
fn located(component: &Component) -> Option<PathBuf> {
    if let Some(path) = env::var_os(component.env) {
        return Some(PathBuf::from(path));
    }
    let target = env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace().join("target"), PathBuf::from);
    let path = target.join(component.target).join(component.profile).join(component.wasm);
    // Cargo reruns this script when the component appears there or one of its inputs changes.
    println!("cargo:rerun-if-changed={}", path.display());
    let built = modified(&path)?;
    let inputs = inputs(&path.with_extension("d"))?;
    for input in &inputs {
        println!("cargo:rerun-if-changed={}", input.display());
    }
    // A source cargo would rebuild the component for is newer than the component.
    if inputs.iter().filter_map(|i| modified(i)).any(|m| m > built) {
        println!(
            "cargo:warning=the {} component in the target directory is older than its sources; building a fresh one{}",
            component.name, component.stale_note
        );
        return None;
    }
    Some(path)
}

/// When `path` was last modified; `None` when it cannot be read.
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

/// Build the component into this build's output directory (a separate target directory, so
/// it never waits on the lock of the build that runs us).
fn build(component: &Component) -> Result<PathBuf, String> {
    let root = workspace();
    for source in component.sources {
        println!("cargo:rerun-if-changed={}", root.join(source).display());
    }
    let target = PathBuf::from(env::var("OUT_DIR").map_err(|e| e.to_string())?).join(format!("{}-target", component.name));
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(&root)
        .args(["build", "--package", component.package, "--target", component.target, "--profile", component.profile])
        .arg("--target-dir")
        .arg(&target)
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET")
        .status()
        .map_err(|e| format!("could not start cargo to build the {} component: {e}", component.name))?;
    if !status.success() {
        return Err(format!(
            "building the {} component failed ({status}); is the {} target installed (`rustup target add {}`)?",
            component.name, component.target, component.target
        ));
    }
    Ok(target.join(component.target).join(component.profile).join(component.wasm))
}
