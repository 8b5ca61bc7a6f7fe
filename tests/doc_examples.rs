//! Every public item has an example. Stable rustdoc has no lint for it
//! (`rustdoc::missing_doc_code_examples` is nightly-only, and it skips items re-exported
//! from private modules, which is most of this crate's API), so the sources are read:
//!
//! - Rust, in `src/` (the core) and `host/src/` (the host library): every item declared
//!   `pub fn`, `pub struct`, `pub enum`, `pub trait`, `pub const`, `pub static` or
//!   `pub type` (plain `pub`: `pub(crate)` is not public), and every enum a `wire_enum!`
//!   declares `pub`, has a code block in its `///` doc comment. The core warns on
//!   `unreachable_pub`, so a plain `pub` there is public API; the host's binary-only and
//!   crate-private modules are listed in [`NOT_API`]. Items a macro writes from a template
//!   (a wire enum's `as_str`, `from_wire` and `ALL`, the host `Engine`'s delegating
//!   methods, the WIT bindings) are not seen: their enum or type carries the example.
//!   Trait methods are not `pub` items either; the trait's example implements them.
//! - TypeScript, in `js-package/index.d.ts`: every `export function`, every
//!   `export class` and each member of an exported class has a JSDoc comment with an
//!   `@example`. Types and interfaces describe values and need none.
//!
//! The failure lists every item without an example as `file:line: item`.

use std::path::{Path, PathBuf};

/// Host files whose `pub` items are no library API: the CLI's modules (compiled into the
/// binary, `host/src/main.rs`) and a crate-private module whose items nothing re-exports.
const NOT_API: &[&str] = &["host/src/main.rs", "host/src/cli/", "host/src/store.rs"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("a source folder is readable").map(|e| e.expect("an entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Whether `line` declares a public item: `pub` followed by an item keyword, or by the
/// name of an enum inside `wire_enum!` (`pub Origin {`).
fn declares_public_item(line: &str) -> bool {
    let Some(rest) = line.trim_start().strip_prefix("pub ") else { return false };
    // A macro template (`pub fn $name(...)`) is no item of its own.
    if rest.contains('$') {
        return false;
    }
    let rest = rest.strip_prefix("unsafe ").unwrap_or(rest);
    if rest.starts_with("const fn ") {
        return true;
    }
    let keyword = rest.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next().unwrap_or("");
    if ["fn", "struct", "enum", "trait", "const", "static", "type", "union"].contains(&keyword) {
        return true;
    }
    // `wire_enum! { /// ... pub Name { ... } }`
    let mut words = rest.split_whitespace();
    matches!((words.next(), words.next()), (Some(name), Some("{")) if name.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// The `///` lines above line `at`, past attributes and plain comments.
fn doc_above<'a>(lines: &[&'a str], at: usize) -> Vec<&'a str> {
    let mut i = at;
    while i > 0 {
        let line = lines[i - 1].trim_start();
        if line.starts_with("#[") || (line.starts_with("//") && !line.starts_with("///")) {
            i -= 1;
        } else {
            break;
        }
    }
    let mut doc = Vec::new();
    while i > 0 && lines[i - 1].trim_start().starts_with("///") {
        doc.push(lines[i - 1]);
        i -= 1;
    }
    doc
}

fn rust_items_without_example() -> Vec<String> {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    rust_files(&root().join("host/src"), &mut files);
    let mut missing = Vec::new();
    for path in files {
        let name = path.strip_prefix(root()).expect("under the root").to_string_lossy().replace('\\', "/");
        if NOT_API.iter().any(|skip| name.starts_with(skip)) {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a source file is readable");
        let lines: Vec<&str> = text.lines().collect();
        // Test modules are no API: stop at the first `#[cfg(test)]` module.
        let end = lines
            .iter()
            .enumerate()
            .position(|(i, l)| l.trim() == "#[cfg(test)]" && lines.get(i + 1).is_some_and(|n| n.trim_start().starts_with("mod ")))
            .unwrap_or(lines.len());
        for (i, line) in lines[..end].iter().enumerate() {
            if declares_public_item(line) && !doc_above(&lines, i).iter().any(|d| d.contains("```")) {
                missing.push(format!("{name}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    missing
}

/// The JSDoc comment that ends right above line `at` (blank lines not allowed between).
fn jsdoc_above(lines: &[&str], at: usize) -> Option<String> {
    let end = at.checked_sub(1)?;
    if !lines[end].trim_end().ends_with("*/") {
        return None;
    }
    let start = (0..=end).rev().find(|&i| lines[i].trim_start().starts_with("/**"))?;
    Some(lines[start..=end].join("\n"))
}

fn typescript_declarations_without_example() -> Vec<String> {
    let file = "js-package/index.d.ts";
    let text = std::fs::read_to_string(root().join(file)).expect("index.d.ts is readable");
    let lines: Vec<&str> = text.lines().collect();
    let mut missing = Vec::new();
    let mut check = |i: usize, what: &str| {
        if !jsdoc_above(&lines, i).is_some_and(|doc| doc.contains("@example")) {
            missing.push(format!("{file}:{}: {what}", i + 1));
        }
    };
    let mut in_class = false;
    for (i, line) in lines.iter().enumerate() {
        if in_class {
            if line.starts_with('}') {
                in_class = false;
            } else {
                let member = line.trim_start();
                let is_comment = member.starts_with("/**") || member.starts_with('*') || member.starts_with("//");
                // A member starts at the class body's indentation (continuation lines are deeper).
                if !member.is_empty() && !is_comment && line.len() - member.len() == 2 {
                    check(i, member);
                }
            }
        } else if line.starts_with("export function ") || line.starts_with("export declare function ") {
            check(i, line);
        } else if line.starts_with("export class ") || line.starts_with("export declare class ") {
            check(i, line);
            in_class = !line.trim_end().ends_with('}');
        }
    }
    missing
}

#[test]
fn every_public_rust_item_has_an_example() {
    let missing = rust_items_without_example();
    assert!(missing.is_empty(), "public items without an example (a ``` block in their /// docs):\n{}", missing.join("\n"));
}

#[test]
fn every_exported_function_and_class_of_the_npm_package_has_an_example() {
    let missing = typescript_declarations_without_example();
    assert!(missing.is_empty(), "declarations of js-package/index.d.ts without a JSDoc @example:\n{}", missing.join("\n"));
}

#[test]
fn the_checks_see_what_they_check() {
    assert!(declares_public_item("pub fn normalize(report: &FailureReport) -> Outcome {"));
    assert!(declares_public_item("    pub const fn spec(self) -> CapSpec {"));
    assert!(declares_public_item("    pub Origin {"));
    assert!(declares_public_item("pub const SCHEMA: &str = \"\";"));
    assert!(!declares_public_item("pub(crate) fn helper() {"));
    assert!(!declares_public_item("    pub code: String,"));
    assert!(!declares_public_item("pub use crate::json::Json;"));
    assert!(!declares_public_item("pub mod json;"));
    assert!(!declares_public_item("                pub fn $name(&self) -> $ret {"));
    let lines = ["/// Doc.", "///", "/// ```", "/// x", "/// ```", "#[derive(Clone)]", "// why", "pub struct S;"];
    assert_eq!(doc_above(&lines, 7).len(), 5);
    let ts = ["/**", " * Doc.", " * @example", " * f(1);", " */", "export function f(x: number): void;"];
    assert!(jsdoc_above(&ts, 5).is_some_and(|d| d.contains("@example")));
    // The npm package exports its functions and its class: the check found them.
    let text = std::fs::read_to_string(root().join("js-package/index.d.ts")).expect("index.d.ts is readable");
    assert!(text.lines().filter(|l| l.starts_with("export function ")).count() >= 10);
}
