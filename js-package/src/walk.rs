//! JavaScript values as the core's host values.
//!
//! The core's [`read_host_value`] walks a value and reads only what its input limits let it
//! keep (string heads, the first items and members); everything past those is counted,
//! never copied into WebAssembly memory, so a 50 MB text block or ten thousand content
//! blocks cost about what capped input costs. This module says how to read a JavaScript
//! value with as few crossings of the boundary as it can: one type test for most values,
//! and per object one call for its values and one for its keys (joined into one string).

use codemode_errors::json::{host_text_lossy, read_host_value, HostMembers, HostText, HostValue, Json, Shape, Thrown, INPUT_LIMITS};
use codemode_errors::ReportError;
use js_sys::{Array, JsString, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

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
    if units as usize <= INPUT_LIMITS.string_head {
        to_rust(s, units)
    } else {
        String::from(s)
    }
}

/// Read `value` into a bounded tree, or say what in it JSON cannot hold and where.
pub fn read(value: &JsValue) -> Result<Json, ReportError> {
    read_host_value(&Js(value.clone()))
}

/// Read `value` unless it is `undefined` or `null`.
pub fn read_optional(value: &JsValue) -> Result<Option<Json>, ReportError> {
    if value.is_undefined() || value.is_null() {
        Ok(None)
    } else {
        read(value).map(Some)
    }
}

/// The kept head of a string with lone surrogates replaced by U+FFFD, for free text that
/// must never be refused (the message of a thrown error).
pub fn lossy_head(s: &JsString) -> String {
    host_text_lossy(&Text::new(s.clone()))
}

/// A JavaScript value, read as a host value.
struct Js(JsValue);

/// A JavaScript string, read as a host text, with its length read once.
struct Text {
    s: JsString,
    units: u32,
}

impl Text {
    fn new(s: JsString) -> Text {
        let units = s.length();
        Text { s, units }
    }
}

impl HostValue for Js {
    type Text = Text;
    type Members = Members;

    fn shape(&self) -> Result<Shape<Text>, Thrown> {
        let v = &self.0;
        // Most values are strings or containers, then booleans: test in that order, as
        // each test is a crossing.
        if let Some(s) = v.dyn_ref::<JsString>() {
            return Ok(Shape::Text(Text::new(s.clone())));
        }
        if v.is_object() {
            return match is_array(v) {
                Ok(true) => Ok(Shape::Array),
                Ok(false) => Ok(Shape::Object),
                Err(_) => Err(Thrown),
            };
        }
        if let Some(b) = v.as_bool() {
            return Ok(Shape::Bool(b));
        }
        if let Some(n) = v.as_f64() {
            return Ok(Shape::Number(n));
        }
        Ok(if v.is_null() {
            Shape::Null
        } else if v.is_undefined() {
            Shape::Undefined
        } else if v.is_bigint() {
            Shape::BigInt
        } else if v.is_symbol() {
            Shape::Symbol
        } else {
            Shape::Function
        })
    }

    fn array_length(&self) -> Result<f64, Thrown> {
        let length = LENGTH.with(|key| get(&self.0, key)).map_err(|_| Thrown)?;
        Ok(length.as_f64().unwrap_or(f64::NAN))
    }

    fn item(&self, index: u32) -> Result<Js, Thrown> {
        get_index(&self.0, index).map(Js).map_err(|_| Thrown)
    }

    fn members(&self) -> Result<Members, Thrown> {
        let keys = own_keys(&self.0).map_err(|_| Thrown)?;
        let values = own_values(&self.0).map_err(|_| Thrown)?;
        // Both lists come from the same own enumerable properties in the same order; a
        // Proxy could make them disagree, so only their common length is read.
        let count = keys.length().min(values.length());
        Ok(Members { keys, values, count })
    }
}

/// An object's own enumerable keys and values (`Object.keys`, `Object.values`).
struct Members {
    keys: Array,
    values: Array,
    count: u32,
}

/// Keys cross joined by this separator, one crossing for a whole chunk of keys. A key that
/// holds it is read on its own (the split count shows it).
const KEY_SEPARATOR: char = '\u{0}';

/// Chunks of fewer keys cross one by one, which is cheaper for them.
const KEYS_JOINED_FROM: u32 = 3;

impl HostMembers for Members {
    type Value = Js;
    type Text = Text;

    fn count(&self) -> u32 {
        self.count
    }

    fn key(&self, index: u32) -> Text {
        Text::new(self.keys.get(index).unchecked_into::<JsString>())
    }

    fn value(&self, index: u32) -> Js {
        Js(self.values.get(index))
    }

    fn is_present(&self, index: u32) -> bool {
        !self.values.get(index).is_undefined()
    }

    fn keys_at_once(&self, start: u32, end: u32, max_units: usize) -> Option<Vec<String>> {
        if end - start < KEYS_JOINED_FROM {
            return None;
        }
        let slice = if start == 0 && end == self.count { self.keys.clone() } else { self.keys.slice(start, end) };
        let joined = SEPARATOR.with(|separator| slice.unchecked_ref::<KeyList>().join_with(separator));
        let units = joined.length();
        // Long keys are capped one by one instead of copied whole.
        if units as usize > max_units {
            return None;
        }
        let text = to_rust(&joined, units);
        // A lone surrogate is found one by one, for its path.
        if text.contains('\u{FFFD}') && !joined.is_well_formed() {
            return None;
        }
        let names: Vec<String> = text.split(KEY_SEPARATOR).map(str::to_owned).collect();
        (names.len() == (end - start) as usize).then_some(names)
    }
}

impl HostText for Text {
    fn units(&self) -> usize {
        self.units as usize
    }

    fn unit_at(&self, index: usize) -> u16 {
        // In range by the trait's contract, so a unit, never NaN.
        self.s.char_code_at(index as u32) as u16
    }

    fn head(&self, units: usize) -> Text {
        let units = (units as u32).min(self.units);
        Text { s: self.s.slice(0, units), units }
    }

    fn to_lossy_string(&self) -> String {
        to_rust(&self.s, self.units)
    }

    fn is_well_formed(&self) -> bool {
        self.s.is_well_formed()
    }
}
