//! The component engine: the core compiled to WebAssembly, run by wasmtime.
//!
//! The wasmtime `Engine`, the compiled `Component` and the linked `InstancePre` are built
//! once and shared across threads (`ComponentEngine` is cheap to clone). Every call gets a
//! fresh `Store` with its own limits, instantiates, calls, and drops the store, so a trap
//! can never leave state behind for the next call.

use std::sync::Arc;

use wasmtime::component::{Component, ComponentExportIndex, Linker};
use wasmtime::{Config, Enabled, InstanceAllocationStrategy, PoolingAllocationConfig, Store};

use crate::bindings::CodemodeErrorsPre;
use crate::cache::{CacheEvent, CompileCache};
use crate::deadline;
use crate::error::{AbortCause, Aborted, HostError, SetupError};
use crate::exec::{CompletedRun, GuestStack, SyntaxReport};
use crate::limits::Limits;
use crate::store::CallState;
use crate::wit::{CallContext, CallError, ExecRequest, Failure, Outcome, Policy, Projection, RunError};
use crate::{core, from_core, GUEST_COMPONENT};

/// Runs the core as a WASI component. Clone it freely: clones share the engine and the
/// compiled component.
///
/// ```
/// use codemode_errors_host::{ComponentEngine, Limits};
/// let engine = ComponentEngine::new(&codemode_errors::Policy::default(), Limits::default()).unwrap();
/// let outcome = engine.normalize_json(r#"{"transport":{"kind":"timeout","message":"no answer"}}"#).unwrap();
/// assert!(outcome.json.contains("\"kind\":\"timeout\""));
/// ```
#[derive(Clone)]
pub struct ComponentEngine {
    pre: CodemodeErrorsPre<CallState>,
    /// The exports the engine calls, looked up once.
    exports: Arc<Exports>,
    /// The policy as the WIT record, shared by the engine's clones and sessions.
    policy: Arc<Policy>,
    limits: Limits,
    cache_event: CacheEvent,
}

impl ComponentEngine {
    /// The embedded component under `policy` and `limits`, compiled through the default
    /// cache ([`CompileCache::from_env`]).
    ///
    /// ```
    /// use codemode_errors_host::{ComponentEngine, Limits};
    /// let policy = codemode_errors::Policy::from_json(r#"{"max_text_chars": 2048}"#)?;
    /// let engine = ComponentEngine::new(&policy, Limits::default())?; // compiled once, then cached
    /// assert_eq!(engine.redact_text("password=hunter2")?, "password=[REDACTED:secret_field]");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(policy: &core::Policy, limits: Limits) -> Result<Self, SetupError> {
        Self::with_component(GUEST_COMPONENT, &CompileCache::from_env(), policy, limits)
    }

    /// A component given as `.wasm` bytes, compiled through `cache` (a hit deserializes the
    /// compiled artifact instead of compiling).
    ///
    /// ```
    /// use codemode_errors_host::{CompileCache, ComponentEngine, Limits, GUEST_COMPONENT};
    /// let engine = ComponentEngine::with_component(GUEST_COMPONENT, &CompileCache::from_env(), &Default::default(), Limits::default())?;
    /// assert_eq!(engine.version()?, codemode_errors::VERSION);
    /// // An empty component compiles, but lacks the interface: setting up fails, nothing panics.
    /// let empty = b"\0asm\x0d\x00\x01\x00";
    /// assert!(ComponentEngine::with_component(empty, &CompileCache::Disabled, &Default::default(), Limits::default()).is_err());
    ///
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_component(component: &[u8], cache: &CompileCache, policy: &core::Policy, limits: Limits) -> Result<Self, SetupError> {
        let engine = new_engine().map_err(SetupError)?;
        deadline::start_ticker(&engine).map_err(|e| SetupError(e.into()))?;
        let (component, cache_event) = cache.load_or_compile(&engine, component).map_err(SetupError)?;
        let mut linker = Linker::<CallState>::new(&engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker).map_err(SetupError)?;
        // `CodemodeErrorsPre::new` type-checks the whole interface against the WIT, once.
        let pre = linker.instantiate_pre(&component).and_then(CodemodeErrorsPre::new).map_err(SetupError)?;
        let exports = Arc::new(Exports::new(&component).map_err(SetupError)?);
        Ok(ComponentEngine { pre, exports, policy: Arc::new(from_core::policy(policy)), limits, cache_event })
    }

    /// This engine (sharing its compiled component) with other limits.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// use std::time::Duration;
    /// let strict = engine.with_limits(Limits::default().with_deadline(Duration::ZERO)); // shares the compiled component
    /// let err = strict.redact_text("password=hunter2").unwrap_err();
    /// assert!(err.is_limit()); // a zero deadline stops every call at once
    /// assert!(engine.redact_text("password=hunter2").is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_limits(&self, limits: Limits) -> Self {
        ComponentEngine { limits, ..self.clone() }
    }

    /// This engine (sharing its compiled component) under another policy.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// let acme = engine.with_policy(&codemode_errors::Policy::default().with_secret_key("acme_session")?);
    /// assert_eq!(acme.redact_text("acme_session=s3cr3t")?, "acme_session=[REDACTED:secret_field]");
    /// assert_eq!(engine.redact_text("acme_session=s3cr3t")?, "acme_session=s3cr3t");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_policy(&self, policy: &core::Policy) -> Self {
        ComponentEngine { policy: Arc::new(from_core::policy(policy)), ..self.clone() }
    }

    /// The limits in force.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// assert_eq!(engine.limits(), Limits::default());
    /// assert_eq!(engine.with_limits(Limits::default().with_max_input_bytes(64)).limits().max_input_bytes, 64);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Whether the compiled component came from the cache.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// use codemode_errors_host::CacheEvent;
    /// // Hit once an earlier process stored the compiled component.
    /// assert!(matches!(engine.cache_event(), CacheEvent::Hit | CacheEvent::Stored | CacheEvent::Compiled));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cache_event(&self) -> CacheEvent {
        self.cache_event
    }

    /// The component's imports, as `name` strings (WASI interfaces the linker grants).
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// let imports = engine.imports();
    /// assert!(imports.iter().all(|name| name.starts_with("wasi:"))); // nothing but WASI
    /// assert!(!imports.iter().any(|name| name.starts_with("wasi:filesystem") || name.starts_with("wasi:sockets")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn imports(&self) -> Vec<String> {
        let component = self.pre.instance_pre().component();
        let engine = self.pre.engine();
        component.component_type().imports(engine).map(|(name, _)| name.to_owned()).collect()
    }

    /// Normalize a failure report given as JSON text.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// let outcome = engine.normalize_json(r#"{"tool":"kv::get","transport":{"kind":"timeout","message":"no answer"}}"#)?;
    /// assert_eq!(outcome.error.map(|e| e.kind).as_deref(), Some("timeout"));
    /// assert_eq!(outcome.breaker, codemode_errors_host::wit::Breaker::Failure);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn normalize_json(&self, report: &str) -> Result<Outcome, HostError> {
        self.session().normalize_json(report)
    }

    /// Normalize a typed failure report.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// use codemode_errors_host::wit::{CallContext, Failure, ToolAnnotations, TransportFailure, TransportKind};
    /// let hints = ToolAnnotations { read_only_hint: Some(true), destructive_hint: None, idempotent_hint: None, open_world_hint: None };
    /// let context = CallContext { tool: Some("fs::read_file".into()), annotations: hints, dispatched: Some(true), input_schema: None, arguments: None };
    /// let failure = Failure::Transport(TransportFailure { kind: TransportKind::Timeout, message: "no answer in 30 s".into() });
    /// let error = engine.normalize(&context, &failure)?.error.unwrap();
    /// assert_eq!((error.kind.as_str(), error.tool.as_deref()), ("timeout", Some("fs::read_file")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn normalize(&self, context: &CallContext, failure: &Failure) -> Result<Outcome, HostError> {
        self.session().normalize(context, failure)
    }

    /// Sanitize and redact free text.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// assert_eq!(engine.redact_text("retry with password=hunter2")?, "retry with password=[REDACTED:secret_field]");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn redact_text(&self, text: &str) -> Result<String, HostError> {
        self.session().redact_text(text)
    }

    /// A redacted copy of a JSON value, as compact JSON text.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// assert_eq!(engine.redact_json(r#"{"user":"ada","api_key":"abc"}"#)?, r#"{"api_key":"[REDACTED:secret_field]","user":"ada"}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn redact_json(&self, value: &str) -> Result<String, HostError> {
        self.session().redact_json(value)
    }

    /// Read a contract object back from `Error.message`, under the engine's policy.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// let error = engine.parse_call_error(r#"{"kind":"timeout","message":"no answer"}"#)?; // a legacy payload
    /// assert_eq!((error.contract_version, error.kind.as_str()), (1, "timeout"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_call_error(&self, message: &str) -> Result<CallError, HostError> {
        self.session().parse_call_error(message)
    }

    /// Classify how a whole code-mode run ended, from a run report given as JSON text.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// use codemode_errors_host::wit::{FailurePhase, RunErrorCode};
    /// let end = engine.classify_run(r#"{"bridge_dispatch_started":true,"guest_exception":{"name":"TypeError","message":"x is undefined"}}"#)?;
    /// assert_eq!((end.code, end.failure_phase), (RunErrorCode::InternalError, Some(FailurePhase::Guest)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn classify_run(&self, report: &str) -> Result<RunError, HostError> {
        self.session().classify_run(report)
    }

    /// Read the exec tool's arguments; a refused request is the run error that ends the run.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// let request = engine.read_exec_request(r#"{"code":"return 1","restartSafe":true}"#)?.unwrap();
    /// assert!(request.restart_safe);
    /// let refused = engine.read_exec_request(r#"{"code":"return 1","language":"python"}"#)?.unwrap_err();
    /// assert_eq!(refused.code, codemode_errors_host::wit::RunErrorCode::InvalidInput);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_exec_request(&self, request: &str) -> Result<Result<ExecRequest, RunError>, HostError> {
        self.session().read_exec_request(request)
    }

    /// The run error for module access in a source, if any.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// assert!(engine.module_access("const fs = require('fs')", false)?.is_some());
    /// assert!(engine.module_access("return 'require(x)'", false)?.is_none()); // inside a string
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn module_access(&self, code: &str, restart_safe: bool) -> Result<Option<RunError>, HostError> {
        self.session().module_access(code, restart_safe)
    }

    /// The run error for a syntax error an engine reported, placed in the submitted source.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
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
        self.session().syntax_error(report)
    }

    /// A guest error's stack as the model reads it.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// use codemode_errors_host::{wit, GuestStack};
    /// let wrapping = wit::Wrapping { file: "agent:user.js".into(), lines_before: 1, columns_before: 0, source_lines: None };
    /// let stack = "TypeError: x is undefined\n    at run (agent:user.js:3:9)\n    at /srv/executor.js:88:12";
    /// let error = GuestStack { engine: wit::JsEngine::V8, name: "TypeError", message: "x is undefined", stack, wrapping: &wrapping, label: "agent" };
    /// assert_eq!(engine.user_stack(&error)?, "TypeError: x is undefined\n    at run (agent:user.js:2:9)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn user_stack(&self, error: &GuestStack<'_>) -> Result<String, HostError> {
        self.session().user_stack(error)
    }

    /// A completed run's output and value fitted to its budget; a value that is not JSON
    /// data is the run error that ends the run.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// use codemode_errors_host::CompletedRun;
    /// let run = CompletedRun { output: "token=abc\n", value: r#"{"n":1}"#, max_bytes: 1024, dispatched: true, restart_safe: false };
    /// let projection = engine.project_completed(&run)?.unwrap();
    /// assert_eq!((projection.output.as_str(), projection.value.as_str()), ("token=[REDACTED:secret_field]\n", r#"{"n":1}"#));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn project_completed(&self, run: &CompletedRun<'_>) -> Result<Result<Projection, RunError>, HostError> {
        self.session().project_completed(run)
    }

    /// Console output cleaned and cut to `budget` bytes, and whether it was cut.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// let (text, cut) = engine.fit_output(&"x".repeat(100), 40)?;
    /// assert!(cut && text.ends_with("…[output truncated]"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fit_output(&self, output: &str, budget: u32) -> Result<(String, bool), HostError> {
        self.session().fit_output(output, budget)
    }

    /// One executor step as JSON, answered as JSON (see the core's `run::ExecStep`).
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// let answer = engine.exec_step(r#"{"step":"request","request":{"code":"return 1"}}"#)?;
    /// assert_eq!(answer, r#"{"code":"return 1","restartSafe":false}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn exec_step(&self, step: &str) -> Result<String, HostError> {
        self.session().exec_step(step)
    }

    /// The JSON Schema of the call error object.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// assert_eq!(engine.schema()?, codemode_errors::SCHEMA);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn schema(&self) -> Result<String, HostError> {
        self.session().schema()
    }

    /// The library version inside the component.
    ///
    /// ```
    /// # use codemode_errors_host::{ComponentEngine, Limits};
    /// # let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
    /// assert_eq!(engine.version()?, codemode_errors::VERSION);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn version(&self) -> Result<String, HostError> {
        self.session().version()
    }

    /// The policy every normalizer of this engine is built from.
    pub(crate) fn policy(&self) -> Arc<Policy> {
        Arc::clone(&self.policy)
    }

    /// The linked, pre-instantiated component.
    pub(crate) fn pre(&self) -> &CodemodeErrorsPre<CallState> {
        &self.pre
    }

    /// The exports the engine calls.
    pub(crate) fn exports(&self) -> &Exports {
        &self.exports
    }
}

/// The interface the engine calls.
const API: &str = "codemode:errors/api@0.2.0";

/// The indices of the exports the engine calls, looked up by name once per engine.
pub(crate) struct Exports {
    pub(crate) create: ComponentExportIndex,
    pub(crate) normalize_json: ComponentExportIndex,
    pub(crate) normalize: ComponentExportIndex,
    pub(crate) redact_text: ComponentExportIndex,
    pub(crate) redact_json: ComponentExportIndex,
    pub(crate) normalizer_parse_call_error: ComponentExportIndex,
    pub(crate) classify_run: ComponentExportIndex,
    pub(crate) read_exec_request: ComponentExportIndex,
    pub(crate) module_access: ComponentExportIndex,
    pub(crate) syntax_error: ComponentExportIndex,
    pub(crate) user_stack: ComponentExportIndex,
    pub(crate) project_completed: ComponentExportIndex,
    pub(crate) fit_output: ComponentExportIndex,
    pub(crate) exec_step: ComponentExportIndex,
    pub(crate) schema: ComponentExportIndex,
    pub(crate) version: ComponentExportIndex,
}

impl Exports {
    fn new(component: &Component) -> wasmtime::Result<Exports> {
        let api = component.get_export_index(None, API).ok_or_else(|| wasmtime::format_err!("no export `{API}` found"))?;
        let f = |name: &str| {
            component.get_export_index(Some(&api), name).ok_or_else(|| wasmtime::format_err!("no export `{name}` found in `{API}`"))
        };
        Ok(Exports {
            create: f("[static]normalizer.create")?,
            normalize_json: f("[method]normalizer.normalize-json")?,
            normalize: f("[method]normalizer.normalize")?,
            redact_text: f("[method]normalizer.redact-text")?,
            redact_json: f("[method]normalizer.redact-json")?,
            normalizer_parse_call_error: f("[method]normalizer.parse-call-error")?,
            classify_run: f("classify-run")?,
            read_exec_request: f("read-exec-request")?,
            module_access: f("module-access")?,
            syntax_error: f("syntax-error")?,
            user_stack: f("user-stack")?,
            project_completed: f("project-completed")?,
            fit_output: f("fit-output")?,
            exec_step: f("exec-step")?,
            schema: f("schema")?,
            version: f("version")?,
        })
    }
}

/// Most component instances alive at once per engine (the pooling allocator's slots): calls
/// in flight plus open sessions. Beyond it an instantiation fails, reported as a trap.
///
/// ```
/// use codemode_errors_host::{ComponentEngine, Limits, MAX_CONCURRENT_CALLS};
/// let engine = ComponentEngine::new(&Default::default(), Limits::default())?;
/// let sessions: Vec<_> = (0..4).map(|_| engine.session()).collect(); // each holds a slot once used
/// assert!(sessions.len() < MAX_CONCURRENT_CALLS as usize);
///
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const MAX_CONCURRENT_CALLS: u32 = 256;

/// Linear memory kept resident between calls, per pool slot: more than a typical call
/// touches (stack, data, heap), far less than the memory bound.
///
/// ```
/// use codemode_errors_host::{limits::DEFAULT_MAX_MEMORY_BYTES, KEEP_RESIDENT_BYTES};
/// assert!(KEEP_RESIDENT_BYTES < DEFAULT_MAX_MEMORY_BYTES);
/// ```
pub const KEEP_RESIDENT_BYTES: usize = 4 << 20;

/// Table memory kept resident the same way (the guest's function table is a few KiB).
const KEEP_RESIDENT_TABLE_BYTES: usize = 64 << 10;

/// The wasmtime engine: epoch interruption for the execution bound, no wasm backtraces
/// (traps become error values; backtraces would only cost time), and the pooling instance
/// allocator, which keeps linear memories and instance slots warm between calls.
///
/// Where Linux offers the `PAGEMAP_SCAN` ioctl (6.7 and later), a freed slot keeps its
/// first [`KEEP_RESIDENT_BYTES`] resident and only the pages the last call wrote are reset:
/// the next call neither faults those pages in nor pays for unmapping them, which takes
/// about a third off a fresh store plus a typical call. Elsewhere slots are unmapped as
/// usual; where the pool's address-space reservation is refused (a tight `ulimit -v`),
/// instances are allocated on demand.
fn new_engine() -> wasmtime::Result<wasmtime::Engine> {
    let mut config = Config::new();
    config.epoch_interruption(true);
    config.wasm_backtrace_max_frames(None);
    let on_demand = config.clone();
    let mut pool = PoolingAllocationConfig::default();
    // Beyond this many calls at once an instantiation fails, reported as a trap.
    pool.total_component_instances(MAX_CONCURRENT_CALLS);
    let mut plain_pool = config.clone();
    plain_pool.allocation_strategy(InstanceAllocationStrategy::Pooling(pool.clone()));
    // `Yes`, not `Auto`: without the ioctl, keeping memory resident would mean a memset
    // of all of it after every call, so that configuration is only taken with it.
    pool.pagemap_scan(Enabled::Yes).linear_memory_keep_resident(KEEP_RESIDENT_BYTES).table_keep_resident(KEEP_RESIDENT_TABLE_BYTES);
    config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    wasmtime::Engine::new(&config).or_else(|_| wasmtime::Engine::new(&plain_pool)).or_else(|_| wasmtime::Engine::new(&on_demand))
}

/// Refuse an input beyond the bound before any work.
pub(crate) fn check_input(len: usize, limits: &Limits) -> Result<(), HostError> {
    if len > limits.max_input_bytes {
        return Err(HostError::InputTooLarge { bytes: len, bound: limits.max_input_bytes });
    }
    Ok(())
}

/// Classify why wasmtime stopped a call.
pub(crate) fn abort(store: &Store<CallState>, error: wasmtime::Error) -> HostError {
    let trap = error.downcast_ref::<wasmtime::Trap>();
    // One line: the trap, or the innermost cause, never the multi-line wasm backtrace.
    let detail = trap.map_or_else(|| error.root_cause().to_string(), ToString::to_string);
    let cause = if store.data().memory_refused() {
        AbortCause::Memory
    } else if matches!(trap, Some(wasmtime::Trap::Interrupt)) {
        AbortCause::Execution
    } else {
        AbortCause::Trap
    };
    HostError::Aborted(Aborted::new(cause, detail))
}
