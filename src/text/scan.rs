//! The secret scanners behind [`crate::text::redact::SECRET_RULES`]: each finds the byte ranges
//! of one family of secrets. They are hand-written byte loops (every pattern starts from a
//! literal found with a substring search), so a text costs a few linear passes.
//!
//! Ranges cover only the secret itself; what surrounds it (a header name, a scheme, the
//! quotes of a JSON string) stays readable.

use std::ops::Range;

use crate::search::{find_from, positions};
use crate::text::secret_names::is_secret_key;
use crate::text::tokens::{starting_with, Body, BY_FIRST_BYTE};

/// Characters that continue a word for boundary checks.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether a token may start at `i`: no word character right before it, or only the
/// letter of a JSON/C escape (`\n`, `\t`, ...), as in JSON text quoted inside a text block.
fn boundary_before(bytes: &[u8], i: usize) -> bool {
    let escaped = i >= 2 && bytes[i - 2] == b'\\' && matches!(bytes[i - 1], b'n' | b't' | b'r' | b'b' | b'f');
    i == 0 || !is_word(bytes[i - 1]) || escaped
}

/// End of the run of bytes from `start` that satisfy `class`.
fn run_end(bytes: &[u8], start: usize, class: impl Fn(u8) -> bool) -> usize {
    let mut i = start;
    while i < bytes.len() && class(bytes[i]) {
        i += 1;
    }
    i
}

fn skip_blanks(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
        i += 1;
    }
    i
}

/// Whether `bytes[i..]` starts with `word`, ASCII case-insensitively.
fn starts_with_ci(bytes: &[u8], i: usize, word: &str) -> bool {
    bytes.len() >= i + word.len() && bytes[i..i + word.len()].eq_ignore_ascii_case(word.as_bytes())
}

fn base64url(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// Whole PEM private-key blocks, across lines; an unterminated block runs to the end.
pub(crate) fn private_keys(text: &str) -> Vec<Range<usize>> {
    const TAIL: &str = "PRIVATE KEY-----";
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(start) = find_from(text, "-----BEGIN", from) {
        let label_start = start + "-----BEGIN".len();
        let label_end = run_end(bytes, label_start, |b| b == b' ' || b.is_ascii_uppercase() || b.is_ascii_digit());
        if !text[label_end..].starts_with("-----") || !text[..label_end + 5].ends_with(TAIL) {
            from = label_start;
            continue;
        }
        let body = label_end + 5;
        let end = find_from(text, "-----END", body).and_then(|e| find_from(text, TAIL, e).map(|t| t + TAIL.len())).unwrap_or(text.len());
        spans.push(start..end);
        from = end;
    }
    spans
}

/// JSON Web Tokens: three base64url segments, the first starting `eyJ`.
pub(crate) fn jwts(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut resume = 0;
    for start in positions(text, "eyJ") {
        if start < resume || !boundary_before(bytes, start) {
            continue;
        }
        let first = run_end(bytes, start, base64url);
        if first - start < 11 || bytes.get(first) != Some(&b'.') {
            continue;
        }
        let second = run_end(bytes, first + 1, base64url);
        if second - first - 1 < 8 {
            continue;
        }
        // The signature may be cut off (or absent): header and payload are enough.
        let end = if bytes.get(second) == Some(&b'.') { run_end(bytes, second + 1, base64url) } else { second };
        spans.push(start..end);
        resume = end;
    }
    spans
}

/// Provider tokens from [`TOKENS`](crate::text::tokens::TOKENS), each with its family,
/// found in one pass over the text: only bytes that start some prefix are examined, and
/// only the formats whose prefix starts with that byte.
pub(crate) fn provider_tokens(text: &str) -> Vec<(Range<usize>, &'static str)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        // A small loop to the next possible first byte; the checks below run per candidate.
        // (Start-up: V8 charges tier-up budget per iteration by the size of the loop.)
        match bytes[i..].iter().position(|&b| BY_FIRST_BYTE[usize::from(b)].1 != 0) {
            Some(skip) => i += skip,
            None => break,
        }
        let at_boundary = boundary_before(bytes, i);
        let mut next = i + 1;
        for t in starting_with(bytes[i]) {
            // Distinctive prefixes are secrets even when glued to a word (`xghp_…`); short,
            // common ones (`sk-`, `hf_`, `SG.`) need a word boundary before them.
            let distinctive = t.prefix.len() >= 4 && !t.prefix.ends_with('-');
            if !bytes[i..].starts_with(t.prefix.as_bytes()) || !(at_boundary || distinctive) {
                continue;
            }
            if let Some(end) = token_end(bytes, i + t.prefix.len(), t.body, t.min) {
                spans.push((i..end, t.family));
                next = end;
                break;
            }
        }
        i = next;
    }
    spans
}

/// End of a provider token body starting at `start`, when it is long enough.
fn token_end(bytes: &[u8], start: usize, body: Body, min: usize) -> Option<usize> {
    let end = run_end(bytes, start, |b| body.accepts(b));
    if end - start < min {
        return None;
    }
    if let Body::TwoSegments = body {
        if bytes.get(end) != Some(&b'.') {
            return None;
        }
        let second = run_end(bytes, end + 1, base64url);
        return (second - end > min).then_some(second);
    }
    Some(end)
}

/// HTTP authorization schemes kept in front of a redacted credential.
const AUTH_SCHEMES: &[&str] = &["bearer", "basic", "token", "digest", "negotiate", "apikey"];

/// The credential in `Authorization: <scheme> <value>` (also `Proxy-Authorization`, and
/// `"authorization": "..."` members); the scheme is kept.
pub(crate) fn authorization_values(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let lower = text.to_ascii_lowercase();
    let mut spans = Vec::new();
    for start in positions(&lower, "authorization") {
        // `headers.Authorization: ...` names a field path, not a header line.
        if !boundary_before(bytes, start) || (start > 0 && bytes[start - 1] == b'.') {
            continue;
        }
        let mut i = start + "authorization".len();
        if matches!(bytes.get(i), Some(b'"' | b'\'')) {
            i += 1;
        }
        i = skip_blanks(bytes, i);
        if !matches!(bytes.get(i), Some(b':' | b'=')) {
            continue;
        }
        i = skip_blanks(bytes, i + 1);
        if matches!(bytes.get(i), Some(b'"' | b'\'')) {
            i += 1;
        }
        if let Some(scheme) = AUTH_SCHEMES.iter().find(|s| starts_with_ci(bytes, i, s)) {
            let after = i + scheme.len();
            if matches!(bytes.get(after), Some(b' ' | b'\t')) {
                i = skip_blanks(bytes, after);
            }
        }
        let end = run_end(bytes, i, value_byte);
        if end > i {
            spans.push(i..end);
        }
    }
    spans
}

/// Bytes that can continue an unquoted secret value: not whitespace, quotes, separators or
/// brackets (which close the text around a value, as in `<Bearer x>` or `(token=y)`), or
/// a backslash (a literal `\n` in quoted JSON ends the value).
fn value_byte(b: u8) -> bool {
    !b.is_ascii_whitespace()
        && !matches!(b, b',' | b';' | b'&' | b'"' | b'\'' | b'\\' | b'<' | b'>' | b'{' | b'}' | b'(' | b')' | b'[' | b']')
}

/// A bare `Bearer <token>`, any case. The token is at least 8 characters of the RFC 6750
/// alphabet with optional `=` padding; a `word=value` after "bearer" (as in
/// `token_type=bearer sort_key=name`) is a key, not a token.
pub(crate) fn bearer_tokens(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let lower = text.to_ascii_lowercase();
    let mut spans = Vec::new();
    for start in positions(&lower, "bearer") {
        let after = start + "bearer".len();
        if !boundary_before(bytes, start) || !matches!(bytes.get(after), Some(b' ' | b'\t')) {
            continue;
        }
        let value = skip_blanks(bytes, after);
        let body = run_end(bytes, value, |b| b.is_ascii_alphanumeric() || b"._~+/-".contains(&b));
        let end = run_end(bytes, body, |b| b == b'=');
        let key_value = body - value < 20 && end > body && bytes.get(end).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
        if body - value >= 8 && !key_value {
            spans.push(value..end);
        }
    }
    spans
}

/// The value of a `Cookie:` or `Set-Cookie:` header line.
pub(crate) fn cookie_headers(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let lower = text.to_ascii_lowercase();
    let mut spans = Vec::new();
    for at in positions(&lower, "cookie") {
        let mut line_start = at;
        if lower[..at].ends_with("set-") {
            line_start -= 4;
        }
        let mut j = line_start;
        while j > 0 && matches!(bytes[j - 1], b' ' | b'\t') {
            j -= 1;
        }
        let escaped_break = j >= 2 && bytes[j - 2] == b'\\' && matches!(bytes[j - 1], b'n' | b'r');
        if j > 0 && bytes[j - 1] != b'\n' && bytes[j - 1] != b'\r' && !escaped_break {
            continue;
        }
        let colon = skip_blanks(bytes, at + "cookie".len());
        if bytes.get(colon) != Some(&b':') {
            continue;
        }
        let value = skip_blanks(bytes, colon + 1);
        let end = run_end(bytes, value, |b| b != b'\n' && b != b'\r');
        if end > value {
            spans.push(value..end);
        }
    }
    spans
}

fn url_stop(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'/' | b'?' | b'#' | b'@' | b'"' | b'\'' | b'<' | b'>')
}

/// `user:password` in `scheme://user:password@host`.
pub(crate) fn url_credentials(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for sep in positions(text, "://") {
        let mut scheme = sep;
        while scheme > 0 && (bytes[scheme - 1].is_ascii_alphanumeric() || matches!(bytes[scheme - 1], b'+' | b'.' | b'-')) {
            scheme -= 1;
        }
        if sep - scheme < 2 || !bytes[scheme].is_ascii_alphabetic() {
            continue;
        }
        let start = sep + 3;
        let end = run_end(bytes, start, |b| !url_stop(b));
        let userinfo = &text[start..end];
        // `user:password`, or `:password` alone (as Redis URLs write it).
        let has_password = userinfo.find(':').is_some_and(|c| c + 1 < userinfo.len());
        // A userinfo cut off at the end of the text still counts: it may be a window edge.
        if (bytes.get(end) == Some(&b'@') || end == bytes.len()) && has_password {
            spans.push(start..end);
        }
    }
    spans
}

/// Query parameters that carry secrets, by lowercase name.
pub(crate) const SECRET_QUERY_PARAMS: &[&str] = &[
    "access_token",
    "refresh_token",
    "id_token",
    "token",
    "api_key",
    "apikey",
    "api-key",
    "key",
    "secret",
    "client_secret",
    "password",
    "passwd",
    "pwd",
    "sig",
    "signature",
    "x-amz-signature",
    "x-amz-credential",
    "x-amz-security-token",
    "x-goog-signature",
    "x-goog-credential",
    "auth",
    "code",
    "session",
    "sessionid",
    "sid",
];

/// The values of secret query parameters (`?access_token=…`, `&sig=…`).
pub(crate) fn secret_query_values(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        if b != b'?' && b != b'&' {
            continue;
        }
        let name_end = run_end(bytes, i + 1, |c| c != b'=' && c != b'&' && c != b'#' && !c.is_ascii_whitespace());
        if bytes.get(name_end) != Some(&b'=') {
            continue;
        }
        let name = text[i + 1..name_end].to_ascii_lowercase();
        if !SECRET_QUERY_PARAMS.contains(&name.as_str()) {
            continue;
        }
        let value = name_end + 1;
        let end = run_end(bytes, value, |c| !c.is_ascii_whitespace() && !matches!(c, b'&' | b'#' | b'"' | b'\'' | b'<' | b'>'));
        if end > value {
            spans.push(value..end);
        }
    }
    spans
}

fn key_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')
}

/// Longest key name considered, in bytes.
const MAX_KEY_NAME: usize = 64;

/// Values of `key=value`, `key: value` and JSON members whose key names a secret (see
/// [`is_secret_key`]). A quoted value keeps its quotes.
pub(crate) fn secret_field_values(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans: Vec<Range<usize>> = Vec::new();
    let mut from = 0;
    // A small loop finds each separator; the key and value checks run per separator.
    while let Some(found) = bytes[from..].iter().position(|&b| b == b':' || b == b'=') {
        let sep = from + found;
        from = sep + 1;
        if spans.last().is_some_and(|s| sep < s.end) {
            continue;
        }
        // `auth::login`, `std::env`: a path separator, not an assignment.
        if bytes[sep] == b':' && (bytes.get(sep + 1) == Some(&b':') || (sep > 0 && bytes[sep - 1] == b':')) {
            continue;
        }
        let mut key_end = sep;
        while key_end > 0 && matches!(bytes[key_end - 1], b' ' | b'\t') {
            key_end -= 1;
        }
        if key_end > 0 && matches!(bytes[key_end - 1], b'"' | b'\'') {
            key_end -= 1;
            // JSON quoted inside a string: `\"client_secret\": ...`.
            if key_end > 0 && bytes[key_end - 1] == b'\\' {
                key_end -= 1;
            }
        }
        let mut key_start = key_end;
        while key_start > 0 && key_char(bytes[key_start - 1]) {
            key_start -= 1;
        }
        // A key right after a literal escape (`\npassword=…` in quoted JSON) starts after it.
        if key_start >= 1 && bytes[key_start - 1] == b'\\' && key_start < key_end && matches!(bytes[key_start], b'n' | b't' | b'r') {
            key_start += 1;
        }
        // Command-line flags: `--password=…`, `-api-key=…`.
        while key_start < key_end && matches!(bytes[key_start], b'-' | b'.') {
            key_start += 1;
        }
        let key = &text[key_start..key_end];
        let first_ok = key.as_bytes().first().is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_');
        if !first_ok || key.len() > MAX_KEY_NAME || !is_secret_key(key) {
            continue;
        }
        let mut value = skip_blanks(bytes, sep + 1);
        // `Authorization: Basic <credential>`: the scheme is not the secret, what follows is.
        if let Some(scheme) = AUTH_SCHEMES.iter().find(|s| starts_with_ci(bytes, value, s)) {
            if matches!(bytes.get(value + scheme.len()), Some(b' ' | b'\t')) {
                value = skip_blanks(bytes, value + scheme.len());
            }
        }
        match bytes.get(value) {
            Some(&q @ (b'"' | b'\'')) => {
                // An unclosed quote (a value cut off at the window edge) runs to the line end.
                let inner = value + 1;
                let close = run_end(bytes, inner, |c| c != q && c != b'\n' && c != b'\r');
                if close > inner {
                    spans.push(inner..close);
                }
            }
            Some(b'\\') if matches!(bytes.get(value + 1), Some(b'"' | b'\'')) => {
                // An escaped quote opens the value: it runs to the matching escaped quote.
                let q = bytes[value + 1];
                let inner = value + 2;
                let mut close = inner;
                while close < bytes.len() && bytes[close] != b'\n' && !(bytes[close] == b'\\' && bytes.get(close + 1) == Some(&q)) {
                    close += 1;
                }
                if close > inner {
                    spans.push(inner..close);
                }
            }
            Some(_) => {
                let end = run_end(bytes, value, value_byte);
                if end > value {
                    spans.push(value..end);
                }
            }
            None => {}
        }
    }
    spans
}

/// Values of command-line flags that name secrets, written with a space:
/// `--api-key <value>`, `--password <value>` (the `=` form is a [`secret_field_values`] case).
pub(crate) fn flag_values(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for at in positions(text, "--") {
        if at > 0 && bytes[at - 1] == b'-' || !boundary_before(bytes, at) {
            continue;
        }
        let key_end = run_end(bytes, at + 2, |b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if key_end == at + 2 || !matches!(bytes.get(key_end), Some(b' ' | b'\t')) || !is_secret_key(&text[at + 2..key_end]) {
            continue;
        }
        let value = skip_blanks(bytes, key_end);
        let end = run_end(bytes, value, value_byte);
        if end > value && bytes[value] != b'-' {
            spans.push(value..end);
        }
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str, scan: fn(&str) -> Vec<Range<usize>>) -> Vec<&str> {
        scan(text).into_iter().map(|r| &text[r]).collect()
    }

    fn tokens(text: &str) -> Vec<Range<usize>> {
        provider_tokens(text).into_iter().map(|(r, _)| r).collect()
    }

    #[test]
    fn pem_blocks_need_a_private_key_label() {
        assert!(private_keys("-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----").is_empty());
        assert_eq!(found("x -----BEGIN EC PRIVATE KEY-----\nab\n-----END EC PRIVATE KEY----- y", private_keys).len(), 1);
    }

    #[test]
    fn jwts_need_three_segments() {
        assert!(jwts("eyJhbGciOiJIUzI1NiJ9 alone").is_empty());
        assert_eq!(found("a eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig b", jwts), vec!["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig"]);
    }

    #[test]
    fn tokens_need_a_boundary_and_a_long_enough_body() {
        assert!(tokens("task-abcdefghijklmnopqrstuvwxyz").is_empty());
        assert_eq!(found("xghp_abcdefghijklmnopqrstuvwxyz0123456789", tokens).len(), 1);
        assert_eq!(found(r"\nsk-abcdefghijklmnopqrstuvwxyz", tokens).len(), 1);
        assert!(tokens("sk-short").is_empty());
        assert_eq!(found("key=SG.abcdefghijklmnop.qrstuvwxyz0123456", tokens), vec!["SG.abcdefghijklmnop.qrstuvwxyz0123456"]);
    }

    #[test]
    fn authorization_keeps_header_and_scheme() {
        assert_eq!(found("Authorization: Bearer abc.def", authorization_values), vec!["abc.def"]);
        assert_eq!(found(r#"{"authorization":"Basic dXNlcjpw"}"#, authorization_values), vec!["dXNlcjpw"]);
        assert!(authorization_values("no authorization needed").is_empty());
    }

    #[test]
    fn cookies_only_as_header_lines() {
        assert_eq!(found("x\n  Set-Cookie: a=b; Path=/\nnext", cookie_headers), vec!["a=b; Path=/"]);
        assert!(cookie_headers("the cookie: jar").is_empty());
    }

    #[test]
    fn url_userinfo_needs_a_password() {
        assert_eq!(found("postgres://app:pw@db:5432/x", url_credentials), vec!["app:pw"]);
        assert!(url_credentials("ssh://git@github.com/x").is_empty());
    }

    #[test]
    fn query_values_by_parameter_name() {
        assert_eq!(found("/cb?code=abc&state=xyz&sig=123", secret_query_values), vec!["abc", "123"]);
    }

    #[test]
    fn secret_fields_in_text_and_json() {
        assert_eq!(found(r#"{"apiKey": "k1", "name": "n"}"#, secret_field_values), vec!["k1"]);
        assert_eq!(found("retry with password = hunter2;", secret_field_values), vec!["hunter2"]);
        assert_eq!(found("run --password=pw1 --api-key=k2", secret_field_values), vec!["pw1", "k2"]);
        assert_eq!(found("run --api-key k3 --verbose --token -x", flag_values), vec!["k3"]);
        assert_eq!(found("<--api-key k4>", flag_values), vec!["k4"]);
        assert_eq!(found(r#""\npassword=pw5\n""#, secret_field_values), vec!["pw5"]);
        assert_eq!(found(r#"{\"client_secret\": \"cs6\"}"#, secret_field_values), vec!["cs6"]);
        assert!(secret_field_values("https://example.com max_tokens=5 ns::tool").is_empty());
    }
}
