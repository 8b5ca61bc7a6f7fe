//! Every saved fuzz input, replayed through its target on stable: the minimized seeds in
//! `fuzz/seeds/<target>/` and every input that ever crashed a target or broke one of its
//! checks, in `fuzz/regressions/<target>/` (named for what it found). Each runs the same
//! body, with the same fatal checks, that libFuzzer runs in `cargo xtask fuzz`.
//!
//! Beside a `report` input (bytes that `arbitrary` turns into a failure report) may stand
//! the report it builds, `<name>.report.json`, printed with `CODEMODE_FUZZ_PRINT_REPORT=1`:
//! that file is a plain report, replayed through `normalize_json`.
//!
//! One test, inputs in turn: the memory checks count every allocation of the process, so
//! nothing else may run beside an input.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use codemode_errors_fuzz::{targets, TARGETS};

/// The files of `dir`, sorted by name (none when it does not exist).
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect();
    files.sort();
    files
}

#[test]
fn every_seed_and_regression_input_passes_its_target() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    targets::differential::init();
    let mut failed = Vec::new();
    for (name, run) in TARGETS {
        let seeds = inputs(&fuzz.join("seeds").join(name));
        assert!(!seeds.is_empty(), "fuzz/seeds/{name}/ holds no seed: every target keeps its minimized seed set there");
        let regressions = inputs(&fuzz.join("regressions").join(name));
        for path in seeds.iter().chain(&regressions) {
            let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let readable_report = path.to_string_lossy().ends_with(".report.json");
            let body = if readable_report { targets::normalize_json::run } else { *run };
            if catch_unwind(AssertUnwindSafe(|| body(&data))).is_err() {
                failed.push(path.strip_prefix(&fuzz).unwrap_or(path).display().to_string());
            }
        }
        eprintln!("{name}: {} seeds and {} regression inputs", seeds.len(), regressions.len());
    }
    assert!(failed.is_empty(), "{} saved fuzz inputs fail their target (each panic is printed above): {failed:?}", failed.len());
}
