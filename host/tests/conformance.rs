//! Every vector in `tests/vectors/` (format: `tests/vectors/README.md`) through the
//! component, and through the native engine of this crate: the outcome's JSON must equal
//! the compact serialization of `expected`, keys in the order written, byte for byte; an
//! `expected_error` must match the error's code and path. Vectors given as a `report`
//! object also go through the typed entry point (`normalize(context, failure)`) when the
//! report fits its types, and must give the same bytes.

mod common;

use std::path::{Path, PathBuf};

use codemode_errors_host::wit::{
    Blocked, CallContext, Failure, InvalidArgument, JsonrpcError, ToolAnnotations, TransportFailure, TransportKind, ValidationFailure,
};
use codemode_errors_host::{code_name, ComponentEngine, Engine, HostError, Limits, NativeEngine};
use serde_json::{Map, Value};

/// One vector, read from its file.
struct Vector {
    name: String,
    policy: Option<String>,
    input: String,
    /// The input is a run report (`run`), classified with `classify_run`.
    run: bool,
    typed: Option<(CallContext, Failure)>,
    expected: Expected,
}

enum Expected {
    Outcome(String),
    Error { code: String, path: String },
}

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors")
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") && dir != vectors_dir() {
            out.push(path);
        }
    }
}

fn load(path: &Path) -> Result<Vector, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
    let name = path.strip_prefix(vectors_dir()).unwrap_or(path).display().to_string();
    parse_vector(name, &v)
}

fn parse_vector(name: String, v: &Value) -> Result<Vector, String> {
    let compact = |v: &Value| serde_json::to_string(v).map_err(|e| e.to_string());
    let policy = v.get("policy").map(compact).transpose()?;
    let run = v.get("run").is_some();
    let (input, typed) = match (v.get("report"), v.get("report_text"), v.get("run")) {
        (Some(report), None, None) => (compact(report)?, typed_report(report)),
        (None, Some(Value::String(text)), None) => (text.clone(), None),
        (None, None, Some(report)) => (compact(report)?, None),
        _ => return Err("needs exactly one of `report`, `report_text` (a string) and `run`".into()),
    };
    let expected = match (v.get("expected"), v.get("expected_error")) {
        (Some(outcome), None) => Expected::Outcome(compact(outcome)?),
        (None, Some(e)) => Expected::Error {
            code: e.get("code").and_then(Value::as_str).ok_or("expected_error.code must be a string")?.to_owned(),
            path: e.get("path").and_then(Value::as_str).unwrap_or("").to_owned(),
        },
        _ => return Err("needs exactly one of `expected` and `expected_error`".into()),
    };
    Ok(Vector { name, policy, input, run, typed, expected })
}

/// The report as typed values, when every member fits the WIT types.
fn typed_report(report: &Value) -> Option<(CallContext, Failure)> {
    let members = report.as_object()?;
    let mut context = CallContext { tool: None, annotations: no_hints(), dispatched: None };
    let mut failure = None;
    for (key, value) in members {
        match key.as_str() {
            "tool" => context.tool = Some(value.as_str()?.to_owned()),
            "annotations" => context.annotations = hints(value.as_object()?)?,
            "dispatched" => context.dispatched = Some(value.as_bool()?),
            tag if failure.is_none() => failure = Some(typed_failure(tag, value)?),
            _ => return None,
        }
    }
    Some((context, failure?))
}

fn no_hints() -> ToolAnnotations {
    ToolAnnotations { read_only_hint: None, destructive_hint: None, idempotent_hint: None, open_world_hint: None }
}

fn hints(o: &Map<String, Value>) -> Option<ToolAnnotations> {
    let hint = |k: &str| o.get(k).and_then(Value::as_bool);
    Some(ToolAnnotations {
        read_only_hint: hint("readOnlyHint"),
        destructive_hint: hint("destructiveHint"),
        idempotent_hint: hint("idempotentHint"),
        open_world_hint: hint("openWorldHint"),
    })
}

fn text(v: &Value) -> Option<String> {
    serde_json::to_string(v).ok()
}

fn typed_failure(tag: &str, v: &Value) -> Option<Failure> {
    let o = v.as_object();
    let string = |k: &str| o.and_then(|o| o.get(k)).map(|s| s.as_str().map(str::to_owned));
    Some(match tag {
        "tool_result" => Failure::ToolResult(text(v)?),
        "jsonrpc_error" => Failure::JsonrpcError(JsonrpcError {
            code: o?.get("code")?.as_i64()?,
            message: string("message").unwrap_or(Some(String::new()))?,
            data: o?.get("data").and_then(text),
        }),
        "transport" => Failure::Transport(TransportFailure {
            kind: transport_kind(o?.get("kind")?.as_str()?)?,
            message: string("message").unwrap_or(Some(String::new()))?,
        }),
        "validation" => Failure::Validation(ValidationFailure {
            arguments: o?.get("arguments").and_then(text),
            input_schema: o?.get("input_schema").and_then(text),
            problems: match o?.get("problems") {
                None => Vec::new(),
                Some(p) => p
                    .as_array()?
                    .iter()
                    .map(|p| Some(InvalidArgument { path: p.get("path")?.as_str()?.into(), problem: p.get("problem")?.as_str()?.into() }))
                    .collect::<Option<_>>()?,
            },
            message: match string("message") {
                None => None,
                Some(m) => Some(m?),
            },
        }),
        "policy" | "budget" | "code_mode" => {
            let blocked = Blocked {
                kind: string("kind")??,
                message: string("message")??,
                retry_after_ms: match o?.get("retry_after_ms") {
                    None | Some(Value::Null) => None,
                    Some(n) => Some(n.as_u64()?),
                },
            };
            match tag {
                "policy" => Failure::Policy(blocked),
                "budget" => Failure::Budget(blocked),
                _ => Failure::CodeMode(blocked),
            }
        }
        _ => return None,
    })
}

fn transport_kind(name: &str) -> Option<TransportKind> {
    Some(match name {
        "timeout" => TransportKind::Timeout,
        "connection_closed" => TransportKind::ConnectionClosed,
        "connection_refused" => TransportKind::ConnectionRefused,
        "dns" => TransportKind::Dns,
        "tls" => TransportKind::Tls,
        "response_too_large" => TransportKind::ResponseTooLarge,
        "malformed_response" => TransportKind::MalformedResponse,
        "cancelled" => TransportKind::Cancelled,
        "other" => TransportKind::Other,
        _ => return None,
    })
}

/// The vector's text input through `engine`: its outcome JSON, or its run error JSON.
fn answer(engine: &Engine, vector: &Vector) -> Result<String, HostError> {
    if vector.run {
        engine.classify_run(&vector.input).map(|e| e.json)
    } else {
        engine.normalize_json(&vector.input).map(|o| o.json)
    }
}

/// Whether the engine's answer is what the vector states.
fn check(answer: Result<String, HostError>, expected: &Expected) -> Result<(), String> {
    match (answer, expected) {
        (Ok(json), Expected::Outcome(want)) if json == *want => Ok(()),
        (Ok(json), Expected::Outcome(want)) => {
            Err(format!("outcome differs at byte {}:\n  want {want}\n  got  {json}", diff_at(want, &json)))
        }
        (Err(HostError::Input(e)), Expected::Error { code, path }) if code_name(e.code) == code && e.path == *path => Ok(()),
        (Err(e), Expected::Outcome(_)) => Err(format!("expected an outcome, got error {e}")),
        (Ok(json), Expected::Error { code, path }) => Err(format!("expected error {code} at {path:?}, got outcome {json}")),
        (Err(e), Expected::Error { code, path }) => Err(format!("expected error {code} at {path:?}, got {e:?}")),
    }
}

fn diff_at(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()))
}

/// Run every vector through `engine_for(policy)`; the failures, described.
fn run_all(engine_for: &dyn Fn(&codemode_errors::Policy) -> Engine) -> (usize, Vec<String>) {
    let mut paths = Vec::new();
    files(&vectors_dir(), &mut paths);
    let mut failures = Vec::new();
    let mut typed_checked = 0;
    for path in &paths {
        let vector = match load(path) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let policy = match vector.policy.as_deref().map(codemode_errors::Policy::from_json).transpose() {
            Ok(p) => p.unwrap_or_default(),
            Err(e) => {
                failures.push(format!("{}: bad policy: {e}", vector.name));
                continue;
            }
        };
        let engine = engine_for(&policy);
        if let Err(e) = check(answer(&engine, &vector), &vector.expected) {
            failures.push(format!("{}: {e}", vector.name));
        }
        if let (Some((context, failure)), Expected::Outcome(_)) = (&vector.typed, &vector.expected) {
            typed_checked += 1;
            if let Err(e) = check(engine.normalize(context, failure).map(|o| o.json), &vector.expected) {
                failures.push(format!("{} (typed): {e}", vector.name));
            }
        }
    }
    eprintln!("{} vector files, {typed_checked} also checked through the typed entry point", paths.len());
    (paths.len(), failures)
}

fn assert_conforms(engine_for: &dyn Fn(&codemode_errors::Policy) -> Engine) {
    let (count, failures) = run_all(engine_for);
    assert!(failures.is_empty(), "{} of {count} vectors failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_vector_is_byte_identical_through_the_component() {
    let shared: &ComponentEngine = common::component();
    assert_conforms(&|policy| Engine::Component(shared.with_policy(policy)));
}

#[test]
fn every_vector_is_byte_identical_through_long_lived_sessions() {
    // One session per policy, each running every vector with that policy in one instance
    // after the other: nothing a call leaves in the instance changes a later answer.
    let shared: &ComponentEngine = common::component();
    let mut paths = Vec::new();
    files(&vectors_dir(), &mut paths);
    let mut sessions: std::collections::BTreeMap<Option<String>, codemode_errors_host::Session> = Default::default();
    let mut failures = Vec::new();
    for path in &paths {
        let Ok(vector) = load(path) else { continue };
        let Ok(policy) = vector.policy.as_deref().map(codemode_errors::Policy::from_json).transpose() else { continue };
        let session = sessions.entry(vector.policy.clone()).or_insert_with(|| shared.with_policy(&policy.unwrap_or_default()).session());
        let got = if vector.run {
            session.classify_run(&vector.input).map(|e| e.json)
        } else {
            session.normalize_json(&vector.input).map(|o| o.json)
        };
        if let Err(e) = check(got, &vector.expected) {
            failures.push(format!("{}: {e}", vector.name));
        }
        if let (Some((context, failure)), Expected::Outcome(_)) = (&vector.typed, &vector.expected) {
            if let Err(e) = check(session.normalize(context, failure).map(|o| o.json), &vector.expected) {
                failures.push(format!("{} (typed): {e}", vector.name));
            }
        }
    }
    assert!(sessions.len() > 1, "the vectors cover more than one policy");
    assert!(
        failures.is_empty(),
        "{} vectors failed in sessions:
{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_vector_is_byte_identical_through_the_native_engine() {
    assert_conforms(&|policy| Engine::Native(NativeEngine::new(policy, Limits::default())));
}

#[test]
fn the_runner_catches_a_wrong_expectation() {
    let vector = serde_json::json!({
        "description": "runner self-check",
        "report": {"transport": {"kind": "dns", "message": "no such host"}},
        "expected": {"error": null, "breaker": "success"}
    });
    let v = parse_vector("self-check".into(), &vector).unwrap();
    let engine = common::component();
    assert!(check(engine.normalize_json(&v.input).map(|o| o.json), &v.expected).is_err());
    let (context, failure) = v.typed.expect("a transport report is typed");
    assert!(check(engine.normalize(&context, &failure).map(|o| o.json), &v.expected).is_err());

    let vector = serde_json::json!({
        "description": "runner self-check",
        "report_text": "{\"transport\":",
        "expected_error": {"code": "invalid_json", "path": ""}
    });
    let v = parse_vector("self-check".into(), &vector).unwrap();
    assert!(check(engine.normalize_json(&v.input).map(|o| o.json), &v.expected).is_ok());
    let wrong = Expected::Error { code: "too_deep".into(), path: String::new() };
    assert!(check(engine.normalize_json(&v.input).map(|o| o.json), &wrong).is_err());
}

#[test]
fn reports_keep_their_key_order_when_fed_as_text() {
    // The vector format feeds `report` as compact text in written order; a
    // reordering serializer would break byte identity of error messages.
    let v: Value = serde_json::from_str(r#"{"b":1,"a":2}"#).unwrap();
    assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"b":1,"a":2}"#);
}

#[test]
fn component_and_native_agree_on_every_vector_input() {
    // Independent of the expectations: the two engines give the same answer, whatever it is.
    let mut paths = Vec::new();
    files(&vectors_dir(), &mut paths);
    let shared = common::component();
    let mut differ = Vec::new();
    for path in &paths {
        let Ok(v) = load(path) else { continue };
        let policy = v.policy.as_deref().map(codemode_errors::Policy::from_json).transpose().ok().flatten().unwrap_or_default();
        let native = NativeEngine::new(&policy, Limits::default());
        let component = shared.with_policy(&policy);
        if v.run {
            if native.classify_run(&v.input) != component.classify_run(&v.input) {
                differ.push(v.name.clone());
            }
            continue;
        }
        if native.normalize_json(&v.input) != component.normalize_json(&v.input) {
            differ.push(v.name.clone());
        }
        if let Some((context, failure)) = &v.typed {
            if native.normalize(context, failure) != component.normalize(context, failure) {
                differ.push(format!("{} (typed)", v.name));
            }
        }
    }
    assert!(
        differ.is_empty(),
        "the engines differ on: {differ:?}\n(is the embedded component stale? `cargo xtask test` rebuilds it from the current core)"
    );
}
