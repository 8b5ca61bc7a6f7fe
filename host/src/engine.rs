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
    ///
    /// ```
    /// # use codemode_errors_host::{Engine, Limits, NativeEngine};
    /// # let engine = Engine::Native(NativeEngine::new(&Default::default(), Limits::default()));
    /// let outcome = engine.normalize_json(r#"{"tool":"kv::get","transport":{"kind":"timeout","message":"no answer"}}"#)?;
    /// assert_eq!(outcome.error.map(|e| e.kind).as_deref(), Some("timeout"));
    /// assert_eq!(outcome.breaker, codemode_errors_host::wit::Breaker::Failure);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn normalize_json(&self, report: &str) -> Result<Outcome, HostError>;
    /// Normalize a typed failure report.
    ///
    /// ```
    /// # use codemode_errors_host::{Engine, Limits, NativeEngine};
    /// # let engine = Engine::Native(NativeEngine::new(&Default::default(), Limits::default()));
    /// use codemode_errors_host::wit::{CallContext, Failure, ToolAnnotations, TransportFailure, TransportKind};
    /// let hints = ToolAnnotations { read_only_hint: Some(true), destructive_hint: None, idempotent_hint: None, open_world_hint: None };
    /// let context = CallContext { tool: Some("fs::read_file".into()), annotations: hints, dispatched: Some(true), input_schema: None, arguments: None };
    /// let failure = Failure::Transport(TransportFailure { kind: TransportKind::Timeout, message: "no answer in 30 s".into() });
    /// let error = engine.normalize(&context, &failure)?.error.unwrap();
    /// assert_eq!((error.kind.as_str(), error.tool.as_deref()), ("timeout", Some("fs::read_file")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn normalize(&self, context: &CallContext, failure: &Failure) -> Result<Outcome, HostError>;
    /// Sanitize and redact free text.
    ///
    /// ```
    /// # use codemode_errors_host::{Engine, Limits, NativeEngine};
    /// # let engine = Engine::Native(NativeEngine::new(&Default::default(), Limits::default()));
    /// assert_eq!(engine.redact_text("retry with password=hunter2")?, "retry with password=[REDACTED:secret_field]");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn redact_text(&self, text: &str) -> Result<String, HostError>;
    /// A redacted copy of a JSON value, as compact JSON text.
    ///
    /// ```
    /// # use codemode_errors_host::{Engine, Limits, NativeEngine};
    /// # let engine = Engine::Native(NativeEngine::new(&Default::default(), Limits::default()));
    /// assert_eq!(engine.redact_json(r#"{"user":"ada","api_key":"abc"}"#)?, r#"{"api_key":"[REDACTED:secret_field]","user":"ada"}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn redact_json(&self, value: &str) -> Result<String, HostError>;
    /// Read a contract object back from `Error.message`, under the engine's policy.
    ///
    /// ```
    /// # use codemode_errors_host::{Engine, Limits, NativeEngine};
    /// # let engine = Engine::Native(NativeEngine::new(&Default::default(), Limits::default()));
    /// let error = engine.parse_call_error(r#"{"kind":"timeout","message":"no answer"}"#)?; // a legacy payload
    /// assert_eq!((error.contract_version, error.kind.as_str()), (1, "timeout"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn parse_call_error(&self, message: &str) -> Result<CallError, HostError>;
    /// Classify how a whole code-mode run ended, from a run report given as JSON text.
    ///
    /// ```
    /// # use codemode_errors_host::{Engine, Limits, NativeEngine};
    /// # let engine = Engine::Native(NativeEngine::new(&Default::default(), Limits::default()));
    /// use codemode_errors_host::wit::{FailurePhase, RunErrorCode};
    /// let end = engine.classify_run(r#"{"bridge_dispatch_started":true,"guest_exception":{"name":"TypeError","message":"x is undefined"}}"#)?;
    /// assert_eq!((end.code, end.failure_phase), (RunErrorCode::InternalError, Some(FailurePhase::Guest)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn classify_run(&self, report: &str) -> Result<RunError, HostError>;
    /// Read the exec tool's arguments; a refused request is the run error that ends the run.
    ///
    /// ```
    /// # use codemode_errors_host::{Engine, Limits, NativeEngine};
    /// # let engine = Engine::Native(NativeEngine::new(&Default::default(), Limits::default()));
    /// let request = engine.read_exec_request(r#"{"code":"return 1","restartSafe":true}"#)?.unwrap();
    /// assert!(request.restart_safe);
    /// let refused = engine.read_exec_request(r#"{"code":"return 1","language":"python"}"#)?.unwrap_err();
    /// assert_eq!(refused.code, codemode_errors_host::wit::RunErrorCode::InvalidInput);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn read_exec_request(&self, request: &str) -> Result<Result<ExecRequest, RunError>, HostError>;
    /// The run error for module access in a source, if any.
    ///
    /// ```
    /// # use codemode_errors_host::{Engine, Limits, NativeEngine};
    /// # let engine = Engine::Native(NativeEngine::new(&Default::default(), Limits::default()));
    /// assert!(engine.module_access("const fs = require('fs')", false)?.is_some());
    /// assert!(engine.module_access("return 'require(x)'", false)?.is_none()); // inside a string
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn module_access(&self, code: &str, restart_safe: bool) -> Result<Option<RunError>, HostError>;
    /// The run error for a syntax error an engine reported, placed in the submitted source.
    ///
    /// ```
    /// # use codemode_errors_host::{Engine, Limits, NativeEngine};
    /// # let engine = Engine::Native(NativeEngine::new(&Default::default(), Limits::default()));
    /// use codemode_errors_host::{wit, SyntaxReport};
    /// let wrapping = wit::Wrapping { file: "agent:user.js".into(), lines_before: 1, columns_before: 0, source_lines: None };
    /// let report = SyntaxReport {
    ///     engine: wit::JsEngine::Quickjs,
    ///     message: "unexpected token",
    ///     stack: "    at agent:user.js:3:5",
    ///     position: None,
    ///     wrapping: &wrapping,
    ///     source: "a\nb\nc",
    ///     restart_safe: false,
    /// };
    /// assert_eq!(engine.syntax_error(&report)?.location, Some((2, 5)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn syntax_error(&self, report: &SyntaxReport<'_>) -> Result<RunError, HostError>;
    /// A guest error's stack as the model reads it.
    ///
    /// ```
    /// # use codemode_errors_host::{Engine, Limits, NativeEngine};
    /// # let engine = Engine::Native(NativeEngine::new(&Default::default(), Limits::default()));
    /// use codemode_errors_host::{wit, GuestStack};
    /// let wrapping = wit::Wrapping { file: "agent:user.js".into(), lines_before: 1, columns_before: 0, source_lines: None };
    /// let stack = "TypeError: x is undefined\n    at run (agent:user.js:3:9)\n    at /srv/executor.js:88:12";
    /// let error = GuestStack { engine: wit::JsEngine::V8, name: "TypeError", message: "x is undefined", stack, wrapping: &wrapping, label: "agent" };
    /// assert_eq!(engine.user_stack(&error)?, "TypeError: x is undefined\n    at run (agent:user.js:2:9)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn user_stack(&self, error: &GuestStack<'_>) -> Result<String, HostError>;
    /// A completed run's output and value fitted to its budget.
    ///
    /// ```
    /// # use codemode_errors_host::{Engine, Limits, NativeEngine};
    /// # let engine = Engine::Native(NativeEngine::new(&Default::default(), Limits::default()));
    /// use codemode_errors_host::CompletedRun;
    /// let run = CompletedRun { output: "token=abc\n", value: r#"{"n":1}"#, max_bytes: 1024, dispatched: true, restart_safe: false };
    /// let projection = engine.project_completed(&run)?.unwrap();
    /// assert_eq!((projection.output.as_str(), projection.value.as_str()), ("token=[REDACTED:secret_field]\n", r#"{"n":1}"#));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn project_completed(&self, run: &CompletedRun<'_>) -> Result<Result<Projection, RunError>, HostError>;
    /// Console output cleaned and cut to a budget, and whether it was cut.
    ///
    /// ```
    /// # use codemode_errors_host::{Engine, Limits, NativeEngine};
    /// # let engine = Engine::Native(NativeEngine::new(&Default::default(), Limits::default()));
    /// let (text, cut) = engine.fit_output(&"x".repeat(100), 40)?;
    /// assert!(cut && text.ends_with("…[output truncated]"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn fit_output(&self, output: &str, budget: u32) -> Result<(String, bool), HostError>;
    /// One executor step as JSON, answered as JSON.
    ///
    /// ```
    /// # use codemode_errors_host::{Engine, Limits, NativeEngine};
    /// # let engine = Engine::Native(NativeEngine::new(&Default::default(), Limits::default()));
    /// let answer = engine.exec_step(r#"{"step":"request","request":{"code":"return 1"}}"#)?;
    /// assert_eq!(answer, r#"{"code":"return 1","restartSafe":false}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn exec_step(&self, step: &str) -> Result<String, HostError>;
    /// The JSON Schema of the call error object.
    ///
    /// ```
    /// # use codemode_errors_host::{Engine, Limits, NativeEngine};
    /// # let engine = Engine::Native(NativeEngine::new(&Default::default(), Limits::default()));
    /// assert_eq!(engine.schema()?, codemode_errors::SCHEMA);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn schema(&self) -> Result<String, HostError>;
    /// The library version.
    ///
    /// ```
    /// # use codemode_errors_host::{Engine, Limits, NativeEngine};
    /// # let engine = Engine::Native(NativeEngine::new(&Default::default(), Limits::default()));
    /// assert_eq!(engine.version()?, codemode_errors::VERSION);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn version(&self) -> Result<String, HostError>;
}
