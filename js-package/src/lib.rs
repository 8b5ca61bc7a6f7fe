//! # codemode-errors-js
//!
//! The WebAssembly half of the `codemode-errors` npm package. It adapts JavaScript values
//! to the `codemode-errors` core and nothing more: every rule (classification, caps,
//! redaction, recovery advice, argument checks) lives in the core. The hand-written
//! JavaScript layer in `js-package/src/` turns these exports into the public API.
//!
//! Every export returns JSON text produced by the core (the exact bytes are the contract);
//! the JavaScript layer parses it. Bad input becomes a `TypeError` carrying the core's
//! `code` and `path`, never a panic: a trap would poison the instance.

#![warn(missing_docs)]

mod error;
mod text;
mod walk;

use std::borrow::Cow;
use std::cell::Cell;

use codemode_errors::json::Json;
use codemode_errors::run::{ExecStep, RunFailure, RunReport, StepAnswer, Wrapping};
use codemode_errors::{CallHeader, Failure, FailureReport, Outcome, Policy, ReportError};
use js_sys::{Array, JsString};
use wasm_bindgen::prelude::*;

type JsResult<T> = Result<T, JsValue>;

fn js<T>(result: Result<T, ReportError>) -> JsResult<T> {
    result.map_err(|e| error::to_js(&e))
}

/// A normalizer bound to one policy, reused across calls.
///
/// ```js
/// const n = new Normalizer({ max_text_chars: 2048 });
/// const outcomeJson = n.normalize(report); // the core's Outcome::to_json() bytes
/// ```
#[wasm_bindgen(js_name = Normalizer)]
pub struct JsNormalizer {
    inner: codemode_errors::Normalizer,
    /// A long text's UTF-8 bytes, written by JavaScript straight into this memory
    /// ([`stage`](Self::stage)), and the redacted text of the last
    /// [`redact_staged`](Self::redact_staged), read by JavaScript from it: neither is
    /// copied across. Both are let go by [`release`](Self::release).
    staged: Cell<Vec<u8>>,
    redacted: Cell<String>,
}

#[wasm_bindgen(js_class = Normalizer)]
impl JsNormalizer {
    /// A normalizer for `policy`: `undefined`/`null` for the defaults, a policy object (cap
    /// names to whole numbers, and the redaction lists `secret_keys`, `token_formats`,
    /// `allow`, `allow_keys`), or the same as JSON text.
    #[wasm_bindgen(constructor)]
    pub fn new(policy: JsValue) -> JsResult<JsNormalizer> {
        Ok(JsNormalizer {
            inner: codemode_errors::Normalizer::new(js(read_policy(&policy))?),
            staged: Cell::default(),
            redacted: Cell::default(),
        })
    }

    /// The outcome of `report` (a failure report object, or its JSON text) as JSON text.
    pub fn normalize(&self, report: &JsValue) -> JsResult<JsString> {
        Ok(text::to_js(&js(self.outcome(report))?.to_json()))
    }

    /// `[errorJson | null, breaker]` for `report`: what a sandbox rejects with and what
    /// the upstream's circuit breaker should count.
    pub fn verdict(&self, report: &JsValue) -> JsResult<Array> {
        Ok(verdict(&js(self.outcome(report))?))
    }

    /// Sanitize and redact free text (no cap). Lone surrogates become U+FFFD.
    #[wasm_bindgen(js_name = redactText)]
    pub fn redact_text(&self, text: &JsValue) -> JsResult<String> {
        match text.dyn_ref::<JsString>() {
            Some(text) => Ok(self.inner.redact_text(&String::from(text))),
            None => Err(error::to_js(&ReportError::new(
                codemode_errors::ErrorCode::InvalidArgument,
                "",
                format!("redactText takes a string, not {}", js_type(text)),
            ))),
        }
    }

    /// Make room for `len` more bytes of a long text after the first `kept` already
    /// staged (those stay; the rest of the room is zeros) and return where the room
    /// starts in the module's memory (see [`module_memory`]), for JavaScript's
    /// `TextEncoder.encodeInto` to write the text's UTF-8 bytes there: wasm-bindgen would
    /// copy a string in a character at a time in JavaScript, and a byte array once more.
    /// A view of the memory lasts until the next call into the module.
    pub fn stage(&self, kept: usize, len: usize) -> usize {
        let mut staged = self.staged.take();
        staged.truncate(kept);
        staged.resize(staged.len().saturating_add(len), 0);
        let room = staged.as_ptr() as usize + staged.len() - len;
        self.staged.set(staged);
        room
    }

    /// [`redact_text`](Self::redact_text) of the first `len` bytes staged (UTF-8 from
    /// `TextEncoder`, which turns a lone surrogate into U+FFFD). Returns:
    ///
    /// - `undefined` when the redacted text is the caller's string as it was: the bytes
    ///   come back unchanged and hold no U+FFFD, so the string held no lone surrogate;
    /// - `[at, len]` when the redacted text is all ASCII: where its bytes stand in the
    ///   module's memory, for JavaScript to read as a string with the fastest decoder it
    ///   has (in Node a `Buffer`'s, about five times `TextDecoder`'s), then
    ///   [`release`](Self::release);
    /// - the redacted text as a string otherwise.
    #[wasm_bindgen(js_name = redactStaged)]
    pub fn redact_staged(&self, len: usize) -> JsValue {
        let staged = self.staged.take();
        let bytes = staged.get(..len).unwrap_or(&staged);
        // The encoder's bytes are valid UTF-8: checked by the standard library's reader,
        // which takes ASCII a word at a time (the lossy one goes a byte at a time).
        let text = std::str::from_utf8(bytes).map_or_else(|_| String::from_utf8_lossy(bytes), Cow::Borrowed);
        let redacted = match self.inner.redact_text_if_changed(&text) {
            Some(redacted) => redacted,
            // Unchanged; a U+FFFD may stand for a lone surrogate of the caller's string,
            // which must not come back. (An ASCII text holds none: checked a word a step.)
            None if !text.is_ascii() && text.contains('\u{FFFD}') => text.into_owned(),
            None => return JsValue::UNDEFINED,
        };
        drop(staged);
        if !redacted.is_ascii() {
            return text::to_js(&redacted).into();
        }
        let at = Array::of2(&JsValue::from(redacted.as_ptr() as usize), &JsValue::from(redacted.len()));
        self.redacted.set(redacted);
        at.into()
    }

    /// Let go of the text staged and the redacted text kept for JavaScript to read.
    pub fn release(&self) {
        drop(self.staged.take());
        drop(self.redacted.take());
    }

    /// A redacted copy of a JSON value, as compact JSON with sorted keys.
    #[wasm_bindgen(js_name = redactJson)]
    pub fn redact_json(&self, value: &JsValue) -> JsResult<String> {
        Ok(self.inner.redact_json(&js(walk::read(value))?).to_string())
    }

    /// The policy in force, every cap and list included, as JSON text.
    pub fn policy(&self) -> String {
        self.inner.policy().to_json()
    }

    /// Read back a contract object (as [`parse_call_error`]) under this normalizer's
    /// policy: an object it made reads back unchanged, values its policy allows included.
    #[wasm_bindgen(js_name = parseCallError)]
    pub fn parse_call_error(&self, error: &JsValue) -> JsResult<String> {
        let read = match error.dyn_ref::<JsString>() {
            Some(text) => self.inner.parse_call_error(&String::from(text)),
            None => walk::read(error).and_then(|value| self.inner.call_error_from_value(&value)),
        };
        Ok(js(read)?.to_json())
    }

    fn outcome(&self, report: &JsValue) -> Result<Outcome, ReportError> {
        match report.dyn_ref::<JsString>() {
            Some(text) => self.inner.normalize_json(&walk::whole_text(text)),
            None => self.inner.normalize_value(&walk::read(report)?),
        }
    }
}

/// Benchmark-only methods, compiled with the `bench` feature (the build `cargo xtask
/// bench` makes for `js-package/bench/`), never part of the published package.
#[cfg(feature = "bench")]
#[wasm_bindgen(js_class = Normalizer)]
impl JsNormalizer {
    /// For the benchmark only: read `report` (a JS value) once, then normalize it and
    /// serialize the outcome `iterations` times without crossing back to JavaScript, so
    /// that timing this call measures the core alone inside WebAssembly. Returns the
    /// outcome's length.
    #[wasm_bindgen(js_name = benchCore)]
    pub fn bench_core(&self, report: &JsValue, iterations: u32) -> JsResult<usize> {
        let tree = js(walk::read(report))?;
        let mut length = 0;
        for _ in 0..iterations {
            length = std::hint::black_box(js(self.inner.normalize_value(std::hint::black_box(&tree)))?.to_json()).len();
        }
        Ok(length)
    }

    /// For the benchmark only: copy `report` (JSON text) in once, then run the core's
    /// whole text pipeline (read, normalize, serialize) `iterations` times inside
    /// WebAssembly: the core's own time for the job, as the CLI and component pay it.
    #[wasm_bindgen(js_name = benchCoreText)]
    pub fn bench_core_text(&self, report: &str, iterations: u32) -> JsResult<usize> {
        let mut length = 0;
        for _ in 0..iterations {
            length = std::hint::black_box(js(self.inner.normalize_json(std::hint::black_box(report)))?.to_json()).len();
        }
        Ok(length)
    }
}

/// One tool as a sandbox calls it: the report header (`tool`, `annotations`) checked
/// once, then a verdict for each way a call can end. Each verdict takes the host's
/// trusted `dispatched` fact (`true`, `false`, or `undefined` when unknown).
#[wasm_bindgen]
pub struct CallSite {
    normalizer: codemode_errors::Normalizer,
    header: CallHeader,
    input_schema: Option<Json>,
}

#[wasm_bindgen]
impl CallSite {
    /// A call site for `header` (`{tool, annotations}`, each optional) under `policy`.
    /// The header is checked by the core now, so later verdicts cannot fail on it.
    #[wasm_bindgen(constructor)]
    pub fn new(header: &JsValue, policy: &JsValue) -> JsResult<CallSite> {
        let normalizer = codemode_errors::Normalizer::new(js(read_policy(policy))?);
        let header = match js(walk::read_optional(header))? {
            None => CallHeader::default(),
            Some(value) => js(CallHeader::from_value(&value))?,
        };
        Ok(CallSite { normalizer, header, input_schema: None })
    }

    /// `[errorJson | null, breaker]` for a `CallToolResult` the call returned. A result
    /// that cannot be read as JSON is the core's `Failure::unreadable_result`. `args`, the
    /// call's arguments (optional), let the tool's own failure text name arguments of its
    /// input schema.
    pub fn result(&self, result: &JsValue, dispatched: &JsValue, args: &JsValue) -> Array {
        let failure = match walk::read(result) {
            Ok(result) => Failure::tool_result(result),
            Err(e) => Failure::unreadable_result(&e.within("tool_result")),
        };
        self.verdict_for_call(failure, dispatched.as_bool(), args)
    }

    /// `[errorJson, breaker]` for an exception the call threw, classified by the core's
    /// `Failure::from_thrown` from its `name`, `code`, `message` and `data`. Never fails
    /// on the exception itself: a `code` or `data` that cannot be read as JSON is left
    /// out, and lone surrogates in the message become U+FFFD.
    pub fn thrown(&self, name: &str, code: &JsValue, message: &JsValue, data: &JsValue, dispatched: &JsValue, args: &JsValue) -> Array {
        let code = walk::read_optional(code).ok().flatten();
        let data = walk::read_optional(data).ok().flatten();
        let message = message.dyn_ref::<JsString>().map(walk::lossy_head).unwrap_or_default();
        self.verdict_for_call(Failure::from_thrown(name, code.as_ref(), &message, data.as_ref()), dispatched.as_bool(), args)
    }

    /// Check arguments against `inputSchema` (the tool's JSON Schema) from now on; read
    /// once here, so a schema that is not JSON fails when the catalog is built.
    #[wasm_bindgen(js_name = setInputSchema)]
    pub fn set_input_schema(&mut self, input_schema: &JsValue) -> JsResult<()> {
        self.input_schema = js(walk::read_optional(input_schema))?;
        Ok(())
    }

    /// `[errorJson, breaker]` when `args` do not satisfy the input schema (checked by the
    /// core's `Failure::invalid_arguments`), `undefined` when they do or there is no
    /// schema. The call was not dispatched.
    #[wasm_bindgen(js_name = invalidArguments)]
    pub fn invalid_arguments(&self, args: &JsValue) -> JsResult<Option<Array>> {
        let Some(schema) = &self.input_schema else {
            return Ok(None);
        };
        let args = js(walk::read(args))?;
        Ok(Failure::invalid_arguments(&args, schema).map(|failure| self.verdict(failure, Some(false))))
    }

    /// `[errorJson, breaker]` for a call to a tool the catalog does not hold, never
    /// dispatched: the core's `Failure::unknown_tool_in` (`code_mode`/`unknown_tool`), which
    /// quotes the requested name when it is a string and names the nearest of `catalog`'s
    /// tools (`namespace::tool` names, one a line).
    #[wasm_bindgen(js_name = unknownTool)]
    pub fn unknown_tool(&self, requested: &JsValue, catalog: &str) -> Array {
        let name = requested.dyn_ref::<JsString>().map(walk::lossy_head);
        let names: Vec<&str> = catalog.lines().collect();
        self.verdict(Failure::unknown_tool_in(name.as_deref(), &names), Some(false))
    }

    /// `[errorJson | null, breaker]` for a failure the sandbox itself tags: `tag` is a
    /// report failure key (`validation`, `policy`, `budget`, `code_mode`, ...) and
    /// `failure` its value, read and checked by the core.
    pub fn failure(&self, tag: &str, failure: &JsValue, dispatched: &JsValue) -> JsResult<Array> {
        let failure = js(walk::read(failure).and_then(|value| Failure::from_tagged_value(tag, &value)))?;
        Ok(self.verdict(failure, dispatched.as_bool()))
    }
}

impl CallSite {
    /// The verdict on `failure` of a call that sent `args`: with the input schema, the
    /// tool's own failure text names arguments of it. Arguments that are not plain data
    /// are left out (they only sharpen what is named).
    fn verdict_for_call(&self, failure: Failure, dispatched: Option<bool>, args: &JsValue) -> Array {
        let mut report = FailureReport::new(failure).with_header(&self.header).with_dispatched(dispatched);
        if let Some(schema) = &self.input_schema {
            report = report.with_call(schema.clone(), walk::read_optional(args).ok().flatten());
        }
        verdict(&self.normalizer.normalize(&report))
    }

    /// The verdict on `failure` for this call site's tool.
    fn verdict(&self, failure: Failure, dispatched: Option<bool>) -> Array {
        let report = FailureReport::new(failure).with_header(&self.header).with_dispatched(dispatched);
        verdict(&self.normalizer.normalize(&report))
    }
}

/// Read back a contract object: from `Error.message` JSON text, or from an object that
/// already holds it. A tolerant reader (the core's `parse_call_error`): unknown fields
/// are ignored, legacy `{kind, message}` payloads are upgraded, newer versions refused.
/// Returns the object as the core's JSON text.
#[wasm_bindgen(js_name = parseCallError)]
pub fn parse_call_error(error: &JsValue) -> JsResult<String> {
    Ok(js(call_error(error))?.to_json())
}

/// The MCP `CallToolResult` for an uncaught failure (the core's `mcp_error_envelope`), as JSON text; `error` as for [`parse_call_error`],
/// `trace` an optional execution trace object.
#[wasm_bindgen(js_name = mcpErrorEnvelope)]
pub fn mcp_error_envelope(error: &JsValue, trace: &JsValue) -> JsResult<String> {
    let error = js(call_error(error))?;
    let trace = js(walk::read_optional(trace))?;
    Ok(codemode_errors::mcp_error_envelope(&error, trace.as_ref()))
}

/// The terminal error of a failed code-mode run (the core's `run::classify_run`) as the
/// core's `RunError::to_json()` text. `report` is a run report object (read by the walk)
/// or its JSON text: `bridge_dispatch_started` and exactly one failure member, checked by
/// the core's `RunReport` reader.
#[wasm_bindgen(js_name = classifyRun)]
pub fn classify_run(report: &JsValue) -> JsResult<JsString> {
    let report = js(match report.dyn_ref::<JsString>() {
        Some(text) => RunReport::from_json(&walk::whole_text(text)),
        None => walk::read(report).and_then(|value| RunReport::from_value(&value)),
    })?;
    Ok(text::to_js(&codemode_errors::run::classify_run(&report).to_json()))
}

/// The exec request (`{code, restartSafe?}`, or the code as a string; an object or its
/// JSON text) checked by the core's `ExecRequest` reader: `{"code", "restartSafe"}` as
/// JSON text when it is valid, else the run error (`invalid_input`, phase `input`) that
/// ends the run before anything runs, as `{"failed": <run error>}` (the core's
/// `run::StepAnswer` forms, as every step below).
#[wasm_bindgen(js_name = execRequest)]
pub fn exec_request(request: &JsValue) -> JsResult<JsString> {
    let request = match request.dyn_ref::<JsString>() {
        Some(text) => Ok(Json::String(codemode_errors::json::JsonText::whole(String::from(text)))),
        None => walk::read(request),
    };
    let answer = match request {
        Ok(request) => ExecStep::Request { request }.answer(),
        // A value the walk cannot read is refused like any other malformed request.
        Err(e) => {
            let failure = RunFailure::InvalidRequest { message: format!("the exec request is not plain data: {}", e.message()) };
            StepAnswer::Failed(codemode_errors::run::end_at_step(failure, false, false))
        }
    };
    Ok(text::to_js(&answer.to_json()))
}

/// The run error for module access in `code` (`require(...)`, `import(...)`), as
/// `{"failed": <run error>}` JSON text, or `null` when there is none.
#[wasm_bindgen(js_name = moduleAccess)]
pub fn module_access(code: &str, restart_safe: bool) -> Option<String> {
    match (ExecStep::ModuleAccess { code: code.to_owned(), restart_safe }).answer() {
        StepAnswer::Allowed => None,
        answer => Some(answer.to_json()),
    }
}

/// The run error for a syntax error the engine reported compiling the wrapped source,
/// placed in the submitted `source` (the core's `run::syntax_failure`), as
/// `{"failed": <run error>}` JSON text. `engine` is `v8`, `quickjs` or `spidermonkey`;
/// `line`/`column` the engine's own one-based numbers when it gives them (else 0);
/// `source_lines` the source's line count (0 when not known).
#[wasm_bindgen(js_name = syntaxError)]
#[allow(clippy::too_many_arguments)]
pub fn syntax_error(
    engine: &str,
    message: &str,
    stack: &str,
    line: u32,
    column: u32,
    file: &str,
    lines_before: u32,
    columns_before: u32,
    source_lines: u32,
    source: &str,
    restart_safe: bool,
) -> JsResult<String> {
    let step = ExecStep::SyntaxError {
        engine: engine_named(engine)?,
        message: message.to_owned(),
        stack: stack.to_owned(),
        position: (line > 0).then_some((line, column.max(1))),
        wrapping: wrapping(file, lines_before, columns_before, source_lines),
        source: source.to_owned(),
        restart_safe,
    };
    Ok(step.answer().to_json())
}

/// A guest error's stack as the model reads it: `Name: message` and the frames of the
/// submitted source as `<label>:user.js:LINE:COL` (the core's `run::user_stack`).
#[wasm_bindgen(js_name = userStack)]
#[allow(clippy::too_many_arguments)]
pub fn user_stack(
    engine: &str,
    name: &str,
    message: &str,
    stack: &str,
    file: &str,
    lines_before: u32,
    columns_before: u32,
    source_lines: u32,
    label: &str,
) -> JsResult<String> {
    let wrapping = wrapping(file, lines_before, columns_before, source_lines);
    Ok(codemode_errors::run::user_stack(engine_named(engine)?, name, message, stack, &wrapping, label).into_string())
}

/// A completed run's console output and final value (JSON text) fitted to one budget (the
/// core's `run::project_completed`): `{"output", "value", "truncated"}` as JSON text, the
/// value as raw JSON; or `{"failed": <run error>}` when the value is not JSON data.
#[wasm_bindgen(js_name = projectCompleted)]
pub fn project_completed(output: &str, value_json: &str, max_bytes: f64, dispatched: bool, restart_safe: bool) -> String {
    let step = ExecStep::ProjectCompleted {
        output: output.to_owned(),
        value: value_json.to_owned(),
        max_bytes: budget(max_bytes),
        dispatched,
        restart_safe,
    };
    step.answer().to_json()
}

/// One executor step (`{"step": ...}`, the core's `run::ExecStep`; an object read by the
/// walk, or its JSON text), answered as JSON text: the form the shared vectors run on
/// every surface.
#[wasm_bindgen(js_name = execStep)]
pub fn exec_step(step: &JsValue) -> JsResult<JsString> {
    let step = js(match step.dyn_ref::<JsString>() {
        Some(text) => ExecStep::from_json(&walk::whole_text(text)),
        None => walk::read(step).and_then(|value| ExecStep::from_value(&value)),
    })?;
    Ok(text::to_js(&step.answer().to_json()))
}

/// Console output cleaned and cut to `budget` bytes (the core's `run::fit_output`):
/// `[text, truncated]`.
#[wasm_bindgen(js_name = fitOutput)]
pub fn fit_output(output: &str, budget_bytes: f64) -> Array {
    let (text, cut) = codemode_errors::run::fit_output(output, budget(budget_bytes));
    Array::of2(&JsValue::from_str(&text), &JsValue::from_bool(cut))
}

/// A failed run fitted to its output budget (the core's `run::fit_failed`): `error_json`
/// is the run error's JSON text (as a step answer's `failed` member holds it), `stack` the
/// guest error's frames (empty when none), `output` the console output. Answers the
/// failed run as JSON text, `{"status":"failed", ..., "output", "truncated"?}`.
#[wasm_bindgen(js_name = failedRun)]
pub fn failed_run(error_json: &str, stack: &str, output: &str, max_bytes: f64) -> JsResult<String> {
    let error = js(codemode_errors::run::run_error_from_json(error_json))?;
    Ok(codemode_errors::run::fit_failed(error, stack, output, budget(max_bytes)).to_json())
}

/// The output budget when a caller names none (`run::DEFAULT_MAX_OUTPUT_BYTES`).
#[wasm_bindgen(js_name = defaultMaxOutputBytes)]
pub fn default_max_output_bytes() -> f64 {
    codemode_errors::run::DEFAULT_MAX_OUTPUT_BYTES as f64
}

/// How the executor wrapped the source; a source has at least one line, so a line count
/// of 0 says the count is not known.
fn wrapping(file: &str, lines_before: u32, columns_before: u32, source_lines: u32) -> Wrapping {
    let wrapping = Wrapping::new(file, lines_before, columns_before);
    if source_lines > 0 {
        wrapping.with_source_lines(source_lines)
    } else {
        wrapping
    }
}

/// A byte budget from a JavaScript number: whole, not negative, at most 2^32.
fn budget(bytes: f64) -> usize {
    if bytes.is_finite() && bytes > 0.0 {
        bytes.min(4_294_967_296.0) as usize
    } else {
        0
    }
}

fn engine_named(engine: &str) -> JsResult<codemode_errors::run::Engine> {
    codemode_errors::run::Engine::from_wire(engine).ok_or_else(|| {
        error::to_js(&ReportError::new(
            codemode_errors::ErrorCode::InvalidArgument,
            "engine",
            format!("unknown engine {engine:?}: v8, quickjs or spidermonkey"),
        ))
    })
}

/// The module's memory, where [`JsNormalizer::stage`] and [`JsNormalizer::redact_staged`]
/// hand JavaScript the places to write and read.
#[wasm_bindgen(js_name = moduleMemory)]
pub fn module_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// The core's input limits (`INPUT_LIMITS`) as an object: `string_head` (UTF-16 units
/// kept of each string), `array_items`, `object_members` and `max_depth`. The JavaScript
/// layer reads them to decide which reports it may hand over as JSON text. Built member by
/// member rather than formatted as text, so that the first call compiles no formatting code.
#[wasm_bindgen(js_name = inputLimits)]
pub fn input_limits() -> js_sys::Object {
    let limits = codemode_errors::json::INPUT_LIMITS;
    let object = js_sys::Object::new();
    for (name, value) in [
        ("string_head", limits.string_head),
        ("array_items", limits.array_items),
        ("object_members", limits.object_members),
        ("max_depth", limits.max_depth),
    ] {
        // Setting a property on a fresh, extensible object cannot fail.
        let _ = js_sys::Reflect::set(&object, &JsValue::from_str(name), &JsValue::from_f64(value as f64));
    }
    object
}

/// Every `code` a typed input error can carry (the core's `ErrorCode::ALL`), so the
/// package's declarations can be checked against it.
#[wasm_bindgen(js_name = errorCodes)]
pub fn error_codes() -> Array {
    codemode_errors::ErrorCode::ALL.iter().map(|c| JsValue::from_str(c.as_str())).collect()
}

fn call_error(error: &JsValue) -> Result<codemode_errors::CodeModeCallError, ReportError> {
    match error.dyn_ref::<JsString>() {
        Some(text) => codemode_errors::parse_call_error(&String::from(text)),
        None => codemode_errors::call_error_from_value(&walk::read(error)?),
    }
}

/// The policy for a JavaScript value, with reading errors reported as policy errors (as
/// the core's `Policy::from_json` reports JSON errors).
fn read_policy(policy: &JsValue) -> Result<Policy, ReportError> {
    if let Some(text) = policy.dyn_ref::<JsString>() {
        return Policy::from_json(&String::from(text));
    }
    match walk::read_optional(policy) {
        Ok(None) => Ok(Policy::default()),
        Ok(Some(value)) => Policy::from_value(&value),
        Err(e) => Err(ReportError::new(codemode_errors::ErrorCode::InvalidPolicy, e.path(), e.message())),
    }
}

/// The `typeof` of a value, with `null` named as JSON names it.
fn js_type(value: &JsValue) -> String {
    if value.is_null() {
        "null".to_owned()
    } else {
        value.js_typeof().as_string().unwrap_or_default()
    }
}

fn verdict(outcome: &Outcome) -> Array {
    let error = outcome.error.as_ref().map_or(JsValue::NULL, |e| text::to_js(&e.to_json()).into());
    Array::of2(&error, &JsValue::from_str(outcome.breaker.as_str()))
}
