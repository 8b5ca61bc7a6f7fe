//! The core's layout is a stack: `src/lib.rs` declares its modules lowest first, and no
//! module's code imports one declared after it, nor reaches anything through the crate
//! root's re-exports (which would hide where it lives). Tests may import from anywhere.

use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The top-level modules in the order `src/lib.rs` declares them.
fn declared_order() -> Vec<String> {
    let lib = std::fs::read_to_string(src().join("lib.rs")).expect("src/lib.rs");
    lib.lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod ").or_else(|| l.trim().strip_prefix("mod ")))
        .filter_map(|rest| rest.strip_suffix(';'))
        .map(str::to_owned)
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable src/") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file belongs to (`src/text/redact.rs` -> `text`).
fn module_of(file: &Path) -> String {
    let relative = file.strip_prefix(src()).expect("under src/");
    let first = relative.components().next().expect("a component").as_os_str().to_string_lossy().into_owned();
    first.strip_suffix(".rs").map(str::to_owned).unwrap_or(first)
}

/// Every `crate::<name>` the file's non-test code names, with its line number.
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        if line.trim_start().starts_with("//") {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '{').collect();
            found.push((n + 1, name));
            rest = after;
        }
    }
    found
}

#[test]
fn no_module_imports_one_above_it_or_through_the_root() {
    let order = declared_order();
    assert!(order.len() >= 8, "src/lib.rs declares {order:?}");
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    let mut problems = Vec::new();
    for file in files.iter().filter(|f| f.file_name().is_some_and(|n| n != "lib.rs")) {
        let module = module_of(file);
        let Some(level) = order.iter().position(|m| *m == module) else {
            problems.push(format!("{}: module {module} is not declared in src/lib.rs", file.display()));
            continue;
        };
        let text = std::fs::read_to_string(file).expect("readable");
        for (line, name) in crate_paths(&text) {
            let at = format!("{}:{line}", file.strip_prefix(src()).unwrap_or(file).display());
            match order.iter().position(|m| *m == name) {
                Some(used) if used > level => problems.push(format!("{at}: {module} imports {name}, declared after it")),
                Some(_) => {}
                None => problems.push(format!("{at}: `crate::{name}` goes through the crate root; name the module")),
            }
        }
    }
    assert!(problems.is_empty(), "layering broken:\n{}", problems.join("\n"));
}
