//! Typed errors for input the core cannot work with.

use std::fmt;

wire_enum! {
    /// What kind of problem an input had. Stable: surfaces map it to their own error codes
    /// (the WIT `error-code` enum, the JS `code` property, the CLI's exit status).
    ///
    /// ```
    /// use codemode_errors::{normalize_json, ErrorCode};
    /// let err = normalize_json("{\"tool\": ", &Default::default()).unwrap_err();
    /// assert_eq!(err.code(), ErrorCode::InvalidJson);
    /// assert_eq!(ErrorCode::from_wire("too_deep"), Some(ErrorCode::TooDeep));
    /// assert_eq!(ErrorCode::InvalidPolicy.as_str(), "invalid_policy");
    /// ```
    #[non_exhaustive]
    pub ErrorCode {
        /// The text is not JSON (syntax, a lone surrogate escape, a number beyond the double range).
        InvalidJson = "invalid_json",
        /// The JSON nests deeper than the input limit.
        TooDeep = "too_deep",
        /// The JSON is well formed but is not a valid failure report.
        InvalidReport = "invalid_report",
        /// A policy setting is missing its meaning or out of range.
        InvalidPolicy = "invalid_policy",
        /// An error payload handed to the consumer API is not a contract error.
        InvalidCallError = "invalid_call_error",
        /// The error payload declares a contract version this library does not understand.
        UnsupportedVersion = "unsupported_version",
        /// The input is larger than the caller's configured input bound.
        InputTooLarge = "input_too_large",
        /// A surface's entry point was handed a value of the wrong type (a number where text
        /// belongs, say), so there was nothing to read as JSON at all. Only the npm package
        /// produces it: the component's WIT functions are typed, so its `error-code` enum has
        /// no such case (a WIT case would be a breaking change to the `codemode:errors` interface).
        InvalidArgument = "invalid_argument",
    }
}

/// Why an input was refused: a code, where in the input (a JSON-pointer-like path such as
/// `tool_result.content[2].type`, empty for the whole input) and a message for people.
///
/// ```
/// let err = codemode_errors::normalize_json("{\"tool\":\"a::b\"}", &Default::default()).unwrap_err();
/// assert_eq!(err.code(), codemode_errors::ErrorCode::InvalidReport);
/// assert!(err.to_string().contains("exactly one failure"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportError {
    code: ErrorCode,
    path: String,
    message: String,
}

impl ReportError {
    /// A new error; `path` may be empty.
    ///
    /// ```
    /// use codemode_errors::{ErrorCode, ReportError};
    /// let err = ReportError::new(ErrorCode::InvalidReport, "transport.kind", "unknown transport kind \"dns2\"");
    /// assert_eq!(err.to_string(), "invalid_report: at transport.kind: unknown transport kind \"dns2\"");
    /// ```
    pub fn new(code: ErrorCode, path: impl Into<String>, message: impl Into<String>) -> Self {
        ReportError { code, path: one_line(&compressed(&path.into()), MAX_PATH), message: one_line(&message.into(), MAX_MESSAGE) }
    }

    /// This error with its path taken as relative to the member `key` (`key`, `key.path`,
    /// or `key[2]...` for an array index).
    ///
    /// ```
    /// use codemode_errors::{ErrorCode, ReportError};
    /// let inner = ReportError::new(ErrorCode::InvalidJson, "[2].type", "must be a string");
    /// assert_eq!(inner.within("content").path(), "content[2].type");
    /// assert_eq!(inner.within("content").within("tool_result").path(), "tool_result.content[2].type");
    /// ```
    pub fn within(&self, key: &str) -> ReportError {
        let key = one_line(key, MAX_PATH);
        let path =
            if self.path.is_empty() || self.path.starts_with('[') { format!("{key}{}", self.path) } else { format!("{key}.{}", self.path) };
        ReportError { code: self.code, path: one_line(&compressed(&path), MAX_PATH), message: self.message.clone() }
    }

    /// The kind of problem.
    ///
    /// ```
    /// use codemode_errors::{parse_call_error, ErrorCode};
    /// assert_eq!(parse_call_error("not json").unwrap_err().code(), ErrorCode::InvalidCallError);
    /// ```
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// Where in the input the problem is (empty for the whole input).
    ///
    /// ```
    /// let err = codemode_errors::normalize_json(r#"{"tool":"fs::read","dispatched":"yes","budget":{"kind":"quota","message":"m"}}"#, &Default::default()).unwrap_err();
    /// assert_eq!(err.path(), "dispatched");
    /// ```
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What was wrong, without the path.
    ///
    /// ```
    /// use codemode_errors::{ErrorCode, ReportError};
    /// let err = ReportError::new(ErrorCode::InvalidPolicy, "max_text_chars", "must be at least 64");
    /// assert_eq!(err.message(), "must be at least 64"); // the path is not repeated
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// `path` with each run of three or more equal steps written once with its count
/// (`items[0][0][0][0]` as `items[0]×4`), so a path into deep nesting stays readable; a run
/// already counted (`[0]×116`) adds to its neighbours.
fn compressed(path: &str) -> String {
    // The steps: a leading name, then each `.name` or `[...]`, each with its count.
    let mut steps: Vec<(&str, usize)> = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        let end = rest.char_indices().skip(1).find(|&(_, c)| c == '.' || c == '[' || c == '×').map_or(rest.len(), |(at, _)| at);
        let (step, after) = rest.split_at(end);
        rest = after;
        let mut count = 1;
        if let Some(counted) = rest.strip_prefix('×') {
            let digits = counted.bytes().take_while(u8::is_ascii_digit).count();
            // Only a count this function writes (three or more) is read as one.
            if let Some(n) = counted[..digits].parse::<usize>().ok().filter(|&n| n >= 3) {
                count = n;
                rest = &counted[digits..];
            }
        }
        match steps.last_mut() {
            Some((last, n)) if *last == step && step.starts_with(['[', '.']) => *n = n.saturating_add(count),
            _ => steps.push((step, count)),
        }
    }
    let mut out = String::with_capacity(path.len().min(MAX_PATH));
    for (step, n) in steps {
        if n >= 3 {
            out.push_str(step);
            out.push('×');
            out.push_str(&n.to_string());
        } else {
            for _ in 0..n {
                out.push_str(step);
            }
        }
    }
    out
}

/// Longest path kept in an error, in characters: room for a path to the deepest value the
/// reader accepts, while a key of megabytes cannot make a line of megabytes.
const MAX_PATH: usize = 4096;

/// Longest message kept in an error, in characters (a message may quote the input).
const MAX_MESSAGE: usize = 600;

/// `text` as one line a terminal shows as it is: control, bidirectional and invisible
/// characters written as `\u{…}` escapes, capped at `cap` characters with `…`. Every
/// typed error passes this, so a message on stderr or in a JavaScript `TypeError` is one
/// clean line whatever the input held (a key with a newline or an escape sequence).
fn one_line(text: &str, cap: usize) -> String {
    let mut out = String::with_capacity(text.len().min(cap * 2));
    for (count, c) in text.chars().enumerate() {
        if count == cap {
            out.push('…');
            break;
        }
        let hidden =
            c.is_control() || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}');
        if hidden {
            out.push_str("\\u{");
            let code = c as u32;
            let digits = (32 - code.leading_zeros()).div_ceil(4).max(1);
            for shift in (0..digits).rev() {
                out.push(char::from_digit((code >> (shift * 4)) & 0xF, 16).unwrap_or('0'));
            }
            out.push('}');
        } else {
            out.push(c);
        }
    }
    out
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}: {}", self.code, self.message)
        } else {
            write!(f, "{}: at {}: {}", self.code, self.path, self.message)
        }
    }
}

impl std::error::Error for ReportError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_paths_are_written_with_counts() {
        let deep = format!("tool_result.structuredContent{}", "[0]".repeat(117));
        assert_eq!(ReportError::new(ErrorCode::TooDeep, deep, "x").path(), "tool_result.structuredContent[0]×117");
        assert_eq!(ReportError::new(ErrorCode::TooDeep, "[0]×116", "x").within("a").path(), "a[0]×116");
        assert_eq!(ReportError::new(ErrorCode::TooDeep, "[0]×116", "x").within("[0]").path(), "[0]×117");
        assert_eq!(ReportError::new(ErrorCode::TooDeep, "a.b.b[1][1]", "x").path(), "a.b.b[1][1]");
        assert_eq!(ReportError::new(ErrorCode::TooDeep, "a.b.b.b.c", "x").path(), "a.b×3.c");
        assert_eq!(ReportError::new(ErrorCode::TooDeep, "k×2.x", "x").path(), "k×2.x");
        // Counts written by the input itself add up without overflowing.
        let huge = format!("[0]×{}[0]×{}", usize::MAX, usize::MAX);
        assert_eq!(ReportError::new(ErrorCode::TooDeep, huge, "x").path(), format!("[0]×{}", usize::MAX));
    }

    #[test]
    fn an_error_is_one_clean_capped_line_whatever_the_input_held() {
        let e = ReportError::new(ErrorCode::InvalidReport, "bad\nkey\u{1b}[31m", "unknown field \u{202E}x");
        assert_eq!(e.path(), "bad\\u{a}key\\u{1b}[31m");
        assert_eq!(e.message(), "unknown field \\u{202e}x");
        let long = ReportError::new(ErrorCode::InvalidReport, "k".repeat(5000), "m".repeat(5000));
        assert_eq!(long.path().chars().count(), MAX_PATH + 1);
        assert!(long.to_string().len() < MAX_PATH + MAX_MESSAGE + 64);
        assert!(!long.within("x\ny").path().contains('\n'));
    }
}
