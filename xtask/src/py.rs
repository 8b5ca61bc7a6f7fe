//! The Python package's build and test steps.
//!
//! `build` runs maturin (pinned, in its own virtual environment under `target/py/`) on
//! `python-package/` and writes one abi3 wheel to `target/wheels/`. `test` installs that
//! wheel into an empty virtual environment and imports it with no Rust tool on the path,
//! then runs the package's tests (the shared vectors, the API, the FastMCP provider) and
//! a strict type check in a second environment holding pytest, mypy and the pinned real
//! dependencies.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{run, Ctx, Result};

/// The build tool, pinned.
const MATURIN: &str = "maturin==1.16.0";

/// What the tests install beside the wheel: the runner, the type checker and the real
/// dependencies of the FastMCP provider, pinned.
const TEST_PACKAGES: &[&str] = &["pytest==8.4.2", "mypy==1.18.2", "fastmcp==4.1.6", "pydantic-monty==1.4.0"];

fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

/// The interpreter of a virtual environment.
pub fn venv_python(venv: &Path) -> PathBuf {
    venv.join("bin/python")
}

/// A virtual environment at `target/py/<name>` holding `packages`; made once, and again
/// when the package list changes (a marker file records it).
pub fn venv(ctx: &Ctx, name: &str, packages: &[&str]) -> Result<PathBuf> {
    let dir = ctx.target_dir().join("py").join(name);
    let marker = dir.join("codemode-errors-packages.txt");
    let wanted = packages.join("\n");
    if std::fs::read_to_string(&marker).is_ok_and(|had| had == wanted) {
        return Ok(dir);
    }
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("could not clear {}: {e}", dir.display()))?;
    }
    run(Command::new(python()).args(["-m", "venv"]).arg(&dir))?;
    if !packages.is_empty() {
        run(Command::new(venv_python(&dir)).args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]).args(packages))?;
    }
    std::fs::write(&marker, wanted).map_err(|e| format!("could not write {}: {e}", marker.display()))?;
    Ok(dir)
}

/// Build the wheel into `target/wheels/` (emptied first) and return its path.
pub fn build(ctx: &Ctx) -> Result<PathBuf> {
    let tools = venv(ctx, "build", &[MATURIN])?;
    let out = ctx.target_dir().join("wheels");
    if out.exists() {
        std::fs::remove_dir_all(&out).map_err(|e| format!("could not clear {}: {e}", out.display()))?;
    }
    run(Command::new(tools.join("bin/maturin"))
        .current_dir(&ctx.root)
        .args(["build", "--release", "--quiet", "--manifest-path", "python-package/Cargo.toml", "--out"])
        .arg(&out)
        .arg("--interpreter")
        .arg(venv_python(&tools)))?;
    let wheels: Vec<PathBuf> = std::fs::read_dir(&out)
        .map_err(|e| format!("could not read {}: {e}", out.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "whl"))
        .collect();
    match wheels.as_slice() {
        [wheel] => Ok(wheel.clone()),
        other => Err(format!("maturin wrote {} wheels to {}, expected one abi3 wheel", other.len(), out.display())),
    }
}

/// Build the wheel, check it installs and imports alone, then run the package's tests.
pub fn test(ctx: &Ctx) -> Result {
    let wheel = build(ctx)?;
    // An empty environment, the wheel alone, imported with no Rust tool on the path.
    let empty = ctx.target_dir().join("py/empty");
    if empty.exists() {
        std::fs::remove_dir_all(&empty).map_err(|e| format!("could not clear {}: {e}", empty.display()))?;
    }
    run(Command::new(python()).args(["-m", "venv"]).arg(&empty))?;
    run(Command::new(venv_python(&empty))
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps"])
        .arg(&wheel))?;
    run(Command::new(venv_python(&empty))
        .args(["-c", "import codemode_errors; assert codemode_errors.CONTRACT_VERSION == 1; print('imported', codemode_errors.VERSION)"])
        .current_dir(ctx.target_dir())
        .env("PATH", "/usr/bin:/bin"))?;
    // The tests' environment: the wheel reinstalled each time over the pinned packages.
    let env = venv(ctx, "test", TEST_PACKAGES)?;
    let py = venv_python(&env);
    run(Command::new(&py)
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--force-reinstall"])
        .arg(&wheel))?;
    let package = ctx.root.join("python-package");
    // Run from the tests folder, so `import codemode_errors` is the installed wheel and
    // not the source folder.
    // The FastMCP tests proxy the npm reference filesystem server the JavaScript tests
    // installed (examples/node-sandbox): required here, never skipped.
    run(Command::new(&py)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "."])
        .current_dir(package.join("tests"))
        .env("CODEMODE_ERRORS_REQUIRE_PEERS", "1"))?;
    // The types as a user sees them (the installed wheel's `py.typed` and stubs), and the
    // package's own sources.
    run(Command::new(&py).args(["-m", "mypy", "--strict", "--no-incremental", "."]).current_dir(package.join("tests")))?;
    run(Command::new(&py).args(["-m", "mypy", "--strict", "--no-incremental", "python/codemode_errors"]).current_dir(&package))
}
