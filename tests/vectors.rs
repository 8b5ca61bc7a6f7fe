//! The shared test vectors (`tests/vectors/<group>/<name>.json`, format in
//! `tests/vectors/README.md`) run against the native core.
//!
//! - `cargo test --test vectors`: every vector's output must equal its `expected` byte for
//!   byte (compact serialization, keys in the order written), or its `expected_error`.
//!   Every `expected.error` must validate against the reference schema of contract
//!   version 1 (`schema/reference/`) and against our own schema.
//! - `BLESS=1 cargo test --test vectors`: rewrite `expected` / `expected_error` from the
//!   native core instead (pretty, 2-space indent, key order kept). Review the diff.
//! - `VECTORS_FILTER=<substring>`: only the vectors whose relative path contains it (for
//!   both checking and blessing).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use codemode_errors::{parse_call_error, Normalizer, Policy, ReportError};
use serde_json::{Map, Value};

/// Fewest vectors the suite accepts.
const MIN_VECTORS: usize = 80;

/// Top-level keys a vector may have, in the order the README lists them.
const VECTOR_KEYS: &[&str] = &["description", "policy", "report", "report_text", "run", "expected", "expected_error"];

fn crate_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn vector_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            vector_files(&path, out);
        } else if path.file_name().is_some_and(|n| n == "README.md") {
            continue;
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        } else {
            panic!("unexpected file among the vectors (only <group>/<name>.json and README.md): {}", path.display());
        }
    }
}

struct Schemas {
    reference: jsonschema::Validator,
    ours: jsonschema::Validator,
}

impl Schemas {
    fn load() -> Self {
        let read = |path: PathBuf| -> Value {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read schema {}: {e}", path.display()));
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("schema {} is not JSON: {e}", path.display()))
        };
        let reference = read(crate_root().join("schema/reference/reference-code-mode-call-error-v1.schema.json"));
        let ours = read(crate_root().join("schema/code-mode-call-error.v1.schema.json"));
        Schemas {
            reference: jsonschema::validator_for(&reference).expect("reference schema compiles"),
            ours: jsonschema::validator_for(&ours).expect("our schema compiles"),
        }
    }

    /// Every schema violation of `error`, described; empty when it conforms to both.
    fn problems(&self, error: &Value) -> Vec<String> {
        let mut out = Vec::new();
        for (name, v) in [("reference schema", &self.reference), ("our schema", &self.ours)] {
            for e in v.iter_errors(error) {
                out.push(format!("{name}: at {}: {e}", e.instance_path()));
            }
        }
        out
    }
}

/// Where two strings first differ, with some context from each.
fn first_difference(expected: &str, actual: &str) -> String {
    let at = expected.bytes().zip(actual.bytes()).take_while(|(a, b)| a == b).count();
    let window = |s: &str| {
        let mut start = at.saturating_sub(80);
        while !s.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (at + 160).min(s.len());
        while !s.is_char_boundary(end) {
            end += 1;
        }
        s.get(start..end).unwrap_or("").to_owned()
    };
    format!(
        "first difference at byte {at} (expected {} bytes, got {}):\n      expected: …{}…\n      actual:   …{}…",
        expected.len(),
        actual.len(),
        window(expected),
        window(actual)
    )
}

fn write_pretty(path: &Path, vector: &Value) {
    let mut text = serde_json::to_string_pretty(vector).expect("vector serializes");
    text.push('\n');
    std::fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// Put `value` under `key`, keeping the key's position when it exists, else before
/// nothing (appended); `other` is removed keeping the order of the rest.
fn set_outcome(vector: &mut Map<String, Value>, key: &str, other: &str, value: Value) {
    vector.shift_remove(other);
    match vector.get_mut(key) {
        Some(slot) => *slot = value,
        None => {
            vector.insert(key.to_owned(), value);
        }
    }
}

/// Run one vector; `Err` describes every way it failed.
fn run_vector(path: &Path, text: &str, bless: bool, schemas: &Schemas) -> Result<(), String> {
    let mut vector: Value = serde_json::from_str(text).map_err(|e| format!("the vector is not JSON: {e}"))?;
    let object = vector.as_object().ok_or("the vector is not a JSON object")?;
    for key in object.keys() {
        if !VECTOR_KEYS.contains(&key.as_str()) {
            return Err(format!("unknown top-level key {key:?}; expected {VECTOR_KEYS:?}"));
        }
    }
    match object.get("description") {
        Some(Value::String(s)) if !s.trim().is_empty() => {}
        _ => return Err("`description` (a non-empty string naming the rule) is required".into()),
    }
    if let Some(run) = object.get("run") {
        return run_run_vector(path, &vector.clone(), run, bless, schemas);
    }
    let input = match (object.get("report"), object.get("report_text")) {
        (Some(report), None) => serde_json::to_string(report).expect("report serializes"),
        (None, Some(Value::String(t))) => t.clone(),
        (None, Some(_)) => return Err("`report_text` must be a string".into()),
        _ => return Err("exactly one of `report` and `report_text` is required".into()),
    };
    let policy = match object.get("policy") {
        None => Policy::default(),
        Some(p) => Policy::from_json(&serde_json::to_string(p).expect("policy serializes"))
            .map_err(|e| format!("the vector's policy is invalid: {e}"))?,
    };
    let has_expected = object.contains_key("expected");
    let has_error = object.contains_key("expected_error");
    if !bless && has_expected == has_error {
        return Err("exactly one of `expected` and `expected_error` is required".into());
    }

    let max_error_bytes = policy.max_error_bytes();
    let result = Normalizer::new(policy).normalize_json(&input);
    let mut problems = Vec::new();

    // The native error object must always conform to both schemas and read back equal.
    if let Ok(outcome) = &result {
        if let Some(error) = &outcome.error {
            let json = error.to_json();
            if json.len() > max_error_bytes {
                problems.push(format!("the native error is {} bytes, over max_error_bytes {max_error_bytes}", json.len()));
            }
            let value: Value = serde_json::from_str(&json).map_err(|e| format!("the core emitted invalid JSON: {e}"))?;
            for p in schemas.problems(&value) {
                problems.push(format!("native output violates {p}"));
            }
            // The consumer reads it back to the same bytes (struct equality is a property test).
            match parse_call_error(&json) {
                Ok(back) if back.to_json() == json => {}
                Ok(back) => problems.push(format!("parse_call_error does not round-trip: {}", first_difference(&json, &back.to_json()))),
                Err(e) => problems.push(format!("parse_call_error refused the native output: {e}")),
            }
        }
    }

    if bless {
        let map = vector.as_object_mut().expect("checked above");
        match &result {
            Ok(outcome) => {
                let value: Value = serde_json::from_str(&outcome.to_json()).expect("outcome is JSON");
                set_outcome(map, "expected", "expected_error", value);
            }
            Err(e) => set_outcome(map, "expected_error", "expected", error_value(e)),
        }
        write_pretty(path, &vector);
        return if problems.is_empty() { Ok(()) } else { Err(problems.join("\n    ")) };
    }

    let object = vector.as_object().expect("checked above");
    if let Some(expected) = object.get("expected") {
        match expected.get("error") {
            Some(Value::Null) => {}
            Some(error @ Value::Object(_)) => {
                for p in schemas.problems(error) {
                    problems.push(format!("expected.error violates {p}"));
                }
                let size = serde_json::to_string(error).expect("error serializes").len();
                if size > max_error_bytes {
                    problems.push(format!("expected.error is {size} bytes, over max_error_bytes {max_error_bytes}"));
                }
            }
            _ => problems.push("`expected.error` must be an object or null".into()),
        }
        let want = serde_json::to_string(expected).expect("expected serializes");
        match &result {
            Ok(outcome) => {
                let got = outcome.to_json();
                if got != want {
                    problems.push(first_difference(&want, &got));
                }
            }
            Err(e) => problems.push(format!("expected an outcome, got the error {} at {:?}: {}", e.code(), e.path(), e.message())),
        }
    } else if let Some(expected_error) = object.get("expected_error") {
        problems.extend(expected_error_problem(expected_error, result.as_ref().map(|o| o.to_json()))?);
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n    "))
    }
}

/// `{"code", "path"}` of a typed error, as vectors record it.
fn error_value(e: &ReportError) -> Value {
    let mut err = Map::new();
    err.insert("code".into(), Value::String(e.code().as_str().into()));
    err.insert("path".into(), Value::String(e.path().into()));
    Value::Object(err)
}

/// What differs between a vector's `expected_error` and the core's answer (`Ok`: the JSON
/// it produced instead), if anything.
fn expected_error_problem(expected_error: &Value, answer: Result<String, &ReportError>) -> Result<Option<String>, String> {
    let code = expected_error.get("code").and_then(Value::as_str).ok_or("`expected_error.code` must be a string")?;
    let at = expected_error.get("path").and_then(Value::as_str).ok_or("`expected_error.path` must be a string")?;
    Ok(match answer {
        Ok(json) => Some(format!("expected the error {code} at {at:?}, got {json}")),
        Err(e) if e.code().as_str() != code || e.path() != at => {
            Some(format!("expected the error {code} at {at:?}, got {} at {:?}: {}", e.code(), e.path(), e.message()))
        }
        Err(_) => None,
    })
}

/// A run-level vector: `run` is a run report (`codemode_errors::run::RunReport`),
/// `expected` the terminal error's compact JSON or `expected_error` the typed error.
fn run_run_vector(path: &Path, vector: &Value, run: &Value, bless: bool, schemas: &Schemas) -> Result<(), String> {
    let object = vector.as_object().ok_or("the vector is not a JSON object")?;
    if ["report", "report_text", "policy"].iter().any(|k| object.contains_key(*k)) {
        return Err("a `run` vector takes no `report`, `report_text` or `policy`".into());
    }
    let input = serde_json::to_string(run).expect("run serializes");
    let result = codemode_errors::run::classify_run_json(&input);
    let mut problems = Vec::new();
    if let Ok(end) = &result {
        // The nested tool error is a contract object like any other.
        let value: Value = serde_json::from_str(&end.to_json()).map_err(|e| format!("the core emitted invalid JSON: {e}"))?;
        if let Some(error) = value.get("toolError") {
            for p in schemas.problems(error) {
                problems.push(format!("native toolError violates {p}"));
            }
        }
    }
    if bless {
        let mut vector = vector.clone();
        let map = vector.as_object_mut().expect("checked above");
        match &result {
            Ok(end) => set_outcome(map, "expected", "expected_error", serde_json::from_str(&end.to_json()).expect("run error is JSON")),
            Err(e) => set_outcome(map, "expected_error", "expected", error_value(e)),
        }
        write_pretty(path, &vector);
    } else if let Some(expected) = object.get("expected") {
        let want = serde_json::to_string(expected).expect("expected serializes");
        match &result {
            Ok(end) if end.to_json() != want => problems.push(first_difference(&want, &end.to_json())),
            Ok(_) => {}
            Err(e) => problems.push(format!("expected a run error, got the error {} at {:?}: {}", e.code(), e.path(), e.message())),
        }
    } else if let Some(expected_error) = object.get("expected_error") {
        problems.extend(expected_error_problem(expected_error, result.as_ref().map(|e| e.to_json()))?);
    } else {
        problems.push("exactly one of `expected` and `expected_error` is required".into());
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n    "))
    }
}

#[test]
fn vectors() {
    let root = crate_root().join("tests/vectors");
    let bless = std::env::var("BLESS").is_ok_and(|v| !v.is_empty() && v != "0");
    let filter = std::env::var("VECTORS_FILTER").ok().filter(|f| !f.is_empty());
    let schemas = Schemas::load();

    let mut files = Vec::new();
    vector_files(&root, &mut files);
    let mut passed = 0;
    let mut failures = Vec::new();
    let mut per_group: std::collections::BTreeMap<String, usize> = Default::default();
    for path in &files {
        let rel = path.strip_prefix(&root).unwrap_or(path).to_string_lossy().replace('\\', "/");
        if filter.as_ref().is_some_and(|f| !rel.contains(f.as_str())) {
            continue;
        }
        *per_group.entry(rel.split('/').next().unwrap_or("").to_owned()).or_default() += 1;
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        match run_vector(path, &text, bless, &schemas) {
            Ok(()) => passed += 1,
            Err(why) => failures.push((rel, why)),
        }
    }

    let mut report = String::new();
    for (rel, why) in &failures {
        let _ = writeln!(report, "FAILED {rel}\n    {why}");
    }
    let groups: Vec<String> = per_group.iter().map(|(g, n)| format!("{g}: {n}")).collect();
    eprintln!("{report}vector groups: {}", groups.join(", "));
    let verb = if bless { "blessed" } else { "passed" };
    println!("vectors: {passed} {verb}, {} failed", failures.len());
    eprintln!("vectors: {passed} {verb}, {} failed", failures.len());
    if filter.is_none() {
        assert!(files.len() >= MIN_VECTORS, "only {} vectors; the suite needs at least {MIN_VECTORS}", files.len());
    }
    assert!(failures.is_empty(), "{} of {} vectors failed:\n{report}", failures.len(), passed + failures.len());
}
