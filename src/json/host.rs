//! Reading another language's values into the bounded tree, with the limits
//! [`parse_json`](super::parse_json) applies to JSON text.
//!
//! A binding (the npm package's WebAssembly half) describes its values through
//! [`HostValue`], [`HostMembers`] and [`HostText`]: what a value is, an array's items, an
//! object's members, a string's UTF-16 units. [`read_host_value`] walks them and reads only
//! what [`INPUT_LIMITS`] lets the core keep: the first `string_head` units of each string,
//! the first `array_items` items of each array and the first `object_members` members of
//! each object. Everything past those is counted, never read, so a 50 MB string or ten
//! thousand items cost what capped input costs; nesting is refused before the level past
//! `max_depth` is read.
//!
//! Values JSON has no room for follow `JSON.stringify` where it is lenient and well
//! defined (an `undefined` member is absent, an `undefined` array item is `null`) and are
//! refused, at their path, where it would silently drop something that is most likely a
//! bug (functions, symbols, non-finite numbers) or throw (bigints). A read that throws (a
//! getter, a Proxy trap) is refused the same way.
//!
//! ```
//! use codemode_errors::json::{read_host_value, HostMembers, HostText, HostValue, Shape, Thrown};
//!
//! /// A tiny host: strings and arrays of strings.
//! #[derive(Clone)]
//! enum Value { Text(Vec<u16>), List(Vec<Value>) }
//! #[derive(Clone)]
//! struct Text(Vec<u16>);
//!
//! impl HostText for Text {
//!     fn units(&self) -> usize { self.0.len() }
//!     fn unit_at(&self, i: usize) -> u16 { self.0[i] }
//!     fn head(&self, units: usize) -> Self { Text(self.0[..units].to_vec()) }
//!     fn to_lossy_string(&self) -> String { String::from_utf16_lossy(&self.0) }
//!     fn is_well_formed(&self) -> bool { String::from_utf16(&self.0).is_ok() }
//! }
//! struct NoMembers;
//! impl HostMembers for NoMembers {
//!     type Value = Value;
//!     type Text = Text;
//!     fn count(&self) -> u32 { 0 }
//!     fn key(&self, _: u32) -> Text { Text(Vec::new()) }
//!     fn value(&self, _: u32) -> Value { Value::List(Vec::new()) }
//!     fn is_present(&self, _: u32) -> bool { true }
//! }
//! impl HostValue for Value {
//!     type Text = Text;
//!     type Members = NoMembers;
//!     fn shape(&self) -> Result<Shape<Text>, Thrown> {
//!         Ok(match self { Value::Text(t) => Shape::Text(Text(t.clone())), Value::List(_) => Shape::Array })
//!     }
//!     fn array_length(&self) -> Result<f64, Thrown> {
//!         Ok(match self { Value::List(items) => items.len() as f64, Value::Text(_) => 0.0 })
//!     }
//!     fn item(&self, i: u32) -> Result<Value, Thrown> {
//!         match self { Value::List(items) => Ok(items[i as usize].clone()), Value::Text(_) => Err(Thrown) }
//!     }
//!     fn members(&self) -> Result<NoMembers, Thrown> { Ok(NoMembers) }
//! }
//!
//! let list = Value::List(vec![Value::Text("ok".encode_utf16().collect()), Value::Text(vec![0xD800])]);
//! let refused = read_host_value(&list).unwrap_err();
//! assert_eq!(refused.path(), "[1]");
//! let read = read_host_value(&Value::List(vec![Value::Text("ok".encode_utf16().collect())])).unwrap();
//! assert_eq!(read.to_json(), r#"["ok"]"#);
//! ```

use super::{Json, JsonBuilder, INPUT_LIMITS};
use crate::error::ReportError;

/// A read of a host value that threw (a getter, a Proxy trap, a revoked Proxy).
///
/// ```
/// # use codemode_errors::json::{HostMembers, HostText, HostValue, Shape, Thrown};
/// # #[derive(Clone)]
/// # struct Units(Vec<u16>);
/// # impl HostText for Units {
/// #     fn units(&self) -> usize { self.0.len() }
/// #     fn unit_at(&self, i: usize) -> u16 { self.0[i] }
/// #     fn head(&self, n: usize) -> Self { Units(self.0[..n].to_vec()) }
/// #     fn to_lossy_string(&self) -> String { String::from_utf16_lossy(&self.0) }
/// #     fn is_well_formed(&self) -> bool { String::from_utf16(&self.0).is_ok() }
/// # }
/// # /// A tiny host: strings, numbers, byte buffers, a getter that throws, objects.
/// # #[derive(Clone)]
/// # enum V { S(&'static str), N(f64), Bytes, Getter, O(Vec<(&'static str, V)>) }
/// # struct Members(Vec<(&'static str, V)>);
/// # impl HostMembers for Members {
/// #     type Value = V;
/// #     type Text = Units;
/// #     fn count(&self) -> u32 { self.0.len() as u32 }
/// #     fn key(&self, i: u32) -> Units { Units(self.0[i as usize].0.encode_utf16().collect()) }
/// #     fn value(&self, i: u32) -> V { self.0[i as usize].1.clone() }
/// #     fn is_present(&self, _: u32) -> bool { true }
/// # }
/// # impl HostValue for V {
/// #     type Text = Units;
/// #     type Members = Members;
/// #     fn shape(&self) -> Result<Shape<Units>, Thrown> {
/// #         Ok(match self {
/// #             V::S(s) => Shape::Text(Units(s.encode_utf16().collect())),
/// #             V::N(n) => Shape::Number(*n),
/// #             V::Bytes => Shape::Unsupported("a byte buffer"),
/// #             V::Getter => return Err(Thrown),
/// #             V::O(_) => Shape::Object,
/// #         })
/// #     }
/// #     fn array_length(&self) -> Result<f64, Thrown> { Ok(0.0) }
/// #     fn item(&self, _: u32) -> Result<V, Thrown> { Err(Thrown) }
/// #     fn members(&self) -> Result<Members, Thrown> {
/// #         match self { V::O(m) => Ok(Members(m.clone())), _ => Err(Thrown) }
/// #     }
/// # }
///
/// use codemode_errors::json::read_host_value;
/// // A member whose getter throws is refused at its path.
/// let err = read_host_value(&V::O(vec![("data", V::Getter)])).unwrap_err();
/// assert_eq!(err.path(), "data");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thrown;

/// What a host value is, as far as JSON cares.
///
/// ```
/// # use codemode_errors::json::{HostMembers, HostText, HostValue, Shape, Thrown};
/// # #[derive(Clone)]
/// # struct Units(Vec<u16>);
/// # impl HostText for Units {
/// #     fn units(&self) -> usize { self.0.len() }
/// #     fn unit_at(&self, i: usize) -> u16 { self.0[i] }
/// #     fn head(&self, n: usize) -> Self { Units(self.0[..n].to_vec()) }
/// #     fn to_lossy_string(&self) -> String { String::from_utf16_lossy(&self.0) }
/// #     fn is_well_formed(&self) -> bool { String::from_utf16(&self.0).is_ok() }
/// # }
/// # /// A tiny host: strings, numbers, byte buffers, a getter that throws, objects.
/// # #[derive(Clone)]
/// # enum V { S(&'static str), N(f64), Bytes, Getter, O(Vec<(&'static str, V)>) }
/// # struct Members(Vec<(&'static str, V)>);
/// # impl HostMembers for Members {
/// #     type Value = V;
/// #     type Text = Units;
/// #     fn count(&self) -> u32 { self.0.len() as u32 }
/// #     fn key(&self, i: u32) -> Units { Units(self.0[i as usize].0.encode_utf16().collect()) }
/// #     fn value(&self, i: u32) -> V { self.0[i as usize].1.clone() }
/// #     fn is_present(&self, _: u32) -> bool { true }
/// # }
/// # impl HostValue for V {
/// #     type Text = Units;
/// #     type Members = Members;
/// #     fn shape(&self) -> Result<Shape<Units>, Thrown> {
/// #         Ok(match self {
/// #             V::S(s) => Shape::Text(Units(s.encode_utf16().collect())),
/// #             V::N(n) => Shape::Number(*n),
/// #             V::Bytes => Shape::Unsupported("a byte buffer"),
/// #             V::Getter => return Err(Thrown),
/// #             V::O(_) => Shape::Object,
/// #         })
/// #     }
/// #     fn array_length(&self) -> Result<f64, Thrown> { Ok(0.0) }
/// #     fn item(&self, _: u32) -> Result<V, Thrown> { Err(Thrown) }
/// #     fn members(&self) -> Result<Members, Thrown> {
/// #         match self { V::O(m) => Ok(Members(m.clone())), _ => Err(Thrown) }
/// #     }
/// # }
///
/// use codemode_errors::json::read_host_value;
/// assert_eq!(read_host_value(&V::N(f64::NAN)).unwrap_err().code().as_str(), "invalid_json");
/// let err = read_host_value(&V::O(vec![("body", V::Bytes)])).unwrap_err();
/// assert_eq!((err.path(), err.message()), ("body", "a byte buffer is not a JSON value"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Shape<T> {
    /// A string.
    Text(T),
    /// An array: read with [`HostValue::array_length`] and [`HostValue::item`].
    Array,
    /// Any other object: read with [`HostValue::members`].
    Object,
    /// `true` or `false`.
    Bool(bool),
    /// A number, finite or not.
    Number(f64),
    /// `null`.
    Null,
    /// `undefined`: absent as a member, `null` as an array item, refused at the top.
    Undefined,
    /// A bigint (refused: `JSON.stringify` throws for one).
    BigInt,
    /// A symbol (refused).
    Symbol,
    /// A function (refused).
    Function,
    /// Another value JSON cannot hold, as the host names it (`"bytes"`, `"a set"`):
    /// refused with that name.
    Unsupported(&'static str),
}

/// A host string, read by UTF-16 units (the unit JavaScript counts in).
///
/// ```
/// # use codemode_errors::json::{HostMembers, HostText, HostValue, Shape, Thrown};
/// # #[derive(Clone)]
/// # struct Units(Vec<u16>);
/// # impl HostText for Units {
/// #     fn units(&self) -> usize { self.0.len() }
/// #     fn unit_at(&self, i: usize) -> u16 { self.0[i] }
/// #     fn head(&self, n: usize) -> Self { Units(self.0[..n].to_vec()) }
/// #     fn to_lossy_string(&self) -> String { String::from_utf16_lossy(&self.0) }
/// #     fn is_well_formed(&self) -> bool { String::from_utf16(&self.0).is_ok() }
/// # }
/// use codemode_errors::json::host_text_lossy;
/// let text = Units("ok".encode_utf16().chain([0xD800]).collect()); // a lone surrogate
/// assert!(!text.is_well_formed());
/// assert_eq!(host_text_lossy(&text), "ok\u{FFFD}");
/// ```
pub trait HostText: Sized {
    /// The string's length in UTF-16 units.
    fn units(&self) -> usize;
    /// The unit at `index` (below [`units`](HostText::units)).
    fn unit_at(&self, index: usize) -> u16;
    /// The first `units` units (at most [`units`](HostText::units)).
    fn head(&self, units: usize) -> Self;
    /// The string in Rust, lone surrogates as U+FFFD.
    fn to_lossy_string(&self) -> String;
    /// Whether the string has no lone surrogate.
    fn is_well_formed(&self) -> bool;
}

/// An object's own enumerable members, keys and values in the same order.
///
/// ```
/// # use codemode_errors::json::{HostMembers, HostText, HostValue, Shape, Thrown};
/// # #[derive(Clone)]
/// # struct Units(Vec<u16>);
/// # impl HostText for Units {
/// #     fn units(&self) -> usize { self.0.len() }
/// #     fn unit_at(&self, i: usize) -> u16 { self.0[i] }
/// #     fn head(&self, n: usize) -> Self { Units(self.0[..n].to_vec()) }
/// #     fn to_lossy_string(&self) -> String { String::from_utf16_lossy(&self.0) }
/// #     fn is_well_formed(&self) -> bool { String::from_utf16(&self.0).is_ok() }
/// # }
/// # /// A tiny host: strings, numbers, byte buffers, a getter that throws, objects.
/// # #[derive(Clone)]
/// # enum V { S(&'static str), N(f64), Bytes, Getter, O(Vec<(&'static str, V)>) }
/// # struct Members(Vec<(&'static str, V)>);
/// # impl HostMembers for Members {
/// #     type Value = V;
/// #     type Text = Units;
/// #     fn count(&self) -> u32 { self.0.len() as u32 }
/// #     fn key(&self, i: u32) -> Units { Units(self.0[i as usize].0.encode_utf16().collect()) }
/// #     fn value(&self, i: u32) -> V { self.0[i as usize].1.clone() }
/// #     fn is_present(&self, _: u32) -> bool { true }
/// # }
/// # impl HostValue for V {
/// #     type Text = Units;
/// #     type Members = Members;
/// #     fn shape(&self) -> Result<Shape<Units>, Thrown> {
/// #         Ok(match self {
/// #             V::S(s) => Shape::Text(Units(s.encode_utf16().collect())),
/// #             V::N(n) => Shape::Number(*n),
/// #             V::Bytes => Shape::Unsupported("a byte buffer"),
/// #             V::Getter => return Err(Thrown),
/// #             V::O(_) => Shape::Object,
/// #         })
/// #     }
/// #     fn array_length(&self) -> Result<f64, Thrown> { Ok(0.0) }
/// #     fn item(&self, _: u32) -> Result<V, Thrown> { Err(Thrown) }
/// #     fn members(&self) -> Result<Members, Thrown> {
/// #         match self { V::O(m) => Ok(Members(m.clone())), _ => Err(Thrown) }
/// #     }
/// # }
///
/// use codemode_errors::json::read_host_value;
/// let object = V::O(vec![("b", V::N(1.0)), ("a", V::S("x"))]);
/// assert_eq!(object.members().map(|m| m.count()), Ok(2));
/// assert_eq!(read_host_value(&object).unwrap().to_json(), r#"{"a":"x","b":1}"#);
/// ```
pub trait HostMembers {
    /// The values' type.
    type Value;
    /// The keys' type.
    type Text: HostText;
    /// How many members there are. (A host whose key and value lists can disagree, such as
    /// a Proxy's, gives the shorter length.)
    fn count(&self) -> u32;
    /// The key of member `index` (below [`count`](HostMembers::count)).
    fn key(&self, index: u32) -> Self::Text;
    /// The value of member `index` (below [`count`](HostMembers::count)).
    fn value(&self, index: u32) -> Self::Value;
    /// Whether member `index`'s value is anything but `undefined` (a member
    /// `JSON.stringify` keeps). Asked of the members past the kept ones, which are
    /// counted, not read.
    fn is_present(&self, index: u32) -> bool;
    /// The keys of members `start..end` as Rust strings, when the host can give them at
    /// once more cheaply than one by one; `None` reads them one by one. A host gives them
    /// only when every key is well formed and all of them together are at most
    /// `max_units` units, so that they are what reading them one by one would give.
    fn keys_at_once(&self, start: u32, end: u32, max_units: usize) -> Option<Vec<String>> {
        let _ = (start, end, max_units);
        None
    }
}

/// A value of the host's language.
///
/// ```
/// # use codemode_errors::json::{HostMembers, HostText, HostValue, Shape, Thrown};
/// # #[derive(Clone)]
/// # struct Units(Vec<u16>);
/// # impl HostText for Units {
/// #     fn units(&self) -> usize { self.0.len() }
/// #     fn unit_at(&self, i: usize) -> u16 { self.0[i] }
/// #     fn head(&self, n: usize) -> Self { Units(self.0[..n].to_vec()) }
/// #     fn to_lossy_string(&self) -> String { String::from_utf16_lossy(&self.0) }
/// #     fn is_well_formed(&self) -> bool { String::from_utf16(&self.0).is_ok() }
/// # }
/// # /// A tiny host: strings, numbers, byte buffers, a getter that throws, objects.
/// # #[derive(Clone)]
/// # enum V { S(&'static str), N(f64), Bytes, Getter, O(Vec<(&'static str, V)>) }
/// # struct Members(Vec<(&'static str, V)>);
/// # impl HostMembers for Members {
/// #     type Value = V;
/// #     type Text = Units;
/// #     fn count(&self) -> u32 { self.0.len() as u32 }
/// #     fn key(&self, i: u32) -> Units { Units(self.0[i as usize].0.encode_utf16().collect()) }
/// #     fn value(&self, i: u32) -> V { self.0[i as usize].1.clone() }
/// #     fn is_present(&self, _: u32) -> bool { true }
/// # }
/// # impl HostValue for V {
/// #     type Text = Units;
/// #     type Members = Members;
/// #     fn shape(&self) -> Result<Shape<Units>, Thrown> {
/// #         Ok(match self {
/// #             V::S(s) => Shape::Text(Units(s.encode_utf16().collect())),
/// #             V::N(n) => Shape::Number(*n),
/// #             V::Bytes => Shape::Unsupported("a byte buffer"),
/// #             V::Getter => return Err(Thrown),
/// #             V::O(_) => Shape::Object,
/// #         })
/// #     }
/// #     fn array_length(&self) -> Result<f64, Thrown> { Ok(0.0) }
/// #     fn item(&self, _: u32) -> Result<V, Thrown> { Err(Thrown) }
/// #     fn members(&self) -> Result<Members, Thrown> {
/// #         match self { V::O(m) => Ok(Members(m.clone())), _ => Err(Thrown) }
/// #     }
/// # }
///
/// use codemode_errors::json::{parse_json, read_host_value};
/// let report = V::O(vec![("tool", V::S("fs::read_file")), ("code_mode", V::O(vec![("kind", V::S("unknown_tool")), ("message", V::S("no such tool"))]))]);
/// let tree = read_host_value(&report).unwrap();
/// assert_eq!(tree, parse_json(r#"{"tool":"fs::read_file","code_mode":{"kind":"unknown_tool","message":"no such tool"}}"#).unwrap());
/// ```
pub trait HostValue: Sized {
    /// The host's strings.
    type Text: HostText;
    /// The host's object members.
    type Members: HostMembers<Value = Self, Text = Self::Text>;
    /// What the value is.
    fn shape(&self) -> Result<Shape<Self::Text>, Thrown>;
    /// An array's `length` as a number (whatever a Proxy claims: the reader keeps only a
    /// whole number up to 2^32 - 1, and reads anything else as 0).
    fn array_length(&self) -> Result<f64, Thrown>;
    /// An array's item at `index`.
    fn item(&self, index: u32) -> Result<Self, Thrown>;
    /// An object's own enumerable members.
    fn members(&self) -> Result<Self::Members, Thrown>;
}

/// Read a host value into the bounded tree, or say what in it JSON cannot hold and where
/// (the path as the core writes paths: `tool_result.content[2].type`).
///
/// ```
/// # use codemode_errors::json::{HostMembers, HostText, HostValue, Shape, Thrown};
/// # #[derive(Clone)]
/// # struct Units(Vec<u16>);
/// # impl HostText for Units {
/// #     fn units(&self) -> usize { self.0.len() }
/// #     fn unit_at(&self, i: usize) -> u16 { self.0[i] }
/// #     fn head(&self, n: usize) -> Self { Units(self.0[..n].to_vec()) }
/// #     fn to_lossy_string(&self) -> String { String::from_utf16_lossy(&self.0) }
/// #     fn is_well_formed(&self) -> bool { String::from_utf16(&self.0).is_ok() }
/// # }
/// # /// A tiny host: strings, numbers, byte buffers, a getter that throws, objects.
/// # #[derive(Clone)]
/// # enum V { S(&'static str), N(f64), Bytes, Getter, O(Vec<(&'static str, V)>) }
/// # struct Members(Vec<(&'static str, V)>);
/// # impl HostMembers for Members {
/// #     type Value = V;
/// #     type Text = Units;
/// #     fn count(&self) -> u32 { self.0.len() as u32 }
/// #     fn key(&self, i: u32) -> Units { Units(self.0[i as usize].0.encode_utf16().collect()) }
/// #     fn value(&self, i: u32) -> V { self.0[i as usize].1.clone() }
/// #     fn is_present(&self, _: u32) -> bool { true }
/// # }
/// # impl HostValue for V {
/// #     type Text = Units;
/// #     type Members = Members;
/// #     fn shape(&self) -> Result<Shape<Units>, Thrown> {
/// #         Ok(match self {
/// #             V::S(s) => Shape::Text(Units(s.encode_utf16().collect())),
/// #             V::N(n) => Shape::Number(*n),
/// #             V::Bytes => Shape::Unsupported("a byte buffer"),
/// #             V::Getter => return Err(Thrown),
/// #             V::O(_) => Shape::Object,
/// #         })
/// #     }
/// #     fn array_length(&self) -> Result<f64, Thrown> { Ok(0.0) }
/// #     fn item(&self, _: u32) -> Result<V, Thrown> { Err(Thrown) }
/// #     fn members(&self) -> Result<Members, Thrown> {
/// #         match self { V::O(m) => Ok(Members(m.clone())), _ => Err(Thrown) }
/// #     }
/// # }
///
/// use codemode_errors::json::read_host_value;
/// let err = read_host_value(&V::O(vec![("tool", V::S("fs::read")), ("ratio", V::N(f64::INFINITY))])).unwrap_err();
/// assert_eq!(err.path(), "ratio");
/// assert_eq!(read_host_value(&V::S("ok")).unwrap().as_str(), Some("ok"));
/// ```
pub fn read_host_value<V: HostValue>(value: &V) -> Result<Json, ReportError> {
    match value.shape() {
        Ok(Shape::Undefined) => Err(JsonBuilder::unsupported("", "undefined")),
        Ok(shape) => read_shaped(value, shape, 0).map_err(Failure::into_report_error),
        Err(Thrown) => Err(Failure::new(Problem::Throws).into_report_error()),
    }
}

/// The kept head of a host string, lone surrogates as U+FFFD: for free text that is never
/// refused (the message of a thrown error).
///
/// ```
/// # use codemode_errors::json::{HostMembers, HostText, HostValue, Shape, Thrown};
/// # #[derive(Clone)]
/// # struct Units(Vec<u16>);
/// # impl HostText for Units {
/// #     fn units(&self) -> usize { self.0.len() }
/// #     fn unit_at(&self, i: usize) -> u16 { self.0[i] }
/// #     fn head(&self, n: usize) -> Self { Units(self.0[..n].to_vec()) }
/// #     fn to_lossy_string(&self) -> String { String::from_utf16_lossy(&self.0) }
/// #     fn is_well_formed(&self) -> bool { String::from_utf16(&self.0).is_ok() }
/// # }
/// use codemode_errors::json::{host_text_lossy, INPUT_LIMITS};
/// assert_eq!(host_text_lossy(&Units(vec![0x68, 0x69, 0xDC00])), "hi\u{FFFD}");
/// let long = Units(vec![0x61; 300_000]);
/// assert_eq!(host_text_lossy(&long).len(), INPUT_LIMITS.string_head); // the kept head only
/// ```
pub fn host_text_lossy<T: HostText>(text: &T) -> String {
    match kept_head(text) {
        Some(head) => head.to_lossy_string(),
        None => text.to_lossy_string(),
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
    NotFinite,
    Unsupported(&'static str),
    Throws,
}

impl Failure {
    fn new(problem: Problem) -> Self {
        Failure { problem, steps: Vec::new() }
    }

    fn at(mut self, step: Step) -> Self {
        self.steps.push(step);
        self
    }

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
            Problem::NotFinite => JsonBuilder::not_finite(&path),
            Problem::Unsupported(what) => JsonBuilder::unsupported(&path, what),
            Problem::Throws => JsonBuilder::unsupported(&path, "a value whose properties throw when read"),
        }
    }
}

fn read_value<V: HostValue>(value: &V, depth: usize) -> Result<Json, Failure> {
    let shape = value.shape().map_err(|Thrown| Failure::new(Problem::Throws))?;
    read_shaped(value, shape, depth)
}

fn read_shaped<V: HostValue>(value: &V, shape: Shape<V::Text>, depth: usize) -> Result<Json, Failure> {
    match shape {
        Shape::Text(s) => string(&s).map(|(head, total)| JsonBuilder::string(&head, total)),
        Shape::Array | Shape::Object => {
            // One more level of nesting, checked before any of it is read.
            let depth = depth + 1;
            if depth > INPUT_LIMITS.max_depth {
                return Err(Failure::new(Problem::TooDeep));
            }
            if matches!(shape, Shape::Array) {
                array(value, depth)
            } else {
                object(value, depth)
            }
        }
        Shape::Bool(b) => Ok(Json::Bool(b)),
        Shape::Number(n) if n.is_finite() => Ok(Json::Number(n)),
        Shape::Number(_) => Err(Failure::new(Problem::NotFinite)),
        // Top-level `undefined` is refused by `read_host_value`; inside arrays it is `null`.
        Shape::Null | Shape::Undefined => Ok(Json::Null),
        Shape::BigInt => Err(Failure::new(Problem::Unsupported("a bigint"))),
        Shape::Symbol => Err(Failure::new(Problem::Unsupported("a symbol"))),
        Shape::Function => Err(Failure::new(Problem::Unsupported("a function"))),
        Shape::Unsupported(what) => Err(Failure::new(Problem::Unsupported(what))),
    }
}

fn array<V: HostValue>(array: &V, depth: usize) -> Result<Json, Failure> {
    let length = array.array_length().map_err(|Thrown| Failure::new(Problem::Throws))?;
    // An array's length is a whole number below 2^32; a Proxy may claim anything else.
    let total = Some(length).filter(|n| n.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(n)).map_or(0, |n| n as u32);
    let kept = total.min(INPUT_LIMITS.array_items as u32);
    let mut items = Vec::with_capacity(kept as usize);
    for i in 0..kept {
        let item = array.item(i).map_err(|Thrown| Failure::new(Problem::Throws).at(Step::Index(i)))?;
        items.push(read_value(&item, depth).map_err(|f| f.at(Step::Index(i)))?);
    }
    Ok(JsonBuilder::array(items, total as usize))
}

fn object<V: HostValue>(object: &V, depth: usize) -> Result<Json, Failure> {
    let members = object.members().map_err(|Thrown| Failure::new(Problem::Throws))?;
    let count = members.count();
    let cap = INPUT_LIMITS.object_members;
    let mut kept = Vec::with_capacity((count as usize).min(cap));
    let mut next = 0u32;
    while next < count && kept.len() < cap {
        // Enough keys for the members still to keep (an `undefined` value is no member,
        // so a chunk may keep fewer, and the next chunk reads on).
        let end = count.min(next + (cap - kept.len()) as u32);
        let at_once = members.keys_at_once(next, end, INPUT_LIMITS.string_head).filter(|names| names.len() == (end - next) as usize);
        for i in next..end {
            let member = members.value(i);
            let shape = member.shape();
            if matches!(shape, Ok(Shape::Undefined)) {
                // `JSON.stringify` leaves such members out, key and all; so does the tree.
                continue;
            }
            let key = match &at_once {
                Some(names) => names[(i - next) as usize].clone(),
                None => key(&members, i)?,
            };
            let shape = shape.map_err(|Thrown| Failure::new(Problem::Throws).at(Step::Key(key.clone())))?;
            let value = read_shaped(&member, shape, depth).map_err(|f| f.at(Step::Key(key.clone())))?;
            kept.push((key, value));
        }
        next = end;
    }
    // Members past the cap are counted without reading them: every one `JSON.stringify`
    // would keep, so the count is the text reader's.
    let total = kept.len() + (next..count).filter(|&i| members.is_present(i)).count();
    Ok(JsonBuilder::object(kept, total))
}

/// The key of member `index`, capped like any string; a key holding a lone surrogate is
/// refused at its path.
fn key<M: HostMembers>(members: &M, index: u32) -> Result<String, Failure> {
    let key = members.key(index);
    string(&key).map(|(head, _)| head).map_err(|f| f.at(Step::Key(host_text_lossy(&key))))
}

/// The kept head of a string and its whole length in UTF-16 units. Reads at most
/// `string_head` units; a lone surrogate inside the head is refused.
fn string<T: HostText>(s: &T) -> Result<(String, usize), Failure> {
    let total = s.units();
    let cut = kept_head(s);
    let head = cut.as_ref().unwrap_or(s);
    let text = head.to_lossy_string();
    // A lone surrogate reads as U+FFFD, so only text holding U+FFFD needs the exact check.
    if text.contains('\u{FFFD}') && !head.is_well_formed() {
        return Err(Failure::new(Problem::LoneSurrogate));
    }
    Ok((text, total))
}

/// At most `string_head` units of `s`, or `None` when it is no longer. A surrogate pair
/// cut by the cap is left out whole, as the core's text reader does.
fn kept_head<T: HostText>(s: &T) -> Option<T> {
    let total = s.units();
    let cap = INPUT_LIMITS.string_head;
    if total <= cap {
        return None;
    }
    let high = (0xD800..=0xDBFF).contains(&s.unit_at(cap - 1));
    let low = (0xDC00..=0xDFFF).contains(&s.unit_at(cap));
    Some(s.head(if high && low { cap - 1 } else { cap }))
}
