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
    ///
    /// ```
    /// use codemode_errors_host::{Limits, NativeEngine};
    /// let policy = codemode_errors::Policy::from_json(r#"{"secret_keys":["acme_session"]}"#)?;
    /// let engine = NativeEngine::new(&policy, Limits::default());
    /// assert_eq!(engine.redact_text("acme_session=s3cr3t")?, "acme_session=[REDACTED:secret_field]");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(policy: &core::Policy, limits: Limits) -> Self {
        NativeEngine { normalizer: core::Normalizer::new(policy.clone()), limits }
    }

    /// The limits in force.
    ///
    /// ```
    /// use codemode_errors_host::{Limits, NativeEngine};
    /// let engine = NativeEngine::new(&Default::default(), Limits::default().with_max_input_bytes(1024));
    /// assert_eq!(engine.limits().max_input_bytes, 1024);
    /// assert!(engine.redact_text(&"x".repeat(2000)).unwrap_err().is_limit());
    /// ```
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Normalize a failure report given as JSON text.
    ///
    /// ```
    /// # use codemode_errors_host::{Limits, NativeEngine};
    /// # let engine = NativeEngine::new(&Default::default(), Limits::default());
    /// let outcome = engine.normalize_json(r#"{"tool":"kv::get","transport":{"kind":"timeout","message":"no answer"}}"#)?;
    /// assert_eq!(outcome.error.map(|e| e.kind).as_deref(), Some("timeout"));
    /// assert_eq!(outcome.breaker, codemode_errors_host::wit::Breaker::Failure);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn normalize_json(&self, report: &str) -> Result<Outcome, HostError> {
        check_input(report.len(), &self.limits)?;
        self.normalizer.normalize_json(report).map(|o| from_core::outcome(&o)).map_err(input)
    }

    /// Normalize a typed failure report.
    ///
    /// ```
    /// # use codemode_errors_host::{Limits, NativeEngine};
    /// # let engine = NativeEngine::new(&Default::default(), Limits::default());
    /// use codemode_errors_host::wit::{CallContext, Failure, ToolAnnotations, TransportFailure, TransportKind};
    /// let hints = ToolAnnotations { read_only_hint: Some(true), destructive_hint: None, idempotent_hint: None, open_world_hint: None };
    /// let context = CallContext { tool: Some("fs::read_file".into()), annotations: hints, dispatched: Some(true), input_schema: None, arguments: None };
    /// let failure = Failure::Transport(TransportFailure { kind: TransportKind::Timeout, message: "no answer in 30 s".into() });
    /// let error = engine.normalize(&context, &failure)?.error.unwrap();
    /// assert_eq!((error.kind.as_str(), error.tool.as_deref()), ("timeout", Some("fs::read_file")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn normalize(&self, context: &CallContext, failure: &Failure) -> Result<Outcome, HostError> {
        check_input(typed_input_len(context, failure), &self.limits)?;
        let report = to_core::report(context, failure).map_err(input)?;
        Ok(from_core::outcome(&self.normalizer.normalize(&report)))
    }

    /// Sanitize and redact free text.
    ///
    /// ```
    /// # use codemode_errors_host::{Limits, NativeEngine};
    /// # let engine = NativeEngine::new(&Default::default(), Limits::default());
    /// assert_eq!(engine.redact_text("retry with password=hunter2")?, "retry with password=[REDACTED:secret_field]");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn redact_text(&self, text: &str) -> Result<String, HostError> {
        check_input(text.len(), &self.limits)?;
        Ok(self.normalizer.redact_text(text))
    }

    /// A redacted copy of a JSON value, as compact JSON text.
    ///
    /// ```
    /// # use codemode_errors_host::{Limits, NativeEngine};
    /// # let engine = NativeEngine::new(&Default::default(), Limits::default());
    /// assert_eq!(engine.redact_json(r#"{"user":"ada","api_key":"abc"}"#)?, r#"{"api_key":"[REDACTED:secret_field]","user":"ada"}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn redact_json(&self, value: &str) -> Result<String, HostError> {
        check_input(value.len(), &self.limits)?;
        let value = core::parse_json(value).map_err(input)?;
        Ok(self.normalizer.redact_json(&value).to_json())
    }

    /// Read a contract object back from `Error.message`, its texts cleaned under the
    /// engine's policy (an object the engine made reads back unchanged).
    ///
    /// ```
    /// # use codemode_errors_host::{Limits, NativeEngine};
    /// # let engine = NativeEngine::new(&Default::default(), Limits::default());
    /// let error = engine.parse_call_error(r#"{"kind":"timeout","message":"no answer"}"#)?; // a legacy payload
    /// assert_eq!((error.contract_version, error.kind.as_str()), (1, "timeout"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_call_error(&self, message: &str) -> Result<CallError, HostError> {
        check_input(message.len(), &self.limits)?;
        self.normalizer.parse_call_error(message).map(|e| from_core::call_error(&e)).map_err(input)
    }

    /// Classify how a whole code-mode run ended, from a run report given as JSON text.
    ///
    /// ```
    /// # use codemode_errors_host::{Limits, NativeEngine};
    /// # let engine = NativeEngine::new(&Default::default(), Limits::default());
    /// use codemode_errors_host::wit::{FailurePhase, RunErrorCode};
    /// let end = engine.classify_run(r#"{"bridge_dispatch_started":true,"guest_exception":{"name":"TypeError","message":"x is undefined"}}"#)?;
    /// assert_eq!((end.code, end.failure_phase), (RunErrorCode::InternalError, Some(FailurePhase::Guest)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn classify_run(&self, report: &str) -> Result<RunError, HostError> {
        check_input(report.len(), &self.limits)?;
        core::run::classify_run_json(report).map(|e| from_core::run_error(&e)).map_err(input)
    }

    /// Read the exec tool's arguments; a refused request is the run error that ends the run.
    ///
    /// ```
    /// # use codemode_errors_host::{Limits, NativeEngine};
    /// # let engine = NativeEngine::new(&Default::default(), Limits::default());
    /// let request = engine.read_exec_request(r#"{"code":"return 1","restartSafe":true}"#)?.unwrap();
    /// assert!(request.restart_safe);
    /// let refused = engine.read_exec_request(r#"{"code":"return 1","language":"python"}"#)?.unwrap_err();
    /// assert_eq!(refused.code, codemode_errors_host::wit::RunErrorCode::InvalidInput);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_exec_request(&self, request: &str) -> Result<Result<ExecRequest, RunError>, HostError> {
        check_input(request.len(), &self.limits)?;
        Ok(core::run::ExecRequest::from_json(request).map(|r| from_core::exec_request(&r)).map_err(|f| ends(f, false, false)))
    }

    /// The run error for module access in a source, if any.
    ///
    /// ```
    /// # use codemode_errors_host::{Limits, NativeEngine};
    /// # let engine = NativeEngine::new(&Default::default(), Limits::default());
    /// assert!(engine.module_access("const fs = require('fs')", false)?.is_some());
    /// assert!(engine.module_access("return 'require(x)'", false)?.is_none()); // inside a string
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn module_access(&self, code: &str, restart_safe: bool) -> Result<Option<RunError>, HostError> {
        check_input(code.len(), &self.limits)?;
        Ok(core::run::module_access(code).map(|f| ends(f, false, restart_safe)))
    }

    /// The run error for a syntax error an engine reported, placed in the submitted source.
    ///
    /// ```
    /// # use codemode_errors_host::{Limits, NativeEngine};
    /// # let engine = NativeEngine::new(&Default::default(), Limits::default());
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
    ///
    /// ```
    /// # use codemode_errors_host::{Limits, NativeEngine};
    /// # let engine = NativeEngine::new(&Default::default(), Limits::default());
    /// use codemode_errors_host::{wit, GuestStack};
    /// let wrapping = wit::Wrapping { file: "agent:user.js".into(), lines_before: 1, columns_before: 0, source_lines: None };
    /// let stack = "TypeError: x is undefined\n    at run (agent:user.js:3:9)\n    at /srv/executor.js:88:12";
    /// let error = GuestStack { engine: wit::JsEngine::V8, name: "TypeError", message: "x is undefined", stack, wrapping: &wrapping, label: "agent" };
    /// assert_eq!(engine.user_stack(&error)?, "TypeError: x is undefined\n    at run (agent:user.js:2:9)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn user_stack(&self, error: &GuestStack<'_>) -> Result<String, HostError> {
        check_input(error.len(), &self.limits)?;
        let wrapping = to_core::wrapping(error.wrapping);
        Ok(core::run::user_stack(to_core::js_engine(error.engine), error.name, error.message, error.stack, &wrapping, error.label)
            .into_string())
    }

    /// A completed run's output and value fitted to `max_bytes`; a value that is not JSON
    /// data is the run error that ends the run.
    ///
    /// ```
    /// # use codemode_errors_host::{Limits, NativeEngine};
    /// # let engine = NativeEngine::new(&Default::default(), Limits::default());
    /// use codemode_errors_host::CompletedRun;
    /// let run = CompletedRun { output: "token=abc\n", value: r#"{"n":1}"#, max_bytes: 1024, dispatched: true, restart_safe: false };
    /// let projection = engine.project_completed(&run)?.unwrap();
    /// assert_eq!((projection.output.as_str(), projection.value.as_str()), ("token=[REDACTED:secret_field]\n", r#"{"n":1}"#));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn project_completed(&self, run: &CompletedRun<'_>) -> Result<Result<Projection, RunError>, HostError> {
        check_input(run.output.len() + run.value.len(), &self.limits)?;
        Ok(core::run::project_completed(run.output, run.value, run.max_bytes as usize)
            .map(|p| from_core::projection(&p))
            .map_err(|f| ends(f, run.dispatched, run.restart_safe)))
    }

    /// Console output cleaned and cut to `budget` bytes, and whether it was cut.
    ///
    /// ```
    /// # use codemode_errors_host::{Limits, NativeEngine};
    /// # let engine = NativeEngine::new(&Default::default(), Limits::default());
    /// let (text, cut) = engine.fit_output(&"x".repeat(100), 40)?;
    /// assert!(cut && text.ends_with("…[output truncated]"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fit_output(&self, output: &str, budget: u32) -> Result<(String, bool), HostError> {
        check_input(output.len(), &self.limits)?;
        let (text, cut) = core::run::fit_output(output, budget as usize);
        Ok((text.into_string(), cut))
    }

    /// One executor step as JSON, answered as JSON (see the core's `run::ExecStep`).
    ///
    /// ```
    /// # use codemode_errors_host::{Limits, NativeEngine};
    /// # let engine = NativeEngine::new(&Default::default(), Limits::default());
    /// let answer = engine.exec_step(r#"{"step":"request","request":{"code":"return 1"}}"#)?;
    /// assert_eq!(answer, r#"{"code":"return 1","restartSafe":false}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn exec_step(&self, step: &str) -> Result<String, HostError> {
        check_input(step.len(), &self.limits)?;
        core::run::exec_step_json(step).map_err(input)
    }

    /// The JSON Schema of the call error object.
    ///
    /// ```
    /// # use codemode_errors_host::{Limits, NativeEngine};
    /// # let engine = NativeEngine::new(&Default::default(), Limits::default());
    /// assert_eq!(engine.schema()?, codemode_errors::SCHEMA);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn schema(&self) -> Result<String, HostError> {
        Ok(core::SCHEMA.to_owned())
    }

    /// The library version.
    ///
    /// ```
    /// # use codemode_errors_host::{Limits, NativeEngine};
    /// # let engine = NativeEngine::new(&Default::default(), Limits::default());
    /// assert_eq!(engine.version()?, codemode_errors::VERSION);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn version(&self) -> Result<String, HostError> {
        Ok(core::VERSION.to_owned())
    }
}
