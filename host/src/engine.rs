//! One type for both engines, so a gateway switches between them in one line.

use crate::component::ComponentEngine;
use crate::error::HostError;
use crate::native::NativeEngine;
use crate::wit::{CallContext, CallError, Failure, Outcome, RunError};

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
    /// Read a contract object back from `Error.message`.
    fn parse_call_error(&self, message: &str) -> Result<CallError, HostError>;
    /// Classify how a whole code-mode run ended, from a run report given as JSON text.
    fn classify_run(&self, report: &str) -> Result<RunError, HostError>;
    /// The JSON Schema of the call error object.
    fn schema(&self) -> Result<String, HostError>;
    /// The library version.
    fn version(&self) -> Result<String, HostError>;
}
