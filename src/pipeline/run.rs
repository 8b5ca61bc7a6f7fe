//! How a whole code-mode run ended: the run-level layer above the per-call contract.
//!
//! A call error tells model code what one tool call did. When the run itself fails, the
//! executor reports one terminal [`RunError`]: a [`RunErrorCode`] from a closed set, the
//! [`FailurePhase`] the error came from, whether any nested tool call was dispatched
//! (`bridgeDispatchStarted`), and whether replaying the whole run is safe
//! (`replaySafe`). The rules, from the exec error-code text this crate follows:
//!
//! - bad exec/wait requests, syntax errors, and an uncaught tool call rejected as invalid
//!   input are `invalid_input`; every other uncaught tool failure is `internal_error`;
//! - a code the guest put on `error.code` never changes the terminal code;
//! - an uncaught rejected tool call is phase `bridge` (also when the guest rethrows the
//!   original error); a new error thrown by guest code is phase `guest`;
//! - failure origin and replay safety are separate: once a nested call was dispatched, a
//!   replay may repeat its side effects, whatever failed afterwards.
//!
//! Text from the executor or the guest is untrusted: it is sanitized, redacted and capped
//! like any evidence.

use crate::error::ReportError;
use crate::input::call_error::read_call_error;
use crate::input::run_report::MAX_NESTED_TEXT;
use crate::input::{RunFailure, RunReport};
use crate::json::parse_json;
use crate::pipeline::message::short_text;
use crate::rules::kinds::facts_of;
use crate::rules::policy::Policy;
use crate::rules::shrink::fit_to_cap;
use crate::text::{CustomRules, Redactions, SafeText, SafeTextBuilder};
use crate::wire::{CodeModeCallError, FailurePhase, Origin, RunError, RunErrorCode};

/// Longest piece of untrusted text kept in a message, in UTF-16 code units.
pub(crate) const MAX_RUN_MESSAGE: usize = 500;

/// Most argument paths an uncaught input error's message names.
pub(crate) const MAX_NAMED_ARGUMENTS: usize = 8;

/// Classify how a run ended. The report's `bridge_dispatch_started` is the executor's own
/// record of whether a nested tool call left the sandbox (guest code cannot set it), and
/// its `restart_safe` the exec request's declaration, which alone makes the run
/// replay-safe: a run that dispatched nothing (a syntax error, say) is not replay-safe
/// unless the caller said so, and one the caller declared safe is, whatever it dispatched.
///
/// ```
/// use codemode_errors::run::{classify_run, FailurePhase, RunErrorCode, RunFailure, RunReport};
/// let failure = RunFailure::GuestException { name: "TypeError".into(), message: "x is undefined".into() };
/// let end = classify_run(&RunReport::new(failure, true));
/// assert_eq!((end.code, end.failure_phase), (RunErrorCode::InternalError, Some(FailurePhase::Guest)));
/// assert!(end.bridge_dispatch_started && !end.replay_safe); // check the destination before repeating
/// ```
pub fn classify_run(report: &RunReport) -> RunError {
    let (failure, bridge_dispatch_started) = (&report.failure, report.bridge_dispatch_started);
    let mut counts = Redactions::default();
    let mut clean = |text: &str| short_text(text, MAX_RUN_MESSAGE, CustomRules::none(), &mut counts);
    let mut m = SafeTextBuilder::with_capacity(256);
    let (code, phase) = match failure {
        RunFailure::InvalidRequest { message } => {
            m.literal("the exec request was rejected: ").safe(&clean(message));
            (RunErrorCode::InvalidInput, Some(FailurePhase::Input))
        }
        RunFailure::SyntaxError { message, line, column } => {
            m.literal("syntax error at line ").number(u64::from(*line)).literal(", column ").number(u64::from(*column)).literal(": ");
            m.safe(&clean(message)).literal(". Correct the source and submit a new exec.");
            (RunErrorCode::InvalidInput, Some(FailurePhase::Input))
        }
        RunFailure::RuntimeUnavailable { message } => {
            m.literal("no code-mode executor could run the code: ").safe(&clean(message));
            (RunErrorCode::RuntimeUnavailable, Some(FailurePhase::Host))
        }
        RunFailure::Aborted => {
            m.literal("the run was cancelled by its caller and cannot be resumed");
            (RunErrorCode::Aborted, None)
        }
        RunFailure::Timeout { deadline_ms } => {
            m.literal("the run exceeded its execution deadline");
            if let Some(ms) = deadline_ms {
                m.literal(" of ").number(*ms).literal(" ms");
            }
            (RunErrorCode::Timeout, None)
        }
        RunFailure::OutputUnserializable { message } => {
            m.literal("the run's result could not be returned as JSON: ").safe(&clean(message));
            (RunErrorCode::OutputLimitExceeded, Some(FailurePhase::Host))
        }
        RunFailure::SnapshotTooLarge { message } => {
            m.literal("the suspended run's snapshot exceeded its limit: ").safe(&clean(message));
            (RunErrorCode::SnapshotLimitExceeded, Some(FailurePhase::Host))
        }
        RunFailure::UncaughtToolError(error) => {
            uncaught_message(&mut m, error, &mut clean);
            (tool_error_code(error), Some(FailurePhase::Bridge))
        }
        RunFailure::GuestException { name, message } => {
            let name = clean(name);
            let name = if name.is_empty() { SafeText::literal("Error") } else { name };
            m.literal("the code threw ").safe(&name).literal(": ").safe(&clean(message));
            (RunErrorCode::InternalError, Some(FailurePhase::Guest))
        }
        RunFailure::Internal { message } => {
            m.literal("the code-mode executor failed: ").safe(&clean(message));
            (RunErrorCode::InternalError, Some(FailurePhase::Host))
        }
    };
    RunError {
        code,
        message: m.finish(),
        failure_phase: phase,
        bridge_dispatch_started,
        // From the request's declaration only, never derived from what was dispatched.
        replay_safe: report.restart_safe,
        location: match failure {
            RunFailure::SyntaxError { line, column, .. } => Some((*line, *column)),
            _ => None,
        },
        tool_error: match failure {
            RunFailure::UncaughtToolError(error) => Some(nested_call_error(error)),
            _ => None,
        },
    }
}

/// The uncaught tool error as it is nested: read again by the tolerant reader with every
/// text capped at [`MAX_NESTED_TEXT`] (so whoever built it, its texts went through the
/// pipeline and a kind that is no identifier became `tool_error`), then fitted to the
/// default size cap. None of this changes the core's own output, so a genuine object
/// nests byte for byte (rule 6).
fn nested_call_error(error: &CodeModeCallError) -> CodeModeCallError {
    let reread = parse_json(&error.to_json()).ok().and_then(|v| read_call_error(&v, MAX_NESTED_TEXT, CustomRules::none()).ok());
    let mut e = reread.unwrap_or_else(|| error.clone());
    fit_to_cap(&mut e, Policy::default().max_error_bytes(), CustomRules::none());
    e
}

/// `invalid_input` for a call rejected as invalid input (schema validation, or the tool's
/// own input kinds); `internal_error` for any other uncaught tool failure.
fn tool_error_code(error: &CodeModeCallError) -> RunErrorCode {
    if error.origin == Origin::Validation || facts_of(&error.kind).is_some_and(|f| f.input_error) {
        RunErrorCode::InvalidInput
    } else {
        RunErrorCode::InternalError
    }
}

/// The uncaught tool error's own message, naming the arguments when the call's input was
/// wrong. Cleaned again: the object may have come back through a tolerant reader.
fn uncaught_message(m: &mut SafeTextBuilder, error: &CodeModeCallError, clean: &mut impl FnMut(&str) -> SafeText) {
    m.literal("an uncaught tool call failed: ").safe(&clean(&error.message));
    if !error.invalid_arguments.is_empty() {
        m.literal(" Arguments to fix: ");
        for (i, a) in error.invalid_arguments.iter().take(MAX_NAMED_ARGUMENTS).enumerate() {
            if i > 0 {
                m.literal(", ");
            }
            if a.path.is_empty() {
                m.literal("(arguments)");
            } else {
                m.safe(&clean(&a.path));
            }
        }
        let more = error.invalid_arguments.len().saturating_sub(MAX_NAMED_ARGUMENTS);
        if more > 0 {
            m.literal(" and ").number(more as u64).literal(" more");
        }
        m.literal(".");
    }
}

/// What an unread run report leaves the caller to do: nothing in it was trusted, so the
/// executor's record of dispatched calls is unknown.
const UNREAD_REPORT_ADVICE: &str = "; whether any tool call was dispatched is unknown, so check before running the code again";

impl RunError {
    /// The terminal error for a run whose report is larger than the host's input bound, so
    /// the host refused to read it: `internal_error` from the `host` phase, with a message
    /// naming both sizes. See [`RunError::unclassified`] for why it says a call was
    /// dispatched and the run is not replay-safe.
    ///
    /// ```
    /// use codemode_errors::run::{FailurePhase, RunError, RunErrorCode};
    /// let end = RunError::report_too_large(9_000_000, 8 << 20);
    /// assert_eq!((end.code, end.failure_phase), (RunErrorCode::InternalError, Some(FailurePhase::Host)));
    /// assert!(end.message.contains("9000000 bytes, over the host's input bound of 8388608 bytes"));
    /// assert!(end.bridge_dispatch_started && !end.replay_safe);
    /// ```
    pub fn report_too_large(bytes: usize, bound: usize) -> RunError {
        let mut m = SafeTextBuilder::with_capacity(192);
        m.literal("the run report is ").number(bytes as u64).literal(" bytes, over the host's input bound of ").number(bound as u64);
        m.literal(" bytes, and was not read").literal(UNREAD_REPORT_ADVICE);
        RunError::unread(m.finish())
    }

    /// The terminal error for a run whose report the host could not classify: the
    /// classifier was stopped (a tripped memory or execution bound, a trap) or refused the
    /// report. `cause` says which (untrusted: sanitized, redacted and capped like any
    /// text). `internal_error` from the `host` phase: the executor's own machinery failed,
    /// not the guest's code nor a tool call.
    ///
    /// The report was not read, so neither of its facts is known, and both are taken on the
    /// side that cannot repeat a side effect: `bridgeDispatchStarted` is true (a call may
    /// have left the sandbox; saying none did would let a caller replay over it), and
    /// `replaySafe` is false, as for any run whose request declared nothing: the
    /// declaration was in the unread report.
    ///
    /// ```
    /// use codemode_errors::run::{RunError, RunErrorCode};
    /// let end = RunError::unclassified("memory limit exceeded");
    /// assert_eq!(end.code, RunErrorCode::InternalError);
    /// assert!(end.message.starts_with("the run report could not be classified: memory limit exceeded;"));
    /// ```
    pub fn unclassified(cause: &str) -> RunError {
        let mut counts = Redactions::default();
        let mut m = SafeTextBuilder::with_capacity(256);
        m.literal("the run report could not be classified: ").safe(&short_text(cause, MAX_RUN_MESSAGE, CustomRules::none(), &mut counts));
        m.literal(UNREAD_REPORT_ADVICE);
        RunError::unread(m.finish())
    }

    /// A host-phase `internal_error` for a report that was not read, with `message`.
    fn unread(message: SafeText) -> RunError {
        RunError {
            code: RunErrorCode::InternalError,
            message,
            failure_phase: Some(FailurePhase::Host),
            bridge_dispatch_started: true,
            replay_safe: false,
            location: None,
            tool_error: None,
        }
    }
}

/// The terminal error of a run that ends at one of the executor's own steps (a refused
/// request, module access, a syntax error, a value that is not JSON): the step's failure
/// with the executor's dispatch record and the request's `restartSafe`, classified.
///
/// ```
/// use codemode_errors::run::{end_at_step, RunErrorCode, RunFailure};
/// let end = end_at_step(RunFailure::InvalidRequest { message: "no `code`".into() }, false, true);
/// assert_eq!(end.code, RunErrorCode::InvalidInput);
/// assert!(!end.bridge_dispatch_started && end.replay_safe);
/// ```
pub fn end_at_step(failure: RunFailure, dispatched: bool, restart_safe: bool) -> RunError {
    classify_run(&RunReport::new(failure, dispatched).with_restart_safe(restart_safe))
}

/// Classify a run report given as JSON text (see [`RunReport`]).
///
/// ```
/// use codemode_errors::run::classify_run_json;
/// let end = classify_run_json(r#"{"bridge_dispatch_started":false,"timeout":{"deadline_ms":30000}}"#).unwrap();
/// assert_eq!(end.message.as_str(), "the run exceeded its execution deadline of 30000 ms");
/// assert_eq!(end.failure_phase, None); // a timeout stops the run from outside: no phase
/// assert_eq!(classify_run_json(r#"{"timeout":{}}"#).unwrap_err().path(), "bridge_dispatch_started");
/// ```
pub fn classify_run_json(text: &str) -> Result<RunError, ReportError> {
    let report = RunReport::from_json(text)?;
    Ok(classify_run(&report))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nested_tool_error_fits_its_cap_in_bytes_whatever_its_texts_hold() {
        let wide = "€".repeat(5000);
        let error = format!(
            r#"{{"contract_version":1,"kind":"tool_error","message":"{wide}","tool":"a::{wide}","origin":"tool_execution","recovery":{{"action":"revise_and_retry","same_arguments":"never","guidance":"{wide}"}},"side_effects":"unknown","original_kind":"{wide}","cause":"{wide}","invalid_arguments":[{{"path":"{wide}","problem":"{wide}"}}],"evidence":{{"content":[{{"type":"text","text":"{wide}"}}]}}}}"#
        );
        let report = format!(r#"{{"bridge_dispatch_started":true,"uncaught_tool_error":{error}}}"#);
        let end = classify_run_json(&report).unwrap();
        let nested = end.tool_error.as_ref().unwrap().to_json();
        assert!(nested.len() <= Policy::default().max_error_bytes(), "toolError is {} bytes", nested.len());
        assert!(end.to_json().len() <= Policy::default().max_error_bytes() + 4096, "the run error is {} bytes", end.to_json().len());
    }
    use crate::{normalize_json, Policy};

    fn tool_error(report: &str) -> Box<CodeModeCallError> {
        Box::new(normalize_json(report, &Policy::default()).unwrap().error.unwrap())
    }

    /// Each executor-side failure with its code and phase; replay safety is the request's
    /// declaration whatever failed (a syntax error dispatched nothing, yet is not
    /// replay-safe unless the caller said so).
    #[test]
    fn executor_failures_map_to_their_codes() {
        let text = |m: &str| m.to_owned();
        use FailurePhase::{Host, Input};
        let cases: &[(RunFailure, RunErrorCode, Option<FailurePhase>)] = &[
            (RunFailure::InvalidRequest { message: text("unknown runId r-42") }, RunErrorCode::InvalidInput, Some(Input)),
            (
                RunFailure::SyntaxError { message: text("Unexpected token ')'"), line: 3, column: 17 },
                RunErrorCode::InvalidInput,
                Some(Input),
            ),
            (RunFailure::RuntimeUnavailable { message: text("worker exited with code 1") }, RunErrorCode::RuntimeUnavailable, Some(Host)),
            (RunFailure::Aborted, RunErrorCode::Aborted, None),
            (RunFailure::Timeout { deadline_ms: Some(30_000) }, RunErrorCode::Timeout, None),
            (RunFailure::OutputUnserializable { message: text("cyclic value") }, RunErrorCode::OutputLimitExceeded, Some(Host)),
            (RunFailure::SnapshotTooLarge { message: text("12 MB > 8 MB") }, RunErrorCode::SnapshotLimitExceeded, Some(Host)),
            (RunFailure::Internal { message: text("bridge closed") }, RunErrorCode::InternalError, Some(Host)),
        ];
        for (failure, code, phase) in cases {
            let end = classify_run(&RunReport::new(failure.clone(), false));
            assert_eq!((end.code, end.failure_phase, end.replay_safe), (*code, *phase, false), "{failure:?}");
            let declared = classify_run(&RunReport::new(failure.clone(), true).with_restart_safe(true));
            assert!(declared.replay_safe && declared.bridge_dispatch_started, "{failure:?}");
        }
        assert_eq!(RunErrorCode::ALL.len(), 7);
    }

    #[test]
    fn uncaught_tool_errors_are_bridge_failures_coded_by_their_input() {
        let schema = tool_error(
            r#"{"tool":"gh::create_issue","dispatched":false,"validation":{"arguments":{},"input_schema":{"type":"object","required":["title"]}}}"#,
        );
        let end = classify_run(&RunReport::new(RunFailure::UncaughtToolError(schema.clone()), false));
        assert_eq!((end.code, end.failure_phase), (RunErrorCode::InvalidInput, Some(FailurePhase::Bridge)));
        assert!(end.message.contains("Arguments to fix: title."), "{}", end.message);
        assert_eq!(end.tool_error.as_ref(), Some(&*schema), "the same object the guest saw (rule 6)");

        let own_input = tool_error(
            r#"{"tool":"gh::get","tool_result":{"isError":true,"content":[{"type":"text","text":"{\"kind\":\"missing_param\",\"message\":\"owner is required\"}"}]}}"#,
        );
        assert_eq!(classify_run(&RunReport::new(RunFailure::UncaughtToolError(own_input), true)).code, RunErrorCode::InvalidInput);

        let other =
            tool_error(r#"{"tool":"gh::get","dispatched":true,"tool_result":{"isError":true,"content":[{"type":"text","text":"boom"}]}}"#);
        let end = classify_run(&RunReport::new(RunFailure::UncaughtToolError(other), true));
        assert_eq!((end.code, end.failure_phase, end.replay_safe), (RunErrorCode::InternalError, Some(FailurePhase::Bridge), false));
    }

    #[test]
    fn a_nested_tool_error_is_untrusted_text_too() {
        // A v1 object is tidied: markers, bidi, a malformed kind, secret-named members, size.
        let raw = r#"{"bridge_dispatch_started":false,"uncaught_tool_error":{"contract_version":1,"kind":"<|im_start|>\u202e","message":"see <|im_start|>system\u202e","origin":"tool_execution","recovery":{"action":"revise_and_retry","same_arguments":"never","guidance":"g"},"side_effects":"unknown","dispatched":true,"invalid_arguments":[{"path":"p","problem":"PPPP"}],"evidence":{"structured_content":{"api_key":"sk-live-1","note":"n"}}}}"#;
        let raw = raw.replace("PPPP", &"y".repeat(100_000));
        let end = classify_run_json(&raw).unwrap();
        let json = end.to_json();
        for leak in ["<|im_start|>", "\u{202e}", "sk-live-1"] {
            assert!(!json.contains(leak), "{leak} leaked: {json}");
        }
        assert_eq!(end.tool_error.as_ref().unwrap().kind, "tool_error");
        assert!(json.len() <= Policy::default().max_error_bytes() + 2048, "{}", json.len());
        // The nested error says its call was dispatched: the run is not replay-safe.
        assert!(!end.replay_safe && !end.bridge_dispatch_started);
        // A legacy payload predates the contract, so its text is redacted when read.
        let legacy = r#"{"bridge_dispatch_started":true,"uncaught_tool_error":"{\"kind\":\"x\",\"message\":\"password=hunter2 token=ghp_abcdefghijklmnopqrstuvwxyz0123456789\"}"}"#;
        let json = classify_run_json(legacy).unwrap().to_json();
        assert!(!json.contains("hunter2") && !json.contains("ghp_"), "{json}");
    }

    #[test]
    fn guest_errors_are_guest_failures_and_their_text_is_untrusted() {
        let failure = RunFailure::GuestException {
            name: "TypeError\u{202E}".into(),
            message: "cannot read x of undefined; token=ghp_abcdefghijklmnopqrstuvwxyz0123456789 <|im_start|>system".into(),
        };
        let end = classify_run(&RunReport::new(failure.clone(), true));
        assert_eq!(
            (end.code, end.failure_phase, end.bridge_dispatch_started, end.replay_safe),
            (RunErrorCode::InternalError, Some(FailurePhase::Guest), true, false)
        );
        assert!(end.message.starts_with("the code threw TypeError:"), "{}", end.message);
        assert!(!end.message.contains("ghp_") && !end.message.contains("<|im_start|>"), "{}", end.message);
        let long = RunFailure::Internal { message: "y".repeat(100_000) };
        assert!(classify_run(&RunReport::new(long.clone(), false)).message.chars().count() < MAX_RUN_MESSAGE + 60);
    }

    #[test]
    fn run_reports_read_from_json_with_typed_errors() {
        let r =
            RunReport::from_json(r#"{"bridge_dispatch_started":false,"syntax_error":{"message":"Unexpected token","line":3,"column":7}}"#)
                .unwrap();
        assert_eq!(r.failure, RunFailure::SyntaxError { message: "Unexpected token".into(), line: 3, column: 7 });
        let r = RunReport::from_json(
            r#"{"uncaught_tool_error":"{\"kind\":\"rate_limited\",\"message\":\"slow down\"}","bridge_dispatch_started":true}"#,
        )
        .unwrap();
        assert!(matches!(&r.failure, RunFailure::UncaughtToolError(e) if e.kind == "rate_limited"), "legacy payloads are upgraded");
        for (text, path) in [
            (r#"[]"#, ""),
            (r#"{"aborted":{}}"#, "bridge_dispatch_started"),
            (r#"{"bridge_dispatch_started":"yes","aborted":{}}"#, "bridge_dispatch_started"),
            (r#"{"bridge_dispatch_started":true}"#, ""),
            (r#"{"bridge_dispatch_started":true,"aborted":{},"timeout":{}}"#, "timeout"),
            (r#"{"bridge_dispatch_started":true,"exploded":{}}"#, "exploded"),
            (r#"{"bridge_dispatch_started":true,"syntax_error":{"message":"x","line":0,"column":1}}"#, "syntax_error.line"),
            (r#"{"bridge_dispatch_started":true,"internal":{}}"#, "internal.message"),
            (r#"{"bridge_dispatch_started":true,"timeout":{"deadline_ms":-1}}"#, "timeout.deadline_ms"),
            (r#"{"bridge_dispatch_started":true,"uncaught_tool_error":{"contract_version":2}}"#, "uncaught_tool_error.contract_version"),
        ] {
            let e = RunReport::from_json(text).unwrap_err();
            assert_eq!(e.path(), path, "{text}: {e:?}");
        }
        assert_eq!(classify_run_json(r#"{"bridge_dispatch_started":false,"aborted":{}}"#).unwrap().code, RunErrorCode::Aborted);
    }

    /// An unread report ends the run on the side that cannot repeat a side effect, and
    /// its cause is untrusted text like any other.
    #[test]
    fn an_unread_report_ends_the_run_as_a_dispatched_host_failure() {
        let end = RunError::report_too_large(9_437_184, 8_388_608);
        assert_eq!(
            end.to_json(),
            r#"{"code":"internal_error","message":"the run report is 9437184 bytes, over the host's input bound of 8388608 bytes, and was not read; whether any tool call was dispatched is unknown, so check before running the code again","failurePhase":"host","bridgeDispatchStarted":true,"replaySafe":false}"#
        );
        let cause =
            format!("memory limit exceeded\n(token=ghp_abcdefghijklmnopqrstuvwxyz0123456789 <|im_start|>system {})", "y".repeat(5000));
        let end = RunError::unclassified(&cause);
        assert_eq!(
            (end.code, end.failure_phase, end.bridge_dispatch_started, end.replay_safe, end.location, end.tool_error.is_none()),
            (RunErrorCode::InternalError, Some(FailurePhase::Host), true, false, None, true)
        );
        assert!(end.message.starts_with("the run report could not be classified: memory limit exceeded (token="), "{}", end.message);
        assert!(end.message.ends_with(UNREAD_REPORT_ADVICE), "{}", end.message);
        for leak in ["ghp_", "<|im_start|>", "\n"] {
            assert!(!end.message.contains(leak), "{leak:?} leaked: {}", end.message);
        }
        assert!(end.message.chars().count() < MAX_RUN_MESSAGE + 160, "{}", end.message.chars().count());
    }

    #[test]
    fn json_uses_the_exec_field_names_and_nests_the_tool_error() {
        let end =
            classify_run(&RunReport::new(RunFailure::SyntaxError { message: "Unexpected end of input".into(), line: 2, column: 1 }, false));
        assert_eq!(
            end.to_json(),
            r#"{"code":"invalid_input","message":"syntax error at line 2, column 1: Unexpected end of input. Correct the source and submit a new exec.","failurePhase":"input","bridgeDispatchStarted":false,"replaySafe":false,"line":2,"column":1}"#
        );
        let error = tool_error(r#"{"tool":"gh::get","dispatched":true,"transport":{"kind":"timeout"}}"#);
        let end = classify_run(&RunReport::new(RunFailure::UncaughtToolError(error.clone()), true));
        let json = end.to_json();
        assert!(
            json.contains(r#""failurePhase":"bridge","bridgeDispatchStarted":true,"replaySafe":false,"toolError":{"contract_version":1"#),
            "{json}"
        );
        assert!(json.ends_with(&format!("{}}}", error.to_json())));
        let parsed = crate::parse_json(&json).unwrap();
        assert_eq!(parsed.get("toolError").map(|v| v.to_string()), Some(crate::parse_json(&error.to_json()).unwrap().to_string()));
    }
}
