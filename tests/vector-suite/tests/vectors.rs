//! The shared test vectors (`tests/vectors/<group>/<name>.json`, format in
//! `tests/vectors/README.md`) against the native core: the `native-core` surface of
//! `tests/vectors/gaps.json`.
//!
//! - `cargo test -p codemode-errors-vectors --test vectors`: every vector's output must
//!   equal its `expected` byte for byte (compact serialization, keys in the order
//!   written), or its `expected_error`. Every `expected.error` and every error the core
//!   emits must validate against the reference schema of contract version 1
//!   (`schema/reference/`) and against our own schema. Every MCP value in a report must
//!   validate against the MCP 2026-07-28 schema, or be off-schema as declared.
//! - `BLESS=1` (`cargo xtask bless`): rewrite `expected` / `expected_error` from the
//!   native core instead (pretty, 2-space indent, key order kept). Review the diff.
//! - `VECTORS_FILTER=<substring>`: only the vectors whose name contains it (for both
//!   checking and blessing).

use std::fmt::Write as _;

use codemode_errors::{normalize_json, parse_call_error, Normalizer, Policy, ReportError};
use codemode_errors_vectors::{filter_from_env, mcp_definition, Expected, Form, Suite, Tally, Vector, MCP_MEMBERS, MIN_VECTORS};
use serde_json::{Map, Value};

const SURFACE: &str = "native-core";

/// The contract's reference schema and ours, embedded like the vectors.
const REFERENCE_SCHEMA: &str = include_str!("../../../schema/reference/reference-code-mode-call-error-v1.schema.json");
const OUR_SCHEMA: &str = include_str!("../../../schema/code-mode-call-error.v1.schema.json");

/// The vendored MCP schemas (`tests/mcp-schema/`), by protocol version.
const MCP_SCHEMAS: &[(&str, &str)] = &[
    ("2025-06-18", include_str!("../../mcp-schema/2025-06-18.schema.json")),
    ("2025-11-25", include_str!("../../mcp-schema/2025-11-25.schema.json")),
    ("2026-07-28", include_str!("../../mcp-schema/2026-07-28.schema.json")),
];

/// The version every MCP value is checked against.
const MCP_VERSION: &str = "2026-07-28";

fn json(text: &str, what: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{what} is not JSON: {e}"))
}

struct Schemas {
    reference: jsonschema::Validator,
    ours: jsonschema::Validator,
}

impl Schemas {
    fn load() -> Self {
        Schemas {
            reference: jsonschema::validator_for(&json(REFERENCE_SCHEMA, "the reference schema")).expect("reference schema compiles"),
            ours: jsonschema::validator_for(&json(OUR_SCHEMA, "our schema")).expect("our schema compiles"),
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

/// Put `value` under `key`, keeping the key's position when it exists, else appended;
/// `other` is removed keeping the order of the rest.
fn set_outcome(vector: &mut Map<String, Value>, key: &str, other: &str, value: Value) {
    vector.shift_remove(other);
    match vector.get_mut(key) {
        Some(slot) => *slot = value,
        None => {
            vector.insert(key.to_owned(), value);
        }
    }
}

/// Rewrite the vector's file with the core's answer (the embedded copy is only read).
fn bless(vector: &Vector, answer: Result<Value, &ReportError>) -> Result<(), String> {
    let mut document = vector.document.clone();
    let map = document.as_object_mut().expect("a vector is an object");
    match answer {
        Ok(value) => set_outcome(map, "expected", "expected_error", value),
        Err(e) => set_outcome(map, "expected_error", "expected", error_value(e)),
    }
    let mut text = serde_json::to_string_pretty(&document).expect("vector serializes");
    text.push('\n');
    let path = vector.path();
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `{"code", "path"}` of a typed error, as vectors record it.
fn error_value(e: &ReportError) -> Value {
    let mut err = Map::new();
    err.insert("code".into(), Value::String(e.code().as_str().into()));
    err.insert("path".into(), Value::String(e.path().into()));
    Value::Object(err)
}

/// What differs between the expectation and the core's answer (`Ok`: its JSON), if anything.
fn compare(expected: &Expected, answer: Result<String, &ReportError>, problems: &mut Vec<String>) {
    match (expected, answer) {
        (Expected::Outcome(want), Ok(got)) if *want != got => problems.push(first_difference(want, &got)),
        (Expected::Outcome(_), Ok(_)) => {}
        (Expected::Outcome(_), Err(e)) => {
            problems.push(format!("expected an outcome, got the error {} at {:?}: {}", e.code(), e.path(), e.message()))
        }
        (Expected::Error { code, path }, Ok(json)) => problems.push(format!("expected the error {code} at {path:?}, got {json}")),
        (Expected::Error { code, path }, Err(e)) if e.code().as_str() != code || e.path() != path => {
            problems.push(format!("expected the error {code} at {path:?}, got {} at {:?}: {}", e.code(), e.path(), e.message()))
        }
        (Expected::Error { .. }, Err(_)) => {}
    }
}

fn result(problems: Vec<String>) -> Result<(), String> {
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n    "))
    }
}

/// The text form: a failure report through `Normalizer::normalize_json` (and the free
/// `normalize_json`, which must agree).
fn run_report(vector: &Vector, bless_it: bool, schemas: &Schemas) -> Result<(), String> {
    let policy = match vector.policy.as_deref().map(Policy::from_json).transpose() {
        Ok(policy) => policy.unwrap_or_default(),
        // A refused policy is the answer: the vector states the refusal.
        Err(e) if bless_it => return bless(vector, Err(&e)),
        Err(e) => {
            let mut problems = Vec::new();
            compare(vector.expected(), Err(&e), &mut problems);
            return result(problems);
        }
    };
    let max_error_bytes = policy.max_error_bytes();
    let input = vector.input.text();
    let describe = |e: &ReportError| format!("{} at {:?}: {}", e.code(), e.path(), e.message());
    let free = normalize_json(input, &policy).map(|o| o.to_json()).map_err(|e| describe(&e));
    let result = Normalizer::new(policy.clone()).normalize_json(input);
    let mut problems = Vec::new();
    let ours = result.as_ref().map(|o| o.to_json()).map_err(describe);
    if free != ours {
        problems.push(format!("the free normalize_json and Normalizer::normalize_json disagree: {free:?} and {ours:?}"));
    }

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
            // The consumer reads it back to the same bytes (struct equality is a property
            // test): the normalizer's own reader always, and the free reader, which knows
            // no policy, unless the policy lets pass what it would redact (an allowlist).
            let reader = Normalizer::new(policy.clone());
            let mut readers = vec![("Normalizer::parse_call_error", reader.parse_call_error(&json))];
            if policy.allow().is_empty() && policy.allow_keys().is_empty() {
                readers.push(("parse_call_error", parse_call_error(&json)));
            }
            for (name, read) in readers {
                match read {
                    Ok(back) if back.to_json() == json => {}
                    Ok(back) => problems.push(format!("{name} does not round-trip: {}", first_difference(&json, &back.to_json()))),
                    Err(e) => problems.push(format!("{name} refused the native output: {e}")),
                }
            }
        }
    }

    if bless_it {
        bless(vector, result.as_ref().map(|o| serde_json::from_str(&o.to_json()).expect("outcome is JSON")))?;
        return self::result(problems);
    }

    if let Some(error @ Value::Object(_)) = vector.document.get("expected").and_then(|e| e.get("error")) {
        for p in schemas.problems(error) {
            problems.push(format!("expected.error violates {p}"));
        }
        let size = serde_json::to_string(error).expect("error serializes").len();
        if size > max_error_bytes {
            problems.push(format!("expected.error is {size} bytes, over max_error_bytes {max_error_bytes}"));
        }
    }
    compare(vector.expected(), result.as_ref().map(|o| o.to_json()), &mut problems);
    self::result(problems)
}

/// The run-text form: a run report through `classify_run_json`; `expected` is the run
/// error's compact JSON.
fn run_run(vector: &Vector, bless_it: bool, schemas: &Schemas) -> Result<(), String> {
    let result = codemode_errors::run::classify_run_json(vector.input.text());
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
    if bless_it {
        bless(vector, result.as_ref().map(|end| serde_json::from_str(&end.to_json()).expect("run error is JSON")))?;
    } else {
        compare(vector.expected(), result.as_ref().map(|e| e.to_json()), &mut problems);
    }
    self::result(problems)
}

/// The exec form: an executor step through `exec_step_json`; `expected` is its answer.
fn run_exec(vector: &Vector, bless_it: bool) -> Result<(), String> {
    let result = codemode_errors::run::exec_step_json(vector.input.text());
    let mut problems = Vec::new();
    if bless_it {
        bless(vector, result.as_ref().map(|answer| serde_json::from_str(answer).expect("a step's answer is JSON")))?;
    } else {
        compare(vector.expected(), result.as_ref().map(String::to_owned), &mut problems);
    }
    self::result(problems)
}

#[test]
fn vectors() {
    let bless = std::env::var("BLESS").is_ok_and(|v| !v.is_empty() && v != "0");
    let filter = filter_from_env();
    let suite = if bless { Suite::load_to_bless() } else { Suite::load() }.unwrap_or_else(|e| panic!("{e}"));
    let schemas = Schemas::load();

    let mut tally = Tally::new(&suite, SURFACE, filter.is_some());
    let mut per_group: std::collections::BTreeMap<&str, usize> = Default::default();
    let mut blessed = 0;
    let mut failed = Vec::new();
    for vector in suite.selected(filter.as_deref()) {
        *per_group.entry(vector.group()).or_default() += 1;
        for form in tally.forms(vector) {
            let outcome = match form {
                Form::Text => run_report(vector, bless, &schemas),
                Form::RunText => run_run(vector, bless, &schemas),
                Form::Exec => run_exec(vector, bless),
                other => unreachable!("gaps.json gives {SURFACE} the {other} form, which this runner has no entry point for"),
            };
            if bless {
                match &outcome {
                    Ok(()) => blessed += 1,
                    Err(why) => failed.push(format!("FAILED {} [{form}]\n    {why}", vector.name)),
                }
            }
            tally.record(vector, form, outcome);
        }
    }
    let groups: Vec<String> = per_group.iter().map(|(g, n)| format!("{g}: {n}")).collect();
    eprintln!("vector groups: {}", groups.join(", "));
    if filter.is_none() {
        assert!(suite.vectors.len() >= MIN_VECTORS, "only {} vectors; the suite needs at least {MIN_VECTORS}", suite.vectors.len());
    }
    if bless {
        // Blessing writes what the core answers; only problems beyond the answer (schema,
        // round trip, caps) are reported.
        println!("vectors: {blessed} blessed, {} failed", failed.len());
        assert!(failed.is_empty(), "{}", failed.join("\n"));
        return;
    }
    match tally.finish() {
        Ok(summary) => eprintln!("{summary}"),
        Err(report) => panic!("{report}"),
    }
}

/// A JSON Schema for the definition at `pointer` (`#/$defs/...`) of an MCP schema.
fn mcp_validator(schema: &Value, pointer: &str) -> jsonschema::Validator {
    let mut root = schema.clone();
    root.as_object_mut().expect("an MCP schema is an object").insert("$ref".into(), Value::String(pointer.into()));
    jsonschema::validator_for(&root).unwrap_or_else(|e| panic!("the MCP schema's {pointer} compiles: {e}"))
}

#[test]
fn every_mcp_value_has_the_mcp_shape() {
    // Each MCP value in a report must validate against the 2026-07-28 schema, except the
    // deliberately malformed ones, which must not: the tool result of a decode_error
    // vector, and what off-schema.json declares (with, for `valid_in`, a check against that
    // older schema). So the test fails both ways.
    if std::env::var("BLESS").is_ok_and(|v| !v.is_empty() && v != "0") {
        // Blessing rewrites outcomes, not inputs; the next plain run checks them (against
        // the outcomes blessed, which decide the decode_error rule).
        return;
    }
    let suite = Suite::load().unwrap_or_else(|e| panic!("{e}"));
    let filter = filter_from_env();
    let schemas: Vec<(&str, Value)> = MCP_SCHEMAS.iter().map(|(v, text)| (*v, json(text, v))).collect();
    let schema = |version: &str| -> Option<&Value> { schemas.iter().find(|(v, _)| *v == version).map(|(_, s)| s) };
    let current = schema(MCP_VERSION).expect("the current MCP schema is vendored");
    let mut validators: std::collections::BTreeMap<(&str, &str), jsonschema::Validator> = Default::default();
    let mut validate = |version: &'static str, pointer: &'static str, value: &Value| -> Vec<String> {
        let schema = if version == MCP_VERSION { current } else { schema(version).expect("checked below") };
        let validator = validators.entry((version, pointer)).or_insert_with(|| mcp_validator(schema, pointer));
        validator.iter_errors(value).map(|e| format!("at {}: {e}", e.instance_path())).collect()
    };

    let mut problems = Vec::new();
    let mut checked = 0;
    let mut off_schema = 0;
    let mut used = std::collections::BTreeSet::new();
    for vector in suite.selected(filter.as_deref()) {
        let Some(report) = vector.report_value() else { continue };
        for member in MCP_MEMBERS {
            let Some(value) = report.get(*member) else { continue };
            let pointer = mcp_definition(member, value).expect("an MCP member");
            checked += 1;
            let declared = suite.off_schema(&vector.name, member);
            let by_rule = *member == "tool_result" && vector.expected_kind() == Some("decode_error");
            let errors = validate(MCP_VERSION, pointer, value);
            match (declared.is_some() || by_rule, errors.is_empty()) {
                (false, false) => problems.push(format!(
                    "{} {member} is not a valid MCP {MCP_VERSION} value ({pointer}); fix the input, or declare it in off-schema.json:\n    {}",
                    vector.name,
                    errors.join("\n    ")
                )),
                (true, true) => problems.push(format!(
                    "{} {member} is declared off-schema ({}) but validates against MCP {MCP_VERSION} ({pointer})",
                    vector.name,
                    declared.map_or("its outcome is a decode_error", |d| d.reason.as_str())
                )),
                (true, false) => off_schema += 1,
                (false, true) => {}
            }
            let Some(d) = declared else { continue };
            used.insert((d.vector.clone(), d.member.clone()));
            let Some(version) = &d.valid_in else { continue };
            match MCP_SCHEMAS.iter().find(|(v, _)| v == version) {
                None => problems.push(format!("{}: valid_in {version:?} is not a vendored MCP schema", vector.name)),
                Some((version, _)) => {
                    let errors = validate(version, pointer, value);
                    if !errors.is_empty() {
                        problems.push(format!(
                            "{} {member} is declared valid in MCP {version} ({pointer}) but is not:\n    {}",
                            vector.name,
                            errors.join("\n    ")
                        ));
                    }
                }
            }
        }
    }
    if filter.is_none() {
        for d in &suite.off_schema {
            if !used.contains(&(d.vector.clone(), d.member.clone())) {
                problems.push(format!("off-schema.json declares {} {}, which was not checked", d.vector, d.member));
            }
        }
    }
    let mut report = String::new();
    for p in &problems {
        let _ = writeln!(report, "{p}");
    }
    eprintln!("MCP values: {checked} checked against MCP {MCP_VERSION}, {off_schema} of them off-schema as declared");
    assert!(problems.is_empty(), "{} problems with MCP values:\n{report}", problems.len());
}
