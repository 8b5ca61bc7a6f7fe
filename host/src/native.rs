//! The native engine: the core called directly, with the same API and the same answers
//! (as WIT-typed values) as the component engine.

use crate::component::check_input;
use crate::error::HostError;
use crate::exec::{ends, CompletedRun, GuestStack, SyntaxReport};
use crate::limits::Limits;
use crate::wit::{CallContext, CallError, ExecRequest, Failure, Outcome, Projection, RunError};

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

    /// Read a contract object back from `Error.message`, its texts cleaned under the
    /// engine's policy (an object the engine made reads back unchanged).
    pub fn parse_call_error(&self, message: &str) -> Result<CallError, HostError> {
        check_input(message.len(), &self.limits)?;
        self.normalizer.parse_call_error(message).map(|e| from_core::call_error(&e)).map_err(input)
    }

    /// Classify how a whole code-mode run ended, from a run report given as JSON text.
    pub fn classify_run(&self, report: &str) -> Result<RunError, HostError> {
        check_input(report.len(), &self.limits)?;
        core::run::classify_run_json(report).map(|e| from_core::run_error(&e)).map_err(input)
    }

    /// Read the exec tool's arguments; a refused request is the run error that ends the run.
    pub fn read_exec_request(&self, request: &str) -> Result<Result<ExecRequest, RunError>, HostError> {
        check_input(request.len(), &self.limits)?;
        Ok(core::run::ExecRequest::from_json(request).map(|r| from_core::exec_request(&r)).map_err(|f| ends(f, false, false)))
    }

    /// The run error for module access in a source, if any.
    pub fn module_access(&self, code: &str, restart_safe: bool) -> Result<Option<RunError>, HostError> {
        check_input(code.len(), &self.limits)?;
        Ok(core::run::module_access(code).map(|f| ends(f, false, restart_safe)))
    }

    /// The run error for a syntax error an engine reported, placed in the submitted source.
    pub fn syntax_error(&self, report: &SyntaxReport<'_>) -> Result<RunError, HostError> {
        check_input(report.len(), &self.limits)?;
        let failure = core::run::syntax_failure(
            to_core::js_engine(report.engine),
            report.message,
            report.stack,
            report.position,
            &to_core::wrapping(report.wrapping),
            report.source,
        );
        Ok(ends(failure, false, report.restart_safe))
    }

    /// A guest error's stack as the model reads it.
    pub fn user_stack(&self, error: &GuestStack<'_>) -> Result<String, HostError> {
        check_input(error.len(), &self.limits)?;
        let wrapping = to_core::wrapping(error.wrapping);
        Ok(core::run::user_stack(to_core::js_engine(error.engine), error.name, error.message, error.stack, &wrapping, error.label)
            .into_string())
    }

    /// A completed run's output and value fitted to `max_bytes`; a value that is not JSON
    /// data is the run error that ends the run.
    pub fn project_completed(&self, run: &CompletedRun<'_>) -> Result<Result<Projection, RunError>, HostError> {
        check_input(run.output.len() + run.value.len(), &self.limits)?;
        Ok(core::run::project_completed(run.output, run.value, run.max_bytes as usize)
            .map(|p| from_core::projection(&p))
            .map_err(|f| ends(f, run.dispatched, run.restart_safe)))
    }

    /// Console output cleaned and cut to `budget` bytes, and whether it was cut.
    pub fn fit_output(&self, output: &str, budget: u32) -> Result<(String, bool), HostError> {
        check_input(output.len(), &self.limits)?;
        let (text, cut) = core::run::fit_output(output, budget as usize);
        Ok((text.into_string(), cut))
    }

    /// One executor step as JSON, answered as JSON (see the core's `run::ExecStep`).
    pub fn exec_step(&self, step: &str) -> Result<String, HostError> {
        check_input(step.len(), &self.limits)?;
        core::run::exec_step_json(step).map_err(input)
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
