//! Credentials in URLs: user info and secret query parameters.

use std::ops::Range;

use super::*;

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
        let has_password = userinfo.find(':').is_some_and(|c| c + 1 < userinfo.len() && !is_placeholder(&userinfo[c + 1..]));
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
    let mut next = 0;
    loop {
        let i = next_in_class(bytes, next, |b| (b == b'?') | (b == b'&'));
        if i == bytes.len() {
            break;
        }
        next = i + 1;
        let name_end = run_end(bytes, i + 1, |c| !matches!(c, b'=' | b'&' | b'#' | b'?') && !c.is_ascii_whitespace());
        if bytes.get(name_end) != Some(&b'=') || name_end - i > MAX_KEY_NAME || spans.last().is_some_and(|s: &Range<usize>| i < s.end) {
            continue;
        }
        let name = &bytes[i + 1..name_end];
        if !SECRET_QUERY_PARAMS.iter().any(|p| p.len() == name.len() && p.as_bytes().eq_ignore_ascii_case(name)) {
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
