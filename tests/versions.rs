//! One version for the project, and one contract version.
//!
//! The crates (`[workspace.package] version` in the root Cargo.toml), the npm package
//! (js-package/package.json and the top entries of its package-lock.json) and the WIT
//! package (`package codemode:errors@X;` in wit/codemode-errors.wit, and the places that
//! name it) carry the same version. The JSON Schema states the contract version the core
//! builds (`CONTRACT_VERSION`). CHANGELOG.md, when there is one, has a section for the
//! version or an "Unreleased" one. Every mismatch is reported with the file to change.

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("could not read {path}: {e}"))
}

/// A JSON string member for a message: quoted, or `nothing` when absent or not a string.
fn shown(value: Option<&str>) -> String {
    value.map_or_else(|| "nothing".to_owned(), |v| format!("{v:?}"))
}

fn json(path: &str) -> serde_json::Value {
    serde_json::from_str(&read(path)).unwrap_or_else(|e| panic!("{path} is not JSON: {e}"))
}

/// The `version` of the `[workspace.package]` table of the root Cargo.toml.
fn workspace_version() -> String {
    let cargo = read("Cargo.toml");
    let mut in_section = false;
    for line in cargo.lines().map(str::trim) {
        if line.starts_with('[') {
            in_section = line == "[workspace.package]";
            continue;
        }
        let Some(value) = line.strip_prefix("version").filter(|_| in_section) else { continue };
        let quoted = value.trim_start().strip_prefix('=').map(str::trim).and_then(|v| v.strip_prefix('"'));
        if let Some(v) = quoted.and_then(|v| v.split('"').next()) {
            return v.to_owned();
        }
    }
    panic!("Cargo.toml has no `version = \"...\"` in [workspace.package]: the project's version lives there");
}

/// Every version written after `codemode:errors@` in `text`.
fn wit_mentions(text: &str) -> Vec<String> {
    text.match_indices("codemode:errors@")
        .map(|(at, name)| {
            let rest = &text[at + name.len()..];
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '+')).unwrap_or(rest.len());
            rest[..end].trim_end_matches('.').to_owned()
        })
        .collect()
}

#[test]
fn one_version_and_one_contract_version() {
    let mut problems = Vec::new();
    let version = workspace_version();
    let fix_cargo = "the project's version is `[workspace.package] version` in Cargo.toml";

    // The crate as built agrees with the file (a stale build would not).
    if codemode_errors::VERSION != version {
        problems.push(format!("codemode_errors::VERSION is {} but Cargo.toml says {version}: rebuild", codemode_errors::VERSION));
    }

    // The npm package: package.json is generated from Cargo.toml, the lock file follows it.
    let package = json("js-package/package.json");
    match package["version"].as_str() {
        Some(v) if v == version => {}
        other => problems.push(format!(
            "js-package/package.json has version {}, want {version:?} ({fix_cargo}): run `node js-package/scripts/package-json.mjs --write`",
            shown(other)
        )),
    }
    let lock = json("js-package/package-lock.json");
    for (pointer, what) in [("/version", "\"version\""), ("/packages//version", "packages[\"\"].version")] {
        match lock.pointer(pointer).and_then(serde_json::Value::as_str) {
            Some(v) if v == version => {}
            other => problems.push(format!(
                "js-package/package-lock.json has {what} {}, want {version:?} ({fix_cargo}): change it there, or run `npm install --package-lock-only` in js-package/",
                shown(other)
            )),
        }
    }

    // The WIT package, and the places that name it.
    let wit = read("wit/codemode-errors.wit");
    let declared: Vec<&str> = wit
        .lines()
        .filter_map(|l| l.trim().strip_prefix("package codemode:errors@"))
        .map(|rest| rest.trim_end_matches(';').trim())
        .collect();
    if declared != [version.as_str()] {
        problems.push(format!(
            "wit/codemode-errors.wit declares `package codemode:errors@...;` as {declared:?}, want exactly [{version:?}] ({fix_cargo}): change the `package` line"
        ));
    }
    for file in ["README.md", "guest/src/lib.rs"] {
        for mention in wit_mentions(&read(file)) {
            if mention != version {
                problems.push(format!("{file} names `codemode:errors@{mention}`, want `codemode:errors@{version}`: change it in {file}"));
            }
        }
    }

    // The schema states the contract version the core writes.
    let contract = codemode_errors::CONTRACT_VERSION;
    let schema_path = format!("schema/code-mode-call-error.v{contract}.schema.json");
    if !root().join(&schema_path).exists() {
        problems.push(format!(
            "{schema_path} is missing: the schema file is named after codemode_errors::CONTRACT_VERSION ({contract}, src/wire/call_error.rs)"
        ));
    } else {
        let schema = json(&schema_path);
        let constant = schema.pointer("/properties/contract_version/const").and_then(serde_json::Value::as_u64);
        if constant != Some(u64::from(contract)) {
            problems.push(format!(
                "{schema_path} has properties.contract_version.const {constant:?}, but codemode_errors::CONTRACT_VERSION is {contract} (src/wire/call_error.rs): change the one that is wrong"
            ));
        }
        let title = schema["title"].as_str().unwrap_or_default();
        if !title.contains(&format!("(contract version {contract})")) {
            problems.push(format!("{schema_path} has title {title:?}: it should say \"(contract version {contract})\""));
        }
        if codemode_errors::SCHEMA != read(&schema_path) {
            problems.push(format!("codemode_errors::SCHEMA (src/lib.rs) does not include {schema_path}: point its include_str! there"));
        }
    }

    // The changelog, once there is one, has a section for this version or an unreleased one.
    if root().join("CHANGELOG.md").exists() {
        let changelog = read("CHANGELOG.md");
        let has_section = changelog.lines().filter(|l| l.starts_with('#')).any(|heading| {
            let heading = heading.to_ascii_lowercase();
            heading.contains("unreleased")
                || heading
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
                    .any(|word| word.trim_start_matches('v') == version)
        });
        if !has_section {
            problems.push(format!("CHANGELOG.md has no `## {version}` (or `## Unreleased`) section: add one"));
        }
    }

    assert!(problems.is_empty(), "the project's versions disagree:\n- {}", problems.join("\n- "));
}
