//! Process helpers and the one-time setup every surface shares.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Errors are one readable line; the xtask prints it and exits 1.
pub type Result<T = ()> = std::result::Result<T, String>;

/// Where the workspace is.
pub struct Ctx {
    /// The workspace root.
    pub root: PathBuf,
}

impl Ctx {
    /// The context for the workspace this xtask belongs to.
    pub fn new() -> Self {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf();
        Ctx { root }
    }

    /// The shared target directory.
    pub fn target_dir(&self) -> PathBuf {
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| self.root.join("target"), PathBuf::from)
    }

    /// A `cargo` command run from the workspace root.
    pub fn cargo(&self) -> Command {
        let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
        c.current_dir(&self.root);
        c
    }
}

/// Run a command, failing with its description when it fails.
pub fn run(cmd: &mut Command) -> Result {
    eprintln!("$ {}", describe(cmd));
    let status = cmd.status().map_err(|e| format!("could not start `{}`: {e}", describe(cmd)))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{}` failed ({status})", describe(cmd)))
    }
}

/// Run a command and return its standard output.
pub fn output(cmd: &mut Command) -> Result<String> {
    let out = cmd.output().map_err(|e| format!("could not start `{}`: {e}", describe(cmd)))?;
    if !out.status.success() {
        return Err(format!("`{}` failed ({}): {}", describe(cmd), out.status, String::from_utf8_lossy(&out.stderr)));
    }
    String::from_utf8(out.stdout).map_err(|_| format!("`{}` printed non-UTF-8", describe(cmd)))
}

fn describe(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// The rustup targets the component and the npm package build for, and rustfmt (the test
/// command checks formatting; a minimal toolchain lacks it).
pub fn ensure_rust_targets() -> Result {
    if output(Command::new("cargo").args(["fmt", "--version"])).is_err() {
        run(Command::new("rustup").args(["component", "add", "rustfmt"]))?;
    }
    let installed = output(Command::new("rustup").args(["target", "list", "--installed"])).unwrap_or_default();
    for target in ["wasm32-wasip2", "wasm32-unknown-unknown"] {
        if !installed.lines().any(|l| l.trim() == target) {
            run(Command::new("rustup").args(["target", "add", target]))?;
        }
    }
    Ok(())
}

/// The wasm-bindgen CLI, at exactly the version the crate pins.
pub const WASM_BINDGEN_VERSION: &str = "0.2.130";

/// Install the pinned wasm-bindgen CLI unless it is already on PATH.
pub fn ensure_wasm_bindgen() -> Result {
    let current = output(Command::new("wasm-bindgen").arg("--version")).unwrap_or_default();
    if current.trim() == format!("wasm-bindgen {WASM_BINDGEN_VERSION}") {
        return Ok(());
    }
    run(Command::new("cargo").args(["install", "wasm-bindgen-cli", "--version", WASM_BINDGEN_VERSION]))
}

/// `npm ci` (or `npm install` without a lock file) in `dir` when its node_modules is missing
/// or older than its lock file.
pub fn ensure_npm(dir: &Path) -> Result {
    let lock = dir.join("package-lock.json");
    let modules = dir.join("node_modules");
    let stale = match (modified(&lock), modified(&modules.join(".package-lock.json"))) {
        (Some(l), Some(m)) => l > m,
        _ => true,
    };
    if !stale {
        return Ok(());
    }
    let verb = if lock.exists() { "ci" } else { "install" };
    run(Command::new("npm").args([verb, "--no-audit", "--no-fund"]).current_dir(dir))
}

fn modified(p: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

/// Debian's Chromium for the browser tests, installed with apt when missing and root.
pub fn ensure_chromium() -> Result<PathBuf> {
    let path = PathBuf::from("/usr/bin/chromium");
    if path.exists() {
        return Ok(path);
    }
    eprintln!("chromium is missing: installing Debian's package");
    run(Command::new("apt-get").arg("update"))?;
    run(Command::new("apt-get").args(["install", "-y", "chromium"]))?;
    if path.exists() {
        Ok(path)
    } else {
        Err("apt-get installed chromium but /usr/bin/chromium is missing".into())
    }
}
