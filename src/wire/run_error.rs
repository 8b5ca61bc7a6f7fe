//! The terminal error of a failed code-mode run, and its wire form (the exec surface's
//! field names: `code`, `message`, `failurePhase`, `bridgeDispatchStarted`, `replaySafe`,
//! `line`/`column`, `toolError`).

use crate::json::{write_number, write_string, JsonSink};
use crate::text::SafeText;
use crate::wire::CodeModeCallError;

wire_enum! {
    /// The terminal error code of a failed run.
    ///
    /// ```
    /// use codemode_errors::run::{classify_run_json, RunErrorCode};
    /// let end = classify_run_json(r#"{"bridge_dispatch_started":false,"syntax_error":{"message":"Unexpected token","line":2,"column":5}}"#).unwrap();
    /// assert_eq!(end.code, RunErrorCode::InvalidInput);
    /// assert_eq!(RunErrorCode::from_wire("snapshot_limit_exceeded"), Some(RunErrorCode::SnapshotLimitExceeded));
    /// ```
    pub RunErrorCode {
        /// The request, the source or a nested call's arguments were rejected.
        InvalidInput = "invalid_input",
        /// No executor could run the code (unavailable, failed to start, exited).
        RuntimeUnavailable = "runtime_unavailable",
        /// The caller cancelled the run; it cannot be resumed.
        Aborted = "aborted",
        /// The run's execution deadline passed.
        Timeout = "timeout",
        /// The run's result could not be serialized into the bounded projection.
        OutputLimitExceeded = "output_limit_exceeded",
        /// A suspended run's snapshot exceeded its limit.
        SnapshotLimitExceeded = "snapshot_limit_exceeded",
        /// Anything else, including uncaught tool failures that were not input errors.
        InternalError = "internal_error",
    }
}

wire_enum! {
    /// Where a terminal error came from.
    ///
    /// ```
    /// use codemode_errors::run::{classify_run_json, FailurePhase};
    /// let end = classify_run_json(r#"{"bridge_dispatch_started":true,"guest_exception":{"name":"TypeError","message":"x is undefined"}}"#).unwrap();
    /// assert_eq!(end.failure_phase, Some(FailurePhase::Guest));
    /// let stopped = classify_run_json(r#"{"bridge_dispatch_started":false,"aborted":{}}"#).unwrap();
    /// assert_eq!(stopped.failure_phase, None); // stopped from outside
    /// ```
    pub FailurePhase {
        /// The exec request or its source was rejected before the code ran (bad fields, a
        /// syntax error, module access).
        Input = "input",
        /// Guest code threw an error of its own.
        Guest = "guest",
        /// A tool call rejected and the guest let the rejection escape (or rethrew it).
        Bridge = "bridge",
        /// The executor itself failed (it could not run the code, project its result or
        /// keep a snapshot).
        Host = "host",
    }
}

/// The terminal error of a failed run.
///
/// ```
/// let end = codemode_errors::run::classify_run_json(
///     r#"{"bridge_dispatch_started":false,"syntax_error":{"message":"Unexpected token ')'","line":3,"column":14}}"#,
/// ).unwrap();
/// assert_eq!((end.code.as_str(), end.location), ("invalid_input", Some((3, 14))));
/// assert!(end.message.contains("Unexpected token"));
/// assert!(end.tool_error.is_none());
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct RunError {
    /// The terminal code.
    pub code: RunErrorCode,
    /// A standalone, sanitized, capped message.
    pub message: SafeText,
    /// Where the error came from; none when the run was stopped from outside (aborted,
    /// timed out).
    pub failure_phase: Option<FailurePhase>,
    /// Whether any nested tool call was dispatched during the run.
    pub bridge_dispatch_started: bool,
    /// Whether running the same code again cannot repeat a side effect: only when no
    /// nested call was dispatched.
    pub replay_safe: bool,
    /// Line and column of a syntax error.
    pub location: Option<(u32, u32)>,
    /// The uncaught tool error itself, the same object the guest saw (rule 6).
    pub tool_error: Option<CodeModeCallError>,
}

impl RunError {
    /// The terminal error as compact JSON, with the exec surface's field names:
    /// `code`, `message`, `failurePhase`, `bridgeDispatchStarted`, `replaySafe`, then
    /// `line`/`column` and the uncaught `toolError` when there are any.
    ///
    /// ```
    /// let end = codemode_errors::run::classify_run_json(r#"{"bridge_dispatch_started":false,"aborted":{}}"#).unwrap();
    /// assert_eq!(end.to_json(), r#"{"code":"aborted","message":"the run was cancelled by its caller and cannot be resumed","bridgeDispatchStarted":false,"replaySafe":false}"#);
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(256);
        self.write(&mut out);
        out
    }

    /// Append the compact JSON to `out`.
    ///
    /// ```
    /// use codemode_errors::json::ByteCount;
    /// let end = codemode_errors::run::classify_run_json(r#"{"bridge_dispatch_started":true,"timeout":{}}"#).unwrap();
    /// let mut count = ByteCount::default();
    /// end.write(&mut count);
    /// assert_eq!(count.0, end.to_json().len());
    /// ```
    pub fn write<S: JsonSink>(&self, out: &mut S) {
        out.put("{\"code\":");
        write_string(out, self.code.as_str());
        out.put(",\"message\":");
        write_string(out, &self.message);
        if let Some(phase) = self.failure_phase {
            out.put(",\"failurePhase\":");
            write_string(out, phase.as_str());
        }
        out.put(if self.bridge_dispatch_started { ",\"bridgeDispatchStarted\":true" } else { ",\"bridgeDispatchStarted\":false" });
        out.put(if self.replay_safe { ",\"replaySafe\":true" } else { ",\"replaySafe\":false" });
        if let Some((line, column)) = self.location {
            out.put(",\"line\":");
            write_number(out, f64::from(line));
            out.put(",\"column\":");
            write_number(out, f64::from(column));
        }
        if let Some(error) = &self.tool_error {
            out.put(",\"toolError\":");
            error.write(out);
        }
        out.put("}");
    }
}
