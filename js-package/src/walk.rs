//! Reading a JavaScript value into the core's bounded tree.
//!
//! The walk reads only what [`INPUT_LIMITS`] lets the core keep: the first
//! `string_head` UTF-16 units of each string, the first `array_items` items of each
//! array and the first `object_members` members of each object. Everything past those is
//! counted, never copied into WebAssembly memory, so a 50 MB text block or ten thousand
//! content blocks cost about what capped input costs. [`JsonBuilder`] turns what was read
//! into the same tree the core's JSON text reader builds.
//!
//! Values JSON has no room for follow `JSON.stringify` where it is lenient and well
//! defined (`undefined` members are absent, `undefined` array items are `null`) and are
//! refused where it would silently drop something that is most likely a bug (functions,
//! symbols) or throw (bigints).

use codemode_errors::json::{InputLimits, Json, JsonBuilder, INPUT_LIMITS};
use codemode_errors::ReportError;
use js_sys::{Array, JsString, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

const LIMITS: InputLimits = INPUT_LIMITS;

// Reads that a getter or a Proxy trap can make throw are imported with `catch`, so a
// hostile value becomes a typed error instead of an exception unwinding through Rust.
// Every crossing of the boundary costs tens of nanoseconds, so the walk makes few: one
// type test for most values, and per object one call for its values and one for its keys
// (joined into one string).
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn own_keys(object: &JsValue) -> Result<Array, JsValue>;

    // Throws for a revoked Proxy.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array(value: &JsValue) -> Result<bool, JsValue>;

    #[wasm_bindgen(catch, js_namespace = Object, js_name = values)]
    fn own_values(object: &JsValue) -> Result<Array, JsValue>;

    #[wasm_bindgen(catch, js_namespace = Reflect, js_name = get)]
    fn get(target: &JsValue, key: &JsValue) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(catch, js_namespace = Reflect, js_name = get)]
    fn get_index(target: &JsValue, index: u32) -> Result<JsValue, JsValue>;

    /// An array of keys, joined without a crossing per key.
    #[wasm_bindgen(js_name = Array)]
    type KeyList;

    #[wasm_bindgen(method, js_class = "Array", js_name = join)]
    fn join_with(this: &KeyList, separator: &JsString) -> JsString;
}

// Strings cross with the platform's TextEncoder: wasm-bindgen's own string passing copies
// ASCII one character at a time in JavaScript, which costs microseconds for a text block.
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = TextEncoder)]
    type Utf8Encoder;

    #[wasm_bindgen(constructor, js_class = "TextEncoder")]
    fn new() -> Utf8Encoder;

    #[wasm_bindgen(method, js_class = "TextEncoder", js_name = encodeInto)]
    fn encode_into(this: &Utf8Encoder, source: &JsString, destination: &Uint8Array) -> EncodeIntoResult;

    type EncodeIntoResult;

    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeIntoResult) -> u32;
}

thread_local! {
    static LENGTH: JsValue = JsValue::from_str("length");
    static SEPARATOR: JsString = JsString::from("\u{0}");
    static ENCODER: Utf8Encoder = Utf8Encoder::new();
}

/// Strings shorter than this (in UTF-16 units) cross the ordinary way, which is cheaper
/// for them than setting up an `encodeInto` view.
const ENCODE_INTO_FROM: u32 = 48;

/// A JavaScript string of `units` UTF-16 units as a Rust string; lone surrogates become
/// U+FFFD, as with every crossing.
fn to_rust(s: &JsString, units: u32) -> String {
    if units < ENCODE_INTO_FROM {
        return String::from(s);
    }
    // Each UTF-16 unit is at most three UTF-8 bytes.
    let mut bytes = vec![0u8; units as usize * 3];
    let buffer = wasm_bindgen::memory().unchecked_into::<js_sys::WebAssembly::Memory>().buffer();
    let view = Uint8Array::new_with_byte_offset_and_length(&buffer, bytes.as_mut_ptr() as u32, bytes.len() as u32);
    let written = ENCODER.with(|encoder| encoder.encode_into(s, &view).written());
    bytes.truncate(written as usize);
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A whole JavaScript string (JSON text handed in by the layer) as a Rust string; lone
/// surrogates become U+FFFD, as with every crossing. Text up to the string head crosses
/// with `TextEncoder.encodeInto` into room for the worst case (three bytes a unit); longer
/// text the ordinary way, which sizes its buffer to the text, so a 50 MB report never
/// takes 150 MB of WebAssembly memory.
pub fn whole_text(s: &JsString) -> String {
    let units = s.length();
    if units as usize <= LIMITS.string_head {
        to_rust(s, units)
    } else {
        String::from(s)
    }
}

/// Read `value` into a bounded tree, or say what in it JSON cannot hold and where.
pub fn read(value: &JsValue) -> Result<Json, ReportError> {
    if value.is_undefined() {
        return Err(JsonBuilder::unsupported("", "undefined"));
    }
    Walker.value(value, 0).map_err(Failure::into_report_error)
}

/// Read `value` unless it is `undefined` or `null`.
pub fn read_optional(value: &JsValue) -> Result<Option<Json>, ReportError> {
    if value.is_undefined() || value.is_null() {
        Ok(None)
    } else {
        read(value).map(Some)
    }
}

/// One step of the path to a failing value, kept only while a failure unwinds.
enum Step {
    Key(String),
    Index(u32),
}

/// What went wrong, and the steps to it collected innermost first.
struct Failure {
    problem: Problem,
    steps: Vec<Step>,
}

enum Problem {
    TooDeep,
    LoneSurrogate,
    NotFinite(f64),
    Unsupported(&'static str),
}

impl Failure {
    fn new(problem: Problem) -> Self {
        Failure { problem, steps: Vec::new() }
    }

    fn at(mut self, step: Step) -> Self {
        self.steps.push(step);
        self
    }

    /// The core's error for this problem, with the path written the way the core writes
    /// paths (`tool_result.content[2].type`).
    fn into_report_error(self) -> ReportError {
        let mut path = String::new();
        for step in self.steps.iter().rev() {
            match step {
                Step::Key(k) => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(k);
                }
                Step::Index(i) => {
                    path.push('[');
                    path.push_str(&i.to_string());
                    path.push(']');
                }
            }
        }
        match self.problem {
            Problem::TooDeep => JsonBuilder::too_deep(&path),
            Problem::LoneSurrogate => JsonBuilder::lone_surrogate(&path),
            Problem::NotFinite(n) => match JsonBuilder::number(n, &path) {
                Err(e) => e,
                Ok(_) => JsonBuilder::unsupported(&path, "a number that is not finite"),
            },
            Problem::Unsupported(what) => JsonBuilder::unsupported(&path, what),
        }
    }
}

struct Walker;

impl Walker {
    fn value(&self, v: &JsValue, depth: usize) -> Result<Json, Failure> {
        // Most values are strings or containers, then booleans: test in that order, as
        // each test is a crossing.
        if let Some(s) = v.dyn_ref::<JsString>() {
            return string(s).map(|(head, total)| JsonBuilder::string(&head, total));
        }
        if v.is_object() {
            // Containers: one more level of nesting, checked before any of it is read.
            let depth = depth + 1;
            if depth > LIMITS.max_depth {
                return Err(Failure::new(Problem::TooDeep));
            }
            return match is_array(v) {
                Ok(true) => self.array(v, depth),
                Ok(false) => self.object(v, depth),
                Err(_) => Err(throws()),
            };
        }
        if let Some(b) = v.as_bool() {
            return Ok(Json::Bool(b));
        }
        if let Some(n) = v.as_f64() {
            return if n.is_finite() { Ok(Json::Number(n)) } else { Err(Failure::new(Problem::NotFinite(n))) };
        }
        if v.is_null() || v.is_undefined() {
            // Top-level `undefined` is refused by `read`; inside arrays it is `null`.
            return Ok(Json::Null);
        }
        if v.is_bigint() {
            return Err(Failure::new(Problem::Unsupported("a bigint")));
        }
        if v.is_symbol() {
            return Err(Failure::new(Problem::Unsupported("a symbol")));
        }
        Err(Failure::new(Problem::Unsupported("a function")))
    }

    fn array(&self, array: &JsValue, depth: usize) -> Result<Json, Failure> {
        let length = LENGTH.with(|key| get(array, key)).map_err(|_| throws())?;
        // An array's length is a whole number below 2^32; a Proxy may claim anything else.
        let total = length.as_f64().filter(|n| n.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(n)).map_or(0, |n| n as u32);
        let kept = total.min(LIMITS.array_items as u32);
        let mut items = Vec::with_capacity(kept as usize);
        for i in 0..kept {
            let item = get_index(array, i).map_err(|_| throws().at(Step::Index(i)))?;
            items.push(self.value(&item, depth).map_err(|f| f.at(Step::Index(i)))?);
        }
        Ok(JsonBuilder::array(items, total as usize))
    }

    fn object(&self, object: &JsValue, depth: usize) -> Result<Json, Failure> {
        let keys = own_keys(object).map_err(|_| throws())?;
        let values = own_values(object).map_err(|_| throws())?;
        // Both lists come from the same own enumerable properties in the same order; a
        // Proxy could make them disagree, so only their common length is read.
        let count = keys.length().min(values.length());
        let mut members = Vec::with_capacity(count.min(LIMITS.object_members as u32) as usize);
        let mut total = 0usize;
        let mut next = 0u32;
        while next < count && members.len() < LIMITS.object_members {
            // Keys cross in chunks as one string, not one call per key.
            let end = count.min(next + (LIMITS.object_members - members.len()) as u32);
            let chunk = key_chunk(&keys, next, end, count)?;
            for (offset, key) in chunk.into_iter().enumerate() {
                let member = values.get(next + offset as u32);
                if member.is_undefined() {
                    // `JSON.stringify` leaves such members out; so does the tree.
                    continue;
                }
                let value = self.value(&member, depth).map_err(|f| f.at(Step::Key(key.clone())))?;
                members.push((key, value));
                total += 1;
            }
            next = end;
        }
        // Members past the cap are counted by key, without reading them.
        total += (count - next) as usize;
        Ok(JsonBuilder::object(members, total))
    }
}

/// Keys cross joined by this separator, one crossing for a whole chunk of keys. A key that
/// holds it is read on its own (the split count shows it).
const KEY_SEPARATOR: char = '\u{0}';

/// Chunks of fewer keys cross one by one, which is cheaper for them.
const KEYS_JOINED_FROM: usize = 3;

/// The keys `keys[start..end]` as strings, capped like any string. A key holding a lone
/// surrogate is refused at its path.
fn key_chunk(keys: &Array, start: u32, end: u32, count: u32) -> Result<Vec<String>, Failure> {
    let wanted = (end - start) as usize;
    if wanted >= KEYS_JOINED_FROM {
        let slice = if start == 0 && end == count { keys.clone() } else { keys.slice(start, end) };
        let joined = SEPARATOR.with(|separator| slice.unchecked_ref::<KeyList>().join_with(separator));
        let units = joined.length();
        // Long keys are capped one by one below instead of copied whole.
        if units as usize <= LIMITS.string_head {
            let text = to_rust(&joined, units);
            // A lone surrogate is found one by one below, for its path.
            if !text.contains('\u{FFFD}') || joined.is_well_formed() {
                let names: Vec<String> = text.split(KEY_SEPARATOR).map(str::to_owned).collect();
                if names.len() == wanted {
                    return Ok(names);
                }
            }
        }
    }
    (start..end)
        .map(|i| {
            let key = keys.get(i);
            let key = key.unchecked_ref::<JsString>();
            string(key).map(|(head, _)| head).map_err(|f| f.at(Step::Key(lossy_head(key))))
        })
        .collect()
}

/// The kept head of a string and its whole length in UTF-16 units. Reads at most
/// `string_head` units; a lone surrogate inside the head is refused.
fn string(s: &JsString) -> Result<(String, usize), Failure> {
    let (cut, total) = head(s);
    let head = cut.as_ref().unwrap_or(s);
    let text = to_rust(head, if cut.is_some() { head.length() } else { total as u32 });
    // Crossing into Rust replaces lone surrogates with U+FFFD, so only text holding
    // U+FFFD needs the exact check.
    if text.contains('\u{FFFD}') && !head.is_well_formed() {
        return Err(Failure::new(Problem::LoneSurrogate));
    }
    Ok((text, total))
}

/// The kept head of a string with lone surrogates replaced by U+FFFD, for free text that
/// must never be refused (the message of a thrown error).
pub fn lossy_head(s: &JsString) -> String {
    let (cut, total) = head(s);
    match cut {
        Some(head) => to_rust(&head, head.length()),
        None => to_rust(s, total as u32),
    }
}

/// At most `string_head` units of `s` and its whole length. A surrogate pair cut by the
/// cap is left out whole, as the core's text reader does.
fn head(s: &JsString) -> (Option<JsString>, usize) {
    let total = s.length();
    let cap = LIMITS.string_head as u32;
    let head = if total <= cap {
        None
    } else if is_high_surrogate(s.char_code_at(cap - 1)) && is_low_surrogate(s.char_code_at(cap)) {
        Some(s.slice(0, cap - 1))
    } else {
        Some(s.slice(0, cap))
    };
    (head, total as usize)
}

fn throws() -> Failure {
    Failure::new(Problem::Unsupported("a value whose properties throw when read"))
}

fn is_high_surrogate(unit: f64) -> bool {
    (0xD800 as f64..=0xDBFF as f64).contains(&unit)
}

fn is_low_surrogate(unit: f64) -> bool {
    (0xDC00 as f64..=0xDFFF as f64).contains(&unit)
}
