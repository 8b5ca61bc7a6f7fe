//! The native engine: the core called directly, with the same API and the same answers
//! (as WIT-typed values) as the component engine.

use crate::component::check_input;
use crate::error::HostError;
use crate::limits::Limits;
use crate::wit::{CallContext, CallError, Failure, Outcome, RunError};
use crate::{core, from_core, to_core, typed_input_len};

/// Runs the core in-process. Only the input bound of [`Limits`] applies.
///
/// ```
/// use codemode_errors_host::{Limits, NativeEngine};
/// let engine = NativeEngine::new(&codemode_errors::Policy::default(), Limits::default());
/// let outcome = engine.normalize_json(r#"{"transport":{"kind":"timeout","message":"no answer"}}"#).unwrap();
/// assert!(outcome.json.contains("\"kind\":\"timeout\""));
/// ```
#[derive(Clone, Debug)]
pub struct NativeEngine {
    normalizer: core::Normalizer,
    limits: Limits,
}

fn input(e: core::ReportError) -> HostError {
    HostError::Input(from_core::input_error(e))
}

impl NativeEngine {
    /// The core under `policy`, with `limits`' input bound.
    pub fn new(policy: &core::Policy, limits: Limits) -> Self {
        NativeEngine { normalizer: core::Normalizer::new(policy.clone()), limits }
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Normalize a failure report given as JSON text.
    pub fn normalize_json(&self, report: &str) -> Result<Outcome, HostError> {
        check_input(report.len(), &self.limits)?;
        self.normalizer.normalize_json(report).map(|o| from_core::outcome(&o)).map_err(input)
    }

    /// Normalize a typed failure report.
    pub fn normalize(&self, context: &CallContext, failure: &Failure) -> Result<Outcome, HostError> {
        check_input(typed_input_len(context, failure), &self.limits)?;
        let report = to_core::report(context, failure).map_err(input)?;
        Ok(from_core::outcome(&self.normalizer.normalize(&report)))
    }

    /// Sanitize and redact free text.
    pub fn redact_text(&self, text: &str) -> Result<String, HostError> {
        check_input(text.len(), &self.limits)?;
        Ok(self.normalizer.redact_text(text))
    }

    /// A redacted copy of a JSON value, as compact JSON text.
    pub fn redact_json(&self, value: &str) -> Result<String, HostError> {
        check_input(value.len(), &self.limits)?;
        let value = core::parse_json(value).map_err(input)?;
        Ok(self.normalizer.redact_json(&value).to_json())
    }

    /// Read a contract object back from `Error.message`.
    pub fn parse_call_error(&self, message: &str) -> Result<CallError, HostError> {
        check_input(message.len(), &self.limits)?;
        core::parse_call_error(message).map(|e| from_core::call_error(&e)).map_err(input)
    }

    /// Classify how a whole code-mode run ended, from a run report given as JSON text.
    pub fn classify_run(&self, report: &str) -> Result<RunError, HostError> {
        check_input(report.len(), &self.limits)?;
        core::run::classify_run_json(report).map(|e| from_core::run_error(&e)).map_err(input)
    }

    /// The JSON Schema of the call error object.
    pub fn schema(&self) -> Result<String, HostError> {
        Ok(core::SCHEMA.to_owned())
    }

    /// The library version.
    pub fn version(&self) -> Result<String, HostError> {
        Ok(core::VERSION.to_owned())
    }
}
