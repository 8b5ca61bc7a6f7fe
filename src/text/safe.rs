//! The types of text that may reach a model. A [`SafeText`] is made only by the text
//! pipeline of this module (or from the core's own literals), and the wire writers take
//! only `SafeText`, so a string that skipped the pipeline cannot be emitted: it does not
//! compile.

use std::fmt;
use std::ops::Deref;

use crate::json::{write_decimal, Json};

/// Text that went through the text pipeline: invisible and control characters stripped,
/// secrets redacted, chat-template markers defanged, capped. It reads as a `str`; only
/// the core makes one.
///
/// ```
/// let error = codemode_errors::normalize_json(
///     r#"{"tool":"fs::read","transport":{"kind":"dns","message":"lookup of api.example.com failed (token=abc123)"}}"#,
///     &Default::default(),
/// ).unwrap().error.unwrap();
/// let cause: &str = error.cause.as_deref().unwrap();
/// assert_eq!(cause, "lookup of api.example.com failed (token=[REDACTED:secret_field])");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SafeText(String);

impl SafeText {
    /// Text the pipeline produced. Only the text module calls this.
    pub(in crate::text) fn from_pipeline(text: String) -> Self {
        SafeText(text)
    }

    /// The core's own wording (a literal in this crate), which needs no cleaning.
    pub(crate) fn literal(text: &'static str) -> Self {
        SafeText(text.to_owned())
    }

    /// A checked identifier: 1 to 64 characters of `[a-z0-9_]` (a kind, a redaction
    /// family), which can carry no invisible character and no marker. `None` otherwise.
    pub(crate) fn identifier(text: &str) -> Option<Self> {
        Self::is_identifier(text).then(|| SafeText(text.to_owned()))
    }

    /// Whether `text` is an identifier [`SafeText::identifier`] takes: 1 to 64
    /// characters of `[a-z0-9_]`.
    pub(crate) fn is_identifier(text: &str) -> bool {
        (1..=64).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    }

    /// The text without leading and trailing whitespace.
    pub(crate) fn trimmed(&self) -> SafeText {
        SafeText(self.0.trim().to_owned())
    }

    /// The text.
    ///
    /// ```
    /// let error = codemode_errors::normalize_json(r#"{"tool":"a::b","transport":{"kind":"timeout","message":"no answer (token=abc)"}}"#, &Default::default())
    ///     .unwrap()
    ///     .error
    ///     .unwrap();
    /// assert_eq!(error.cause.as_ref().map(|c| c.as_str()), Some("no answer (token=[REDACTED:secret_field])"));
    /// ```
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The text, owned.
    ///
    /// ```
    /// let error = codemode_errors::normalize_json(r#"{"tool":"a::b","transport":{"kind":"timeout","message":"no answer (token=abc)"}}"#, &Default::default())
    ///     .unwrap()
    ///     .error
    ///     .unwrap();
    /// let kind: String = error.kind.into_string();
    /// assert_eq!(kind, "timeout");
    /// ```
    pub fn into_string(self) -> String {
        self.0
    }
}

impl Deref for SafeText {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for SafeText {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SafeText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for SafeText {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for SafeText {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl From<SafeText> for String {
    fn from(text: SafeText) -> String {
        text.0
    }
}

/// Composes a [`SafeText`] from safe parts, the core's own literals and numbers: the
/// message and guidance sentences are built this way.
#[derive(Debug, Default)]
pub(crate) struct SafeTextBuilder(String);

impl SafeTextBuilder {
    /// An empty text with room for `capacity` bytes.
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        SafeTextBuilder(String::with_capacity(capacity))
    }

    /// Append the core's own wording.
    pub(crate) fn literal(&mut self, text: &'static str) -> &mut Self {
        self.0.push_str(text);
        self
    }

    /// Append text the pipeline made.
    pub(crate) fn safe(&mut self, text: &SafeText) -> &mut Self {
        self.0.push_str(&text.0);
        self
    }

    /// Append a whole number.
    pub(crate) fn number(&mut self, n: u64) -> &mut Self {
        write_decimal(&mut self.0, n);
        self
    }

    /// The text.
    pub(crate) fn finish(&mut self) -> SafeText {
        SafeText(std::mem::take(&mut self.0))
    }
}

/// A JSON value whose every string and key went through the text pipeline, and whose
/// secret-named members are masked: structured evidence as the core emits it.
///
/// ```
/// let error = codemode_errors::normalize_json(
///     r#"{"tool_result":{"isError":true,"content":[],"structuredContent":{"code":"E42","password":"hunter2"}}}"#,
///     &Default::default(),
/// ).unwrap().error.unwrap();
/// let structured = error.evidence.unwrap().structured_content.unwrap();
/// assert_eq!(structured.get("password").and_then(|v| v.as_str()), Some("[REDACTED:secret_field]"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SafeJson(Json);

impl SafeJson {
    /// A value the pipeline rendered. Only the text and evidence modules call this.
    pub(crate) fn from_rendered(value: Json) -> Self {
        SafeJson(value)
    }

    /// One of the core's own marker strings as a value.
    pub(crate) fn literal(text: &'static str) -> Self {
        SafeJson(Json::String(crate::json::JsonText::whole(text)))
    }

    /// The value.
    ///
    /// ```
    /// let error = codemode_errors::normalize_json(
    ///     r#"{"tool_result":{"isError":true,"content":[],"structuredContent":{"code":"E42","password":"hunter2"}}}"#,
    ///     &Default::default(),
    /// ).unwrap().error.unwrap();
    /// let structured = error.evidence.unwrap().structured_content.unwrap();
    /// assert_eq!(structured.as_json().get("code").and_then(|v| v.as_str()), Some("E42"));
    /// ```
    pub fn as_json(&self) -> &Json {
        &self.0
    }

    /// The value, owned.
    ///
    /// ```
    /// let error = codemode_errors::normalize_json(
    ///     r#"{"tool_result":{"isError":true,"content":[],"structuredContent":{"code":"E42","password":"hunter2"}}}"#,
    ///     &Default::default(),
    /// ).unwrap().error.unwrap();
    /// let structured = error.evidence.unwrap().structured_content.unwrap();
    /// let value: codemode_errors::Json = structured.into_json();
    /// assert_eq!(value.type_name(), "object");
    /// ```
    pub fn into_json(self) -> Json {
        self.0
    }

    /// The value as compact JSON (sorted keys).
    ///
    /// ```
    /// let error = codemode_errors::normalize_json(
    ///     r#"{"tool_result":{"isError":true,"content":[],"structuredContent":{"code":"E42","password":"hunter2"}}}"#,
    ///     &Default::default(),
    /// ).unwrap().error.unwrap();
    /// let structured = error.evidence.unwrap().structured_content.unwrap();
    /// assert_eq!(structured.to_json(), r#"{"code":"E42","password":"[REDACTED:secret_field]"}"#);
    /// ```
    pub fn to_json(&self) -> String {
        self.0.to_json()
    }
}

impl Deref for SafeJson {
    type Target = Json;

    fn deref(&self) -> &Json {
        &self.0
    }
}
