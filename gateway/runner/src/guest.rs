//! The component's exports: `findings` and `run`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;

use boa_engine::builtins::promise::{PromiseState, ResolvingFunctions};
use boa_engine::error::EngineError;
use boa_engine::object::builtins::{JsFunction, JsPromise};
use boa_engine::object::FunctionObjectBuilder;
use boa_engine::property::Attribute;
use boa_engine::{js_string, Context, JsError, JsNativeError, JsObject, JsResult, JsString, JsValue, NativeFunction, Source};

mod bindings {
    wit_bindgen::generate!({ world: "runner", path: "../wit" });
}

use bindings::{Ending, Findings as WitFindings, Guest, GuestThrow, ModuleUse, RunInput, SyntaxAt, SyntaxError as WitSyntax};

struct Component;

bindings::export!(Component with_types_in bindings);

// The wrapper around the submitted code (the code starts on line 2, column 1) and its check.
use crate::findings::{Wrapped, WRAP_AFTER, WRAP_BEFORE};
/// Lines the wrapper adds before the code (the host's `lines_before`).
const LINES_BEFORE: u32 = 1;

/// Sets up `codemode` from the native start function and the catalog (JSON).
const PRELUDE: &str = r#"(function (start, catalog) {
  "use strict";
  const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  const hidden = (k) => typeof k !== "string" || k === "then" || k === "toJSON";
  const describe = (v) => ({ value: v, writable: false, enumerable: true, configurable: true });
  const namespace = (ns) => {
    const tools = own(catalog, ns) ? catalog[ns] : [];
    return new Proxy(Object.create(null), {
      get: (_, tool) => hidden(tool) ? undefined : function (args) { return start(ns, tool, args); },
      has: (_, tool) => typeof tool === "string" && tools.includes(tool),
      ownKeys: () => tools.slice(),
      getOwnPropertyDescriptor: (t, tool) => typeof tool === "string" && tools.includes(tool)
        ? describe(function (args) { return start(ns, tool, args); }) : undefined,
      set: () => false, defineProperty: () => false, deleteProperty: () => false,
    });
  };
  const root = new Proxy(Object.create(null), {
    get: (_, ns) => hidden(ns) ? undefined : namespace(ns),
    has: (_, ns) => typeof ns === "string" && own(catalog, ns),
    ownKeys: () => Object.keys(catalog),
    getOwnPropertyDescriptor: (_, ns) => typeof ns === "string" && own(catalog, ns) ? describe(namespace(ns)) : undefined,
    set: () => false, defineProperty: () => false, deleteProperty: () => false,
  });
  Object.defineProperty(globalThis, "codemode", { value: root, writable: false, enumerable: false, configurable: false });
})"#;

/// The returned value as JSON data, by the npm executors' rule: `"J" + JSON text`, or
/// `"B" + what` when the value is or holds something JSON has no such value for (a
/// non-finite number, a function, a symbol, a BigInt, `undefined` in an array, an object
/// that is not plain data such as a `Map` or a class instance) or nests deeper than 1000
/// levels. Made from the intrinsics before user code runs, so the code cannot bend it; a
/// throwing `toJSON` or a cycle still throws.
const VALUE_JSON: &str = r#"(function () {
  "use strict";
  const stringify = JSON.stringify, getPrototypeOf = Object.getPrototypeOf, isArray = Array.isArray;
  const ObjectPrototype = Object.prototype, toTag = Object.prototype.toString, S = String;
  const apply = Reflect.apply, WM = WeakMap, wmGet = WeakMap.prototype.get, wmSet = WeakMap.prototype.set;
  const finite = Number.isFinite, MAX_DEPTH = 1000;
  const notData = (holder, x) => {
    switch (typeof x) {
      case "number": return finite(x) ? undefined : S(x);
      case "function": return "a function";
      case "symbol": return "a symbol";
      case "bigint": return "a BigInt";
      case "undefined": return isArray(holder) ? "undefined in an array" : undefined;
      case "object": {
        if (x === null || isArray(x)) return undefined;
        const proto = getPrototypeOf(x);
        if (proto === ObjectPrototype || proto === null) return undefined;
        const tag = apply(toTag, x, []);
        if (tag === "[object Object]") return "an object that is not plain data (a class instance)";
        const name = tag.slice(8, -1);
        return (/^[AEIOU]/.test(name) ? "an " : "a ") + name;
      }
      default: return undefined;
    }
  };
  return function (value) {
    let bad;
    const depths = new WM();
    const replacer = function (key, x) {
      if (bad !== undefined) return undefined;
      if (x !== null && typeof x === "object") {
        const depth = (apply(wmGet, depths, [this]) ?? 0) + 1;
        if (depth > MAX_DEPTH) { bad = "a value nested deeper than " + MAX_DEPTH + " levels"; return undefined; }
        apply(wmSet, depths, [x, depth]);
      }
      const what = notData(this, x);
      if (what !== undefined) { bad = what + (key === "" ? "" : " at the key " + stringify(S(key))); return undefined; }
      return x;
    };
    const text = stringify(value, replacer);
    return bad !== undefined ? "B" + bad : "J" + text;
  };
})()"#;

/// Per-run state the native functions share (one run per instance, single-threaded).
#[derive(Default)]
struct RunState {
    /// Calls started and not yet settled.
    pending: HashMap<u32, ResolvingFunctions>,
    /// The Error objects the runner created for rejected calls, by call id.
    rejections: Vec<(u32, JsObject)>,
    /// JSON.stringify / JSON.parse as they were before user code ran.
    stringify: Option<JsFunction>,
    /// [`VALUE_JSON`]'s checker.
    value_json: Option<JsFunction>,
    parse: Option<JsFunction>,
    log_units_left: u64,
    log_cut: bool,
}

thread_local! {
    static STATE: RefCell<RunState> = RefCell::new(RunState::default());
}

fn stringify_fn() -> JsFunction {
    STATE.with(|s| s.borrow().stringify.clone().expect("set before user code"))
}

/// `JSON.stringify(value)`: `Ok(None)` when the result is undefined.
fn stringify(value: &JsValue, ctx: &mut Context) -> JsResult<Option<String>> {
    let out = stringify_fn().call(&JsValue::undefined(), std::slice::from_ref(value), ctx)?;
    Ok(out.as_string().map(|s| s.to_std_string_lossy()))
}

fn lossy(s: &JsString) -> String {
    s.to_std_string_lossy()
}

/// The JS value of a (non-engine) error.
fn opaque(error: JsError, ctx: &mut Context) -> JsValue {
    error.into_opaque(ctx).unwrap_or_else(|e| JsValue::from(JsString::from(e.to_string().as_str())))
}

fn arg_string(args: &[JsValue], i: usize, ctx: &mut Context) -> JsResult<String> {
    Ok(lossy(&args.get(i).cloned().unwrap_or_default().to_string(ctx)?))
}

/// The native behind `codemode.<ns>.<tool>(args)`.
fn start(_this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let namespace = arg_string(args, 0, ctx)?;
    let tool = arg_string(args, 1, ctx)?;
    let value = match args.get(2) {
        Some(v) if !v.is_null_or_undefined() => v.clone(),
        _ => JsValue::from(JsObject::with_object_proto(ctx.intrinsics())),
    };
    let json = match stringify(&value, ctx) {
        Ok(Some(json)) => json,
        // What the guest's own code threw (a `toJSON`, a getter) rejects the call as it was
        // thrown; an engine limit is no JS value and ends the run.
        Err(e) if engine_ending(&e).is_none() => return Ok(JsPromise::reject(e, ctx)?.into()),
        Err(e) => return Err(e),
        Ok(None) => {
            let error = JsNativeError::typ().with_message(format!("codemode.{namespace}.{tool}: the arguments have no JSON form"));
            return Ok(JsPromise::reject(JsError::from(error), ctx)?.into());
        }
    };
    let id = bindings::start_call(&namespace, &tool, &json);
    let (promise, resolvers) = JsPromise::new_pending(ctx);
    STATE.with(|s| s.borrow_mut().pending.insert(id, resolvers));
    Ok(promise.into())
}

/// One console argument as text, never throwing.
fn console_text(value: &JsValue, ctx: &mut Context) -> String {
    if let Some(s) = value.as_string() {
        return lossy(&s);
    }
    let is_error = value.as_object().is_some_and(|o| o.is::<boa_engine::builtins::error::Error>());
    if !is_error && !value.is_undefined() && !value.is_symbol() {
        if let Ok(Some(json)) = stringify(value, ctx) {
            return json;
        }
    }
    match value.to_string(ctx) {
        Ok(s) => lossy(&s),
        Err(_) => match value.as_symbol() {
            Some(sym) => lossy(&sym.descriptive_string()),
            None => "[unprintable]".into(),
        },
    }
}

fn console_log(_this: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let parts: Vec<String> = args.iter().map(|a| console_text(a, ctx)).collect();
    let line = parts.join(" ");
    let units = line.encode_utf16().count() as u64 + 1;
    let cut = STATE.with(|s| {
        let mut s = s.borrow_mut();
        if units <= s.log_units_left {
            s.log_units_left -= units;
            None
        } else {
            s.log_units_left = 0;
            Some(!std::mem::replace(&mut s.log_cut, true))
        }
    });
    match cut {
        None => bindings::log(&line),
        Some(true) => bindings::log_cut(),
        Some(false) => {}
    }
    Ok(JsValue::undefined())
}

fn setup(ctx: &mut Context, input: &RunInput) -> JsResult<()> {
    let json = ctx.global_object().get(js_string!("JSON"), ctx)?;
    let json = json.as_object().ok_or_else(|| JsNativeError::typ().with_message("no JSON"))?.clone();
    let stringify = JsFunction::from_object(json.get(js_string!("stringify"), ctx)?.as_object().unwrap_or_else(|| json.clone()));
    let parse = JsFunction::from_object(json.get(js_string!("parse"), ctx)?.as_object().unwrap_or_else(|| json.clone()));
    let value_json = ctx.eval(Source::from_bytes(VALUE_JSON))?.as_object().and_then(JsFunction::from_object);
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        s.stringify = stringify;
        s.value_json = value_json;
        s.parse = parse;
        s.log_units_left = input.max_log_units;
    });

    // console
    let console = JsObject::with_object_proto(ctx.intrinsics());
    for name in ["log", "info", "warn", "error", "debug"] {
        let f = FunctionObjectBuilder::new(ctx.realm(), NativeFunction::from_fn_ptr(console_log)).name(js_string!(name)).length(0).build();
        console.set(JsString::from(name), f, false, ctx)?;
    }
    ctx.register_global_property(js_string!("console"), console, Attribute::WRITABLE | Attribute::CONFIGURABLE)?;

    // codemode
    let catalog = JsObject::with_null_proto();
    for ns in &input.namespaces {
        let tools: Vec<JsValue> = ns.tools.iter().map(|t| JsValue::from(JsString::from(t.as_str()))).collect();
        let array = boa_engine::object::builtins::JsArray::from_iter(tools, ctx);
        catalog.set(JsString::from(ns.name.as_str()), array, false, ctx)?;
    }
    let start = FunctionObjectBuilder::new(ctx.realm(), NativeFunction::from_fn_ptr(start)).name(js_string!("start")).length(3).build();
    let prelude = ctx.eval(Source::from_bytes(PRELUDE))?;
    let prelude = prelude.as_callable().ok_or_else(|| JsNativeError::typ().with_message("prelude"))?.clone();
    prelude.call(&JsValue::undefined(), &[start.into(), catalog.into()], ctx)?;
    Ok(())
}

/// `Some(ending)` when the error cannot be handled as a JS value.
fn engine_ending(error: &JsError) -> Option<Ending> {
    match error.as_engine()? {
        EngineError::RuntimeLimit(limit) => Some(Ending::Exhausted(format!("RuntimeLimitError: {limit}"))),
        other => Some(Ending::Internal(other.to_string())),
    }
}

/// Property `key` of `object` as a string, never throwing.
fn text_property(object: &JsObject, key: &str, ctx: &mut Context) -> Option<String> {
    let value = object.get(JsString::from(key), ctx).ok()?;
    if value.is_undefined() {
        return None;
    }
    value.to_string(ctx).ok().map(|s| lossy(&s))
}

/// The ending of a run whose promise rejected with `value`.
fn rejected(value: JsValue, ctx: &mut Context) -> Ending {
    if let Some(object) = value.as_object() {
        let id = STATE.with(|s| s.borrow().rejections.iter().find(|(_, e)| JsObject::equals(e, &object)).map(|(id, _)| *id));
        if let Some(id) = id {
            return Ending::BridgeCall(id);
        }
        if object.is::<boa_engine::builtins::error::Error>() {
            let name = text_property(&object, "name", ctx).unwrap_or_else(|| "Error".into());
            let message = text_property(&object, "message", ctx).unwrap_or_default();
            let stack = text_property(&object, "stack", ctx).unwrap_or_default();
            return Ending::Guest(GuestThrow { name, message, stack });
        }
    }
    let message = match &value {
        v if v.is_string() => v.as_string().map(|s| lossy(&s)).unwrap_or_default(),
        v => match stringify(v, ctx) {
            Ok(Some(json)) if v.is_object() => json,
            _ => v.to_string(ctx).map(|s| lossy(&s)).unwrap_or_else(|_| "[unprintable]".into()),
        },
    };
    Ending::Guest(GuestThrow { name: "Error".into(), message, stack: String::new() })
}

/// The ending of a run whose promise fulfilled with `value`.
fn fulfilled(value: JsValue, ctx: &mut Context) -> Ending {
    if value.is_undefined() {
        return Ending::Completed(None);
    }
    let Some(check) = STATE.with(|s| s.borrow().value_json.clone()) else {
        return Ending::Internal("the value check was not set up".into());
    };
    match check.call(&JsValue::undefined(), std::slice::from_ref(&value), ctx) {
        Ok(out) => {
            let out = out.as_string().map(|s| lossy(&s)).unwrap_or_default();
            match out.split_at_checked(1) {
                Some(("J", json)) if json != "undefined" && !json.is_empty() => Ending::Completed(Some(json.to_owned())),
                Some(("B", what)) => Ending::Unserializable(format!("the returned value is not JSON data: it is or holds {what}")),
                _ => Ending::Unserializable("the returned value is not JSON data: it has no JSON form".into()),
            }
        }
        Err(error) => {
            if let Some(ending) = engine_ending(&error) {
                return ending;
            }
            let text = opaque(error, ctx).to_string(ctx).map(|s| lossy(&s)).unwrap_or_default();
            Ending::Unserializable(format!("the returned value is not JSON data: {text}"))
        }
    }
}

/// Settle call `id` with the host's answer.
fn settle(id: u32, answer: Result<String, String>, ctx: &mut Context) -> JsResult<()> {
    let Some(resolvers) = STATE.with(|s| s.borrow_mut().pending.remove(&id)) else {
        return Ok(());
    };
    match answer {
        Ok(json) => {
            let parse = STATE.with(|s| s.borrow().parse.clone().expect("set before user code"));
            match parse.call(&JsValue::undefined(), &[JsString::from(json.as_str()).into()], ctx) {
                Ok(value) => resolvers.resolve.call(&JsValue::undefined(), &[value], ctx)?,
                Err(e) => {
                    if e.as_engine().is_some() {
                        return Err(e);
                    }
                    let error = JsNativeError::typ().with_message("the tool's result is not JSON").into_opaque(ctx);
                    resolvers.reject.call(&JsValue::undefined(), &[error.into()], ctx)?
                }
            };
        }
        Err(contract) => {
            let error = JsNativeError::error().with_message(contract).into_opaque(ctx);
            STATE.with(|s| s.borrow_mut().rejections.push((id, error.clone())));
            resolvers.reject.call(&JsValue::undefined(), &[error.into()], ctx)?;
        }
    }
    Ok(())
}

/// "... at line L, col C" → (message, line, column), the line in the submitted code.
fn syntax_ending(text: &str) -> Ending {
    let text = text.strip_prefix("SyntaxError: ").unwrap_or(text);
    if let Some(at) = text.rfind(" at line ") {
        let (message, rest) = text.split_at(at);
        let rest = &rest[" at line ".len()..];
        if let Some((line, col)) = rest.split_once(", col ") {
            let digits: String = col.chars().take_while(char::is_ascii_digit).collect();
            if let (Ok(line), Ok(column)) = (line.trim().parse::<u32>(), digits.parse::<u32>()) {
                return Ending::Syntax(WitSyntax { message: message.to_string(), line: line.saturating_sub(LINES_BEFORE).max(1), column });
            }
        }
    }
    Ending::Syntax(WitSyntax { message: text.to_string(), line: 0, column: 0 })
}

fn run(input: RunInput) -> Ending {
    let mut ctx = Context::default();
    if let Err(e) = setup(&mut ctx, &input) {
        return Ending::Internal(format!("runner setup failed: {e}"));
    }
    // The wrapped text is evaluated only once a parse of exactly that text shows the code
    // cannot reach outside the function (a `}` of its own closing the wrapper would let it
    // run at script level). As in `findings`, such a `}` is the error reported, wherever the
    // parse of the wrapped text stopped.
    let wrapped = crate::findings::wrapped(&input.code);
    if !matches!(wrapped, Wrapped::Sound) {
        if let Some(p) = crate::findings::stray_close(&input.code) {
            let message = crate::findings::STRAY_CLOSE.into();
            return Ending::Syntax(WitSyntax { message, line: p.line_number(), column: p.column_number() });
        }
        return match wrapped {
            Wrapped::Broken(error) => syntax_ending(&error.to_string()),
            _ => Ending::Syntax(WitSyntax { message: crate::findings::STRAY_CLOSE.into(), line: 0, column: 0 }),
        };
    }
    let wrapped = format!("{WRAP_BEFORE}{}{WRAP_AFTER}", input.code);
    let path = Path::new(&input.file);
    let function = match ctx.eval(Source::from_bytes(wrapped.as_str()).with_path(path)) {
        Ok(f) => f,
        Err(error) => {
            if let Some(ending) = engine_ending(&error) {
                return ending;
            }
            let is_syntax = error.as_native().is_some_and(|n| matches!(n.kind(), boa_engine::error::JsNativeErrorKind::Syntax));
            if is_syntax {
                return syntax_ending(&error.to_string());
            }
            // Anything else is the code's failure, never the runner's: its text may be the
            // code's choosing.
            let value = opaque(error, &mut ctx);
            return rejected(value, &mut ctx);
        }
    };
    let Some(function) = function.as_callable() else {
        return Ending::Internal("the wrapper is not a function".into());
    };
    let promise = match function.call(&JsValue::undefined(), &[], &mut ctx) {
        Ok(p) => p,
        Err(error) => {
            return engine_ending(&error).unwrap_or_else(|| {
                let v = opaque(error, &mut ctx);
                rejected(v, &mut ctx)
            })
        }
    };
    let Some(promise) = promise.as_object().and_then(|o| JsPromise::from_object(o.clone()).ok()) else {
        return Ending::Internal("the wrapper did not return a promise".into());
    };
    loop {
        if let Err(error) = ctx.run_jobs() {
            return engine_ending(&error).unwrap_or_else(|| Ending::Internal(format!("job failed: {error}")));
        }
        match promise.state() {
            PromiseState::Fulfilled(value) => return fulfilled(value, &mut ctx),
            PromiseState::Rejected(value) => return rejected(value, &mut ctx),
            PromiseState::Pending => {
                if STATE.with(|s| s.borrow().pending.is_empty()) {
                    return Ending::Exhausted(
                        "the run's promise is pending with no call outstanding (an engine limit may have stopped it)".into(),
                    );
                }
                let (id, answer) = bindings::wait_call();
                if let Err(error) = settle(id, answer, &mut ctx) {
                    return engine_ending(&error).unwrap_or_else(|| Ending::Internal(format!("settling call {id} failed: {error}")));
                }
            }
        }
    }
}

impl Guest for Component {
    fn findings(code: String) -> WitFindings {
        let f = crate::findings::findings(&code);
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        WitFindings {
            syntax_error: f.syntax_error.map(|(message, offset)| SyntaxAt { message, offset: clamp(offset) }),
            uses: f.uses.into_iter().map(|(kind, offset)| ModuleUse { kind: kind.into(), offset: clamp(offset) }).collect(),
        }
    }

    fn run(input: RunInput) -> Ending {
        let ending = run(input);
        // Drop every JS handle before the context goes (the instance ends with the run).
        STATE.with(|s| *s.borrow_mut() = RunState::default());
        ending
    }
}
