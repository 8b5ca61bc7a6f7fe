//! Every vector in `tests/vectors/` (format: `tests/vectors/README.md`, loaded by the
//! `codemode-errors-vectors` crate) through the component and through the native engine of
//! this crate: the outcome's JSON must equal the compact serialization of `expected`, keys
//! in the order written, byte for byte; an `expected_error` must match the error's code
//! and path. Each surface of `tests/vectors/gaps.json` runs every form it declares that
//! applies to a vector: `text` (`normalize_json`), `run-text` (`classify_run`) and `typed`
//! (`normalize(context, failure)`, for every report the WIT types can express), and the
//! declared gaps must still fail.

mod common;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use codemode_errors::{Policy, ReportError};
use codemode_errors_host::wit::{
    Blocked, CallContext, Failure, InvalidArgument, JsonrpcError, ToolAnnotations, TransportFailure, TransportKind, ValidationFailure,
};
use codemode_errors_host::wit::{ExecRequest, JsEngine, Projection, RunError, Wrapping};
use codemode_errors_host::{
    code_name, CompletedRun, ComponentEngine, Engine, GuestStack, HostError, Limits, NativeEngine, Session, SyntaxReport,
};
use codemode_errors_vectors::{
    answer as step_answer, filter_from_env, ExecCall, ExecWrapping, Expected, Form, Suite, Tally, TypedFailure, TypedReport, Vector,
};
use serde_json::Value;

/// The embedded vectors, loaded once per test binary.
fn suite() -> &'static Suite {
    static SUITE: OnceLock<Suite> = OnceLock::new();
    SUITE.get_or_init(|| Suite::load().unwrap_or_else(|e| panic!("{e}")))
}

/// The loader's typed report as the WIT values (one to one).
fn wit_values(report: &TypedReport) -> (CallContext, Failure) {
    let hints = &report.annotations;
    let context = CallContext {
        tool: report.tool.clone(),
        annotations: ToolAnnotations {
            read_only_hint: hints.read_only,
            destructive_hint: hints.destructive,
            idempotent_hint: hints.idempotent,
            open_world_hint: hints.open_world,
        },
        dispatched: report.dispatched,
        input_schema: report.input_schema.clone(),
        arguments: report.arguments.clone(),
    };
    let blocked = |b: &codemode_errors_vectors::Blocked| Blocked {
        kind: b.kind.clone(),
        message: b.message.clone(),
        retry_after_ms: b.retry_after_ms,
    };
    let failure = match &report.failure {
        TypedFailure::ToolResult(json) => Failure::ToolResult(json.clone()),
        TypedFailure::JsonrpcError { code, message, data } => {
            Failure::JsonrpcError(JsonrpcError { code: *code, message: message.clone(), data: data.clone() })
        }
        TypedFailure::Transport { kind, message } => {
            Failure::Transport(TransportFailure { kind: transport_kind(kind), message: message.clone() })
        }
        TypedFailure::Validation { arguments, input_schema, problems, message } => Failure::Validation(ValidationFailure {
            arguments: arguments.clone(),
            input_schema: input_schema.clone(),
            problems: problems.iter().map(|(path, problem)| InvalidArgument { path: path.clone(), problem: problem.clone() }).collect(),
            message: message.clone(),
        }),
        TypedFailure::Policy(b) => Failure::Policy(blocked(b)),
        TypedFailure::Budget(b) => Failure::Budget(blocked(b)),
        TypedFailure::CodeMode(b) => Failure::CodeMode(blocked(b)),
    };
    (context, failure)
}

/// The WIT case of a transport kind the loader accepted (`TRANSPORT_KINDS`).
fn transport_kind(name: &str) -> TransportKind {
    match name {
        "timeout" => TransportKind::Timeout,
        "connection_closed" => TransportKind::ConnectionClosed,
        "connection_refused" => TransportKind::ConnectionRefused,
        "dns" => TransportKind::Dns,
        "tls" => TransportKind::Tls,
        "response_too_large" => TransportKind::ResponseTooLarge,
        "malformed_response" => TransportKind::MalformedResponse,
        "cancelled" => TransportKind::Cancelled,
        "other" => TransportKind::Other,
        other => panic!("the loader's TRANSPORT_KINDS has {other:?}, which the WIT enum does not"),
    }
}

/// The WIT values of a vector the typed form applies to.
fn typed(vector: &Vector) -> (CallContext, Failure) {
    wit_values(&vector.typed().expect("the typed form applies only to reports with typed values"))
}

/// The vector's policy, read by the core as the host reads every policy (the CLI's
/// `--policy`); a refusal is the vector's answer on every host surface.
fn policy(vector: &Vector) -> Result<Policy, ReportError> {
    vector.policy.as_deref().map(Policy::from_json).transpose().map(Option::unwrap_or_default)
}

/// Whether a refused policy is the refusal the vector states.
fn check_refusal(e: &ReportError, expected: &Expected) -> Result<(), String> {
    match expected {
        Expected::Error { code, path } if e.code().as_str() == code && e.path() == path => Ok(()),
        Expected::Error { code, path } => Err(format!("expected error {code} at {path:?}, got the policy refused: {e}")),
        Expected::Outcome(_) => Err(format!("expected an outcome, got the policy refused: {e}")),
    }
}

/// One form of the vector through `engine`: the outcome JSON, or the run error JSON.
fn answer(engine: &Engine, vector: &Vector, form: Form) -> Result<String, HostError> {
    match form {
        Form::Text => engine.normalize_json(vector.input.text()).map(|o| o.json),
        Form::RunText => engine.classify_run(vector.input.text()).map(|e| e.json),
        Form::Typed => {
            let (context, failure) = typed(vector);
            engine.normalize(&context, &failure).map(|o| o.json)
        }
        Form::Exec => engine.exec_step(vector.input.text()),
        Form::ExecCall => exec_call(&mut &*engine, vector),
        other => unreachable!("gaps.json gives an engine the {other} form, which engines have no entry point for"),
    }
}

/// One form of the vector through a session.
fn session_answer(session: &mut Session, vector: &Vector, form: Form) -> Result<String, HostError> {
    match form {
        Form::Text => session.normalize_json(vector.input.text()).map(|o| o.json),
        Form::RunText => session.classify_run(vector.input.text()).map(|e| e.json),
        Form::Typed => {
            let (context, failure) = typed(vector);
            session.normalize(&context, &failure).map(|o| o.json)
        }
        Form::Exec => session.exec_step(vector.input.text()),
        Form::ExecCall => exec_call(session, vector),
        other => unreachable!("gaps.json gives a session the {other} form, which sessions have no entry point for"),
    }
}

/// The typed executor-step entry points, on an engine or a session.
trait Steps {
    fn read_exec_request(&mut self, request: &str) -> Result<Result<ExecRequest, RunError>, HostError>;
    fn module_access(&mut self, code: &str, restart_safe: bool) -> Result<Option<RunError>, HostError>;
    fn syntax_error(&mut self, report: &SyntaxReport<'_>) -> Result<RunError, HostError>;
    fn user_stack(&mut self, error: &GuestStack<'_>) -> Result<String, HostError>;
    fn project_completed(&mut self, run: &CompletedRun<'_>) -> Result<Result<Projection, RunError>, HostError>;
    fn fit_output(&mut self, output: &str, budget: u32) -> Result<(String, bool), HostError>;
}

macro_rules! steps_for {
    ($ty:ty) => {
        impl Steps for $ty {
            fn read_exec_request(&mut self, request: &str) -> Result<Result<ExecRequest, RunError>, HostError> {
                (*self).read_exec_request(request)
            }
            fn module_access(&mut self, code: &str, restart_safe: bool) -> Result<Option<RunError>, HostError> {
                (*self).module_access(code, restart_safe)
            }
            fn syntax_error(&mut self, report: &SyntaxReport<'_>) -> Result<RunError, HostError> {
                (*self).syntax_error(report)
            }
            fn user_stack(&mut self, error: &GuestStack<'_>) -> Result<String, HostError> {
                (*self).user_stack(error)
            }
            fn project_completed(&mut self, run: &CompletedRun<'_>) -> Result<Result<Projection, RunError>, HostError> {
                (*self).project_completed(run)
            }
            fn fit_output(&mut self, output: &str, budget: u32) -> Result<(String, bool), HostError> {
                (*self).fit_output(output, budget)
            }
        }
    };
}

steps_for!(&Engine);
steps_for!(Session);

fn js_engine(name: &str) -> JsEngine {
    match name {
        "v8" => JsEngine::V8,
        "quickjs" => JsEngine::Quickjs,
        "spidermonkey" => JsEngine::Spidermonkey,
        other => unreachable!("ExecCall admits only known engines, not {other}"),
    }
}

fn wrapping(w: &ExecWrapping) -> Wrapping {
    Wrapping { file: w.file.clone(), lines_before: w.lines_before, columns_before: w.columns_before, source_lines: w.source_lines }
}

/// The exec-call form: the step through its own typed entry point, the answer written as
/// the step's JSON answer.
fn exec_call(steps: &mut impl Steps, vector: &Vector) -> Result<String, HostError> {
    let value = vector.input.value().expect("an exec vector has a value");
    let call = ExecCall::from_step(value).expect("exec-call applies only to a well-formed step");
    Ok(match call {
        ExecCall::Request { json, .. } => match steps.read_exec_request(&json)? {
            Ok(r) => step_answer::request(&r.code, r.restart_safe),
            Err(end) => step_answer::failed(&end.json),
        },
        ExecCall::ModuleAccess { code, restart_safe } => match steps.module_access(&code, restart_safe)? {
            Some(end) => step_answer::failed(&end.json),
            None => step_answer::allowed(),
        },
        ExecCall::SyntaxError { engine, message, stack, position, wrapping: w, source, restart_safe } => {
            let w = wrapping(&w);
            let report = SyntaxReport {
                engine: js_engine(&engine),
                message: &message,
                stack: &stack,
                position,
                wrapping: &w,
                source: &source,
                restart_safe,
            };
            step_answer::failed(&steps.syntax_error(&report)?.json)
        }
        ExecCall::UserStack { engine, name, message, stack, wrapping: w, label } => {
            let w = wrapping(&w);
            let error =
                GuestStack { engine: js_engine(&engine), name: &name, message: &message, stack: &stack, wrapping: &w, label: &label };
            step_answer::stack(&steps.user_stack(&error)?)
        }
        ExecCall::ProjectCompleted { output, value, max_bytes, dispatched, restart_safe } => {
            match steps.project_completed(&CompletedRun { output: &output, value: &value, max_bytes, dispatched, restart_safe })? {
                Ok(p) => step_answer::projected(&p.output, &p.value, p.truncated),
                Err(end) => step_answer::failed(&end.json),
            }
        }
        ExecCall::FitOutput { output, budget } => {
            let (text, cut) = steps.fit_output(&output, budget)?;
            step_answer::fitted(&text, cut)
        }
    })
}

/// Whether the answer is what the vector states.
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

/// Run every form `surface` declares of every vector through `answer(vector, policy, form)`
/// and judge the results against the declared gaps.
fn run_surface(surface: &str, answer: &mut dyn FnMut(&Vector, &Policy, Form) -> Result<String, HostError>) {
    let suite = suite();
    let filter = filter_from_env();
    let mut tally = Tally::new(suite, surface, filter.is_some());
    for vector in suite.selected(filter.as_deref()) {
        let policy = policy(vector);
        for form in tally.forms(vector) {
            let result = match &policy {
                Ok(policy) => check(answer(vector, policy, form), vector.expected()),
                Err(e) => check_refusal(e, vector.expected()),
            };
            tally.record(vector, form, result);
        }
    }
    match tally.finish() {
        Ok(summary) => eprintln!("{summary}"),
        Err(report) => panic!("{report}"),
    }
}

#[test]
fn every_vector_is_byte_identical_through_the_component() {
    let shared: &ComponentEngine = common::component();
    run_surface("component-engine", &mut |vector, policy, form| answer(&Engine::Component(shared.with_policy(policy)), vector, form));
}

#[test]
fn every_typed_report_is_byte_identical_through_the_component_typed_entry_point() {
    let shared: &ComponentEngine = common::component();
    run_surface("component-typed", &mut |vector, policy, form| answer(&Engine::Component(shared.with_policy(policy)), vector, form));
}

#[test]
fn every_vector_is_byte_identical_through_long_lived_sessions() {
    // One session per policy, each running every vector with that policy in one instance
    // after the other: nothing a call leaves in the instance changes a later answer.
    let shared: &ComponentEngine = common::component();
    let mut sessions: BTreeMap<Option<String>, Session> = BTreeMap::new();
    run_surface("component-session", &mut |vector, policy, form| {
        let session = sessions.entry(vector.policy.clone()).or_insert_with(|| shared.with_policy(policy).session());
        session_answer(session, vector, form)
    });
    assert!(filter_from_env().is_some() || sessions.len() > 1, "the vectors cover more than one policy");
}

#[test]
fn every_vector_is_byte_identical_through_the_native_engine() {
    run_surface("native-engine", &mut |vector, policy, form| {
        answer(&Engine::Native(NativeEngine::new(policy, Limits::default())), vector, form)
    });
}

#[test]
fn the_runner_catches_a_wrong_expectation() {
    let text = r#"{
        "description": "runner self-check",
        "report": {"transport": {"kind": "dns", "message": "no such host"}},
        "expected": {"error": null, "breaker": "success"}
    }"#;
    let v = Vector::parse("self-check.json", text, false).unwrap();
    let engine = Engine::Component(common::component().with_policy(&Policy::default()));
    assert!(check(answer(&engine, &v, Form::Text), v.expected()).is_err());
    assert!(v.applies(Form::Typed), "a transport report is typed");
    assert!(check(answer(&engine, &v, Form::Typed), v.expected()).is_err());

    let text = r#"{
        "description": "runner self-check",
        "report_text": "{\"transport\":",
        "expected_error": {"code": "invalid_json", "path": ""}
    }"#;
    let v = Vector::parse("self-check.json", text, false).unwrap();
    assert!(check(answer(&engine, &v, Form::Text), v.expected()).is_ok());
    let wrong = Expected::Error { code: "too_deep".into(), path: String::new() };
    assert!(check(answer(&engine, &v, Form::Text), &wrong).is_err());
}

#[test]
fn reports_keep_their_key_order_when_fed_as_text() {
    // The vector format feeds `report` as compact text in written order; a
    // reordering serializer would break byte identity of error messages.
    let v: Value = serde_json::from_str(r#"{"b":1,"a":2}"#).unwrap();
    assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"b":1,"a":2}"#);
    let text = r#"{"description": "order", "report": {"b": 1, "a": 2}, "expected": {"error": null, "breaker": "none"}}"#;
    assert_eq!(Vector::parse("order.json", text, false).unwrap().input.text(), r#"{"b":1,"a":2}"#);
}

#[test]
fn component_and_native_agree_on_every_vector_input() {
    // Independent of the expectations (and so of the declared gaps): the two engines give
    // the same answer, whatever it is, in every form they both run.
    let shared = common::component();
    let mut differ = Vec::new();
    let mut compared = 0;
    for vector in suite().vectors.iter() {
        let Ok(policy) = policy(vector) else { continue };
        let native = NativeEngine::new(&policy, Limits::default());
        let component = shared.with_policy(&policy);
        for form in vector.forms() {
            let same = match form {
                Form::Text => native.normalize_json(vector.input.text()) == component.normalize_json(vector.input.text()),
                Form::RunText => native.classify_run(vector.input.text()) == component.classify_run(vector.input.text()),
                Form::Typed => {
                    let (context, failure) = typed(vector);
                    native.normalize(&context, &failure) == component.normalize(&context, &failure)
                }
                Form::Exec => native.exec_step(vector.input.text()) == component.exec_step(vector.input.text()),
                Form::ExecCall => {
                    exec_call(&mut &Engine::Native(native.clone()), vector) == exec_call(&mut &Engine::Component(component.clone()), vector)
                }
                // The value forms are the npm package's: no engine takes a JSON value.
                Form::Object | Form::RunObject => continue,
            };
            compared += 1;
            if !same {
                differ.push(format!("{} [{form}]", vector.name));
            }
        }
    }
    eprintln!("{compared} inputs answered alike by both engines");
    assert!(
        differ.is_empty(),
        "the engines differ on: {differ:?}\n(is the embedded component stale? `cargo xtask test` rebuilds it from the current core)"
    );
}

#[test]
fn a_wit_policy_reaches_the_core_checked_entry_by_entry() {
    use codemode_errors_host::wit::{TokenAlphabet, TokenFormat};
    use codemode_errors_host::{from_core, to_core};
    let lists = Policy::from_json(
        r#"{"max_text_chars": 100, "secret_keys": ["acme_session"], "allow": ["pk_demo_0000"], "allow_keys": ["token_budget"],
            "token_formats": [{"family": "acme_token", "prefix": "acme_", "alphabet": "base64url_dot", "min_body_length": 24}]}"#,
    )
    .unwrap();
    let record = from_core::policy(&lists);
    assert_eq!(record.token_formats[0].alphabet, TokenAlphabet::Base64urlDot);
    assert_eq!(to_core::policy(&record).unwrap(), lists);
    // What the component's `normalizer.create` and `policy-from-json` refuse, named by member.
    let refused = |edit: &dyn Fn(&mut codemode_errors_host::wit::Policy)| {
        let mut bad = record.clone();
        edit(&mut bad);
        let e = to_core::policy(&bad).unwrap_err();
        (e.code().as_str().to_owned(), e.path().to_owned())
    };
    let format = |prefix: &str| TokenFormat { family: "b".into(), prefix: prefix.into(), alphabet: TokenAlphabet::Hex, min_body_length: 8 };
    assert_eq!(refused(&|p| p.secret_keys.push("--".into())), ("invalid_policy".into(), "secret_keys[1]".into()));
    assert_eq!(refused(&|p| p.token_formats.push(format("acme_"))), ("invalid_policy".into(), "token_formats[1].prefix".into()));
    assert_eq!(refused(&|p| p.token_formats.push(format("x"))), ("invalid_policy".into(), "token_formats[1].prefix".into()));
    assert_eq!(refused(&|p| p.allow = vec!["v".into(); 257]), ("invalid_policy".into(), "allow".into()));
    assert_eq!(refused(&|p| p.allow_keys.push("AcmeSession".into())), ("invalid_policy".into(), "allow_keys[1]".into()));

    // The component applies the lists as the core does, and reads its own objects back
    // under them, allowed values included.
    let native = NativeEngine::new(&lists, Limits::default());
    let component = common::component().with_policy(&lists);
    let report = r#"{"tool":"a::b","transport":{"kind":"timeout","message":"acmeSession=s3cr3t key=pk_demo_0000"}}"#;
    let outcome = component.normalize_json(report).unwrap();
    assert_eq!(outcome, native.normalize_json(report).unwrap());
    let json = outcome.error.unwrap().json;
    assert!(json.contains("acmeSession=[REDACTED:secret_field] key=pk_demo_0000"), "{json}");
    assert_eq!(component.parse_call_error(&json).unwrap().json, json);
    assert_eq!(native.parse_call_error(&json).unwrap().json, json);
    let mut session = component.session();
    assert_eq!(session.parse_call_error(&json).unwrap().json, json);
}
