//! One code-mode run, from the `execute` tool's arguments to the object it answers with.
//!
//! The rules are the core's, asked through the codemode-errors component: the request is
//! read by the `request` step, the source checked by `source_check` with what the runner's
//! parser found, a completed run projected by `project_completed`, a failed run classified
//! by `classify_run` and fitted by `failed_run`, guest frames mapped by `user_stack`, and
//! every failed tool call normalized from a failure report. This module only records what
//! only the executor knows (what it dispatched, which rejections its bridge delivered, what
//! the code printed) and hands it over.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use codemode_errors::{parse_json, Failure, FailureReport, Normalizer};
use codemode_errors_host::{wit, CompletedRun, ComponentEngine, GuestStack, HostError, Limits, NativeEngine};
use serde_json::{json, Map, Value};
use tokio::runtime::Handle;
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// How often a run waiting for a call looks at its stop flag.
const STOP_POLL: Duration = Duration::from_millis(10);

/// Calls of one run on their way to the upstreams at once; later ones wait their turn in
/// the gateway (never queued at an upstream), so a guest calling in a loop floods nothing
/// and a run that ends leaves at most these few requests behind.
pub const MAX_CALLS_IN_FLIGHT: usize = 16;

/// Calls one run may start; later ones are refused at once as over the run's budget, so a
/// guest calling in a loop holds no more than this many tasks and records.
pub const MAX_CALLS_PER_RUN: u32 = 1_000;

/// Distinct tool names one run's telemetry counts by name; calls to further names (code
/// inventing names in a loop) are counted under one entry.
const MAX_NAMED_TOOLS: usize = 64;

use crate::config::Config;
use crate::runner::{Bridge, Ending, RunInput, RunLimits, Runner};
use crate::upstream::{Called, Tool, Upstreams};

/// How runs are bounded.
///
/// ```
/// let options = codemode_gateway::execute::Options::default();
/// assert_eq!(options.deadline, std::time::Duration::from_secs(30));
/// assert_eq!(options.label, "codemode");
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    /// Wall-clock time a run may take, tool calls included.
    pub deadline: Duration,
    /// Time one tool call may take (a server's own `timeoutMs` in the config wins).
    pub call_timeout: Duration,
    /// One budget for a run's console output and its value (or its error), in bytes.
    pub max_output_bytes: usize,
    /// The label of the model's frames: `<label>:user.js`.
    pub label: String,
    /// The runner's memory limit.
    pub memory_bytes: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            deadline: Duration::from_secs(30),
            call_timeout: Duration::from_secs(60),
            max_output_bytes: codemode_errors::run::DEFAULT_MAX_OUTPUT_BYTES,
            label: "codemode".into(),
            memory_bytes: RunLimits::default().memory_bytes,
        }
    }
}

/// Why a gateway could not be set up.
#[derive(Debug)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

/// The upstream tools, by `namespace::name`, and what the runner is told of them.
struct Catalog {
    tools: Vec<Tool>,
    by_name: HashMap<String, usize>,
    namespaces: Vec<(String, Vec<String>)>,
}

impl Catalog {
    fn new(tools: Vec<Tool>) -> Catalog {
        let mut by_name = HashMap::new();
        let mut namespaces: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (i, t) in tools.iter().enumerate() {
            by_name.entry(format!("{}::{}", t.namespace, t.name)).or_insert(i);
            namespaces.entry(t.namespace.clone()).or_default().push(t.name.clone());
        }
        Catalog { tools, by_name, namespaces: namespaces.into_iter().collect() }
    }
}

/// A code-mode gateway: the runner, the upstream servers and the normalizer.
///
/// Cloning is cheap; clones share everything.
#[derive(Clone)]
pub struct Gateway {
    inner: Arc<Inner>,
}

struct Inner {
    runner: Runner,
    upstreams: Upstreams,
    normalizer: ComponentEngine,
    /// The same core, natively: it answers what is over the component's input bound (a
    /// run's own huge value or message, an upstream's huge result), so a size is never
    /// mistaken for a failure.
    native: NativeEngine,
    catalog: Catalog,
    options: Options,
}

/// Whether a run still dispatches, and whether it did: one lock, so a call is either sent
/// and counted before the run closes, or refused after it.
#[derive(Default)]
struct Gate {
    closed: bool,
    dispatched: bool,
}

/// What one run counted, for its telemetry.
#[derive(Default)]
struct Stats {
    total: u64,
    failed: u64,
    by_tool: BTreeMap<String, u64>,
}

impl Gateway {
    /// Start the configured servers and set up the runner and the normalizer.
    pub async fn start(config: &Config, options: Options) -> Result<Gateway, SetupError> {
        let limits = RunLimits { memory_bytes: options.memory_bytes, ..RunLimits::default() };
        let runner = tokio::task::spawn_blocking(move || Runner::new(limits))
            .await
            .map_err(|e| SetupError(format!("the runner could not be set up: {e}")))?
            .map_err(|e| SetupError(format!("the runner could not be set up: {e}")))?;
        let normalizer = tokio::task::spawn_blocking(|| ComponentEngine::new(&codemode_errors::Policy::default(), Limits::default()))
            .await
            .map_err(|e| SetupError(format!("the normalizer could not be set up: {e}")))?
            .map_err(|e| SetupError(format!("the normalizer could not be set up: {e}")))?;
        let upstreams = Upstreams::start(config).await;
        let catalog = Catalog::new(upstreams.tools());
        let native = NativeEngine::new(&codemode_errors::Policy::default(), Limits::default().with_max_input_bytes(usize::MAX));
        Ok(Gateway { inner: Arc::new(Inner { runner, upstreams, normalizer, native, catalog, options }) })
    }

    /// Every upstream tool the gateway offers.
    pub fn tools(&self) -> &[Tool] {
        &self.inner.catalog.tools
    }

    /// The configured servers that are not available, with why.
    pub fn unavailable(&self) -> Vec<(String, String)> {
        self.inner.upstreams.unavailable()
    }

    /// The normalizer every failure goes through.
    pub fn normalizer(&self) -> &ComponentEngine {
        &self.inner.normalizer
    }

    /// Run the `execute` tool's arguments (`{code, restartSafe?}`, or a string as
    /// shorthand for `{code}`) and answer with what npm `execute` resolves: `{status:
    /// "completed", value?, output, bridgeDispatchStarted, replaySafe, truncated?,
    /// telemetry}` or `{status: "failed", code, message, failurePhase?, ..., telemetry}`.
    ///
    /// `cancel` is the caller's signal: once cancelled, nothing more is dispatched and the
    /// run ends as `aborted` (already cancelled: nothing runs at all).
    pub async fn execute(&self, request: Value, cancel: Option<CancellationToken>) -> Value {
        let inner = self.inner.clone();
        let handle = Handle::current();
        let started = Instant::now();
        let stop = Arc::new(AtomicBool::new(cancel.as_ref().is_some_and(CancellationToken::is_cancelled)));
        let watcher = cancel.map(|token| {
            let stop = stop.clone();
            tokio::spawn(async move {
                token.cancelled().await;
                stop.store(true, Ordering::SeqCst);
            })
        });
        let ran = tokio::task::spawn_blocking(move || inner.execute(&request, handle, started, stop)).await;
        if let Some(watcher) = watcher {
            watcher.abort();
        }
        match ran {
            Ok(result) => result,
            // The run's thread panicked: the gateway's own fault, reported as such.
            Err(e) => self.inner.ended_by_host(&format!("the run's thread ended abnormally: {e}"), started),
        }
    }

    /// Stop the upstream servers and wait until their processes are gone.
    pub async fn shutdown(&self) {
        self.inner.upstreams.shutdown().await;
    }
}

/// Whether the component refused an input for its size alone.
fn over_bound(e: &HostError) -> bool {
    matches!(e, HostError::InputTooLarge { .. })
}

/// A component answer that could not be had: the run ends as the host's failure.
fn host_error(e: &HostError) -> String {
    e.to_run_error().json
}

impl Inner {
    fn step(&self, step: &Value) -> Result<Value, String> {
        let text = step.to_string();
        let answer = match self.normalizer.exec_step(&text) {
            Err(e) if over_bound(&e) => self.native.exec_step(&text),
            answered => answered,
        }
        .map_err(|e| host_error(&e))?;
        serde_json::from_str(&answer)
            .map_err(|e| format!("{{\"code\":\"internal_error\",\"message\":\"an exec step's answer is no JSON: {e}\"}}"))
    }

    fn execute(self: &Arc<Self>, request: &Value, handle: Handle, started: Instant, stop: Arc<AtomicBool>) -> Value {
        let mut run = Run { inner: self, started, restart_safe: false, gate: Arc::default(), stats: Arc::default() };
        let aborted = || stop.load(Ordering::SeqCst);
        if aborted() {
            return run.fail(json!({"aborted": {}}), "", "", false);
        }
        let checked = match self.step(&json!({"step": "request", "request": request})) {
            Ok(answer) => answer,
            Err(error) => return run.failed_with(&error, "", "", false),
        };
        if let Some(failed) = checked.get("failed") {
            return run.failed_with(&failed.to_string(), "", "", false);
        }
        let code = checked.get("code").and_then(Value::as_str).unwrap_or_default().to_owned();
        run.restart_safe = checked.get("restartSafe").and_then(Value::as_bool).unwrap_or(false);

        let findings = match self.runner.findings(&code) {
            Ok(f) => f,
            Err(e) => {
                return run.fail(json!({"runtime_unavailable": {"message": format!("the JavaScript parser failed: {e}")}}), "", "", false)
            }
        };
        let check = json!({
            "step": "source_check",
            "source": code,
            "syntax_error": findings.syntax_error.as_ref().map(|(message, offset)| json!({"message": message, "offset": offset})),
            "uses": findings.uses.iter().map(|(kind, offset)| json!({"kind": kind, "offset": offset})).collect::<Vec<_>>(),
            "restart_safe": run.restart_safe,
        });
        match self.step(&check) {
            Ok(Value::Null) => {}
            Ok(answer) => return run.failed_with(&answer.get("failed").cloned().unwrap_or(Value::Null).to_string(), "", "", false),
            Err(error) => return run.failed_with(&error, "", "", false),
        }
        if aborted() {
            return run.fail(json!({"aborted": {}}), "", "", false);
        }

        let file = format!("{}:user.js", self.options.label);
        let (sender, receiver) = mpsc::channel();
        let mut bridge = GatewayBridge {
            inner: self.clone(),
            handle,
            sender,
            receiver,
            next_id: 0,
            tasks: Vec::new(),
            gate: run.gate.clone(),
            stop: stop.clone(),
            in_flight: Arc::new(Semaphore::new(MAX_CALLS_IN_FLIGHT)),
            stats: run.stats.clone(),
            delivered: HashMap::new(),
            output: String::new(),
            output_cut: false,
            max_output: self.options.max_output_bytes,
        };
        let input = RunInput {
            code: &code,
            file: &file,
            namespaces: &self.catalog.namespaces,
            deadline: started + self.options.deadline,
            max_log_units: self.options.max_output_bytes.saturating_mul(2),
            stop: Some(stop.clone()),
        };
        let ending = self.runner.run(&input, &mut bridge);
        let aborted_during = aborted();
        // The run is over: nothing it started may still reach an upstream.
        bridge.close();
        let output = std::mem::take(&mut bridge.output);
        let cut = bridge.output_cut;
        let deadline_ms = self.options.deadline.as_millis() as u64;
        if aborted_during && matches!(ending, Ending::Timeout) {
            return run.fail(json!({"aborted": {}}), "", &output, cut);
        }
        match ending {
            Ending::Completed { value_json } => run.completed(value_json, &output, cut),
            Ending::Unserializable { message } => run.fail(json!({"output_unserializable": {"message": message}}), "", &output, cut),
            Ending::Guest { name, message, stack } => {
                let frames = if stack.is_empty() {
                    String::new()
                } else {
                    // boa writes frames as QuickJS does (`    at NAME (FILE:LINE:COL)`, columns
                    // in characters), so the core reads them by QuickJS's rule.
                    let wrapping = wit::Wrapping {
                        file: file.clone(),
                        lines_before: self.runner.lines_before(),
                        columns_before: self.runner.columns_before(),
                        source_lines: u32::try_from(code.split('\n').count()).ok(),
                    };
                    let error = GuestStack {
                        engine: wit::JsEngine::Quickjs,
                        name: &name,
                        message: &message,
                        stack: &stack,
                        wrapping: &wrapping,
                        label: &self.options.label,
                    };
                    match self.normalizer.user_stack(&error) {
                        Err(e) if over_bound(&e) => self.native.user_stack(&error),
                        framed => framed,
                    }
                    .unwrap_or_default()
                };
                run.fail(json!({"guest_exception": {"name": name, "message": message}}), &frames, &output, cut)
            }
            Ending::BridgeCall { id } => match bridge.delivered.get(&id) {
                Some(contract) => run.fail(json!({"uncaught_tool_error": contract}), "", &output, cut),
                None => run.fail(json!({"internal": {"message": "the code threw a rejection the bridge has no record of"}}), "", &output, cut),
            },
            Ending::SyntaxError { message, line, column } => {
                run.fail(json!({"syntax_error": {"message": message, "line": line, "column": column}}), "", &output, cut)
            }
            Ending::Timeout => run.fail(json!({"timeout": {"deadline_ms": deadline_ms}}), "", &output, cut),
            Ending::OutOfMemory => run.fail(
                json!({"guest_exception": {"name": "RangeError", "message": "out of memory: the code exhausted the runner's memory limit"}}),
                "",
                &output,
                cut,
            ),
            Ending::Exhausted { message } => {
                run.fail(json!({"guest_exception": {"name": "RangeError", "message": message}}), "", &output, cut)
            }
            Ending::Internal { message } => run.fail(json!({"internal": {"message": message}}), "", &output, cut),
        }
    }

    fn ended_by_host(&self, message: &str, started: Instant) -> Value {
        let gate = Gate { closed: true, dispatched: true };
        let run = Run { inner: self, started, restart_safe: false, gate: Arc::new(Mutex::new(gate)), stats: Arc::default() };
        run.fail(json!({"internal": {"message": message}}), "", "", false)
    }

    /// A tool call's answer: `Ok(result JSON)` resolves the guest's promise, `Err(contract
    /// JSON)` rejects it with `new Error(contract JSON)`.
    async fn call(&self, namespace: &str, tool: &str, args_json: &str, gate: &Mutex<Gate>, stop: &AtomicBool) -> Result<String, String> {
        let qualified = format!("{namespace}::{tool}");
        let Some(&index) = self.catalog.by_name.get(&qualified) else {
            let names: Vec<&str> = self.catalog.by_name.keys().map(String::as_str).collect();
            let report = FailureReport::new(Failure::unknown_tool_in(Some(&qualified), &names)).with_dispatched(Some(false));
            return Err(Normalizer::default().normalize(&report).error.map(|e| e.to_json()).unwrap_or_default());
        };
        let entry = &self.catalog.tools[index];
        let mut report = Map::new();
        report.insert("tool".into(), Value::String(qualified.clone()));
        if let Some(annotations) = entry.annotations.as_ref().filter(|a| a.is_object()) {
            report.insert("annotations".into(), annotations.clone());
        }
        let arguments: Value = match serde_json::from_str(args_json) {
            Ok(arguments) => arguments,
            // The guest's JSON.stringify wrote it, so only its depth can defeat the reader:
            // never sent without them.
            Err(e) => {
                report.insert("dispatched".into(), Value::Bool(false));
                report.insert("validation".into(), json!({"message": format!("the arguments could not be read: {e}")}));
                return Err(self.normalized(&Value::Object(report), &qualified).unwrap_or_default());
            }
        };
        // The core checks the arguments against the tool's schema before anything leaves.
        let invalid = match (parse_json(&arguments.to_string()), parse_json(&entry.input_schema.to_string())) {
            (Ok(args), Ok(schema)) => Failure::invalid_arguments(&args, &schema).is_some(),
            _ => false,
        };
        if invalid {
            report.insert("dispatched".into(), Value::Bool(false));
            report.insert("validation".into(), json!({"arguments": arguments, "input_schema": entry.input_schema}));
            return Err(self.normalized(&Value::Object(report), &qualified).unwrap_or_default());
        }
        report.insert("input_schema".into(), entry.input_schema.clone());
        report.insert("arguments".into(), arguments.clone());
        // A run that has ended, or was stopped, dispatches nothing more; a call that goes
        // out is counted as dispatched before the run can close.
        {
            let mut gate = gate.lock().unwrap_or_else(|e| e.into_inner());
            if gate.closed || stop.load(Ordering::SeqCst) {
                drop(gate);
                report.insert("dispatched".into(), Value::Bool(false));
                report.insert("code_mode".into(), json!({"kind": "cancelled", "message": "the run was stopped before this call was sent"}));
                return Err(self.normalized(&Value::Object(report), &qualified).unwrap_or_default());
            }
            gate.dispatched = true;
        }
        match self.upstreams.call(namespace, tool, arguments, self.options.call_timeout).await {
            Called::Result(result) => {
                let text = result.to_string();
                report.insert("dispatched".into(), Value::Bool(true));
                report.insert("tool_result".into(), result);
                match self.normalized(&Value::Object(report), &qualified) {
                    Some(error) => Err(error),
                    None => Ok(text),
                }
            }
            Called::Failed { failure, dispatched } => {
                report.insert("dispatched".into(), Value::Bool(dispatched));
                if let Value::Object(members) = failure {
                    report.extend(members);
                }
                Err(self.normalized(&Value::Object(report), &qualified).unwrap_or_default())
            }
        }
    }

    /// The contract JSON of a report's error; `None` when the report is no failure. A
    /// report the component could not normalize is the host's failure, as its own error.
    fn normalized(&self, report: &Value, tool: &str) -> Option<String> {
        let text = report.to_string();
        let outcome = match self.normalizer.normalize_json(&text) {
            Err(e) if over_bound(&e) => self.native.normalize_json(&text),
            outcome => outcome,
        };
        match outcome {
            Ok(outcome) => outcome.error.map(|e| e.json),
            Err(e) => {
                let outcome = e.to_outcome(Some(tool));
                Some(outcome.error.map(|e| e.json).unwrap_or(outcome.json))
            }
        }
    }
}

/// What a run records as it goes.
struct Run<'a> {
    inner: &'a Inner,
    started: Instant,
    restart_safe: bool,
    gate: Arc<Mutex<Gate>>,
    stats: Arc<Mutex<Stats>>,
}

impl Run<'_> {
    fn dispatched(&self) -> bool {
        self.gate.lock().unwrap_or_else(|e| e.into_inner()).dispatched
    }

    /// End with the run report member `failure`.
    fn fail(&self, failure: Value, stack: &str, output: &str, cut: bool) -> Value {
        let mut report = json!({"bridge_dispatch_started": self.dispatched(), "restart_safe": self.restart_safe});
        if let (Value::Object(r), Value::Object(f)) = (&mut report, failure) {
            r.extend(f);
        }
        let text = report.to_string();
        let classified = match self.inner.normalizer.classify_run(&text) {
            Err(e) if over_bound(&e) => self.inner.native.classify_run(&text),
            classified => classified,
        };
        let error = match classified {
            Ok(error) => error.json,
            Err(e) => host_error(&e),
        };
        self.failed_with(&error, stack, output, cut)
    }

    /// End with a run error the core gave (its JSON).
    fn failed_with(&self, error: &str, stack: &str, output: &str, cut: bool) -> Value {
        let error: Value = serde_json::from_str(error).unwrap_or(Value::Null);
        // A step holds strings of at most 128 Ki UTF-16 units; output past that is past
        // any budget the step could fit anyway, and is cut here (and said so).
        let (output, cut) = match output.char_indices().nth(STEP_TEXT_CHARS) {
            Some((at, _)) => (&output[..at], true),
            None => (output, cut),
        };
        let step = json!({"step": "failed_run", "error": error, "stack": stack, "output": output, "max_bytes": self.inner.options.max_output_bytes});
        let mut result = match self.inner.step(&step) {
            Ok(Value::Object(result)) => result,
            _ => {
                let mut fallback = Map::new();
                fallback.insert("status".into(), "failed".into());
                if let Value::Object(e) = error {
                    fallback.extend(e);
                }
                fallback.insert("output".into(), "".into());
                fallback
            }
        };
        if cut {
            result.insert("truncated".into(), Value::Bool(true));
        }
        result.insert("telemetry".into(), self.telemetry());
        Value::Object(result)
    }

    fn completed(&self, value_json: Option<String>, output: &str, cut: bool) -> Value {
        let completed = CompletedRun {
            output,
            value: value_json.as_deref().unwrap_or("null"),
            max_bytes: u32::try_from(self.inner.options.max_output_bytes).unwrap_or(u32::MAX),
            dispatched: self.dispatched(),
            restart_safe: self.restart_safe,
        };
        let projected = match self.inner.normalizer.project_completed(&completed) {
            Err(e) if over_bound(&e) => self.inner.native.project_completed(&completed),
            projected => projected,
        };
        let projection = match projected {
            Ok(Ok(projection)) => projection,
            Ok(Err(error)) => return self.failed_with(&error.json, "", output, cut),
            Err(e) => return self.failed_with(&host_error(&e), "", output, cut),
        };
        let mut result = Map::new();
        result.insert("status".into(), "completed".into());
        if value_json.is_some() {
            result.insert("value".into(), serde_json::from_str(&projection.value).unwrap_or(Value::Null));
        }
        result.insert("output".into(), Value::String(projection.output));
        result.insert("bridgeDispatchStarted".into(), Value::Bool(self.dispatched()));
        result.insert("replaySafe".into(), Value::Bool(self.restart_safe));
        if cut || projection.truncated {
            result.insert("truncated".into(), Value::Bool(true));
        }
        result.insert("telemetry".into(), self.telemetry());
        Value::Object(result)
    }

    /// Counts only, with every name redacted as any text is.
    fn telemetry(&self) -> Value {
        let redact = |text: &str| self.inner.normalizer.redact_text(text).unwrap_or_else(|_| "[unreadable name]".into());
        let mut by_source = Map::new();
        for (namespace, tools) in &self.inner.catalog.namespaces {
            let key = redact(namespace);
            let n = by_source.get(&key).and_then(Value::as_u64).unwrap_or(0) + tools.len() as u64;
            by_source.insert(key, n.into());
        }
        let stats = self.stats.lock().unwrap_or_else(|e| e.into_inner());
        let by_tool: Map<String, Value> = stats.by_tool.iter().map(|(tool, n)| (redact(tool), Value::from(*n))).collect();
        json!({
            "catalog": {"tools": self.inner.catalog.tools.len(), "bySource": by_source},
            "calls": {"total": stats.total, "failed": stats.failed, "byTool": by_tool},
            "durationMs": self.started.elapsed().as_millis() as u64,
            "counterScope": "run-counters-1",
        })
    }
}

/// The runner's way out: each call becomes a task on the gateway's runtime, whose answer
/// comes back through a channel the run's thread waits on.
struct GatewayBridge {
    inner: Arc<Inner>,
    handle: Handle,
    sender: mpsc::Sender<(u32, Result<String, String>)>,
    receiver: mpsc::Receiver<(u32, Result<String, String>)>,
    next_id: u32,
    tasks: Vec<JoinHandle<()>>,
    gate: Arc<Mutex<Gate>>,
    /// Set when the run is stopped (the caller's signal) and when it has ended.
    stop: Arc<AtomicBool>,
    /// Permits for calls on their way ([`MAX_CALLS_IN_FLIGHT`]).
    in_flight: Arc<Semaphore>,
    stats: Arc<Mutex<Stats>>,
    /// The contract JSON of every rejection the bridge delivered, by call id: an uncaught
    /// rejection is reported from this record, never from what the guest holds.
    delivered: HashMap<u32, String>,
    output: String,
    output_cut: bool,
    max_output: usize,
}

/// Characters of output a `failed_run` step is handed: each is at most two UTF-16 units,
/// so this stays within a step's 128 Ki-unit strings.
const STEP_TEXT_CHARS: usize = 64 * 1024;

/// The name telemetry counts calls to further tool names under.
const OTHER_TOOLS: &str = "[other tools]";

impl GatewayBridge {
    /// End the run's dispatching: no call goes out after this, and every task still
    /// waiting or on its way is dropped (rmcp then tells the upstream it was cancelled).
    fn close(&mut self) {
        self.gate.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        self.stop.store(true, Ordering::SeqCst);
        for task in self.tasks.drain(..) {
            task.abort();
        }
    }
}

impl Drop for GatewayBridge {
    fn drop(&mut self) {
        self.close();
    }
}

impl Bridge for GatewayBridge {
    fn start(&mut self, namespace: &str, tool: &str, args_json: &str) -> u32 {
        self.next_id += 1;
        let id = self.next_id;
        {
            let mut stats = self.stats.lock().unwrap_or_else(|e| e.into_inner());
            stats.total += 1;
            let name = format!("{namespace}::{tool}");
            let key =
                if stats.by_tool.contains_key(&name) || stats.by_tool.len() < MAX_NAMED_TOOLS { name } else { OTHER_TOOLS.to_owned() };
            *stats.by_tool.entry(key).or_default() += 1;
        }
        if id > MAX_CALLS_PER_RUN {
            // Answered here, without a task: the run has had its share of calls.
            let report = json!({
                "tool": format!("{namespace}::{tool}"),
                "dispatched": false,
                "budget": {"kind": "budget_exceeded", "message": format!("a run may start at most {MAX_CALLS_PER_RUN} tool calls")},
            });
            let contract = self.inner.normalized(&report, "").unwrap_or_default();
            let _ = self.sender.send((id, Err(contract)));
            return id;
        }
        // Each task holds what it needs; every task is aborted when the run ends.
        let inner = self.inner.clone();
        let (namespace, tool, args) = (namespace.to_owned(), tool.to_owned(), args_json.to_owned());
        let (sender, gate, stop, in_flight) = (self.sender.clone(), self.gate.clone(), self.stop.clone(), self.in_flight.clone());
        let task = self.handle.spawn(async move {
            // The permit is held until the answer is back; the stop check comes after it.
            let Ok(_permit) = in_flight.acquire_owned().await else {
                return;
            };
            let answer = inner.call(&namespace, &tool, &args, &gate, &stop).await;
            let _ = sender.send((id, answer));
        });
        self.tasks.push(task);
        id
    }

    fn wait(&mut self, deadline: Instant) -> Option<(u32, Result<String, String>)> {
        // In slices, so that a stop is seen within one.
        let (id, answer) = loop {
            if self.stop.load(Ordering::SeqCst) {
                return None;
            }
            let left = deadline.checked_duration_since(Instant::now())?;
            match self.receiver.recv_timeout(left.min(STOP_POLL)) {
                Ok(answer) => break answer,
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            }
        };
        if let Err(contract) = &answer {
            self.stats.lock().unwrap_or_else(|e| e.into_inner()).failed += 1;
            self.delivered.insert(id, contract.clone());
        }
        Some((id, answer))
    }

    fn log_cut(&mut self) {
        self.output_cut = true;
    }

    fn log(&mut self, line: &str) {
        if self.output_cut || self.output.len() > self.max_output.saturating_mul(2) {
            self.output_cut = true;
            return;
        }
        self.output.push_str(line);
        self.output.push('\n');
    }
}
