//! Embeds every file below `tests/vectors/` in the loader (`include_str!`), so the vectors
//! need no filesystem at run time (a wasm test has none). Cargo reruns this script when
//! anything in the folder changes; the files themselves are dependencies of the crate
//! through `include_str!`.
//!
//! The list holds every file, vectors or not: the loader, not this script, judges the
//! folder's layout, so a stray file is a clear test failure rather than a build error. A
//! file that is not UTF-8 is listed without content, for the same reason.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let folder = manifest.join("../vectors");
    let folder = folder.canonicalize().unwrap_or_else(|e| panic!("cannot find the vectors folder {}: {e}", folder.display()));
    println!("cargo:rerun-if-changed={}", folder.display());

    let mut files = Vec::new();
    walk(&folder, &mut Vec::new(), &mut files);
    // By path components, as a per-folder sort gives (and the JavaScript runners use).
    files.sort_by(|a, b| a.0.cmp(&b.0));

    let mut out = String::new();
    let _ = writeln!(out, "/// Where the vectors were embedded from: blessing writes back there.");
    let _ = writeln!(out, "pub(crate) const FOLDER: &str = {:?};", folder.to_str().expect("the vectors folder has a UTF-8 path"));
    let _ = writeln!(out, "/// Every file below the folder: its path relative to it, and its text (`None`: not UTF-8).");
    let _ = writeln!(out, "pub(crate) static FILES: &[(&str, Option<&str>)] = &[");
    for (components, path) in &files {
        let name = components.join("/");
        let text = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        if std::str::from_utf8(&text).is_ok() {
            let _ = writeln!(out, "    ({name:?}, Some(include_str!({:?}))),", path.to_str().expect("UTF-8 path"));
        } else {
            let _ = writeln!(out, "    ({name:?}, None),");
        }
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("files.rs");
    std::fs::write(&dest, out).unwrap_or_else(|e| panic!("cannot write {}: {e}", dest.display()));
}

fn walk(dir: &Path, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, PathBuf)>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.unwrap_or_else(|e| panic!("cannot read an entry of {}: {e}", dir.display()));
        let path = entry.path();
        let name = entry.file_name().into_string().unwrap_or_else(|n| panic!("a file name that is not UTF-8 in {}: {n:?}", dir.display()));
        prefix.push(name);
        if path.is_dir() {
            walk(&path, prefix, out);
        } else {
            out.push((prefix.clone(), path));
        }
        prefix.pop();
    }
}
