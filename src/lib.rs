//! # codemode-errors
//!
//! Turns every failure inside an AI agent's "code mode" into one versioned, redacted,
//! size-capped error object (contract version 1) that model-written JavaScript can trust.
//! A sandbox rejects with `new Error(JSON.stringify(error))`; the model reads it back with
//! `JSON.parse(String(e.message))`.
//!
//! ```
//! use codemode_errors::{normalize_json, Policy};
//!
//! let report = r#"{
//!   "tool": "github::create_issue",
//!   "annotations": {"readOnlyHint": false},
//!   "dispatched": true,
//!   "tool_result": {"isError": true, "content": [
//!     {"type": "text", "text": "HTTP/1.1 429 Too Many Requests; Retry-After: 20 (token=ghp_abcdefghijklmnopqrstuvwxyz0123456789)"}]}
//! }"#;
//! let outcome = normalize_json(report, &Policy::default()).unwrap();
//! assert_eq!(outcome.breaker.as_str(), "success"); // the upstream answered (rule 4)
//! let error = outcome.error.unwrap();
//! assert_eq!(error.kind, "rate_limited");
//! assert_eq!(error.recovery.retry_after_ms, Some(20_000));
//! assert!(!error.to_json().contains("ghp_")); // secrets never pass
//! ```
//!
//! The crate is pure Rust with no I/O and never panics on any input: every size is capped
//! before work (see [`Policy`] and [`json::INPUT_LIMITS`]). The WASI component, the CLI and
//! the npm package all wrap this crate and produce byte-identical JSON.

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(unreachable_pub)]

// The modules follow the pipeline, lowest first: nothing imports a module listed after it.
#[macro_use]
mod macros;
mod error;
mod order;
mod search;
pub mod json;
mod text;
mod wire;
mod rules;
mod evidence;
mod input;
mod pipeline;

pub use error::{ErrorCode, ReportError};
pub use input::{call_error_from_value, parse_call_error, CallArguments, CallHeader, Failure, FailureReport, ToolName, ValidationFailure};
pub use json::{parse_json, Json};
pub use pipeline::Normalizer;
pub use rules::arguments::ArgumentProblem;
pub use rules::policy::{Cap, CapSpec, Policy};
pub use text::{Redactions, SafeJson, SafeText, TokenAlphabet, TokenFormat};
pub use wire::{
    Breaker, CodeModeCallError, ContentDescriptor, Evidence, InvalidArgument, KindSource, Origin, Outcome, Recovery, RecoveryAction,
    ResourceBody, Safety, SameArguments, ShownText, SideEffects, TransportKind, CONTRACT_VERSION,
};

/// How a whole code-mode run ended: the run-level layer above the per-call contract.
///
/// An executor describes what ended the run in a [`RunReport`](run::RunReport) (or a
/// [`RunFailure`](run::RunFailure) and its own record of whether a nested call was
/// dispatched); [`classify_run`](run::classify_run) gives the terminal
/// [`RunError`](run::RunError). A host that could not read or classify a report still
/// ends the run with one: [`RunError::report_too_large`](run::RunError::report_too_large)
/// or [`RunError::unclassified`](run::RunError::unclassified).
///
/// ```
/// let end = codemode_errors::run::classify_run_json(r#"{"bridge_dispatch_started":true,"timeout":{}}"#).unwrap();
/// assert_eq!(end.code.as_str(), "timeout");
/// assert!(!end.replay_safe);
/// ```
pub mod run {
    pub use crate::input::{RunFailure, RunReport};
    pub use crate::pipeline::exec::{
        check_source, fit_failed, fit_output, module_access, project_completed, source_position, syntax_failure, user_stack, Engine,
        ExecRequest, FailedRun, ModuleUse, ModuleUseKind, Projection, Wrapping, DEFAULT_MAX_OUTPUT_BYTES, MAX_SOURCE_UNITS,
        MIN_MESSAGE_UNITS, MIN_VALUE_BYTES,
    };
    pub use crate::pipeline::exec_step::{exec_step_json, run_error_from_json, ExecStep, StepAnswer};
    pub use crate::pipeline::run::{classify_run, classify_run_json, end_at_step};
    pub use crate::wire::{FailurePhase, RunError, RunErrorCode};
}

/// The MCP `CallToolResult` a gateway returns when model code let a failure go uncaught
/// (rule 6).
pub use wire::envelope::mcp_error_envelope;

/// Our JSON Schema (draft 2020-12) for the call error object: a compatible superset of
/// the reference schema of contract version 1.
///
/// ```
/// let schema = codemode_errors::parse_json(codemode_errors::SCHEMA).unwrap();
/// assert_eq!(schema.get("title").and_then(|t| t.as_str()), Some("Code Mode Call Error (contract version 1)"));
/// let required = schema.get("required").and_then(|r| r.as_array()).unwrap();
/// assert!(required.items().iter().any(|k| k.as_str() == Some("kind")));
/// ```
pub const SCHEMA: &str = include_str!("../schema/code-mode-call-error.v1.schema.json");

/// This crate's version.
///
/// ```
/// let parts: Vec<u32> = codemode_errors::VERSION.split('.').map(|p| p.parse().unwrap()).collect();
/// assert_eq!(parts.len(), 3); // major.minor.patch
/// ```
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Normalize one failure report given as JSON text under `policy`. A gateway that
/// normalizes many failures builds one [`Normalizer`] and keeps it.
///
/// ```
/// let report = r#"{"tool":"fs::read_file","transport":{"kind":"timeout","message":"no answer in 30 s"}}"#;
/// let outcome = codemode_errors::normalize_json(report, &Default::default()).unwrap();
/// assert_eq!(outcome.breaker.as_str(), "failure"); // the upstream did not answer
/// assert_eq!(outcome.error.unwrap().kind, "timeout");
/// ```
pub fn normalize_json(report: &str, policy: &Policy) -> Result<Outcome, ReportError> {
    Normalizer::new(policy.clone()).normalize_json(report)
}

/// Normalize one failure report built with the typed constructors under `policy`.
///
/// ```
/// use codemode_errors::{normalize, Failure, FailureReport};
/// let report = FailureReport::new(Failure::budget("budget_exceeded", "the run made 50 calls", None)?);
/// let error = normalize(&report, &Default::default()).error.unwrap();
/// assert_eq!((error.kind.as_str(), error.origin.as_str()), ("budget_exceeded", "budget"));
/// # Ok::<(), codemode_errors::ReportError>(())
/// ```
pub fn normalize(report: &FailureReport, policy: &Policy) -> Outcome {
    Normalizer::new(policy.clone()).normalize(report)
}

/// Sanitize and redact free text (no cap): control and invisible characters go, secrets
/// become `[REDACTED:<family>]`, chat-template markers are defanged.
///
/// ```
/// let clean = codemode_errors::redact_text("retrying with Authorization: Bearer abc.def.ghi123\u{202E}");
/// assert_eq!(clean, "retrying with Authorization: Bearer [REDACTED:authorization]");
/// ```
pub fn redact_text(text: &str) -> String {
    Normalizer::default().redact_text(text)
}

/// Redact a JSON value given as text; returns compact JSON with sorted keys. Members
/// whose key names a secret are masked whatever their value.
///
/// ```
/// let clean = codemode_errors::redact_json(r#"{"user":"ann","password":"hunter2"}"#).unwrap();
/// assert_eq!(clean, r#"{"password":"[REDACTED:secret_field]","user":"ann"}"#);
/// ```
pub fn redact_json(value: &str) -> Result<String, ReportError> {
    Ok(Normalizer::default().redact_json(&parse_json(value)?).to_string())
}
