//! Python values as the core's host values.
//!
//! The core's [`read_host_value`] walks a value under the input limits every surface
//! shares: it keeps string heads and the first items and members, and only counts the
//! rest. This module says what a Python value is as JSON: `dict` (and any `Mapping`) an
//! object, `list` and `tuple` arrays, `str`, `int`, `float`, `bool` and `None` as
//! themselves. Keys are read as `json.dumps` reads them (a `str`, or an `int`, `float`,
//! `bool` or `None` written as JSON writes it); anything else (`bytes`, a `set`, an
//! object, a key of another type, NaN) is refused with its path, never converted.
//!
//! Strings count in UTF-16 units, the unit of the limits. A Python `str` can hold a lone
//! surrogate (`"\ud800"`), which JSON text cannot carry: the walk refuses one at its path,
//! as the npm package does, and free text ([`lossy_text`]) gets U+FFFD for it.

use codemode_errors::json::{read_host_value, HostMembers, HostText, HostValue, Json, Shape, Thrown, INPUT_LIMITS};
use codemode_errors::ReportError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyMapping, PyString, PyTuple};

/// Read `value` into the core's bounded tree, or say what in it JSON cannot hold and where.
pub fn read(value: &Bound<'_, PyAny>) -> Result<Json, ReportError> {
    read_host_value(&Value(value.clone()))
}

/// A `str` as Rust text with each lone surrogate as one U+FFFD (as a JavaScript string
/// crossing into WebAssembly gets it).
pub fn lossy_text(text: &Bound<'_, PyString>) -> String {
    match text.to_cow() {
        Ok(text) => text.into_owned(),
        Err(_) => String::from_utf16_lossy(&utf16(text)),
    }
}

/// The name of `value`'s type, for messages (`a list`, `an int`, `bytes`).
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    match value.get_type().name() {
        Ok(name) => {
            let name = name.to_string_lossy().into_owned();
            let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
            format!("{article} {name}")
        }
        Err(_) => "a value of unknown type".to_owned(),
    }
}

/// A `str` as UTF-16 units, lone surrogates kept (`surrogatepass`).
fn utf16(text: &Bound<'_, PyString>) -> Vec<u16> {
    let encoded = text.call_method1("encode", ("utf-16-le", "surrogatepass"));
    match encoded.as_ref().map(|b| b.cast::<PyBytes>()) {
        Ok(Ok(bytes)) => bytes.as_bytes().chunks_exact(2).map(|p| u16::from_le_bytes([p[0], p[1]])).collect(),
        // Encoding a str with `surrogatepass` does not fail; if it ever did, the text
        // reads as one replacement character rather than as nothing at all.
        _ => vec![0xFFFD],
    }
}

/// A Python string, as UTF-8 when it is well formed (almost always), else as UTF-16 units.
#[derive(Clone)]
pub enum Text {
    Utf8 { text: String, units: usize },
    Wide(Vec<u16>),
}

impl Text {
    fn new(text: &Bound<'_, PyString>) -> Text {
        // An ASCII string past the head (a log, a base64 blob) crosses only its head: its
        // length in units is its length in characters.
        if let Ok(len) = text.len() {
            if len > INPUT_LIMITS.string_head + 1 && text.call_method0("isascii").is_ok_and(|a| a.is_truthy().unwrap_or(false)) {
                let head = text.get_item(pyo3::types::PySlice::new(text.py(), 0, (INPUT_LIMITS.string_head + 1) as isize, 1));
                if let Ok(head) = head.and_then(|h| h.cast_into::<PyString>().map_err(PyErr::from)) {
                    if let Ok(head) = head.to_cow() {
                        return Text::Utf8 { text: head.into_owned(), units: len };
                    }
                }
            }
        }
        match text.to_cow() {
            Ok(text) => {
                let units = text.chars().map(char::len_utf16).sum();
                Text::Utf8 { text: text.into_owned(), units }
            }
            Err(_) => Text::Wide(utf16(text)),
        }
    }

    fn from_str(text: &str) -> Text {
        Text::Utf8 { units: text.encode_utf16().count(), text: text.to_owned() }
    }

    /// The byte offset in `text` where its first `units` UTF-16 units end (rounded down to
    /// a character's start).
    fn byte_at(text: &str, units: usize) -> usize {
        let mut seen = 0;
        for (at, c) in text.char_indices() {
            seen += c.len_utf16();
            if seen > units {
                return at;
            }
        }
        text.len()
    }
}

impl HostText for Text {
    fn units(&self) -> usize {
        match self {
            Text::Utf8 { units, .. } => *units,
            Text::Wide(units) => units.len(),
        }
    }

    fn unit_at(&self, index: usize) -> u16 {
        match self {
            Text::Utf8 { text, .. } => text.encode_utf16().nth(index).unwrap_or(0),
            Text::Wide(units) => units.get(index).copied().unwrap_or(0),
        }
    }

    fn head(&self, units: usize) -> Text {
        match self {
            Text::Utf8 { text, .. } => {
                let head = &text[..Text::byte_at(text, units)];
                Text::Utf8 { units: head.encode_utf16().count(), text: head.to_owned() }
            }
            Text::Wide(all) => Text::Wide(all[..units.min(all.len())].to_vec()),
        }
    }

    fn to_lossy_string(&self) -> String {
        match self {
            Text::Utf8 { text, .. } => text.clone(),
            Text::Wide(units) => String::from_utf16_lossy(units),
        }
    }

    fn is_well_formed(&self) -> bool {
        match self {
            Text::Utf8 { .. } => true,
            Text::Wide(units) => char::decode_utf16(units.iter().copied()).all(|c| c.is_ok()),
        }
    }
}

/// A Python value, read as a host value.
struct Value<'py>(Bound<'py, PyAny>);

/// A mapping's key and value.
type Pair<'py> = (Bound<'py, PyAny>, Bound<'py, PyAny>);

/// The members read of a mapping: at most the members the core keeps, with their keys as
/// JSON keys; `count` is the mapping's whole length.
struct Members<'py> {
    kept: Vec<(Text, Bound<'py, PyAny>)>,
    count: u32,
    none: Bound<'py, PyAny>,
}

/// A key as `json.dumps` writes it, or `None` for a key JSON has no name for.
fn key_text(key: &Bound<'_, PyAny>) -> Option<Text> {
    if let Ok(text) = key.cast::<PyString>() {
        return Some(Text::new(text));
    }
    if key.is_none() {
        return Some(Text::from_str("null"));
    }
    if let Ok(flag) = key.cast::<PyBool>() {
        return Some(Text::from_str(if flag.is_true() { "true" } else { "false" }));
    }
    // `json.dumps` writes an int key with `int.__repr__` and a float key with
    // `float.__repr__`, the builtin types' own (a subclass's `__repr__` or an enum's name
    // is not what it writes); a float key that is not finite has no JSON name.
    let py = key.py();
    let builtin = if key.is_instance_of::<PyInt>() {
        py.get_type::<PyInt>()
    } else if key.is_instance_of::<PyFloat>() {
        if !key.extract::<f64>().is_ok_and(f64::is_finite) {
            return None;
        }
        py.get_type::<PyFloat>()
    } else {
        return None;
    };
    let written = builtin.call_method1("__repr__", (key,)).ok()?;
    written.cast_into::<PyString>().ok().map(|r| Text::new(&r))
}

impl<'py> Value<'py> {
    /// An object, unless one of the keys the core would read has no JSON name (checked
    /// on the kept members only: the rest are counted, never read).
    fn object_shape(&self) -> Result<Shape<Text>, Thrown> {
        Ok(match self.mapping_members()? {
            Some(_) => Shape::Object,
            None => Shape::Unsupported("a mapping with a key that is not a str, int, float, bool or None"),
        })
    }

    /// The kept members of a mapping, or `None` when a kept key has no JSON name.
    fn mapping_members(&self) -> Result<Option<Members<'py>>, Thrown> {
        let cap = INPUT_LIMITS.object_members;
        let object = &self.0;
        let (count, pairs): (usize, Vec<Pair<'py>>) = match object.cast::<PyDict>() {
            Ok(dict) => (dict.len(), dict.iter().take(cap).collect()),
            Err(_) => {
                let mapping = object.cast::<PyMapping>().map_err(|_| Thrown)?;
                let items = mapping.items().map_err(|_| Thrown)?;
                let count = items.len();
                let pairs = items.iter().take(cap).map(|item| item.extract::<Pair<'py>>()).collect::<Result<_, _>>();
                (count, pairs.map_err(|_| Thrown)?)
            }
        };
        let mut kept = Vec::with_capacity(pairs.len());
        for (key, value) in pairs {
            match key_text(&key) {
                Some(key) => kept.push((key, value)),
                None => return Ok(None),
            }
        }
        let none = object.py().None().into_bound(object.py());
        Ok(Some(Members { kept, count: u32::try_from(count).unwrap_or(u32::MAX), none }))
    }
}

impl<'py> HostValue for Value<'py> {
    type Text = Text;
    type Members = Members<'py>;

    fn shape(&self) -> Result<Shape<Text>, Thrown> {
        let v = &self.0;
        if let Ok(text) = v.cast::<PyString>() {
            return Ok(Shape::Text(Text::new(text)));
        }
        if v.is_instance_of::<PyDict>() {
            return self.object_shape();
        }
        if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
            return Ok(Shape::Array);
        }
        if v.is_none() {
            return Ok(Shape::Null);
        }
        // `bool` is a subclass of `int`: tested first.
        if let Ok(flag) = v.cast::<PyBool>() {
            return Ok(Shape::Bool(flag.is_true()));
        }
        if v.is_instance_of::<PyInt>() || v.is_instance_of::<PyFloat>() {
            // An int past the double range reads as infinite, which JSON cannot hold.
            return Ok(Shape::Number(v.extract::<f64>().unwrap_or(f64::INFINITY)));
        }
        if v.is_instance_of::<PyBytes>() {
            return Ok(Shape::Unsupported("bytes"));
        }
        if v.cast::<PyMapping>().is_ok() {
            return self.object_shape();
        }
        Ok(Shape::Unsupported("a Python object of a type JSON has no form for (not a dict, list, tuple, str, int, float, bool or None)"))
    }

    fn array_length(&self) -> Result<f64, Thrown> {
        self.0.len().map(|n| n as f64).map_err(|_| Thrown)
    }

    fn item(&self, index: u32) -> Result<Value<'py>, Thrown> {
        self.0.get_item(index).map(Value).map_err(|_| Thrown)
    }

    fn members(&self) -> Result<Members<'py>, Thrown> {
        match self.mapping_members()? {
            Some(members) => Ok(members),
            // A key JSON has no name for: no member list, so the object is refused.
            None => Err(Thrown),
        }
    }
}

impl<'py> HostMembers for Members<'py> {
    type Value = Value<'py>;
    type Text = Text;

    fn count(&self) -> u32 {
        self.count
    }

    fn key(&self, index: u32) -> Text {
        match self.kept.get(index as usize) {
            Some((key, _)) => key.clone(),
            None => Text::from_str(""),
        }
    }

    fn value(&self, index: u32) -> Value<'py> {
        match self.kept.get(index as usize) {
            Some((_, value)) => Value(value.clone()),
            // The core reads values only below the member cap, all of which are kept.
            None => Value(self.none.clone()),
        }
    }

    fn is_present(&self, _index: u32) -> bool {
        // Python has no `undefined`: every member is a member.
        true
    }
}
