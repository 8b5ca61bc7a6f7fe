//! Publish readiness, checked by `cargo xtask test` after the surfaces' tests.
//!
//! - The core crate `codemode-errors` (the one crate meant for crates.io) packages only
//!   what it builds from and its docs, and builds from that package alone
//!   (`cargo package`, whose verify step compiles the unpacked crate).
//! - The docs of the core and the host build without a warning (`-D warnings`: a missing
//!   doc comment, a broken or private intra-doc link).
//! - The npm package holds what a user needs and nothing else: `dist/`, `index.d.ts`,
//!   `README.md`, `package.json` and the license files, read from `npm publish --dry-run`.
//!   It runs after the package's build (`js::test` builds `dist/`).

use std::path::Path;
use std::process::Command;

use crate::util::{output, run, Ctx, Result};

const CRATE: &str = "codemode-errors";

/// The license texts both packages carry, at the workspace root and copied in js-package/.
const LICENSES: &[&str] = &["LICENSE-MIT", "LICENSE-APACHE"];

/// Every publish-readiness check; fails on the first problem, naming what to change.
pub fn check(ctx: &Ctx) -> Result {
    let crate_files = crate_package(ctx)?;
    docs(ctx)?;
    let npm_files = npm_package(ctx)?;
    eprintln!("publish: the crate packages {crate_files} files and builds from them; the docs build without warnings; the npm package holds {npm_files} files");
    Ok(())
}

/// The crate's file list, checked, then `cargo package` with its verify build. Returns the
/// number of files.
fn crate_package(ctx: &Ctx) -> Result<usize> {
    // `--allow-dirty`: a developer runs the tests before committing. The warnings cargo
    // prints for the tests and examples the package leaves out are expected (`--quiet`).
    let package = |extra: &[&str]| {
        let mut c = ctx.cargo();
        c.args(["package", "--package", CRATE, "--allow-dirty", "--quiet"]).args(extra);
        c
    };
    let list = output(&mut package(&["--list"]))?;
    let files: Vec<&str> = list.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let stray: Vec<&str> = files.iter().copied().filter(|f| !crate_file_allowed(f)).collect();
    if !stray.is_empty() {
        return Err(format!(
            "`cargo package -p {CRATE}` would publish files the crate does not need: {}; narrow `include` in the root Cargo.toml",
            stray.join(", ")
        ));
    }
    let needed = ["Cargo.toml", "src/lib.rs", "README.md", "schema/code-mode-call-error.v1.schema.json", LICENSES[0], LICENSES[1]];
    let missing: Vec<&str> = needed.into_iter().filter(|n| !files.contains(n)).collect();
    if !missing.is_empty() {
        return Err(format!("`cargo package -p {CRATE}` leaves out {}; add it to `include` in the root Cargo.toml", missing.join(", ")));
    }
    run(&mut package(&[]))?;
    Ok(files.len())
}

/// What the crate's package may hold: its sources, the schema `SCHEMA` includes, the bench
/// target's sources, the docs and licenses, and what cargo adds itself.
fn crate_file_allowed(file: &str) -> bool {
    const TOP: &[&str] = &[
        "Cargo.toml",
        "Cargo.toml.orig",
        "Cargo.lock",
        ".cargo_vcs_info.json",
        "README.md",
        "CHANGELOG.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
    ];
    TOP.contains(&file)
        || (file.starts_with("src/") && file.ends_with(".rs"))
        || (file.starts_with("benches/") && (file.ends_with(".rs") || file == "benches/gitleaks-rules.tsv"))
        || (file.starts_with("schema/") && !file["schema/".len()..].contains('/') && file.ends_with(".schema.json"))
}

/// `cargo doc` for the core and the host with every rustdoc warning an error.
fn docs(ctx: &Ctx) -> Result {
    let flags = match std::env::var("RUSTDOCFLAGS") {
        Ok(flags) if !flags.trim().is_empty() => format!("{flags} -D warnings"),
        _ => "-D warnings".to_owned(),
    };
    run(ctx
        .cargo()
        .args(["doc", "--no-deps", "--quiet", "--package", CRATE, "--package", "codemode-errors-host"])
        .env("RUSTDOCFLAGS", flags))
}

/// `npm publish --dry-run` in js-package/, its file list checked. Returns the number of
/// files.
fn npm_package(ctx: &Ctx) -> Result<usize> {
    let pkg = ctx.root.join("js-package");
    for license in LICENSES {
        same_file(&ctx.root.join(license), &pkg.join(license))?;
    }
    let report = output(Command::new("npm").args(["publish", "--dry-run", "--json"]).current_dir(&pkg))?;
    let files = json_strings_of(&report, "path");
    if files.is_empty() {
        return Err(format!("`npm publish --dry-run --json` in js-package/ listed no files:\n{report}"));
    }
    let stray: Vec<&str> = files.iter().map(String::as_str).filter(|f| !npm_file_allowed(f)).collect();
    if !stray.is_empty() {
        return Err(format!(
            "the npm package would publish files a user does not need: {}; narrow `files` in js-package/scripts/package-json.mjs (then `node scripts/package-json.mjs --write`)",
            stray.join(", ")
        ));
    }
    if !files.iter().any(|f| f.starts_with("dist/")) {
        return Err("the npm package has no dist/: build it first (`cargo xtask build-js`)".into());
    }
    let needed = [
        "package.json",
        "README.md",
        "index.d.ts",
        LICENSES[0],
        LICENSES[1],
        "dist/codemode_errors_js_bg.wasm",
        "dist/cjs/index.js",
        "dist/esm/index.js",
        "dist/deno/index.js",
    ];
    let missing: Vec<&str> = needed.into_iter().filter(|n| !files.iter().any(|f| f == n)).collect();
    if !missing.is_empty() {
        return Err(format!(
            "the npm package leaves out {}; see `files` in js-package/scripts/package-json.mjs and the build (`cargo xtask build-js`)",
            missing.join(", ")
        ));
    }
    Ok(files.len())
}

/// What the npm package may hold.
fn npm_file_allowed(file: &str) -> bool {
    file.starts_with("dist/") || ["package.json", "README.md", "index.d.ts", LICENSES[0], LICENSES[1]].contains(&file)
}

/// Fails unless `copy` holds the same bytes as `original`.
fn same_file(original: &Path, copy: &Path) -> Result {
    let read = |p: &Path| std::fs::read(p).map_err(|e| format!("could not read {}: {e}", p.display()));
    if read(original)? != read(copy)? {
        let (original, copy) = (original.display(), copy.display());
        return Err(format!("{copy} differs from {original}: copy it over (`cp {original} {copy}`)"));
    }
    Ok(())
}

/// The string values of every member named `key` in the JSON text `json`, wherever they
/// nest (the xtask has no JSON dependency; npm's report is plain, machine-written JSON).
fn json_strings_of(json: &str, key: &str) -> Vec<String> {
    let mut values = Vec::new();
    let mut rest = json;
    while let Some((string, after)) = string_literal(rest) {
        rest = after;
        // A member name is a literal followed by `:`; anything else is a value or an item.
        let Some(value) = after.trim_start().strip_prefix(':') else { continue };
        if string == key && value.trim_start().starts_with('"') {
            if let Some((value, after)) = string_literal(value) {
                values.push(value);
                rest = after;
            }
        }
    }
    values
}

/// The first JSON string literal in `text`, unescaped, and the text after it.
fn string_literal(text: &str) -> Option<(String, &str)> {
    let start = text.find('"')? + 1;
    let mut chars = text[start..].char_indices();
    let mut out = String::new();
    loop {
        let (i, c) = chars.next()?;
        match c {
            '"' => return Some((out, &text[start + i + 1..])),
            '\\' => match chars.next()?.1 {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'b' => out.push('\u{8}'),
                'f' => out.push('\u{c}'),
                'u' => {
                    let hex: String = (0..4).filter_map(|_| chars.next().map(|(_, h)| h)).collect();
                    out.push(u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32).unwrap_or('\u{fffd}'));
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_paths_of_npms_report() {
        let report = r#"{"codemode-errors": {"id": "codemode-errors@0.2.0", "path": 1, "files": [
            {"path": "LICENSE-MIT", "size": 1082, "mode": 420},
            {"mode": 420, "path": "dist/esm/a \"b\".js"},
            {"path":"dist/\u00e9.js"}], "bundled": ["path"]}}"#;
        assert_eq!(json_strings_of(report, "path"), ["LICENSE-MIT", "dist/esm/a \"b\".js", "dist/é.js"]);
    }

    #[test]
    fn allows_only_what_the_packages_need() {
        for file in
            ["src/lib.rs", "src/text/scan/mod.rs", "benches/inputs.rs", "schema/code-mode-call-error.v1.schema.json", "Cargo.toml.orig"]
        {
            assert!(crate_file_allowed(file), "{file}");
        }
        for file in ["tests/versions.rs", "docs/contract.md", "schema/reference/README.md", "src/notes.md", "fuzz/Cargo.toml"] {
            assert!(!crate_file_allowed(file), "{file}");
        }
        for file in ["dist/cjs/index.js", "index.d.ts", "LICENSE-APACHE"] {
            assert!(npm_file_allowed(file), "{file}");
        }
        for file in ["src/index.js", "test/api.test.mjs", "bench/bench.mjs", "scripts/build.mjs", "Cargo.toml"] {
            assert!(!npm_file_allowed(file), "{file}");
        }
    }
}
