//! The component engine: the core compiled to WebAssembly, run by wasmtime.
//!
//! The wasmtime `Engine`, the compiled `Component` and the linked `InstancePre` are built
//! once and shared across threads (`ComponentEngine` is cheap to clone). Every call gets a
//! fresh `Store` with its own limits, instantiates, calls, and drops the store, so a trap
//! can never leave state behind for the next call.

use wasmtime::component::{Linker, ResourceAny};
use wasmtime::{Config, InstanceAllocationStrategy, PoolingAllocationConfig, Store};

use crate::bindings::{CodemodeErrors, CodemodeErrorsPre};
use crate::cache::{CacheEvent, CompileCache};
use crate::error::{AbortCause, Aborted, HostError, SetupError};
use crate::limits::Limits;
use crate::store::{limits_of, CallState};
use crate::wit::{CallContext, CallError, ErrorCode, Failure, InputError, Outcome, Policy};
use crate::{core, from_core, typed_input_len, GUEST_COMPONENT};

/// Runs the core as a WASI component. Clone it freely: clones share the engine and the
/// compiled component.
///
/// ```no_run
/// use codemode_errors_host::{ComponentEngine, Limits};
/// let engine = ComponentEngine::new(&codemode_errors::Policy::default(), Limits::default()).unwrap();
/// let outcome = engine.normalize_json(r#"{"transport":{"kind":"timeout","message":"no answer"}}"#).unwrap();
/// assert!(outcome.json.contains("\"kind\":\"timeout\""));
/// ```
#[derive(Clone)]
pub struct ComponentEngine {
    pre: CodemodeErrorsPre<CallState>,
    policy: Policy,
    limits: Limits,
    cache_event: CacheEvent,
}

impl ComponentEngine {
    /// The embedded component under `policy` and `limits`, compiled through the default
    /// cache ([`CompileCache::from_env`]).
    pub fn new(policy: &core::Policy, limits: Limits) -> Result<Self, SetupError> {
        Self::with_component(GUEST_COMPONENT, &CompileCache::from_env(), policy, limits)
    }

    /// A component given as `.wasm` bytes, compiled through `cache` (a hit deserializes the
    /// compiled artifact instead of compiling).
    pub fn with_component(component: &[u8], cache: &CompileCache, policy: &core::Policy, limits: Limits) -> Result<Self, SetupError> {
        let engine = new_engine().map_err(SetupError)?;
        let (component, cache_event) = cache.load_or_compile(&engine, component).map_err(SetupError)?;
        let mut linker = Linker::<CallState>::new(&engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker).map_err(SetupError)?;
        let pre = linker.instantiate_pre(&component).and_then(CodemodeErrorsPre::new).map_err(SetupError)?;
        Ok(ComponentEngine { pre, policy: from_core::policy(policy), limits, cache_event })
    }

    /// This engine (sharing its compiled component) with other limits.
    pub fn with_limits(&self, limits: Limits) -> Self {
        ComponentEngine { limits, ..self.clone() }
    }

    /// This engine (sharing its compiled component) under another policy.
    pub fn with_policy(&self, policy: &core::Policy) -> Self {
        ComponentEngine { policy: from_core::policy(policy), ..self.clone() }
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Whether the compiled component came from the cache.
    pub fn cache_event(&self) -> CacheEvent {
        self.cache_event
    }

    /// The component's imports, as `name` strings (WASI interfaces the linker grants).
    pub fn imports(&self) -> Vec<String> {
        let component = self.pre.instance_pre().component();
        let engine = self.pre.engine();
        component.component_type().imports(engine).map(|(name, _)| name.to_owned()).collect()
    }

    /// Normalize a failure report given as JSON text.
    pub fn normalize_json(&self, report: &str) -> Result<Outcome, HostError> {
        self.with_normalizer(report.len(), |n, store, res| n.call_normalize_json(store, res, &report.to_owned()))
    }

    /// Normalize a typed failure report.
    pub fn normalize(&self, context: &CallContext, failure: &Failure) -> Result<Outcome, HostError> {
        self.with_normalizer(typed_input_len(context, failure), |n, store, res| n.call_normalize(store, res, context, failure))
    }

    /// Sanitize and redact free text.
    pub fn redact_text(&self, text: &str) -> Result<String, HostError> {
        self.with_normalizer(text.len(), |n, store, res| n.call_redact_text(store, res, text).map(Ok))
    }

    /// A redacted copy of a JSON value, as compact JSON text.
    pub fn redact_json(&self, value: &str) -> Result<String, HostError> {
        self.with_normalizer(value.len(), |n, store, res| n.call_redact_json(store, res, &value.to_owned()))
    }

    /// Read a contract object back from `Error.message`.
    pub fn parse_call_error(&self, message: &str) -> Result<CallError, HostError> {
        self.call(message.len(), |b, store| b.codemode_errors_api().call_parse_call_error(store, message))?.map_err(HostError::Input)
    }

    /// The JSON Schema of the call error object.
    pub fn schema(&self) -> Result<String, HostError> {
        self.call(0, |b, store| b.codemode_errors_api().call_schema(store))
    }

    /// The library version inside the component.
    pub fn version(&self) -> Result<String, HostError> {
        self.call(0, |b, store| b.codemode_errors_api().call_version(store))
    }

    /// Run `f` on a normalizer built from this engine's policy in a fresh store.
    fn with_normalizer<R>(
        &self,
        input_len: usize,
        f: impl FnOnce(
            &crate::bindings::exports::codemode::errors::api::GuestNormalizer<'_>,
            &mut Store<CallState>,
            ResourceAny,
        ) -> wasmtime::Result<Result<R, InputError>>,
    ) -> Result<R, HostError> {
        self.call(input_len, |b, store| {
            let api = b.codemode_errors_api();
            let normalizer = api.normalizer();
            match normalizer.call_create(&mut *store, self.policy)? {
                Ok(res) => f(&normalizer, store, res),
                Err(e) => Ok(Err(e)),
            }
        })?
        .map_err(HostError::Input)
    }

    /// Check the input bound, then run `f` in a fresh store under the limits.
    fn call<R>(
        &self,
        input_len: usize,
        f: impl FnOnce(&CodemodeErrors, &mut Store<CallState>) -> wasmtime::Result<R>,
    ) -> Result<R, HostError> {
        check_input(input_len, &self.limits)?;
        let mut store = Store::new(self.pre.engine(), CallState::new(&self.limits));
        store.limiter(limits_of);
        store.set_fuel(self.limits.fuel).map_err(|e| abort(&store, e))?;
        let result = self.pre.instantiate(&mut store).and_then(|bindings| f(&bindings, &mut store));
        // The store is dropped here, trapped or not: nothing carries over to the next call.
        result.map_err(|e| abort(&store, e))
    }
}

/// Most component calls in flight at once per engine (the pooling allocator's slots).
pub const MAX_CONCURRENT_CALLS: u32 = 256;

/// The wasmtime engine: fuel for the execution bound, no wasm backtraces (traps become
/// error values; backtraces would only cost time), and the pooling instance allocator,
/// which keeps linear memories and instance slots warm between calls so a fresh store
/// costs about half as much. Where the pool's address-space reservation is refused (a
/// tight `ulimit -v`), instances are allocated on demand instead.
fn new_engine() -> wasmtime::Result<wasmtime::Engine> {
    let mut config = Config::new();
    config.consume_fuel(true);
    config.wasm_backtrace_max_frames(None);
    let on_demand = config.clone();
    let mut pool = PoolingAllocationConfig::default();
    // Beyond this many calls at once an instantiation fails, reported as a trap.
    pool.total_component_instances(MAX_CONCURRENT_CALLS);
    config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    wasmtime::Engine::new(&config).or_else(|_| wasmtime::Engine::new(&on_demand))
}

/// Refuse an input beyond the bound before any work.
pub(crate) fn check_input(len: usize, limits: &Limits) -> Result<(), HostError> {
    if len > limits.max_input_bytes {
        return Err(HostError::input(
            ErrorCode::InputTooLarge,
            format!("input is {len} bytes; the input bound is {} bytes", limits.max_input_bytes),
        ));
    }
    Ok(())
}

/// Classify why wasmtime stopped a call.
fn abort(store: &Store<CallState>, error: wasmtime::Error) -> HostError {
    let trap = error.downcast_ref::<wasmtime::Trap>();
    // One line: the trap, or the innermost cause, never the multi-line wasm backtrace.
    let detail = trap.map_or_else(|| error.root_cause().to_string(), ToString::to_string);
    let cause = if store.data().memory_refused() {
        AbortCause::Memory
    } else if matches!(trap, Some(wasmtime::Trap::OutOfFuel)) {
        AbortCause::Execution
    } else {
        AbortCause::Trap
    };
    HostError::Aborted(Aborted::new(cause, detail))
}
