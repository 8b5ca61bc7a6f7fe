//! One type for both engines, so a gateway switches between them in one line.

use crate::component::ComponentEngine;
use crate::error::HostError;
use crate::exec::{CompletedRun, GuestStack, SyntaxReport};
use crate::native::NativeEngine;
use crate::wit::{CallContext, CallError, ExecRequest, Failure, Outcome, Projection, RunError};

/// The native core or the component, behind the same methods with the same answers.
///
/// ```
/// use codemode_errors_host::{Engine, Limits, NativeEngine};
/// let policy = codemode_errors::Policy::default();
/// let engine = Engine::Native(NativeEngine::new(&policy, Limits::default()));
/// // let engine = Engine::Component(ComponentEngine::new(&policy, Limits::default())?);
/// let outcome = engine.normalize_json(r#"{"policy":{"kind":"forbidden","message":"no"}}"#).unwrap();
/// assert!(outcome.json.ends_with(r#""breaker":"none"}"#));
/// ```
// A gateway holds one or two of these for its whole life; boxing would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum Engine {
    /// The core, in-process.
    Native(NativeEngine),
    /// The core as a WASI component under wasmtime, with per-call limits.
    Component(ComponentEngine),
}

macro_rules! delegate {
    ($($(#[$doc:meta])* fn $name:ident(&self $(, $arg:ident: $ty:ty)*) -> $ret:ty;)+) => {
        impl Engine {
            $(
                $(#[$doc])*
                pub fn $name(&self $(, $arg: $ty)*) -> $ret {
                    match self {
                        Engine::Native(e) => e.$name($($arg),*),
                        Engine::Component(e) => e.$name($($arg),*),
                    }
                }
            )+
        }
    };
}

delegate! {
    /// Normalize a failure report given as JSON text.
    fn normalize_json(&self, report: &str) -> Result<Outcome, HostError>;
    /// Normalize a typed failure report.
    fn normalize(&self, context: &CallContext, failure: &Failure) -> Result<Outcome, HostError>;
    /// Sanitize and redact free text.
    fn redact_text(&self, text: &str) -> Result<String, HostError>;
    /// A redacted copy of a JSON value, as compact JSON text.
    fn redact_json(&self, value: &str) -> Result<String, HostError>;
    /// Read a contract object back from `Error.message`, under the engine's policy.
    fn parse_call_error(&self, message: &str) -> Result<CallError, HostError>;
    /// Classify how a whole code-mode run ended, from a run report given as JSON text.
    fn classify_run(&self, report: &str) -> Result<RunError, HostError>;
    /// Read the exec tool's arguments; a refused request is the run error that ends the run.
    fn read_exec_request(&self, request: &str) -> Result<Result<ExecRequest, RunError>, HostError>;
    /// The run error for module access in a source, if any.
    fn module_access(&self, code: &str, restart_safe: bool) -> Result<Option<RunError>, HostError>;
    /// The run error for a syntax error an engine reported, placed in the submitted source.
    fn syntax_error(&self, report: &SyntaxReport<'_>) -> Result<RunError, HostError>;
    /// A guest error's stack as the model reads it.
    fn user_stack(&self, error: &GuestStack<'_>) -> Result<String, HostError>;
    /// A completed run's output and value fitted to its budget.
    fn project_completed(&self, run: &CompletedRun<'_>) -> Result<Result<Projection, RunError>, HostError>;
    /// Console output cleaned and cut to a budget, and whether it was cut.
    fn fit_output(&self, output: &str, budget: u32) -> Result<(String, bool), HostError>;
    /// One executor step as JSON, answered as JSON.
    fn exec_step(&self, step: &str) -> Result<String, HostError>;
    /// The JSON Schema of the call error object.
    fn schema(&self) -> Result<String, HostError>;
    /// The library version.
    fn version(&self) -> Result<String, HostError>;
}
