//! The JavaScript runner component under wasmtime.
//!
//! Model code runs in boa compiled into a WASI component (gateway/runner/, world `runner` in
//! gateway/wit/runner.wit). [`Runner::new`] compiles it once (or loads the precompiled
//! artifact from the compile cache); every [`Runner::run`] gets a fresh store and instance
//! from the pooling allocator, a WASI context that grants nothing (no env, args, files,
//! sockets or stdio; clocks and randomness are real), a memory limit and an epoch deadline.
//! The guest's only ways out are the [`Bridge`] calls.
//!
//! ```no_run
//! use std::time::{Duration, Instant};
//! use codemode_gateway::runner::{Bridge, Ending, RunInput, RunLimits, Runner};
//!
//! struct NoTools;
//! impl Bridge for NoTools {
//!     fn start(&mut self, _ns: &str, _tool: &str, _args: &str) -> u32 { 0 }
//!     fn wait(&mut self, _deadline: Instant) -> Option<(u32, Result<String, String>)> {
//!         Some((0, Err(r#"{"kind":"unknown_tool"}"#.into())))
//!     }
//!     fn log(&mut self, line: &str) { eprintln!("{line}") }
//! }
//!
//! let runner = Runner::new(RunLimits::default())?;
//! let input = RunInput {
//!     code: "console.log('hi'); return 1 + 1",
//!     file: "codemode:user.js",
//!     namespaces: &[],
//!     deadline: Instant::now() + Duration::from_secs(5),
//!     max_log_units: 10_000,
//!     stop: None,
//! };
//! assert_eq!(runner.run(&input, &mut NoTools), Ending::Completed { value_json: Some("2".into()) });
//! # Ok::<(), codemode_gateway::runner::RunnerError>(())
//! ```

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode_errors_host::deadline::{start_ticker, ticks};
use codemode_errors_host::{CallLimiter, CompileCache};
use wasmtime::component::{HasSelf, Linker, ResourceTable};
use wasmtime::{Config, InstanceAllocationStrategy, PoolingAllocationConfig, Store, StoreLimitsBuilder};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

mod bindings {
    wasmtime::component::bindgen!({ world: "runner", path: "wit/runner.wit", imports: { default: trappable } });
}

/// The runner component (built by build.rs from gateway/runner/).
const RUNNER_COMPONENT: &[u8] = include_bytes!(env!("CODEMODE_GATEWAY_RUNNER_WASM"));

/// Lines the runner puts before the submitted code (`(async function () {`).
const LINES_BEFORE: u32 = 1;

/// Component instances alive at once (runs in flight plus `findings` calls).
const MAX_INSTANCES: u32 = 64;

/// Limits of every run.
///
/// ```
/// let limits = codemode_gateway::runner::RunLimits::default();
/// assert_eq!(limits.memory_bytes, 256 << 20);
/// ```
#[derive(Clone, Debug)]
pub struct RunLimits {
    /// The guest's linear memory bound (default 256 MiB); beyond it the run ends as
    /// [`Ending::OutOfMemory`].
    pub memory_bytes: usize,
    /// The longest code accepted, in bytes (default 1 MiB): longer code is refused by
    /// [`Runner::findings`] and ends a run as [`Ending::Exhausted`].
    pub max_source_bytes: usize,
    /// How long [`Runner::findings`] may parse (default 5 s).
    pub parse_timeout: Duration,
    /// Where the compiled component is kept (default [`CompileCache::from_env`], the
    /// normalizer's cache directory; entries are keyed by the component's hash and the
    /// engine's compatibility hash, so both components share it safely).
    pub cache: CompileCache,
}

impl Default for RunLimits {
    fn default() -> Self {
        RunLimits {
            memory_bytes: 256 << 20,
            max_source_bytes: 1 << 20,
            parse_timeout: Duration::from_secs(5),
            cache: CompileCache::from_env(),
        }
    }
}

/// One run's input.
#[derive(Clone, Debug)]
pub struct RunInput<'a> {
    /// The submitted source: the body of an async function (top-level `return` and `await`).
    pub code: &'a str,
    /// The file name stack frames carry, e.g. `codemode:user.js`.
    pub file: &'a str,
    /// The catalog: namespace -> tool names (what `Object.keys(codemode)` and `in` see;
    /// calls to names it lacks still reach [`Bridge::start`]).
    pub namespaces: &'a [(String, Vec<String>)],
    /// When the run ends as [`Ending::Timeout`].
    pub deadline: Instant,
    /// The console output bound in UTF-16 code units (each line counts its length plus one);
    /// beyond it the guest drops lines and calls [`Bridge::log_cut`] once.
    pub max_log_units: usize,
    /// Set to end the run early: the runner checks it every epoch tick (the host's
    /// [`codemode_errors_host::deadline::TICK`]) and at every [`Bridge::wait`] (which should
    /// return `None` once it is set), and the run ends as [`Ending::Timeout`] does; the
    /// caller knows which of the two it was.
    pub stop: Option<Arc<AtomicBool>>,
}

/// The host side of a run: tool calls and console output.
pub trait Bridge {
    /// Guest code called `codemode.<namespace>.<tool>(args)` (also for names the catalog
    /// lacks). `args_json` is `JSON.stringify(args ?? {})` done in the guest; when that
    /// throws, the guest rejects the call's promise with a TypeError itself and this is not
    /// called. Returns the call's id.
    fn start(&mut self, namespace: &str, tool: &str, args_json: &str) -> u32;
    /// Block until one started call settles, or until `deadline`. `Some((id, Ok(json)))`
    /// resolves the call's promise with `JSON.parse(json)`; `Some((id, Err(contract_json)))`
    /// rejects it with an `Error` whose message is `contract_json`, created by the runner
    /// (see [`Ending::BridgeCall`]); `None`: the deadline passed, the run ends as
    /// [`Ending::Timeout`].
    fn wait(&mut self, deadline: Instant) -> Option<(u32, Result<String, String>)>;
    /// One console line (`console.log/info/warn/error/debug`: the arguments joined by a
    /// space; strings as they are, Error objects by `String(e)`, other values by
    /// `JSON.stringify`, else `String(v)`).
    fn log(&mut self, line: &str);
    /// The guest dropped a console line for the output bound (called once per run, at the
    /// first dropped line). Default: nothing.
    fn log_cut(&mut self) {}
}

/// What the JS parser found in submitted code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    /// The first syntax error: its message (without a position) and its offset in UTF-16
    /// code units from the start of the code.
    pub syntax_error: Option<(String, usize)>,
    /// Uses of the module system, in source order: the kind (the core's `ModuleUseKind` wire
    /// name: `import_declaration`, `dynamic_import`, `import_meta`, `require_call`) and the
    /// UTF-16 offset where it starts.
    pub uses: Vec<(String, usize)>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The code's promise fulfilled: `None` for `undefined`, else `JSON.stringify` of the
    /// value (done in the guest).
    Completed { value_json: Option<String> },
    /// The returned value cannot become JSON (a function, a symbol, a cycle, a BigInt, a
    /// throwing `toJSON`); the message says what.
    Unserializable { message: String },
    /// An uncaught guest throw. For an Error object: its `name`, `message` and boa's
    /// `stack` (frames `    at NAME (FILE:LINE:COLUMN)`, innermost first, one per line, each
    /// ending with a newline; LINE/COLUMN in the runner's wrapper coordinates: subtract
    /// [`Runner::lines_before`] from LINE; COLUMN counts code points from 1). For any other
    /// value: name `Error`, message the string itself, else its JSON, else `String(v)`,
    /// and an empty stack.
    Guest { name: String, message: String, stack: String },
    /// The run's promise rejected with the very Error object the runner created for call
    /// `id`'s rejection (identity: rethrown, even mutated; a `new Error(sameText)` is `Guest`).
    BridgeCall { id: u32 },
    /// Evaluation found a syntax error the parse of [`Runner::findings`] did not (an early
    /// error such as a redeclaration); line (1-based) in the submitted code, column in code
    /// points from 1; 0/0 when boa gave no position.
    SyntaxError { message: String, line: u32, column: u32 },
    /// The deadline passed.
    Timeout,
    /// The memory limit was hit.
    OutOfMemory,
    /// An engine limit: boa's recursion limit, a stack overflow, or the run's promise still
    /// pending with no call outstanding; also code over `max_source_bytes`.
    Exhausted { message: String },
    /// Anything else (an unexpected trap), with its text.
    Internal { message: String },
}

/// Why the runner could not do what was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunnerError {
    /// The engine or the component could not be set up.
    Setup(String),
    /// The code is longer than `max_source_bytes`.
    SourceTooLarge { bytes: usize, bound: usize },
    /// Parsing hit an engine limit (the source is nested too deeply for the parser's
    /// stack, the memory limit, or `parse_timeout`).
    Exhausted(String),
    /// The guest failed unexpectedly.
    Internal(String),
}

impl fmt::Display for RunnerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunnerError::Setup(m) => write!(f, "the JavaScript runner could not be set up: {m}"),
            RunnerError::SourceTooLarge { bytes, bound } => write!(f, "the code is {bytes} bytes, over the bound of {bound}"),
            RunnerError::Exhausted(m) => write!(f, "parsing the code hit an engine limit: {m}"),
            RunnerError::Internal(m) => write!(f, "the JavaScript runner failed: {m}"),
        }
    }
}

impl std::error::Error for RunnerError {}

/// The JavaScript runner: a compiled, linked, pre-instantiated component and its epoch
/// ticker. Cheap to clone; share one per process.
#[derive(Clone)]
pub struct Runner {
    inner: Arc<Inner>,
}

struct Inner {
    engine: wasmtime::Engine,
    pre: bindings::RunnerPre<State>,
    limits: RunLimits,
}

/// The per-run store state.
struct State {
    wasi: WasiCtx,
    table: ResourceTable,
    limiter: CallLimiter,
    /// The run's bridge, only while [`Runner::run`] is on the stack (see there).
    bridge: Option<BridgePtr>,
    deadline: Instant,
    stop: Option<Arc<AtomicBool>>,
    timed_out: bool,
}

/// The run's `&mut dyn Bridge` with its lifetime erased (see [`Runner::run`]).
#[derive(Clone, Copy)]
struct BridgePtr(*mut (dyn Bridge + 'static));

// SAFETY: wasmtime-wasi wants the store state `Send`. The store holding this pointer lives
// and dies inside one `Runner::run` call, on its thread; it is never sent elsewhere.
unsafe impl Send for BridgePtr {}

impl WasiView for State {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

impl State {
    fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::SeqCst))
    }

    fn bridge(&mut self) -> wasmtime::Result<&mut dyn Bridge> {
        match self.bridge {
            // SAFETY: the pointer comes from the `&mut dyn Bridge` that `Runner::run` holds
            // for the whole life of the store (the store is dropped before `run` returns), and
            // only this store's host calls, on `run`'s thread, reach it.
            Some(BridgePtr(bridge)) => Ok(unsafe { &mut *bridge }),
            None => Err(wasmtime::Error::msg("the runner called the bridge outside a run")),
        }
    }
}

impl bindings::RunnerImports for State {
    fn start_call(&mut self, namespace: String, tool: String, args_json: String) -> wasmtime::Result<u32> {
        Ok(self.bridge()?.start(&namespace, &tool, &args_json))
    }

    fn wait_call(&mut self) -> wasmtime::Result<(u32, Result<String, String>)> {
        let deadline = self.deadline;
        if self.stopped() {
            self.timed_out = true;
            return Err(wasmtime::Error::msg("the run was stopped"));
        }
        match self.bridge()?.wait(deadline) {
            Some(answer) => Ok(answer),
            None => {
                self.timed_out = true;
                Err(wasmtime::Error::msg("the deadline passed while waiting for a call"))
            }
        }
    }

    fn log(&mut self, line: String) -> wasmtime::Result<()> {
        self.bridge()?.log(&line);
        Ok(())
    }

    fn log_cut(&mut self) -> wasmtime::Result<()> {
        self.bridge()?.log_cut();
        Ok(())
    }
}

fn new_engine(memory_bytes: usize) -> wasmtime::Result<wasmtime::Engine> {
    let mut config = Config::new();
    config.epoch_interruption(true);
    config.wasm_backtrace_max_frames(None);
    let on_demand = config.clone();
    let mut pool = PoolingAllocationConfig::default();
    pool.total_component_instances(MAX_INSTANCES);
    pool.total_core_instances(MAX_INSTANCES * 8);
    pool.total_memories(MAX_INSTANCES * 2);
    pool.total_tables(MAX_INSTANCES * 4);
    // The limiter enforces `memory_bytes`; the slot must hold at least that much.
    let slot = memory_bytes.max(16 << 20).div_ceil(64 << 10) * (64 << 10);
    pool.max_memory_size(slot);
    config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    wasmtime::Engine::new(&config).or_else(|_| wasmtime::Engine::new(&on_demand))
}

/// How a trap ended the run, given the store's flags.
fn classify(error: &wasmtime::Error, state: &State) -> Ending {
    let trap = error.downcast_ref::<wasmtime::Trap>();
    let detail = trap.map_or_else(|| error.root_cause().to_string(), ToString::to_string);
    if state.timed_out || matches!(trap, Some(wasmtime::Trap::Interrupt)) {
        Ending::Timeout
    } else if state.limiter.memory_refused() {
        Ending::OutOfMemory
    } else if matches!(trap, Some(wasmtime::Trap::StackOverflow)) {
        Ending::Exhausted { message: format!("stack overflow: the code nests or recurses too deeply ({detail})") }
    } else if matches!(trap, Some(wasmtime::Trap::MemoryOutOfBounds)) {
        // The guest's shadow stack sits at the bottom of its memory: overflowing it faults
        // below address 0 (a wrapped, high address).
        Ending::Exhausted { message: format!("the engine's stack overflowed: the code nests or recurses too deeply ({detail})") }
    } else {
        Ending::Internal { message: detail }
    }
}

impl Runner {
    /// Compile the runner component (or load it from `limits.cache`), link it and start
    /// the epoch ticker. Cold this takes seconds (compiling boa); with the cache, tens of
    /// milliseconds.
    ///
    /// ```no_run
    /// let runner = codemode_gateway::runner::Runner::new(Default::default())?;
    /// # Ok::<(), codemode_gateway::runner::RunnerError>(())
    /// ```
    pub fn new(limits: RunLimits) -> Result<Runner, RunnerError> {
        let setup = |e: wasmtime::Error| RunnerError::Setup(format!("{e:#}"));
        let engine = new_engine(limits.memory_bytes).map_err(setup)?;
        let (component, _event) = limits.cache.load_or_compile(&engine, RUNNER_COMPONENT).map_err(setup)?;
        let mut linker = Linker::<State>::new(&engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker).map_err(setup)?;
        bindings::Runner::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s).map_err(setup)?;
        let pre = bindings::RunnerPre::new(linker.instantiate_pre(&component).map_err(setup)?).map_err(setup)?;
        start_ticker(&engine).map_err(|e| RunnerError::Setup(format!("could not start the epoch ticker: {e}")))?;
        Ok(Runner { inner: Arc::new(Inner { engine, pre, limits }) })
    }

    /// The limits this runner was made with.
    pub fn limits(&self) -> &RunLimits {
        &self.inner.limits
    }

    /// Lines the runner puts before the submitted code: subtract from a stack frame's line
    /// (`Ending::Guest { stack }`) to get the line in the submitted code.
    ///
    /// ```no_run
    /// let runner = codemode_gateway::runner::Runner::new(Default::default())?;
    /// assert_eq!((runner.lines_before(), runner.columns_before()), (1, 0));
    /// # Ok::<(), codemode_gateway::runner::RunnerError>(())
    /// ```
    pub fn lines_before(&self) -> u32 {
        LINES_BEFORE
    }

    /// Columns the runner puts before the submitted code's first line: none (it starts a
    /// line of its own).
    pub fn columns_before(&self) -> u32 {
        0
    }

    fn store(&self, deadline: Instant, bridge: Option<BridgePtr>, stop: Option<Arc<AtomicBool>>) -> Store<State> {
        let inner = StoreLimitsBuilder::new().memory_size(self.inner.limits.memory_bytes).trap_on_grow_failure(true).build();
        let state = State {
            wasi: WasiCtx::builder().build(),
            table: ResourceTable::new(),
            limiter: CallLimiter::new(inner),
            bridge,
            deadline,
            stop,
            timed_out: false,
        };
        let mut store = Store::new(&self.inner.engine, state);
        store.limiter(|s| &mut s.limiter);
        if store.data().stop.is_some() {
            // A run that can be stopped looks at its flag every tick, and traps at the
            // deadline or once the flag is set.
            store.set_epoch_deadline(1);
            store.epoch_deadline_callback(|mut cx| {
                let state = cx.data_mut();
                if state.stopped() || Instant::now() >= state.deadline {
                    state.timed_out = true;
                    Err(wasmtime::Error::msg("the run was stopped or its deadline passed"))
                } else {
                    Ok(wasmtime::UpdateDeadline::Continue(1))
                }
            });
        } else {
            // Epoch ticks for the time left: zero when it has passed, else whole ticks
            // rounded up, plus one for the tick under way.
            store.set_epoch_deadline(ticks(deadline.saturating_duration_since(Instant::now())));
            store.epoch_deadline_trap();
        }
        store
    }

    /// Parse only (no evaluation): the first syntax error and the uses of the module
    /// system, for the core's source check (`codemode_errors::run::check_source`).
    ///
    /// ```no_run
    /// let runner = codemode_gateway::runner::Runner::new(Default::default())?;
    /// let findings = runner.findings("const fs = require('fs')")?;
    /// assert_eq!(findings.syntax_error, None);
    /// assert_eq!(findings.uses, vec![("require_call".to_string(), 11)]);
    /// # Ok::<(), codemode_gateway::runner::RunnerError>(())
    /// ```
    pub fn findings(&self, code: &str) -> Result<Findings, RunnerError> {
        let bound = self.inner.limits.max_source_bytes;
        if code.len() > bound {
            return Err(RunnerError::SourceTooLarge { bytes: code.len(), bound });
        }
        let mut store = self.store(Instant::now() + self.inner.limits.parse_timeout, None, None);
        let result = self.inner.pre.instantiate(&mut store).and_then(|instance| instance.call_findings(&mut store, code));
        match result {
            Ok(f) => Ok(Findings {
                syntax_error: f.syntax_error.map(|s| (s.message, s.offset as usize)),
                uses: f.uses.into_iter().map(|u| (u.kind, u.offset as usize)).collect(),
            }),
            Err(error) => Err(match classify(&error, store.data()) {
                Ending::Internal { message } => RunnerError::Internal(message),
                Ending::Timeout => RunnerError::Exhausted("the parse took longer than parse_timeout".into()),
                Ending::OutOfMemory => RunnerError::Exhausted("the parse hit the memory limit".into()),
                Ending::Exhausted { message } => RunnerError::Exhausted(message),
                other => RunnerError::Internal(format!("{other:?}")),
            }),
        }
    }

    /// Run the code to its end. Never panics; every way a run can end is an [`Ending`].
    pub fn run(&self, input: &RunInput<'_>, bridge: &mut dyn Bridge) -> Ending {
        let bound = self.inner.limits.max_source_bytes;
        if input.code.len() > bound {
            return Ending::Exhausted { message: format!("the code is {} bytes, over the bound of {bound}", input.code.len()) };
        }
        let pointer: *mut (dyn Bridge + '_) = bridge;
        // SAFETY: only the lifetime is erased. The store holding the pointer is created and
        // dropped inside this call, while `bridge` is mutably borrowed by it, so the pointer
        // is never used after `bridge`'s borrow ends (see `State::bridge`).
        let pointer: *mut (dyn Bridge + 'static) = unsafe { std::mem::transmute(pointer) };
        let stop = Some(input.stop.clone().unwrap_or_default());
        let mut store = self.store(input.deadline, Some(BridgePtr(pointer)), stop);
        let wit_input = bindings::RunInput {
            code: input.code.to_string(),
            file: input.file.to_string(),
            namespaces: input
                .namespaces
                .iter()
                .map(|(name, tools)| bindings::Namespace { name: name.clone(), tools: tools.clone() })
                .collect(),
            max_log_units: input.max_log_units as u64,
        };
        let result = self.inner.pre.instantiate(&mut store).and_then(|instance| instance.call_run(&mut store, &wit_input));
        let ending = match result {
            Ok(ending) => convert(ending),
            Err(error) => classify(&error, store.data()),
        };
        drop(store);
        ending
    }
}

fn convert(ending: bindings::Ending) -> Ending {
    use bindings::Ending as E;
    match ending {
        E::Completed(value_json) => Ending::Completed { value_json },
        E::Unserializable(message) => Ending::Unserializable { message },
        E::Guest(g) => Ending::Guest { name: g.name, message: g.message, stack: g.stack },
        E::BridgeCall(id) => Ending::BridgeCall { id },
        E::Syntax(s) => Ending::SyntaxError { message: s.message, line: s.line, column: s.column },
        E::Exhausted(message) => Ending::Exhausted { message },
        E::Internal(message) => Ending::Internal { message },
    }
}
