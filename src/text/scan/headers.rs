//! Credentials in HTTP headers: `Authorization`, a bare `Bearer`, `Cookie`.

use std::ops::Range;

use super::*;

/// The credential in `Authorization: <scheme> <value>` (also `Proxy-Authorization`, and
/// `"authorization": "..."` members); the scheme is kept.
pub(crate) fn authorization_values(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let lower = text.to_ascii_lowercase();
    let mut spans = Vec::new();
    for start in positions(&lower, "authorization") {
        // `headers.Authorization: ...` names a field path, not a header line.
        if !boundary_before(bytes, start)
            || (start > 0 && bytes[start - 1] == b'.')
            || spans.last().is_some_and(|s: &Range<usize>| start < s.end)
        {
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
        // `Bearer realm="…"`, `Bearer resource_metadata="…"`: an auth-param, not a token.
        let key_value =
            body - value < 32 && end > body && bytes.get(end).is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'"'));
        let reference = matches!(bytes.get(value), Some(b'$' | b'{' | b'<'));
        if body - value >= 8 && !key_value && !reference && !is_placeholder(&text[value..end]) {
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
