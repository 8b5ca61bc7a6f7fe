//! The run report: what ended a code-mode run, as the executor saw it, read from JSON.

use crate::error::ReportError;
use crate::input::call_error::{message_json, read_call_error};
use crate::input::failure_report::{invalid, only_members};
use crate::json::{exact_integer, parse_json, Json};
use crate::wire::CodeModeCallError;

/// Longest text field kept in a nested tool error, in UTF-16 code units: the longest text
/// block any policy lets the core emit, so the core's own objects pass unchanged (rule 6;
/// the fuzzer found an 8192-unit block cut at the old 4096). The nested object is fitted
/// to the size cap afterwards.
pub(crate) const MAX_NESTED_TEXT: usize = crate::rules::policy::Cap::MaxTextChars.spec().max as usize;

/// What ended the run, as the executor saw it.
///
/// ```
/// use codemode_errors::run::{classify_run, RunFailure, RunReport};
/// let failure = RunFailure::SyntaxError { message: "Unexpected token ')'".into(), line: 3, column: 14 };
/// let end = classify_run(&RunReport::new(failure, false));
/// assert_eq!((end.code.as_str(), end.location), ("invalid_input", Some((3, 14))));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum RunFailure {
    /// The exec or wait request was rejected: bad or retired fields, an unknown, expired
    /// or wrong-scope run id, too many suspended runs, rejected module access.
    InvalidRequest {
        /// The executor's description.
        message: String,
    },
    /// The source did not parse; rejected before any nested call.
    SyntaxError {
        /// The parser's description.
        message: String,
        /// One-based line in the submitted source.
        line: u32,
        /// One-based column.
        column: u32,
    },
    /// No executor could run the code.
    RuntimeUnavailable {
        /// The executor's description.
        message: String,
    },
    /// The caller cancelled the run.
    Aborted,
    /// The execution deadline passed.
    Timeout {
        /// The deadline, when known, in milliseconds.
        deadline_ms: Option<u64>,
    },
    /// The result could not be serialized into the bounded projection.
    OutputUnserializable {
        /// The executor's description.
        message: String,
    },
    /// A snapshot of the suspended run exceeded its limit.
    SnapshotTooLarge {
        /// The executor's description.
        message: String,
    },
    /// A tool call rejected with this contract object and the guest did not catch it.
    UncaughtToolError(Box<CodeModeCallError>),
    /// Guest code threw a new error (after a successful call or a caught rejection).
    GuestException {
        /// The error's `name` (`TypeError`, ...), as the guest set it.
        name: String,
        /// The error's `message`.
        message: String,
    },
    /// The executor failed in a way the other cases do not name.
    Internal {
        /// The executor's description.
        message: String,
    },
}

/// A run report: what ended the run and whether a nested call was dispatched, as JSON.
///
/// ```json
/// {"bridge_dispatch_started": true, "restart_safe": false, "guest_exception": {"name": "TypeError", "message": "x is undefined"}}
/// ```
///
/// Exactly one failure member: `invalid_request`, `runtime_unavailable`,
/// `output_unserializable`, `snapshot_too_large`, `internal` (each `{"message"}`);
/// `syntax_error` (`{"message", "line", "column"}`); `aborted` (`{}`); `timeout`
/// (`{"deadline_ms"?}`); `guest_exception` (`{"name"?, "message"}`); `uncaught_tool_error`
/// (the contract object, or the `Error.message` text holding it, read by the tolerant
/// reader).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct RunReport {
    /// What ended the run.
    pub failure: RunFailure,
    /// Whether any nested tool call was dispatched (the executor's record).
    pub bridge_dispatch_started: bool,
    /// The exec request's `restartSafe`: the caller's declaration that running the code
    /// again is safe (default false). It alone makes the run replay-safe.
    pub restart_safe: bool,
}

impl RunReport {
    /// A report of `failure`, with the executor's record of whether a nested call was
    /// dispatched; not declared restart-safe.
    ///
    /// ```
    /// use codemode_errors::run::{classify_run, RunFailure, RunReport};
    /// let report = RunReport::new(RunFailure::Timeout { deadline_ms: Some(30_000) }, false).with_restart_safe(true);
    /// let end = classify_run(&report);
    /// assert!(end.replay_safe); // the caller declared the code safe to run again
    /// ```
    pub fn new(failure: RunFailure, bridge_dispatch_started: bool) -> Self {
        RunReport { failure, bridge_dispatch_started, restart_safe: false }
    }

    /// This report with the exec request's `restartSafe`.
    ///
    /// ```
    /// use codemode_errors::run::{RunFailure, RunReport};
    /// let report = RunReport::new(RunFailure::Aborted, true).with_restart_safe(true);
    /// assert!(report.restart_safe && report.bridge_dispatch_started);
    /// ```
    pub fn with_restart_safe(mut self, restart_safe: bool) -> Self {
        self.restart_safe = restart_safe;
        self
    }
}

impl RunReport {
    /// Parse a run report from JSON text.
    ///
    /// ```
    /// use codemode_errors::run::{RunFailure, RunReport};
    /// let report = RunReport::from_json(r#"{"bridge_dispatch_started":true,"guest_exception":{"message":"boom"}}"#).unwrap();
    /// assert!(matches!(report.failure, RunFailure::GuestException { message, .. } if message == "boom"));
    /// assert!(RunReport::from_json(r#"{"bridge_dispatch_started":true,"aborted":{},"timeout":{}}"#).is_err()); // one failure only
    /// ```
    pub fn from_json(text: &str) -> Result<Self, ReportError> {
        Self::from_value(&parse_json(text)?)
    }

    /// Read a run report from a bounded JSON value.
    ///
    /// ```
    /// use codemode_errors::{normalize_json, parse_json, run::{RunFailure, RunReport}};
    /// // The contract object the guest let escape, as its rejection's Error.message held it.
    /// let error = normalize_json(r#"{"tool":"kv::get","transport":{"kind":"timeout","message":"m"}}"#, &Default::default())?.error.unwrap();
    /// let report = format!(r#"{{"bridge_dispatch_started":true,"uncaught_tool_error":{}}}"#, error.to_json());
    /// let report = RunReport::from_value(&parse_json(&report)?)?;
    /// assert!(matches!(report.failure, RunFailure::UncaughtToolError(e) if *e == error));
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn from_value(value: &Json) -> Result<Self, ReportError> {
        let members = value.as_object().ok_or_else(|| invalid("", format!("a run report is a JSON object, not {}", value.type_name())))?;
        let mut started = None;
        let mut restart_safe = false;
        let mut failure = None;
        for (key, v) in members.items() {
            if key == "bridge_dispatch_started" {
                started = Some(v.as_bool().ok_or_else(|| invalid(key, format!("must be a boolean, not {}", v.type_name())))?);
                continue;
            }
            if key == "restart_safe" {
                restart_safe = v.as_bool().ok_or_else(|| invalid(key, format!("must be a boolean, not {}", v.type_name())))?;
                continue;
            }
            if failure.is_some() {
                return Err(invalid(key, "a run report has exactly one failure member"));
            }
            failure = Some(run_failure(key, v)?);
        }
        let failure = failure.ok_or_else(|| invalid("", "a run report needs one failure member (guest_exception, timeout, ...)"))?;
        let bridge_dispatch_started = started.ok_or_else(|| invalid("bridge_dispatch_started", "is required (true or false)"))?;
        Ok(RunReport { failure, bridge_dispatch_started, restart_safe })
    }
}

fn run_failure(tag: &str, v: &Json) -> Result<RunFailure, ReportError> {
    if tag == "uncaught_tool_error" {
        let parsed;
        let value = match v {
            Json::String(text) => {
                parsed = message_json(text.head()).map_err(|e| e.within(tag))?;
                &parsed
            }
            other => other,
        };
        let error = read_call_error(value, MAX_NESTED_TEXT, crate::text::CustomRules::none()).map_err(|e| e.within(tag))?;
        return Ok(RunFailure::UncaughtToolError(Box::new(error)));
    }
    if v.as_object().is_none() {
        return Err(invalid(tag, format!("must be an object, not {}", v.type_name())));
    }
    let known: &[&str] = match tag {
        "aborted" => &[],
        "timeout" => &["deadline_ms"],
        "syntax_error" => &["message", "line", "column"],
        "guest_exception" => &["name", "message"],
        "invalid_request" | "runtime_unavailable" | "output_unserializable" | "snapshot_too_large" | "internal" => &["message"],
        other => return Err(invalid(other, "unknown member of a run report")),
    };
    only_members(tag, v, known)?;
    let message = || text(tag, v, "message", true);
    Ok(match tag {
        "invalid_request" => RunFailure::InvalidRequest { message: message()? },
        "syntax_error" => {
            RunFailure::SyntaxError { message: message()?, line: position(tag, v, "line")?, column: position(tag, v, "column")? }
        }
        "runtime_unavailable" => RunFailure::RuntimeUnavailable { message: message()? },
        "aborted" => RunFailure::Aborted,
        "timeout" => RunFailure::Timeout {
            deadline_ms: match v.get("deadline_ms") {
                None | Some(Json::Null) => None,
                Some(n) => Some(
                    n.as_f64()
                        .and_then(exact_integer)
                        .and_then(|i| u64::try_from(i).ok())
                        .ok_or_else(|| invalid(&format!("{tag}.deadline_ms"), "must be a whole number of milliseconds"))?,
                ),
            },
        },
        "output_unserializable" => RunFailure::OutputUnserializable { message: message()? },
        "snapshot_too_large" => RunFailure::SnapshotTooLarge { message: message()? },
        "guest_exception" => RunFailure::GuestException { name: text(tag, v, "name", false)?, message: message()? },
        "internal" => RunFailure::Internal { message: message()? },
        other => return Err(invalid(other, "unknown member of a run report")),
    })
}

/// A string member (its kept head); `required` members must be present.
fn text(tag: &str, v: &Json, key: &str, required: bool) -> Result<String, ReportError> {
    match v.get(key) {
        Some(Json::String(t)) => Ok(t.head().to_owned()),
        None | Some(Json::Null) if !required => Ok(String::new()),
        None => Err(invalid(&format!("{tag}.{key}"), "is required")),
        Some(other) => Err(invalid(&format!("{tag}.{key}"), format!("must be a string, not {}", other.type_name()))),
    }
}

/// A one-based line or column.
fn position(tag: &str, v: &Json, key: &str) -> Result<u32, ReportError> {
    v.get(key)
        .and_then(Json::as_f64)
        .and_then(exact_integer)
        .and_then(|i| u32::try_from(i).ok())
        .filter(|&i| i >= 1)
        .ok_or_else(|| invalid(&format!("{tag}.{key}"), "must be a whole number from 1"))
}
