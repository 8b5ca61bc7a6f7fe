//! Recognition of well-known failure text, used only when no structured kind exists.
//!
//! Rules are data: a matcher, the kind it means and optionally its own advice. Matchers are
//! small hand-written scanners over a bounded window (substring searches, no regex
//! engine), so recognition costs a few microseconds. Recognition sharpens `kind` and
//! advice; it never changes `origin` or lowers `side_effects`.

use crate::json::{parse_json, utf16_prefix, Json};
use crate::rules::arguments::{argument_kind, ArgumentProblem, MAX_INVALID_ARGUMENTS, MISSING};
use crate::rules::kinds::{Advice, Kind};
use crate::search;
use crate::text::sanitize::strip_controls;
use crate::wire::{RecoveryAction as A, SameArguments as S};

/// How much of a text recognition reads, in UTF-16 code units.
pub(crate) const RECOGNITION_WINDOW: usize = 4096;

/// A text and its ASCII-lowercased copy (same byte offsets), for case-insensitive search.
pub(crate) struct Haystack<'a> {
    /// The text as written.
    pub text: &'a str,
    /// `text` with ASCII letters lowercased.
    pub lower: String,
}

/// What a matcher found: a plain hit, or a status (HTTP code, errno name) to map through
/// [`STATUS_KINDS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Hit {
    /// The rule's own kind applies.
    Plain,
    /// The kind depends on this status.
    Status(String),
}

wire_enum! {
    /// The recognition rules, by the name tests and docs use.
    pub(crate) RuleId {
        /// An MCP SDK's argument-validation message (zod, jsonschema, pydantic).
        SdkInputValidation = "sdk_input_validation",
        /// The SDK's or a server's "tool not found".
        ToolNotFound = "tool_not_found",
        /// A path outside the allowed roots.
        PathOutsideAllowed = "path_outside_allowed",
        /// An HTTP status line or status code.
        HttpStatus = "http_status",
        /// An HTTP status with its reason phrase.
        HttpReason = "http_reason",
        /// An errno name.
        Errno = "errno",
        /// Rate-limit prose.
        RateLimitText = "rate_limit_text",
        /// Permission prose.
        PermissionText = "permission_text",
        /// A destination the server refuses to reach (a host outside its allowed list).
        ForbiddenTarget = "forbidden_target",
        /// Something the call named does not exist.
        NotFoundText = "not_found_text",
        /// What the call would create exists already.
        AlreadyExists = "already_exists",
        /// The server names an argument value it refuses (`Invalid timezone: ...`).
        InvalidValueText = "invalid_value_text",
    }
}

/// What a rule's hit means.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Meaning {
    /// This kind, with advice of its own when the text says more than the kind.
    Kind(Kind, Option<Advice>),
    /// The kind the status the matcher found means ([`STATUS_KINDS`]).
    ByStatus,
}

/// One recognition rule.
#[derive(Debug)]
pub(crate) struct RecognitionRule {
    /// Which rule.
    pub id: RuleId,
    /// Finds the rule's text.
    pub matcher: fn(&Haystack<'_>) -> Option<Hit>,
    /// What a hit means.
    pub meaning: Meaning,
}

/// The rules, first match wins.
pub(crate) const RECOGNITION_RULES: &[RecognitionRule] = &[
    RecognitionRule { id: RuleId::SdkInputValidation, matcher: sdk_validation, meaning: Meaning::Kind(Kind::InvalidParam, None) },
    RecognitionRule { id: RuleId::ToolNotFound, matcher: tool_not_found, meaning: Meaning::Kind(Kind::UnknownTool, None) },
    RecognitionRule {
        id: RuleId::PathOutsideAllowed,
        matcher: path_outside_allowed,
        meaning: Meaning::Kind(Kind::PathTraversal, Some((A::ReviseAndRetry, S::Never))),
    },
    RecognitionRule { id: RuleId::HttpStatus, matcher: http_status, meaning: Meaning::ByStatus },
    RecognitionRule { id: RuleId::HttpReason, matcher: http_reason, meaning: Meaning::ByStatus },
    RecognitionRule { id: RuleId::Errno, matcher: errno, meaning: Meaning::ByStatus },
    RecognitionRule { id: RuleId::RateLimitText, matcher: rate_limit_text, meaning: Meaning::Kind(Kind::RateLimited, None) },
    RecognitionRule { id: RuleId::PermissionText, matcher: permission_text, meaning: Meaning::Kind(Kind::PermissionDenied, None) },
    RecognitionRule { id: RuleId::ForbiddenTarget, matcher: forbidden_target, meaning: Meaning::Kind(Kind::Forbidden, None) },
    RecognitionRule { id: RuleId::AlreadyExists, matcher: already_exists, meaning: Meaning::Kind(Kind::Conflict, None) },
    RecognitionRule { id: RuleId::NotFoundText, matcher: not_found_text, meaning: Meaning::Kind(Kind::NotFound, None) },
    RecognitionRule { id: RuleId::InvalidValueText, matcher: invalid_value_text, meaning: Meaning::Kind(Kind::InvalidParam, None) },
];

/// Phrases that say something the call named does not exist (lowercase, whole words), each
/// holding "no", "revision" or "malformed" (`not_found_text` relies on it). "Tool … not
/// found" is matched first, as a missing tool.
const NOT_FOUND_PHRASES: &[&str] = &[
    "not found",
    "does not exist",
    "do not exist",
    "no such file",
    "did not resolve to",
    "did not match any",
    "no item found",
    "unknown revision",
    "bad revision",
    "malformed object name",
];

/// Phrases that say what the call would create exists already (lowercase, whole words).
const ALREADY_EXISTS_PHRASES: &[&str] = &["already exists", "already exist"];

/// Phrases of a server refusing a destination outside what it may reach.
const FORBIDDEN_TARGET_PHRASES: &[&str] = &["not in the allowed domains", "not in the list of allowed", "not a public address"];

/// Names after "Invalid" that are credentials: an auth failure, not a bad argument.
const CREDENTIAL_WORDS: &[&str] =
    &["token", "credentials", "credential", "api", "password", "signature", "session", "key", "grant", "client"];

/// What a status means: (status, kind, advice override).
pub(crate) const STATUS_KINDS: &[(&str, Kind, Option<Advice>)] = &[
    ("401", Kind::AuthFailed, None),
    ("403", Kind::Forbidden, None),
    ("404", Kind::NotFound, None),
    ("409", Kind::Conflict, None),
    ("429", Kind::RateLimited, None),
    ("5xx", Kind::ToolError, Some((A::RetryLater, S::Conditional))),
    ("ENOENT", Kind::NotFound, None),
    ("EACCES", Kind::PermissionDenied, None),
    ("EPERM", Kind::PermissionDenied, None),
    ("EEXIST", Kind::Conflict, None),
    ("ENOTEMPTY", Kind::Conflict, None),
    ("ENOTDIR", Kind::InvalidParam, None),
    ("EISDIR", Kind::InvalidParam, None),
    ("ETIMEDOUT", Kind::Timeout, None),
];

/// The kind (and advice) an HTTP status or errno name means, from [`STATUS_KINDS`].
pub(crate) fn status_kind(status: &str) -> Option<(Kind, Option<Advice>)> {
    let key = if status.len() == 3 && status.starts_with('5') && status.bytes().all(|b| b.is_ascii_digit()) { "5xx" } else { status };
    STATUS_KINDS.iter().find(|(s, _, _)| *s == key).map(|(_, kind, advice)| (*kind, *advice))
}

/// Texts of the MCP SDKs' argument-validation errors (lowercase).
const SDK_VALIDATION_TEXTS: &[&str] = &[
    "input validation error",
    "invalid arguments for tool",
    "validation error for ",
    "validation errors for ",
    "is a required property",
    "[type=missing",
];

/// HTTP reason phrases recognized after a status code (lowercase).
const REASONS: &[(&str, &str)] = &[
    ("401", "unauthorized"),
    ("403", "forbidden"),
    ("404", "not found"),
    ("409", "conflict"),
    ("429", "too many requests"),
    ("500", "internal server error"),
    ("502", "bad gateway"),
    ("503", "service unavailable"),
    ("504", "gateway timeout"),
    ("504", "gateway time-out"),
];

/// What recognition found.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Recognition {
    /// The rule that matched.
    pub rule: RuleId,
    /// The kind it means.
    pub kind: Kind,
    /// Its own advice, when it has one.
    pub advice: Option<Advice>,
    /// A `Retry-After` found in the text, in milliseconds.
    pub retry_after_ms: Option<u64>,
    /// Arguments named by an SDK validation message.
    pub invalid_arguments: Vec<ArgumentProblem>,
}

/// Recognize well-known failure text. Reads at most [`RECOGNITION_WINDOW`] units.
pub(crate) fn recognize(text: &str) -> Option<Recognition> {
    let text = utf16_prefix(text, RECOGNITION_WINDOW);
    let hay = Haystack { text, lower: text.to_ascii_lowercase() };
    for rule in RECOGNITION_RULES {
        let Some(hit) = (rule.matcher)(&hay) else { continue };
        let (kind, advice) = match (rule.meaning, hit) {
            (Meaning::Kind(kind, advice), _) => (kind, advice),
            (Meaning::ByStatus, Hit::Status(status)) => match status_kind(&status) {
                Some(found) => found,
                None => continue,
            },
            (Meaning::ByStatus, Hit::Plain) => continue,
        };
        let mut found = Recognition { rule: rule.id, kind, advice, retry_after_ms: retry_after(&hay), invalid_arguments: Vec::new() };
        if rule.id == RuleId::SdkInputValidation {
            found.invalid_arguments = sdk_argument_problems(text);
            found.kind = argument_kind(&found.invalid_arguments).unwrap_or(Kind::InvalidParam);
        }
        return Some(found);
    }
    None
}

/// A `Retry-After` in seconds (header or prose), as milliseconds.
fn retry_after(hay: &Haystack<'_>) -> Option<u64> {
    let bytes = hay.lower.as_bytes();
    for needle in ["retry-after", "retry after"] {
        for at in search::positions(&hay.lower, needle) {
            let mut i = at + needle.len();
            if matches!(bytes.get(i), Some(b'"' | b'\'')) {
                i += 1;
            }
            i = skip_blanks(bytes, i);
            if matches!(bytes.get(i), Some(b':' | b'=')) {
                i = skip_blanks(bytes, i + 1);
            }
            let end = digits_end(bytes, i);
            if (1..=7).contains(&(end - i)) && !bytes.get(end).is_some_and(u8::is_ascii_alphanumeric) {
                return hay.text[i..end].parse::<u64>().ok().map(|s| s * 1000);
            }
        }
    }
    None
}

fn skip_blanks(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
        i += 1;
    }
    i
}

fn digits_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    i
}

fn word_before(bytes: &[u8], i: usize) -> bool {
    i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_')
}

fn word_after(bytes: &[u8], i: usize) -> bool {
    i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_')
}

/// Occurrences of `word` in the lowercase text that stand alone as a word.
fn whole_words<'a>(hay: &'a Haystack<'_>, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let bytes = hay.lower.as_bytes();
    search::positions(&hay.lower, word).filter(move |&i| !word_before(bytes, i) && !word_after(bytes, i + word.len()))
}

fn sdk_validation(hay: &Haystack<'_>) -> Option<Hit> {
    // Every text but the pydantic marker says "valid" or "required": one search rules most texts out.
    let maybe = ["valid", "required", "[type="].iter().any(|w| search::contains(&hay.lower, w));
    (maybe && SDK_VALIDATION_TEXTS.iter().any(|t| search::contains(&hay.lower, t))).then_some(Hit::Plain)
}

/// `Unknown tool`, or `tool … not found` within 200 bytes on one line.
fn tool_not_found(hay: &Haystack<'_>) -> Option<Hit> {
    if whole_words(hay, "unknown tool").next().is_some() {
        return Some(Hit::Plain);
    }
    // `Tool get_weather not found`, `tool 'x' not found`, `tool not found`: the words
    // between are the tool's name and nothing else. `Error executing tool get_item: Item
    // named 'x' not found` names an object the tool did not find, not a missing tool.
    let bytes = hay.lower.as_bytes();
    for at in whole_words(hay, "tool") {
        let mut i = skip_blanks(bytes, at + "tool".len());
        if hay.lower[i..].starts_with("not found") && !word_after(bytes, i + "not found".len()) {
            return Some(Hit::Plain);
        }
        let quoted = matches!(bytes.get(i), Some(b'\'' | b'"' | b'`'));
        i += usize::from(quoted);
        let name_end = i + bytes[i..]
            .iter()
            .take(200)
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':' | b'/'))
            .count();
        let mut j = name_end;
        if quoted && matches!(bytes.get(j), Some(b'\'' | b'"' | b'`')) {
            j += 1;
        }
        let j = skip_blanks(bytes, j);
        if name_end > i && hay.lower[j..].starts_with("not found") && !word_after(bytes, j + "not found".len()) {
            return Some(Hit::Plain);
        }
    }
    None
}

/// "path outside (the) allowed directories", "not in allowed directories", "outside allowed
/// roots", "is outside the (allowed) repository".
fn path_outside_allowed(hay: &Haystack<'_>) -> Option<Hit> {
    // Each form says "outside" or "not in": most texts are ruled out before reading lines.
    if !search::contains(&hay.lower, "outside") && !search::contains(&hay.lower, "not in") {
        return None;
    }
    hay.lower
        .lines()
        .any(|line| {
            let allowed = ["allowed director", "allowed roots", "allowed paths"].iter().any(|a| search::contains(line, a));
            let outside_the = ["is outside the repository", "is outside the allowed", "is outside the root", "is outside the workspace"]
                .iter()
                .any(|a| search::contains(line, a));
            outside_the || (allowed && (search::contains(line, "outside") || search::contains(line, "not in")))
        })
        .then_some(Hit::Plain)
}

fn forbidden_target(hay: &Haystack<'_>) -> Option<Hit> {
    FORBIDDEN_TARGET_PHRASES.iter().any(|p| search::contains(&hay.lower, p)).then_some(Hit::Plain)
}

fn already_exists(hay: &Haystack<'_>) -> Option<Hit> {
    ALREADY_EXISTS_PHRASES.iter().any(|p| whole_words(hay, p).next().is_some()).then_some(Hit::Plain)
}

fn not_found_text(hay: &Haystack<'_>) -> Option<Hit> {
    // Every phrase holds "no", "revision" or "malformed": one search rules most texts out.
    let maybe = ["no", "revision", "malformed"].iter().any(|w| search::contains(&hay.lower, w));
    (maybe && NOT_FOUND_PHRASES.iter().any(|p| whole_words(hay, p).next().is_some())).then_some(Hit::Plain)
}

/// `Invalid <name>: <value>`, `Invalid <name> format`, `Invalid <name> value`, at the start
/// of the text or after an SDK's `Error executing tool <name>:` or an `Error:` prefix; a
/// credential's name (`Invalid token`) is an auth failure, not a bad argument.
fn invalid_value_text(hay: &Haystack<'_>) -> Option<Hit> {
    let mut text = hay.lower.trim_start();
    loop {
        if let Some(rest) = text.strip_prefix("error executing tool ") {
            text = rest.split_once(": ").map_or("", |(_, r)| r).trim_start();
        } else if let Some(rest) = text.strip_prefix("error: ") {
            text = rest.trim_start();
        } else {
            break;
        }
    }
    let rest = text.strip_prefix("invalid ")?;
    let name_end = rest.bytes().take(64).take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    let (name, after) = rest.split_at(name_end);
    if name.is_empty() || CREDENTIAL_WORDS.contains(&name) {
        return None;
    }
    (after.starts_with(':') || after.starts_with(" format") || after.starts_with(" value")).then_some(Hit::Plain)
}

/// `HTTP/1.1 404`, `status: 404`, `status code 404`, `status_code=404`.
fn http_status(hay: &Haystack<'_>) -> Option<Hit> {
    let bytes = hay.lower.as_bytes();
    let code_at = |i: usize| {
        let end = digits_end(bytes, i);
        (end - i == 3 && (b'1'..=b'5').contains(&bytes[i]) && !word_after(bytes, end)).then(|| hay.text[i..end].to_owned())
    };
    for at in search::positions(&hay.lower, "http/") {
        if word_before(bytes, at) {
            continue;
        }
        let mut i = at + 5;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
            i += 1;
        }
        let code = skip_blanks(bytes, i);
        if code > i {
            if let Some(c) = code_at(code) {
                return Some(Hit::Status(c));
            }
        }
    }
    for at in search::positions(&hay.lower, "status").filter(|&i| !word_before(bytes, i)) {
        let mut i = at + "status".len();
        for suffix in [" code", "_code", "code"] {
            if hay.lower[i..].starts_with(suffix) {
                i += suffix.len();
                break;
            }
        }
        i = skip_blanks(bytes, i);
        if matches!(bytes.get(i), Some(b':' | b'=')) {
            i = skip_blanks(bytes, i + 1);
        }
        if let Some(c) = code_at(i) {
            return Some(Hit::Status(c));
        }
    }
    None
}

/// `404 Not Found`, `429 Too Many Requests`, `503 Service Unavailable`, ...
fn http_reason(hay: &Haystack<'_>) -> Option<Hit> {
    let bytes = hay.lower.as_bytes();
    let mut i = 0;
    while i + 3 <= bytes.len() {
        let end = digits_end(bytes, i);
        if end == i {
            i += 1;
            continue;
        }
        if end - i == 3 && !word_before(bytes, i) {
            let code = &hay.lower[i..end];
            let r = skip_blanks(bytes, end);
            let hit = r > end
                && REASONS
                    .iter()
                    .any(|(c, reason)| *c == code && hay.lower[r..].starts_with(reason) && !word_after(bytes, r + reason.len()));
            if hit {
                return Some(Hit::Status(code.to_owned()));
            }
        }
        i = end;
    }
    None
}

/// Node errno names, upper case as Node prints them.
fn errno(hay: &Haystack<'_>) -> Option<Hit> {
    let bytes = hay.text.as_bytes();
    STATUS_KINDS.iter().filter(|(s, _, _)| s.starts_with('E')).find_map(|(name, _, _)| {
        search::positions(hay.text, name)
            .any(|i| !word_before(bytes, i) && !word_after(bytes, i + name.len()))
            .then(|| Hit::Status((*name).to_owned()))
    })
}

fn rate_limit_text(hay: &Haystack<'_>) -> Option<Hit> {
    let bytes = hay.lower.as_bytes();
    let rate = ["rate limit", "rate-limit", "ratelimit"].iter().any(|w| search::positions(&hay.lower, w).any(|i| !word_before(bytes, i)));
    (rate || whole_words(hay, "too many requests").next().is_some()).then_some(Hit::Plain)
}

fn permission_text(hay: &Haystack<'_>) -> Option<Hit> {
    ["permission denied", "access denied"].iter().any(|w| whole_words(hay, w).next().is_some()).then_some(Hit::Plain)
}

/// Argument problems named by the MCP SDKs' validation messages: the TypeScript SDK's zod
/// issue list (JSON), the Python SDK's jsonschema and pydantic messages.
#[inline(never)] // only for SDK validation text; kept out of `recognize` (docs/PERFORMANCE-js.md)
pub(crate) fn sdk_argument_problems(text: &str) -> Vec<ArgumentProblem> {
    let mut problems = zod_issues(text);
    if problems.is_empty() {
        problems = sdk_issue_lines(text);
    }
    if problems.is_empty() {
        problems = jsonschema_required(text);
    }
    if problems.is_empty() {
        problems = pydantic_errors(text);
    }
    problems.truncate(MAX_INVALID_ARGUMENTS);
    problems
}

/// Strip controls and collapse whitespace. No cut here: the normalizer redacts argument
/// problems before it caps them, so a secret is never cut in half first. (The input is
/// already bounded by the recognition window.)
fn clean(text: &str) -> String {
    strip_controls(text).split_whitespace().collect::<Vec<_>>().join(" ")
}

fn zod_issues(text: &str) -> Vec<ArgumentProblem> {
    let Some(start) = search::find(text, "[{").or_else(|| search::find(text, "[\n")) else {
        return Vec::new();
    };
    let Some(end) = text.rfind(']') else {
        return Vec::new();
    };
    if end < start {
        return Vec::new();
    }
    let Ok(Json::Array(issues)) = parse_json(&text[start..=end]) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for issue in issues.items() {
        let message = issue.get("message").and_then(Json::as_str).unwrap_or("invalid value");
        let code = issue.get("code").and_then(Json::as_str).unwrap_or("");
        if code == "unrecognized_keys" {
            if let Some(keys) = issue.get("keys").and_then(Json::as_array) {
                let base = zod_path(issue);
                for k in keys.items().iter().filter_map(Json::as_str) {
                    let path = if base.is_empty() { k.to_owned() } else { format!("{base}.{k}") };
                    out.push(ArgumentProblem::new(clean(&path), "unexpected argument"));
                }
                continue;
            }
        }
        let received = issue.get("received").and_then(Json::as_str).unwrap_or("");
        let missing =
            code == "invalid_type" && (received == "undefined" || search::contains(message, "received undefined") || message == "Required");
        let problem = if missing { MISSING.to_owned() } else { clean(message) };
        out.push(ArgumentProblem::new(clean(&zod_path(issue)), problem));
    }
    out
}

fn zod_path(issue: &Json) -> String {
    let mut path = String::new();
    for part in issue.get("path").and_then(Json::as_array).map(|a| a.items()).unwrap_or_default() {
        match part {
            Json::Number(n) => path.push_str(&format!("[{n}]")),
            Json::String(s) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(s.head());
            }
            _ => {}
        }
    }
    path
}

/// The TypeScript SDK with zod 4: after `Invalid arguments for tool NAME: `, one issue a
/// line, each `MESSAGE at PATH` (or just `MESSAGE` for the arguments object itself).
fn sdk_issue_lines(text: &str) -> Vec<ArgumentProblem> {
    const LEAD: &str = "Invalid arguments for tool ";
    let Some(at) = search::find(text, LEAD) else { return Vec::new() };
    let rest = &text[at + LEAD.len()..];
    let Some(colon) = search::find(rest, ": ") else { return Vec::new() };
    let issues = &rest[colon + 2..];
    if issues.trim_start().starts_with('[') {
        return Vec::new();
    }
    let mut out = Vec::new();
    for line in issues.lines().map(str::trim).take_while(|l| !l.is_empty()) {
        let (message, path) = match search::rsplit_once(line, " at ") {
            Some((m, p)) if !p.is_empty() && !p.contains(' ') || p == "object root" => (m, if p == "object root" { "" } else { p }),
            _ => (line, ""),
        };
        let missing = search::contains(message, "received undefined") || message == "Required";
        out.push(ArgumentProblem::new(clean(path), if missing { MISSING.to_owned() } else { clean(message) }));
    }
    out
}

/// Python SDK (jsonschema): `'name' is a required property`.
fn jsonschema_required(text: &str) -> Vec<ArgumentProblem> {
    const TAIL: &str = "' is a required property";
    let mut out = Vec::new();
    for at in search::positions(text, TAIL) {
        let before = &text[..at];
        let Some(open) = before.rfind(['\'', '\n']) else { continue };
        let name = &before[open + 1..];
        if before[open..].starts_with('\'') && !name.is_empty() && name.len() <= 100 {
            out.push(ArgumentProblem::new(clean(name), MISSING));
        }
    }
    out
}

/// Python SDK (pydantic): a location line, then an indented message ending `[type=...`.
fn pydantic_errors(text: &str) -> Vec<ArgumentProblem> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for pair in lines.windows(2) {
        let (loc, detail) = (pair[0].trim_end(), pair[1]);
        let loc_ok = !loc.is_empty()
            && loc.len() <= 100
            && loc.as_bytes()[0].is_ascii_alphabetic() | (loc.as_bytes()[0] == b'_')
            && loc.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'[' | b']'));
        if !loc_ok || !detail.starts_with([' ', '\t']) {
            continue;
        }
        let Some(ty_at) = search::find(detail, "[type=") else { continue };
        let message = detail[..ty_at].trim();
        let ty: String = detail[ty_at + 6..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
        if message.is_empty() || ty.is_empty() {
            continue;
        }
        let problem = if ty == "missing" { MISSING.to_owned() } else { clean(message) };
        out.push(ArgumentProblem::new(clean(loc), problem));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ts_sdk_zod_messages_name_each_argument() {
        let text = r#"MCP error -32602: Input validation error: Invalid arguments for tool create_issue: [
  {
    "code": "invalid_type",
    "expected": "string",
    "received": "undefined",
    "path": ["title"],
    "message": "Required"
  },
  {
    "code": "invalid_type",
    "expected": "array",
    "received": "string",
    "path": ["labels", 0],
    "message": "Expected array, received string"
  }
]"#;
        let r = recognize(text).unwrap();
        assert_eq!(r.kind, Kind::InvalidParam);
        assert_eq!(r.invalid_arguments[0], ArgumentProblem::new("title", MISSING));
        assert_eq!(r.invalid_arguments[1], ArgumentProblem::new("labels[0]", "Expected array, received string"));
    }

    #[test]
    fn only_missing_arguments_make_missing_param() {
        let text = r#"Input validation error: Invalid arguments for tool echo: [{"expected":"string","code":"invalid_type","path":["message"],"message":"Invalid input: expected string, received undefined"}]"#;
        let r = recognize(text).unwrap();
        assert_eq!(r.kind, Kind::MissingParam);
        assert_eq!(r.invalid_arguments, vec![ArgumentProblem::new("message", MISSING)]);
    }

    #[test]
    fn ts_sdk_zod4_lines_name_each_argument() {
        let text = "MCP error -32602: Input validation error: Invalid arguments for tool echo: Invalid input: expected string, received undefined at message\nToo big: expected number to be <=10 at opts.count[0]";
        let r = recognize(text).unwrap();
        assert_eq!(r.kind, Kind::InvalidParam);
        assert_eq!(
            r.invalid_arguments,
            vec![ArgumentProblem::new("message", MISSING), ArgumentProblem::new("opts.count[0]", "Too big: expected number to be <=10")]
        );
        let only_missing =
            "Input validation error: Invalid arguments for tool echo: Invalid input: expected string, received undefined at message";
        assert_eq!(recognize(only_missing).unwrap().kind, Kind::MissingParam);
    }

    #[test]
    fn python_sdk_messages_name_each_argument() {
        let r = recognize("Input validation error: 'path' is a required property").unwrap();
        assert_eq!(r.invalid_arguments, vec![ArgumentProblem::new("path", MISSING)]);
        let text = "Error executing tool add: 2 validation errors for addArguments\na\n  Field required [type=missing, input_value={}, input_type=dict]\nb\n  Input should be a valid integer [type=int_parsing, input_value='x', input_type=str]";
        let r = recognize(text).unwrap();
        assert_eq!(
            r.invalid_arguments,
            vec![ArgumentProblem::new("a", MISSING), ArgumentProblem::new("b", "Input should be a valid integer")]
        );
    }

    /// (text, rule, kind)
    const CASES: &[(&str, &str, &str)] = &[
        ("Tool get_weather not found", "tool_not_found", "unknown_tool"),
        ("Error executing tool get_item: Item named 'x' not found", "not_found_text", "not_found"),
        ("Ref 'hotfix' did not resolve to an object", "not_found_text", "not_found"),
        ("fatal: pathspec 'src/missing.py' did not match any files", "not_found_text", "not_found"),
        ("Cannot create branch 'feature': refs/heads/feature already exists", "already_exists", "conflict"),
        ("EEXIST: file already exists, mkdir '/srv/a'", "errno", "conflict"),
        ("Path '../outside.txt' is outside the repository '/srv/repo'", "path_outside_allowed", "path_traversal"),
        ("Domain 127.0.0.1 is not in the allowed domains list.", "forbidden_target", "forbidden"),
        ("Error executing tool convert_time: Invalid timezone: 'Mars/Olympus'", "invalid_value_text", "invalid_param"),
        ("Invalid time format. Expected HH:MM [24-hour format]", "invalid_value_text", "invalid_param"),
        ("Unknown tool: frobnicate", "tool_not_found", "unknown_tool"),
        ("Access denied - path outside allowed directories: /etc/passwd not in /tmp", "path_outside_allowed", "path_traversal"),
        ("GitHub API error: HTTP/1.1 401 Unauthorized", "http_status", "auth_failed"),
        ("request failed with status code 403", "http_status", "forbidden"),
        ("404 Not Found: /repos/x", "http_reason", "not_found"),
        ("409 Conflict", "http_reason", "conflict"),
        ("429 Too Many Requests; Retry-After: 30", "http_reason", "rate_limited"),
        ("upstream said HTTP/2 503", "http_status", "tool_error"),
        ("ENOENT: no such file or directory, open '/x'", "errno", "not_found"),
        ("EACCES: permission denied, open '/root'", "errno", "permission_denied"),
        ("connect ETIMEDOUT 10.0.0.1:443", "errno", "timeout"),
        ("You have hit the rate limit", "rate_limit_text", "rate_limited"),
    ];

    #[test]
    fn a_missing_object_is_not_a_missing_tool() {
        for text in [
            "Error executing tool get_item: Item named 'x' not found",
            "tool run failed: the file was not found",
            "The tool could not continue: record 42 not found",
        ] {
            assert_ne!(recognize(text).map(|r| r.kind), Some(Kind::UnknownTool), "{text}");
        }
        for text in
            ["Tool get_weather not found", "tool 'fs.read' not found", "Tool not found", "MCP error -32602: Tool frobnicate not found"]
        {
            assert_eq!(recognize(text).map(|r| r.kind), Some(Kind::UnknownTool), "{text}");
        }
    }

    #[test]
    fn well_known_texts_are_recognized() {
        for (text, rule, kind) in CASES {
            let r = recognize(text).unwrap_or_else(|| panic!("not recognized: {text}"));
            assert_eq!((r.rule.as_str(), r.kind.as_str()), (*rule, *kind), "{text}");
        }
    }

    #[test]
    fn retry_after_and_5xx_advice() {
        let r = recognize("429 Too Many Requests; Retry-After: 30").unwrap();
        assert_eq!(r.retry_after_ms, Some(30_000));
        let r = recognize("HTTP/1.1 502 Bad Gateway").unwrap();
        assert_eq!(r.advice, Some((A::RetryLater, S::Conditional)));
    }

    #[test]
    fn phrase_families_hold_the_words_their_gates_search_for() {
        assert!(NOT_FOUND_PHRASES.iter().all(|p| ["no", "revision", "malformed"].iter().any(|w| p.contains(w))));
        assert!(SDK_VALIDATION_TEXTS.iter().all(|t| ["valid", "required", "[type="].iter().any(|w| t.contains(w))));
    }

    #[test]
    fn ordinary_text_is_not_recognized() {
        for text in [
            "the total was 404 items",
            "Division by zero",
            "file 500.txt is empty",
            "status: ok",
            // Near misses of the phrase families: a word that only contains the phrase, an
            // invalid credential (an auth failure), a value that is merely invalid prose.
            "the notfound flag is set",
            "existsAlready: false",
            "this request is invalid",
            "invalid token: expired",
        ] {
            assert_eq!(recognize(text), None, "{text}");
        }
    }
}
