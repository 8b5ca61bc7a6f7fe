//! The bounded JSON tree every input is read into.
//!
//! Inputs come from untrusted upstreams and may be huge: a 50 MB text block, ten thousand
//! content blocks, a hundred thousand levels of nesting. The reader keeps only what the
//! contract can ever show (a head of each string, the first members of each container) and
//! remembers how large each thing really was. Every later step works on this tree, so its
//! cost is bounded by [`InputLimits`], not by the input.
//!
//! Two readers build the tree: [`parse_json`] for JSON text (native core, WASI component,
//! CLI) and [`read_host_value`] for another language's values (the npm package's
//! JavaScript values, described through [`HostValue`]). Both apply the same limits, so
//! every surface sees the same tree.
//!
//! ```
//! use codemode_errors::json::{parse_json, INPUT_LIMITS};
//! let huge = format!(r#"{{"text": "{}"}}"#, "x".repeat(50_000_000));
//! let value = parse_json(&huge).unwrap();
//! let text = value.get("text").and_then(|t| t.as_text()).unwrap();
//! assert_eq!((text.head().len(), text.total_utf16()), (INPUT_LIMITS.string_head, 50_000_000));
//! ```

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::error::{ErrorCode, ReportError};

mod host;
mod write;

pub use host::{host_text_lossy, read_host_value, HostMembers, HostText, HostValue, Shape, Thrown};
pub use write::{write_decimal, write_json, write_number, write_string, ByteCount, JsonSink};

/// How much of an input the reader keeps. These are fixed so that every surface builds
/// the same tree from the same input; the output caps in [`crate::Policy`] are all smaller.
///
/// ```
/// use codemode_errors::json::{parse_json, INPUT_LIMITS};
/// let long = format!("[{}]", vec!["1"; INPUT_LIMITS.array_items + 10].join(","));
/// let list = parse_json(&long).unwrap();
/// let list = list.as_array().unwrap();
/// assert_eq!((list.items().len(), list.total()), (256, 266)); // kept, counted
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputLimits {
    /// Longest string head kept, in UTF-16 code units (the unit JavaScript counts in).
    pub string_head: usize,
    /// Most array items kept per array; the rest are counted, not stored.
    pub array_items: usize,
    /// Most object members kept per object; the rest are counted, not stored.
    pub object_members: usize,
    /// Deepest nesting accepted. Deeper input is rejected, not truncated, because it is
    /// never a real MCP result.
    pub max_depth: usize,
}

/// The one set of input limits used by every reader.
///
/// ```
/// use codemode_errors::json::{parse_json, INPUT_LIMITS};
/// assert_eq!(INPUT_LIMITS.max_depth, 120);
/// let deep = format!("{}{}", "[".repeat(INPUT_LIMITS.max_depth + 1), "]".repeat(INPUT_LIMITS.max_depth + 1));
/// assert_eq!(parse_json(&deep).unwrap_err().code().as_str(), "too_deep");
/// ```
pub const INPUT_LIMITS: InputLimits = InputLimits { string_head: 128 * 1024, array_items: 256, object_members: 256, max_depth: 120 };

/// A string as the reader kept it: its head and the length of the whole.
///
/// ```
/// use codemode_errors::json::{parse_json, INPUT_LIMITS};
/// let big = parse_json(&format!("\"{}\"", "a".repeat(200_000))).unwrap();
/// let text = big.as_text().unwrap();
/// assert_eq!((text.head().len(), text.total_utf16()), (INPUT_LIMITS.string_head, 200_000));
/// assert!(!text.is_complete());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct JsonText {
    head: String,
    total_utf16: usize,
}

impl JsonText {
    /// A text kept whole.
    ///
    /// ```
    /// use codemode_errors::json::JsonText;
    /// let text = JsonText::whole("h\u{e9}llo \u{1F600}");
    /// assert_eq!(text.total_utf16(), 8); // the emoji is two UTF-16 units
    /// assert!(text.is_complete());
    /// ```
    pub fn whole(text: impl Into<String>) -> Self {
        let head = text.into();
        let total_utf16 = utf16_len(&head);
        JsonText { head, total_utf16 }
    }

    /// A text of which only `head` was kept; the whole was `total_utf16` code units long.
    /// A total shorter than the head is raised to the head's length.
    ///
    /// ```
    /// use codemode_errors::json::JsonText;
    /// assert_eq!(JsonText::from_head("abc", 10).total_utf16(), 10);
    /// assert_eq!(JsonText::from_head("abc", 1).total_utf16(), 3); // raised to the head
    /// ```
    pub fn from_head(head: impl Into<String>, total_utf16: usize) -> Self {
        let head = head.into();
        let total_utf16 = total_utf16.max(utf16_len(&head));
        JsonText { head, total_utf16 }
    }

    /// The kept head (the whole text when [`JsonText::is_complete`]).
    ///
    /// ```
    /// use codemode_errors::json::JsonText;
    /// assert_eq!(JsonText::from_head("ENOENT", 5_000).head(), "ENOENT");
    /// ```
    pub fn head(&self) -> &str {
        &self.head
    }

    /// Length of the whole original text in UTF-16 code units.
    ///
    /// ```
    /// use codemode_errors::json::JsonText;
    /// assert_eq!(JsonText::whole("\u{1F600}").total_utf16(), 2);
    /// ```
    pub fn total_utf16(&self) -> usize {
        self.total_utf16
    }

    /// Whether the head is the whole text.
    ///
    /// ```
    /// use codemode_errors::json::JsonText;
    /// assert!(JsonText::whole("abc").is_complete());
    /// assert!(!JsonText::from_head("abc", 4).is_complete());
    /// ```
    pub fn is_complete(&self) -> bool {
        utf16_len(&self.head) == self.total_utf16
    }
}

/// An array or object as the reader kept it: its first items and its real length.
///
/// ```
/// use codemode_errors::json::parse_json;
/// let value = parse_json("[1, 2, 3]").unwrap();
/// let list = value.as_array().unwrap();
/// assert_eq!((list.items().len(), list.total(), list.dropped()), (3, 3, 0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct JsonList<T> {
    items: Vec<T>,
    total: usize,
}

impl<T> JsonList<T> {
    /// A list of `items` out of `total` (raised to `items.len()` when smaller).
    ///
    /// ```
    /// use codemode_errors::json::JsonList;
    /// let list = JsonList::new(vec!["a", "b"], 10);
    /// assert_eq!(list.dropped(), 8);
    /// assert_eq!(JsonList::new(vec!["a", "b"], 0).total(), 2); // raised to the items
    /// ```
    pub fn new(items: Vec<T>, total: usize) -> Self {
        let total = total.max(items.len());
        JsonList { items, total }
    }

    /// The kept items.
    ///
    /// ```
    /// use codemode_errors::json::JsonList;
    /// assert_eq!(JsonList::new(vec![1, 2], 5).items(), &[1, 2]);
    /// ```
    pub fn items(&self) -> &[T] {
        &self.items
    }

    /// How many items the original had.
    ///
    /// ```
    /// use codemode_errors::json::JsonList;
    /// assert_eq!(JsonList::new(vec![1, 2], 5).total(), 5);
    /// ```
    pub fn total(&self) -> usize {
        self.total
    }

    /// How many items were not kept.
    ///
    /// ```
    /// use codemode_errors::json::JsonList;
    /// assert_eq!(JsonList::new(vec![1, 2], 5).dropped(), 3);
    /// ```
    pub fn dropped(&self) -> usize {
        self.total - self.items.len()
    }
}

/// A bounded JSON value. Numbers are IEEE doubles, as in JavaScript, so every surface
/// reads and prints them the same way.
///
/// ```
/// use codemode_errors::json::{parse_json, Json};
/// let value = parse_json(r#"{"code": -32602, "data": null, "ok": false}"#).unwrap();
/// assert_eq!(value.get("code"), Some(&Json::Number(-32602.0)));
/// assert_eq!(value.get("data"), Some(&Json::Null));
/// assert_eq!(value.to_json(), r#"{"code":-32602,"data":null,"ok":false}"#);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`
    Null,
    /// `true` or `false`
    Bool(bool),
    /// A finite number.
    Number(f64),
    /// A string, possibly only its head.
    String(JsonText),
    /// An array, possibly only its first items.
    Array(JsonList<Json>),
    /// An object in member order, possibly only its first members. Keys are unique: a
    /// repeated key keeps its first position and its last value, as `JSON.parse` does.
    Object(JsonList<(String, Json)>),
}

impl Json {
    /// The member `key` of an object.
    ///
    /// ```
    /// use codemode_errors::json::parse_json;
    /// let value = parse_json(r#"{"a": 1, "a": 2}"#).unwrap();
    /// assert_eq!(value.get("a").and_then(|v| v.as_i64()), Some(2)); // the last value, as JSON.parse
    /// assert!(value.get("b").is_none());
    /// ```
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.items().iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string head, when this is a string.
    ///
    /// ```
    /// use codemode_errors::json::parse_json;
    /// assert_eq!(parse_json(r#""ENOENT""#).unwrap().as_str(), Some("ENOENT"));
    /// assert_eq!(parse_json("5").unwrap().as_str(), None);
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(t) => Some(t.head()),
            _ => None,
        }
    }

    /// The string, when this is a string.
    ///
    /// ```
    /// use codemode_errors::json::parse_json;
    /// let value = parse_json(r#""caf\u00e9""#).unwrap();
    /// assert_eq!(value.as_text().map(|t| t.total_utf16()), Some(4));
    /// ```
    pub fn as_text(&self) -> Option<&JsonText> {
        match self {
            Json::String(t) => Some(t),
            _ => None,
        }
    }

    /// The boolean, when this is one.
    ///
    /// ```
    /// use codemode_errors::json::parse_json;
    /// assert_eq!(parse_json("true").unwrap().as_bool(), Some(true));
    /// assert_eq!(parse_json("1").unwrap().as_bool(), None);
    /// ```
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, when this is one.
    ///
    /// ```
    /// use codemode_errors::json::parse_json;
    /// assert_eq!(parse_json("2.5e3").unwrap().as_f64(), Some(2500.0));
    /// ```
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(n) => Some(*n),
            _ => None,
        }
    }

    /// The number as an integer, when it is a whole number that a double holds exactly.
    ///
    /// ```
    /// use codemode_errors::json::parse_json;
    /// assert_eq!(parse_json("429").unwrap().as_i64(), Some(429));
    /// assert_eq!(parse_json("1.5").unwrap().as_i64(), None);
    /// assert_eq!(parse_json("1e300").unwrap().as_i64(), None); // beyond 2^53
    /// ```
    pub fn as_i64(&self) -> Option<i64> {
        self.as_f64().and_then(exact_integer)
    }

    /// The array, when this is one.
    ///
    /// ```
    /// use codemode_errors::json::parse_json;
    /// assert_eq!(parse_json("[1, [2]]").unwrap().as_array().map(|a| a.total()), Some(2));
    /// assert!(parse_json("{}").unwrap().as_array().is_none());
    /// ```
    pub fn as_array(&self) -> Option<&JsonList<Json>> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The object, when this is one.
    ///
    /// ```
    /// use codemode_errors::json::parse_json;
    /// let value = parse_json(r#"{"b": 1, "a": 2}"#).unwrap();
    /// let keys: Vec<&str> = value.as_object().unwrap().items().iter().map(|(k, _)| k.as_str()).collect();
    /// assert_eq!(keys, ["b", "a"]); // member order is kept
    /// ```
    pub fn as_object(&self) -> Option<&JsonList<(String, Json)>> {
        match self {
            Json::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The JSON type name, for error messages.
    ///
    /// ```
    /// use codemode_errors::json::parse_json;
    /// assert_eq!(parse_json("[]").unwrap().type_name(), "array");
    /// assert_eq!(parse_json("null").unwrap().type_name(), "null");
    /// ```
    pub fn type_name(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "boolean",
            Json::Number(_) => "number",
            Json::String(_) => "string",
            Json::Array(_) => "array",
            Json::Object(_) => "object",
        }
    }
}

/// A double as an `i64` when it is a whole number within the range doubles hold exactly.
///
/// ```
/// use codemode_errors::json::exact_integer;
/// assert_eq!(exact_integer(20_000.0), Some(20_000));
/// assert_eq!(exact_integer(0.5), None);
/// assert_eq!(exact_integer(9_007_199_254_740_992.0), None); // 2^53: not exact
/// ```
pub fn exact_integer(n: f64) -> Option<i64> {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    (n.is_finite() && n.fract() == 0.0 && n.abs() <= MAX_SAFE).then_some(n as i64)
}

/// Length of `s` in UTF-16 code units, the unit JavaScript's `length` counts.
///
/// Counted from the bytes: every character is one unit except the four-byte ones, which
/// are two. Continuation bytes are skipped. The loop has no branches worth predicting, so
/// a 50 MB string costs a few milliseconds.
///
/// ```
/// use codemode_errors::json::utf16_len;
/// assert_eq!(utf16_len("abc"), 3);
/// assert_eq!(utf16_len("\u{e9}\u{1F600}"), 3); // é is one unit, the emoji two
/// ```
pub fn utf16_len(s: &str) -> usize {
    s.as_bytes().iter().map(|&b| usize::from((b & 0xC0) != 0x80) + usize::from(b >= 0xF0)).sum()
}

/// The longest prefix of `s` that is at most `max_units` UTF-16 code units long and does
/// not split a character.
///
/// ```
/// use codemode_errors::json::utf16_prefix;
/// assert_eq!(utf16_prefix("abcdef", 4), "abcd");
/// assert_eq!(utf16_prefix("a\u{1F600}b", 2), "a"); // never half an emoji
/// ```
pub fn utf16_prefix(s: &str, max_units: usize) -> &str {
    if s.len() <= max_units {
        // A UTF-8 string never has more UTF-16 units than bytes.
        return s;
    }
    let mut units = 0;
    for (i, c) in s.char_indices() {
        let w = c.len_utf16();
        if units + w > max_units {
            return &s[..i];
        }
        units += w;
    }
    s
}

/// Parse JSON text into a bounded tree.
///
/// Errors name what was wrong and where (line and column). Invalid UTF-16 escapes (lone
/// surrogates), numbers beyond the double range and nesting beyond
/// [`InputLimits::max_depth`] are errors, never panics.
///
/// ```
/// use codemode_errors::json::parse_json;
/// assert_eq!(parse_json(r#"{"b": [1, 2.50], "a": "x"}"#).unwrap().to_json(), r#"{"a":"x","b":[1,2.5]}"#);
/// let err = parse_json("{\"a\": }").unwrap_err();
/// assert_eq!(err.code().as_str(), "invalid_json");
/// assert!(err.message().contains("line 1"), "{}", err.message());
/// ```
pub fn parse_json(text: &str) -> Result<Json, ReportError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let kept = Cell::new(MAX_KEPT_VALUES);
    let value = BoundedSeed { depth: 0, kept: &kept }.deserialize(&mut de).map_err(json_syntax_error)?;
    de.end().map_err(json_syntax_error)?;
    Ok(value)
}

fn json_syntax_error(e: serde_json::Error) -> ReportError {
    let text = e.to_string();
    if crate::search::contains(&text, "recursion limit exceeded") || crate::search::contains(&text, DEPTH_MESSAGE) {
        ReportError::new(
            ErrorCode::TooDeep,
            "",
            format!("JSON nests deeper than {} levels (line {}, column {})", INPUT_LIMITS.max_depth, e.line(), e.column()),
        )
    } else {
        // serde_json's message already ends with "at line L column C".
        ReportError::new(ErrorCode::InvalidJson, "", format!("invalid JSON: {text}"))
    }
}

const DEPTH_MESSAGE: &str = "nesting deeper than the input limit";

/// Most values the reader keeps in one tree, whatever the input's shape: nested lists of
/// 256 items each would otherwise keep a value for every two bytes of input (an 8 MB
/// report of nested zeros held 4 million values, 40 times its size), while what the core
/// shows of a value fits its 32 KiB output. Values past the budget are read and checked
/// like the items past a list's cap, and counted, not stored.
pub(crate) const MAX_KEPT_VALUES: usize = 1 << 17;

struct BoundedSeed<'b> {
    depth: usize,
    /// How many more values this parse may keep.
    kept: &'b Cell<usize>,
}

impl<'b> BoundedSeed<'b> {
    fn child(&self, depth: usize) -> BoundedSeed<'b> {
        BoundedSeed { depth, kept: self.kept }
    }

    /// Whether another value may be kept.
    fn may_keep(&self) -> bool {
        self.kept.get() > 0
    }
}

impl<'de> DeserializeSeed<'de> for BoundedSeed<'_> {
    type Value = Json;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Json, D::Error> {
        self.kept.set(self.kept.get().saturating_sub(1));
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for BoundedSeed<'_> {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v as f64))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v as f64))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Json, E> {
        if v.is_finite() {
            Ok(Json::Number(v))
        } else {
            Err(E::custom("number out of range"))
        }
    }

    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(JsonText::from_head(utf16_prefix(v, INPUT_LIMITS.string_head), utf16_len(v))))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let depth = deeper::<A::Error>(self.depth)?;
        let mut items = Vec::new();
        let mut total = 0usize;
        while total < INPUT_LIMITS.array_items && self.may_keep() {
            match seq.next_element_seed(self.child(depth))? {
                Some(v) => {
                    items.push(v);
                    total += 1;
                }
                None => return Ok(Json::Array(JsonList::new(items, total))),
            }
        }
        while seq.next_element_seed(Checked { depth })?.is_some() {
            total += 1;
        }
        Ok(Json::Array(JsonList::new(items, total)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let depth = deeper::<A::Error>(self.depth)?;
        let mut members = MemberSet::default();
        let mut total = 0usize;
        while let Some(key) = map.next_key::<KeyHead>()? {
            if let Some(i) = members.position(&key.0) {
                members.items[i].1 = map.next_value_seed(self.child(depth))?;
            } else if members.items.len() < INPUT_LIMITS.object_members && self.may_keep() {
                let value = map.next_value_seed(self.child(depth))?;
                members.push(key.0, value);
                total += 1;
            } else {
                map.next_value_seed(Checked { depth })?;
                total += 1;
            }
        }
        Ok(Json::Object(JsonList::new(members.items, total)))
    }
}

/// The depth one level below `depth`, or the error for nesting past the limit.
fn deeper<E: de::Error>(depth: usize) -> Result<usize, E> {
    let depth = depth + 1;
    if depth > INPUT_LIMITS.max_depth {
        Err(E::custom(DEPTH_MESSAGE))
    } else {
        Ok(depth)
    }
}

/// A value past the kept items or members: not kept, but held to every rule a kept one is
/// (nesting depth, valid UTF-16 escapes, finite numbers), so a refusal applies to the
/// whole input, not only to its first 256 items.
struct Checked {
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for Checked {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Checked {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        if v.is_finite() {
            Ok(())
        } else {
            Err(E::custom("number out of range"))
        }
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let depth = deeper::<A::Error>(self.depth)?;
        while seq.next_element_seed(Checked { depth })?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let depth = deeper::<A::Error>(self.depth)?;
        while map.next_key_seed(Checked { depth })?.is_some() {
            map.next_value_seed(Checked { depth })?;
        }
        Ok(())
    }
}

/// An object key, capped like any string (keys are never looked up past the cap).
struct KeyHead(String);

impl<'de> de::Deserialize<'de> for KeyHead {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = KeyHead;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object key")
            }
            fn visit_str<E>(self, v: &str) -> Result<KeyHead, E> {
                Ok(KeyHead(utf16_prefix(v, INPUT_LIMITS.string_head).to_owned()))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// Object members in order with unique keys. Small objects are searched linearly; past
/// [`MemberSet::INDEX_FROM`] members a sorted index keeps each lookup logarithmic, so a
/// hostile object with thousands of keys costs no quadratic time. (A `BTreeMap`, not a
/// `HashMap`: hashing would need randomness, which the component is not granted.)
#[derive(Default)]
struct MemberSet {
    items: Vec<(String, Json)>,
    index: Option<std::collections::BTreeMap<String, usize>>,
}

impl MemberSet {
    const INDEX_FROM: usize = 16;

    fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self.items.iter().position(|(k, _)| k == key),
        }
    }

    fn push(&mut self, key: String, value: Json) {
        if self.index.is_some() || self.items.len() + 1 == Self::INDEX_FROM {
            self.index_key(&key);
        }
        self.items.push((key, value));
    }

    /// Enter `key` (about to be pushed) in the index, building it at the first large size.
    /// Out of line: most objects never get there.
    #[inline(never)]
    fn index_key(&mut self, key: &str) {
        let items = &self.items;
        // Built by inserting (a later member of the same key wins, as with `collect`):
        // collecting would compile a stable sort of its own into the module.
        let index = self.index.get_or_insert_with(|| {
            let mut index = std::collections::BTreeMap::new();
            for (i, (k, _)) in items.iter().enumerate() {
                index.insert(k.clone(), i);
            }
            index
        });
        index.insert(key.to_owned(), items.len());
    }
}

/// Builds a bounded tree from another host's values (the npm package walks JavaScript
/// objects with it). It applies [`INPUT_LIMITS`] exactly as [`parse_json`] does.
///
/// ```
/// use codemode_errors::json::{parse_json, Json, JsonBuilder};
/// let built = JsonBuilder::object(vec![("k".into(), JsonBuilder::array(vec![Json::Bool(true)], 1))], 1);
/// assert_eq!(built, parse_json(r#"{"k":[true]}"#).unwrap()); // the same tree as from text
/// ```
#[derive(Debug, Default)]
pub struct JsonBuilder;

impl JsonBuilder {
    /// The string to keep for a host string of `total_utf16` units whose first units are
    /// `head` (the caller reads at most [`InputLimits::string_head`] units).
    ///
    /// ```
    /// use codemode_errors::json::JsonBuilder;
    /// let s = JsonBuilder::string("ENOENT: no such file", 50_000);
    /// assert_eq!(s.as_text().map(|t| (t.head(), t.total_utf16())), Some(("ENOENT: no such file", 50_000)));
    /// ```
    pub fn string(head: &str, total_utf16: usize) -> Json {
        Json::String(JsonText::from_head(utf16_prefix(head, INPUT_LIMITS.string_head), total_utf16))
    }

    /// A host string kept as [`parse_json`] keeps a JSON string: its first
    /// [`InputLimits::string_head`] units and its real length.
    ///
    /// ```
    /// use codemode_errors::json::{JsonBuilder, INPUT_LIMITS};
    /// let text = JsonBuilder::text(&"x".repeat(200_000));
    /// assert_eq!((text.head().len(), text.total_utf16()), (INPUT_LIMITS.string_head, 200_000));
    /// ```
    pub fn text(s: &str) -> JsonText {
        JsonText::from_head(utf16_prefix(s, INPUT_LIMITS.string_head), utf16_len(s))
    }

    /// The error for a number that is not finite (NaN or Infinity), which JSON has none of.
    ///
    /// ```
    /// use codemode_errors::{json::JsonBuilder, ErrorCode};
    /// let err = JsonBuilder::not_finite("tool_result.structuredContent.ratio");
    /// assert_eq!((err.code(), err.path()), (ErrorCode::InvalidJson, "tool_result.structuredContent.ratio"));
    /// ```
    pub fn not_finite(path: &str) -> ReportError {
        ReportError::new(ErrorCode::InvalidJson, path, "number is not finite (NaN or Infinity)")
    }

    /// An array from its kept items and its real length.
    ///
    /// ```
    /// use codemode_errors::json::{Json, JsonBuilder};
    /// let array = JsonBuilder::array(vec![Json::Null], 300);
    /// assert_eq!(array.as_array().map(|a| a.dropped()), Some(299));
    /// assert_eq!(array.to_json(), "[null]"); // only kept items are written
    /// ```
    pub fn array(items: Vec<Json>, total: usize) -> Json {
        Json::Array(JsonList::new(items, total))
    }

    /// An object from its members in order and its real member count. Repeated keys keep
    /// their first position and last value, and count once (as the text reader counts
    /// them), so a host's distinct keys that JSON names alike (Python's `1` and `"1"`)
    /// leave no member untold.
    ///
    /// ```
    /// use codemode_errors::json::{Json, JsonBuilder};
    /// let object = JsonBuilder::object(vec![("a".into(), Json::Number(1.0)), ("b".into(), Json::Null), ("a".into(), Json::Number(2.0))], 3);
    /// assert_eq!(object.to_json(), r#"{"a":2,"b":null}"#);
    /// ```
    pub fn object(members: Vec<(String, Json)>, total: usize) -> Json {
        let mut unique = MemberSet::default();
        let mut repeated = 0;
        for (k, v) in members {
            match unique.position(&k) {
                Some(i) => {
                    unique.items[i].1 = v;
                    repeated += 1;
                }
                None => unique.push(k, v),
            }
        }
        let total = total.saturating_sub(repeated).max(unique.items.len());
        Json::Object(JsonList::new(unique.items, total))
    }

    /// The error for a host value nested deeper than [`InputLimits::max_depth`]: a host's
    /// value may also hold itself, which JSON text cannot, and reads as endless nesting.
    ///
    /// ```
    /// use codemode_errors::{json::JsonBuilder, ErrorCode};
    /// let err = JsonBuilder::too_deep("tool_result.structuredContent");
    /// assert_eq!(err.code(), ErrorCode::TooDeep);
    /// assert!(err.message().contains("a cycle"));
    /// ```
    pub fn too_deep(path: &str) -> ReportError {
        ReportError::new(
            ErrorCode::TooDeep,
            path,
            format!("value nests deeper than {} levels, or holds itself (a cycle)", INPUT_LIMITS.max_depth),
        )
    }

    /// The error for a string that is not valid UTF-16 (a lone surrogate).
    ///
    /// ```
    /// use codemode_errors::{json::JsonBuilder, ErrorCode};
    /// assert_eq!(JsonBuilder::lone_surrogate("tool").code(), ErrorCode::InvalidJson);
    /// ```
    pub fn lone_surrogate(path: &str) -> ReportError {
        ReportError::new(ErrorCode::InvalidJson, path, "string contains a lone surrogate (invalid UTF-16)")
    }

    /// The error for a value JSON cannot hold (a function, a symbol, a bigint, undefined).
    ///
    /// ```
    /// use codemode_errors::json::JsonBuilder;
    /// let err = JsonBuilder::unsupported("arguments.callback", "a function");
    /// assert_eq!(err.message(), "a function is not a JSON value");
    /// ```
    pub fn unsupported(path: &str, what: &str) -> ReportError {
        ReportError::new(ErrorCode::InvalidJson, path, format!("{what} is not a JSON value"))
    }
}

impl Json {
    /// The value as compact JSON (sorted keys, see [`write_json`]), written straight into
    /// one string: cheaper than `to_string`, which goes through the formatter.
    ///
    /// ```
    /// use codemode_errors::json::parse_json;
    /// assert_eq!(parse_json(r#"{"z": 1, "a": [true, null]}"#).unwrap().to_json(), r#"{"a":[true,null],"z":1}"#);
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(64);
        write_json(&mut out, self);
        out
    }
}

impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_len_counts_like_javascript() {
        assert_eq!(utf16_len("abc"), 3);
        assert_eq!(utf16_len("é"), 1);
        assert_eq!(utf16_len("€"), 1);
        assert_eq!(utf16_len("😀"), 2);
        assert_eq!(utf16_len("a😀b"), 4);
    }

    #[test]
    fn utf16_prefix_never_splits_a_pair() {
        assert_eq!(utf16_prefix("a😀b", 2), "a");
        assert_eq!(utf16_prefix("a😀b", 3), "a😀");
        assert_eq!(utf16_prefix("héllo", 2), "hé");
        assert_eq!(utf16_prefix("abc", 10), "abc");
    }

    #[test]
    fn long_strings_keep_head_and_length() {
        let big = "x".repeat(INPUT_LIMITS.string_head + 10);
        let v = parse_json(&format!("\"{big}\"")).unwrap();
        let t = v.as_text().unwrap();
        assert_eq!(t.head().len(), INPUT_LIMITS.string_head);
        assert_eq!(t.total_utf16(), INPUT_LIMITS.string_head + 10);
        assert!(!t.is_complete());
    }

    #[test]
    fn a_tree_keeps_at_most_its_value_budget_whatever_its_shape() {
        fn kept(v: &Json) -> usize {
            1 + match v {
                Json::Array(a) => a.items().iter().map(kept).sum(),
                Json::Object(o) => o.items().iter().map(|(_, v)| kept(v)).sum(),
                _ => 0,
            }
        }
        fn total(v: &Json) -> usize {
            match v {
                Json::Array(a) => a.total(),
                _ => 0,
            }
        }
        // 16 x 256 x 256 zeros: a million values, two bytes each.
        let row = format!("[{}]", vec!["0"; 256].join(","));
        let plane = format!("[{}]", vec![row.as_str(); 256].join(","));
        let cube = format!("[{}]", vec![plane.as_str(); 16].join(","));
        let v = parse_json(&cube).unwrap();
        assert!(kept(&v) <= MAX_KEPT_VALUES + 1, "{} values kept", kept(&v));
        assert_eq!(total(&v), 16, "every item is still counted");
        // Past the budget, every rule still applies.
        let bad = format!("[{cube},[\"\\ud800\"]]");
        assert_eq!(parse_json(&bad).unwrap_err().code(), ErrorCode::InvalidJson);
    }

    #[test]
    fn long_arrays_and_objects_are_counted_not_stored() {
        let items: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
        let v = parse_json(&format!("[{}]", items.join(","))).unwrap();
        let a = v.as_array().unwrap();
        assert_eq!(a.items().len(), INPUT_LIMITS.array_items);
        assert_eq!(a.total(), 1000);
        let members: Vec<String> = (0..300).map(|i| format!("\"k{i}\":{i}")).collect();
        let v = parse_json(&format!("{{{}}}", members.join(","))).unwrap();
        assert_eq!(v.as_object().unwrap().total(), 300);
        assert_eq!(v.as_object().unwrap().items().len(), INPUT_LIMITS.object_members);
    }

    #[test]
    fn repeated_keys_keep_first_position_and_last_value() {
        let v = parse_json(r#"{"a":1,"b":2,"a":3}"#).unwrap();
        let o = v.as_object().unwrap();
        assert_eq!(o.items()[0], ("a".to_string(), Json::Number(3.0)));
        assert_eq!(o.total(), 2);
    }

    #[test]
    fn repeated_keys_in_wide_objects_are_found_through_the_index() {
        let mut members: Vec<String> = (0..40).map(|i| format!("\"k{i}\":{i}")).collect();
        members.push("\"k3\":\"last\"".into());
        members.push("\"k39\":\"last\"".into());
        let v = parse_json(&format!("{{{}}}", members.join(","))).unwrap();
        let o = v.as_object().unwrap();
        assert_eq!(o.total(), 40);
        assert_eq!(v.get("k3").and_then(Json::as_str), Some("last"));
        assert_eq!(o.items()[39].0, "k39");
        assert_eq!(v.get("k39").and_then(Json::as_str), Some("last"));
        let built = JsonBuilder::object((0..40).map(|i| (format!("k{}", i % 20), Json::Number(i as f64))).collect(), 20);
        assert_eq!(built.as_object().unwrap().items().len(), 20);
        assert_eq!(built.get("k0"), Some(&Json::Number(20.0)));
    }

    #[test]
    fn hostile_json_is_a_typed_error() {
        let deep = "[".repeat(100_000);
        assert_eq!(parse_json(&deep).unwrap_err().code(), ErrorCode::TooDeep);
        assert_eq!(parse_json("1e400").unwrap_err().code(), ErrorCode::InvalidJson);
        assert_eq!(parse_json(r#""\ud800""#).unwrap_err().code(), ErrorCode::InvalidJson);
        assert_eq!(parse_json("{").unwrap_err().code(), ErrorCode::InvalidJson);
        assert_eq!(parse_json("[1] x").unwrap_err().code(), ErrorCode::InvalidJson);
    }

    #[test]
    fn nesting_up_to_the_limit_is_accepted() {
        let depth = INPUT_LIMITS.max_depth;
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(parse_json(&text).is_ok());
        let text = format!("{}{}", "[".repeat(depth + 1), "]".repeat(depth + 1));
        assert_eq!(parse_json(&text).unwrap_err().code(), ErrorCode::TooDeep);
    }
}
