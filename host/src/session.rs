//! A session: several calls in one store, for a gateway that normalizes a batch of
//! failures (one code-mode run's, say) and wants to pay for an instance once.
//!
//! Every call still runs under the engine's limits: the input bound is checked before the
//! call and the execution bound is granted afresh to each call. A call that trips a bound
//! or traps drops the store; the session's next call starts a fresh one, so a hostile
//! input never leaves state behind for the inputs after it.
//!
//! What a session does keep between successful calls: the instance's grown heap (so a
//! long batch of large inputs can reach the memory bound sooner than one-shot calls would,
//! and the call that trips it reports the memory error like any other) and
//! one of the engine's [`crate::MAX_CONCURRENT_CALLS`] pool slots, held until the session
//! is dropped. Open sessions per thread, not per failure, and drop them when the batch
//! ends.

use wasmtime::component::{ComponentExportIndex, ComponentNamedList, Instance, Lift, Lower, ResourceAny};
use wasmtime::Store;

use crate::component::{abort, check_input, ComponentEngine, Exports};
use crate::deadline;
use crate::error::HostError;
use crate::exec::{CompletedRun, GuestStack, SyntaxReport};
use crate::store::{limits_of, CallState};
use crate::typed_input_len;
use crate::wit::{CallContext, CallError, ExecRequest, Failure, InputError, Outcome, Policy, Projection, RunError};

/// Calls that share one instance of the component. Made by [`ComponentEngine::session`];
/// not shared across threads (each thread opens its own).
///
/// ```
/// use codemode_errors_host::{ComponentEngine, Limits};
/// let engine = ComponentEngine::new(&codemode_errors::Policy::default(), Limits::default()).unwrap();
/// let mut session = engine.session();
/// for report in [r#"{"transport":{"kind":"timeout"}}"#, r#"{"transport":{"kind":"dns"}}"#] {
///     let outcome = session.normalize_json(report).unwrap();
///     assert!(outcome.error.is_some());
/// }
/// ```
pub struct Session {
    engine: ComponentEngine,
    live: Option<Live>,
}

/// An instantiated component, and its normalizer once one was needed.
struct Live {
    store: Store<CallState>,
    instance: Instance,
    normalizer: Option<ResourceAny>,
}

impl Live {
    /// Call the export `index` with `params`. Only this export is type-checked, against
    /// the Rust types of the call: the generated bindings' `instantiate` type-checks every
    /// export at every instantiation, a quarter of a fresh store's set-up
    /// (docs/PERFORMANCE-component.md). The whole interface is checked against the WIT
    /// once, when the engine is set up (`CodemodeErrorsPre::new`).
    fn call<P, R>(&mut self, index: &ComponentExportIndex, params: P) -> wasmtime::Result<R>
    where
        P: ComponentNamedList + Lower,
        R: ComponentNamedList + Lift,
    {
        let func = self.instance.get_func(&mut self.store, index).ok_or_else(|| wasmtime::format_err!("the component lacks an export"))?;
        func.typed::<P, R>(&self.store)?.call(&mut self.store, params)
    }
}

impl Session {
    pub(crate) fn new(engine: &ComponentEngine) -> Self {
        Session { engine: engine.clone(), live: None }
    }

    /// Normalize a failure report given as JSON text.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let mut session = ComponentEngine::new(&Default::default(), Limits::default())?.session();
    /// let outcome = session.normalize_json(r#"{"tool":"kv::get","transport":{"kind":"timeout","message":"no answer"}}"#)?;
    /// assert_eq!(outcome.error.map(|e| e.kind).as_deref(), Some("timeout"));
    /// assert_eq!(outcome.breaker, codemode_errors_host::wit::Breaker::Failure);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn normalize_json(&mut self, report: &str) -> Result<Outcome, HostError> {
        self.with_normalizer(report.len(), |live, x, res| live.call(&x.normalize_json, (res, report)).map(|(r,)| r))
    }

    /// Normalize a typed failure report.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let mut session = ComponentEngine::new(&Default::default(), Limits::default())?.session();
    /// use codemode_errors_host::wit::{CallContext, Failure, ToolAnnotations, TransportFailure, TransportKind};
    /// let hints = ToolAnnotations { read_only_hint: Some(true), destructive_hint: None, idempotent_hint: None, open_world_hint: None };
    /// let context = CallContext { tool: Some("fs::read_file".into()), annotations: hints, dispatched: Some(true), input_schema: None, arguments: None };
    /// let failure = Failure::Transport(TransportFailure { kind: TransportKind::Timeout, message: "no answer in 30 s".into() });
    /// let error = session.normalize(&context, &failure)?.error.unwrap();
    /// assert_eq!((error.kind.as_str(), error.tool.as_deref()), ("timeout", Some("fs::read_file")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn normalize(&mut self, context: &CallContext, failure: &Failure) -> Result<Outcome, HostError> {
        self.with_normalizer(typed_input_len(context, failure), |live, x, res| {
            live.call(&x.normalize, (res, context, failure)).map(|(r,)| r)
        })
    }

    /// Sanitize and redact free text.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let mut session = ComponentEngine::new(&Default::default(), Limits::default())?.session();
    /// assert_eq!(session.redact_text("retry with password=hunter2")?, "retry with password=[REDACTED:secret_field]");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn redact_text(&mut self, text: &str) -> Result<String, HostError> {
        self.with_normalizer(text.len(), |live, x, res| live.call(&x.redact_text, (res, text)).map(|(r,)| Ok(r)))
    }

    /// A redacted copy of a JSON value, as compact JSON text.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let mut session = ComponentEngine::new(&Default::default(), Limits::default())?.session();
    /// assert_eq!(session.redact_json(r#"{"user":"ada","api_key":"abc"}"#)?, r#"{"api_key":"[REDACTED:secret_field]","user":"ada"}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn redact_json(&mut self, value: &str) -> Result<String, HostError> {
        self.with_normalizer(value.len(), |live, x, res| live.call(&x.redact_json, (res, value)).map(|(r,)| r))
    }

    /// Read a contract object back from `Error.message`, its texts cleaned under the
    /// engine's policy (an object the engine made reads back unchanged).
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let mut session = ComponentEngine::new(&Default::default(), Limits::default())?.session();
    /// let error = session.parse_call_error(r#"{"kind":"timeout","message":"no answer"}"#)?; // a legacy payload
    /// assert_eq!((error.contract_version, error.kind.as_str()), (1, "timeout"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_call_error(&mut self, message: &str) -> Result<CallError, HostError> {
        self.with_normalizer(message.len(), |live, x, res| live.call(&x.normalizer_parse_call_error, (res, message)).map(|(r,)| r))
    }

    /// Classify how a whole code-mode run ended, from a run report given as JSON text.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let mut session = ComponentEngine::new(&Default::default(), Limits::default())?.session();
    /// use codemode_errors_host::wit::{FailurePhase, RunErrorCode};
    /// let end = session.classify_run(r#"{"bridge_dispatch_started":true,"guest_exception":{"name":"TypeError","message":"x is undefined"}}"#)?;
    /// assert_eq!((end.code, end.failure_phase), (RunErrorCode::InternalError, Some(FailurePhase::Guest)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn classify_run(&mut self, report: &str) -> Result<RunError, HostError> {
        self.call(report.len(), |live, x| live.call::<_, (Result<RunError, InputError>,)>(&x.classify_run, (report,)).map(|(r,)| r))?
            .map_err(HostError::Input)
    }

    /// Read the exec tool's arguments; a refused request is the run error that ends the run.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let mut session = ComponentEngine::new(&Default::default(), Limits::default())?.session();
    /// let request = session.read_exec_request(r#"{"code":"return 1","restartSafe":true}"#)?.unwrap();
    /// assert!(request.restart_safe);
    /// let refused = session.read_exec_request(r#"{"code":"return 1","language":"python"}"#)?.unwrap_err();
    /// assert_eq!(refused.code, codemode_errors_host::wit::RunErrorCode::InvalidInput);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[allow(clippy::result_large_err)] // the WIT's own result, handed back as the component answered
    pub fn read_exec_request(&mut self, request: &str) -> Result<Result<ExecRequest, RunError>, HostError> {
        self.call(request.len(), |live, x| live.call(&x.read_exec_request, (request,)).map(|(r,)| r))
    }

    /// The run error for module access in a source, if any.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let mut session = ComponentEngine::new(&Default::default(), Limits::default())?.session();
    /// assert!(session.module_access("const fs = require('fs')", false)?.is_some());
    /// assert!(session.module_access("return 'require(x)'", false)?.is_none()); // inside a string
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn module_access(&mut self, code: &str, restart_safe: bool) -> Result<Option<RunError>, HostError> {
        self.call(code.len(), |live, x| live.call(&x.module_access, (code, restart_safe)).map(|(r,)| r))
    }

    /// The run error for a syntax error an engine reported, placed in the submitted source.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let mut session = ComponentEngine::new(&Default::default(), Limits::default())?.session();
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
    /// assert_eq!(session.syntax_error(&report)?.location, Some((2, 5)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn syntax_error(&mut self, r: &SyntaxReport<'_>) -> Result<RunError, HostError> {
        self.call(r.len(), |live, x| {
            live.call(&x.syntax_error, (r.engine, r.message, r.stack, r.position, r.wrapping, r.source, r.restart_safe)).map(|(e,)| e)
        })
    }

    /// A guest error's stack as the model reads it.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let mut session = ComponentEngine::new(&Default::default(), Limits::default())?.session();
    /// use codemode_errors_host::{wit, GuestStack};
    /// let wrapping = wit::Wrapping { file: "agent:user.js".into(), lines_before: 1, columns_before: 0, source_lines: None };
    /// let stack = "TypeError: x is undefined\n    at run (agent:user.js:3:9)\n    at /srv/executor.js:88:12";
    /// let error = GuestStack { engine: wit::JsEngine::V8, name: "TypeError", message: "x is undefined", stack, wrapping: &wrapping, label: "agent" };
    /// assert_eq!(session.user_stack(&error)?, "TypeError: x is undefined\n    at run (agent:user.js:2:9)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn user_stack(&mut self, e: &GuestStack<'_>) -> Result<String, HostError> {
        self.call(e.len(), |live, x| live.call(&x.user_stack, (e.engine, e.name, e.message, e.stack, e.wrapping, e.label)).map(|(s,)| s))
    }

    /// A completed run's output and value fitted to its budget; a value that is not JSON
    /// data is the run error that ends the run.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let mut session = ComponentEngine::new(&Default::default(), Limits::default())?.session();
    /// use codemode_errors_host::CompletedRun;
    /// let run = CompletedRun { output: "token=abc\n", value: r#"{"n":1}"#, max_bytes: 1024, dispatched: true, restart_safe: false };
    /// let projection = session.project_completed(&run)?.unwrap();
    /// assert_eq!((projection.output.as_str(), projection.value.as_str()), ("token=[REDACTED:secret_field]\n", r#"{"n":1}"#));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[allow(clippy::result_large_err)] // the WIT's own result, handed back as the component answered
    pub fn project_completed(&mut self, run: &CompletedRun<'_>) -> Result<Result<Projection, RunError>, HostError> {
        self.call(run.output.len() + run.value.len(), |live, x| {
            live.call(&x.project_completed, (run.output, run.value, run.max_bytes, run.dispatched, run.restart_safe)).map(|(r,)| r)
        })
    }

    /// Console output cleaned and cut to `budget` bytes, and whether it was cut.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let mut session = ComponentEngine::new(&Default::default(), Limits::default())?.session();
    /// let (text, cut) = session.fit_output(&"x".repeat(100), 40)?;
    /// assert!(cut && text.ends_with("…[output truncated]"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fit_output(&mut self, output: &str, budget: u32) -> Result<(String, bool), HostError> {
        self.call(output.len(), |live, x| live.call(&x.fit_output, (output, budget)).map(|(r,)| r))
    }

    /// One executor step as JSON, answered as JSON (see the core's `run::ExecStep`).
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let mut session = ComponentEngine::new(&Default::default(), Limits::default())?.session();
    /// let answer = session.exec_step(r#"{"step":"request","request":{"code":"return 1"}}"#)?;
    /// assert_eq!(answer, r#"{"code":"return 1","restartSafe":false}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn exec_step(&mut self, step: &str) -> Result<String, HostError> {
        self.call(step.len(), |live, x| live.call::<_, (Result<String, InputError>,)>(&x.exec_step, (step,)).map(|(r,)| r))?
            .map_err(HostError::Input)
    }

    /// The JSON Schema of the call error object.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let mut session = ComponentEngine::new(&Default::default(), Limits::default())?.session();
    /// assert_eq!(session.schema()?, codemode_errors::SCHEMA);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn schema(&mut self) -> Result<String, HostError> {
        self.call(0, |live, x| live.call(&x.schema, ()).map(|(s,)| s))
    }

    /// The library version inside the component.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let mut session = ComponentEngine::new(&Default::default(), Limits::default())?.session();
    /// assert_eq!(session.version()?, codemode_errors::VERSION);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn version(&mut self) -> Result<String, HostError> {
        self.call(0, |live, x| live.call(&x.version, ()).map(|(s,)| s))
    }

    /// Run `f` on this session's normalizer (built from the engine's policy on first use).
    fn with_normalizer<R>(
        &mut self,
        input_len: usize,
        f: impl FnOnce(&mut Live, &Exports, ResourceAny) -> wasmtime::Result<Result<R, InputError>>,
    ) -> Result<R, HostError> {
        let policy = self.engine.policy();
        self.call(input_len, |live, exports| {
            let resource = match live.normalizer {
                Some(resource) => resource,
                None => match live.call::<(&Policy,), (Result<ResourceAny, InputError>,)>(&exports.create, (&*policy,))?.0 {
                    Ok(resource) => *live.normalizer.insert(resource),
                    Err(e) => return Ok(Err(e)),
                },
            };
            f(live, exports, resource)
        })?
        .map_err(HostError::Input)
    }

    /// Check the input bound, arm the execution bound, run `f` on the live instance
    /// (instantiating one if there is none), and drop the instance if the call failed.
    fn call<R>(&mut self, input_len: usize, f: impl FnOnce(&mut Live, &Exports) -> wasmtime::Result<R>) -> Result<R, HostError> {
        check_input(input_len, &self.engine.limits())?;
        let mut live = match self.live.take() {
            Some(live) => live,
            None => self.engine.instantiate()?,
        };
        deadline::arm(&mut live.store, self.engine.limits().deadline);
        match f(&mut live, self.engine.exports()) {
            Ok(answer) => {
                self.live = Some(live);
                Ok(answer)
            }
            // Trapped or out of bounds: this instance is dropped, never used again.
            Err(e) => Err(abort(&live.store, e)),
        }
    }
}

impl ComponentEngine {
    /// A session: calls that share one instance until one of them fails (see [`Session`]).
    /// Cheaper per call than the engine's own methods, which instantiate for every call.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// let mut session = engine.session();
    /// for text in ["password=a", "token=b"] {
    ///     assert!(session.redact_text(text)?.contains("[REDACTED:secret_field]")); // one instance for both
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn session(&self) -> Session {
        Session::new(self)
    }

    /// A fresh store under this engine's limits, with the component instantiated in it.
    fn instantiate(&self) -> Result<Live, HostError> {
        let mut store = Store::new(self.pre().engine(), CallState::new(&self.limits()));
        store.limiter(limits_of);
        // Instantiation runs the guest's start code, which the deadline covers too.
        deadline::arm(&mut store, self.limits().deadline);
        // The instance alone: each call type-checks only the export it calls (`Live::call`).
        match self.pre().instance_pre().instantiate(&mut store) {
            Ok(instance) => Ok(Live { store, instance, normalizer: None }),
            Err(e) => Err(abort(&store, e)),
        }
    }
}
