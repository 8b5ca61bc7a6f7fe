//! Credentials in HTTP headers: `Authorization`, a bare `Bearer`, `Cookie`.

use std::ops::Range;

use super::*;

/// The credential in `Authorization: <scheme> <credentials>` (also `Proxy-Authorization`,
/// and `"authorization": "..."` members), of any scheme: the scheme name is kept and the
/// rest of the header value is the credential, auth-params and all (Digest's `response=`,
/// Hawk's `mac=`). The value ends at the end of the line, or at the quote that opened it.
/// A placeholder or a reference (`Bearer $TOKEN`, `required`) is no credential.
pub(crate) fn authorization_values(text: &str, hints: &Hints<'_>) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut ends = ValueEnds::default();
    for start in hints.stems().positions_of(text, "authorization") {
        // `headers.Authorization: ...` names a field path, not a header line.
        if !boundary_before(bytes, start)
            || (start > 0 && bytes[start - 1] == b'.')
            || spans.last().is_some_and(|s: &Range<usize>| start < s.end)
        {
            continue;
        }
        let mut i = start + "authorization".len();
        if matches!(bytes.get(i), Some(b'"' | b'\'')) || (bytes.get(i) == Some(&b'\\') && bytes.get(i + 1) == Some(&b'"')) {
            i += if bytes[i] == b'\\' { 2 } else { 1 };
        }
        i = skip_blanks(bytes, i);
        if !matches!(bytes.get(i), Some(b':' | b'=')) {
            continue;
        }
        i = skip_blanks(bytes, i + 1);
        let quote = match (bytes.get(i), bytes.get(i + 1)) {
            (Some(b'\\'), Some(b'"')) => {
                i += 2;
                Some(b'"')
            }
            (Some(&q @ (b'"' | b'\'')), _) => {
                i += 1;
                Some(q)
            }
            _ => None,
        };
        let line_end = ends.end(bytes, i, quote);
        // A scheme name (`Bearer`, `NTLM`, `SSWS`, `Digest`) followed by more is kept.
        let word = run_end(bytes, i, |b| b.is_ascii_alphanumeric() || b == b'-');
        let after_word = skip_blanks(bytes, word);
        let has_scheme = word > i && word - i <= 24 && after_word > word && after_word < line_end && bytes[after_word] != b'=';
        let credential = if has_scheme { after_word } else { i };
        let end = credentials_end(bytes, credential, line_end);
        let value = &text[credential..end];
        let reference = matches!(value.as_bytes().first(), Some(b'$' | b'{' | b'<' | b'%'));
        // A scheme with nothing after it (`Authorization: Basic`, a value cut away) is no
        // credential.
        let bare_scheme = AUTH_SCHEMES.iter().chain(&["ntlm", "ssws", "hawk", "aws4-hmac-sha256"]).any(|s| value.eq_ignore_ascii_case(s));
        if !value.is_empty() && !reference && !bare_scheme && !is_placeholder_value(value) {
            spans.push(credential..end);
        }
    }
    spans
}

/// Where the credentials after a scheme end (before `limit`): a token (`token68`), or a
/// list of auth-params (`username="ann", response="…"`, `id="…", mac="…"`), quoted values
/// and all; prose after them is kept.
fn credentials_end(bytes: &[u8], start: usize, limit: usize) -> usize {
    let param_name = |i: usize| {
        let name = run_end(bytes, i, |b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'));
        (name > i && name < limit && bytes[name] == b'=' && bytes.get(name + 1) != Some(&b'=')).then_some(name + 1)
    };
    let Some(mut value) = param_name(start) else {
        return run_end(bytes, start, value_byte).min(limit);
    };
    loop {
        let mut end = if bytes.get(value) == Some(&b'"') {
            let close = run_end(bytes, value + 1, |b| b != b'"' && b != b'\\' && b != b'\n');
            if bytes.get(close) == Some(&b'"') {
                close + 1
            } else {
                close
            }
        } else {
            run_end(bytes, value, value_byte)
        };
        end = end.min(limit);
        let next = skip_blanks(bytes, end);
        let next = if bytes.get(next) == Some(&b',') { skip_blanks(bytes, next + 1) } else { next };
        match param_name(next) {
            Some(v) if next > end => value = v,
            _ => return end,
        }
    }
}

/// Where header values end: at a line break (also a literal `\n` or `\r` in escaped
/// text), or at the closing quote when the value was quoted. The next break and the next
/// quote of each kind are remembered, so finding the ends of many values on one line
/// reads each byte once (a text of repeated `Authorization: ` stays linear).
#[derive(Default)]
struct ValueEnds {
    /// (searched from, found at) for line breaks, `"` and `'`.
    next: [Option<(usize, usize)>; 3],
}

impl ValueEnds {
    fn end(&mut self, bytes: &[u8], start: usize, quote: Option<u8>) -> usize {
        let line = self.next_of(0, bytes, start, |bytes, i| {
            matches!(bytes[i], b'\n' | b'\r') || (bytes[i] == b'\\' && matches!(bytes.get(i + 1), Some(b'n' | b'r')))
        });
        let closing = match quote {
            Some(b'"') => self.next_of(1, bytes, start, |bytes, i| bytes[i] == b'"'),
            Some(_) => self.next_of(2, bytes, start, |bytes, i| bytes[i] == b'\''),
            None => return line,
        };
        // An escaped quote (`\"` in JSON text) ends the value at its backslash.
        let closing = if closing > start && closing < bytes.len() && bytes[closing - 1] == b'\\' { closing - 1 } else { closing };
        line.min(closing)
    }

    fn next_of(&mut self, slot: usize, bytes: &[u8], start: usize, hit: impl Fn(&[u8], usize) -> bool) -> usize {
        if let Some((from, at)) = self.next[slot] {
            if from <= start && start <= at {
                return at;
            }
        }
        let mut i = start;
        while i < bytes.len() && !hit(bytes, i) {
            i += 1;
        }
        crate::search::work::tally(i - start + 1);
        self.next[slot] = Some((start, i));
        i
    }
}

/// A bare `Bearer <token>`, any case. The token is at least 8 characters of the RFC 6750
/// alphabet with optional `=` padding; a `word=value` after "bearer" (as in
/// `token_type=bearer sort_key=name`) is a key, not a token.
pub(crate) fn bearer_tokens(text: &str, hints: &Hints<'_>) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for start in hints.stems().positions_of(text, "bearer") {
        let after = start + "bearer".len();
        if !boundary_before(bytes, start) || !matches!(bytes.get(after), Some(b' ' | b'\t')) {
            continue;
        }
        let value = skip_blanks(bytes, after);
        let body = run_end(bytes, value, |b| b.is_ascii_alphanumeric() || b"._~+/-".contains(&b));
        let end = run_end(bytes, body, |b| b == b'=');
        // `Bearer realm="…"`, `Bearer resource_metadata="…"`: an auth-param, not a token.
        // A redaction marker stands where a value was: `key=[REDACTED:…]` is still a key
        // (so a second pass judges the text as the first did).
        let key_value = body - value < 32
            && end > body
            && (bytes.get(end).is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'"'))
                || text[end..].starts_with(MARKER_PREFIX));
        let reference = matches!(bytes.get(value), Some(b'$' | b'{' | b'<'));
        if body - value >= 8 && !key_value && !reference && !is_placeholder(&text[value..end]) {
            spans.push(value..end);
        }
    }
    spans
}

/// A bare `Basic <credentials>` (RFC 7617) outside an `Authorization` header, any case:
/// the base64 of `user:password`, so it counts only when it decodes to printable text with
/// a colon (`Basic realm="x"` and prose about basic auth do not).
pub(crate) fn basic_credentials(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for start in positions_ignore_ascii_case(text, "basic") {
        let after = start + "basic".len();
        if !boundary_before(bytes, start) || !matches!(bytes.get(after), Some(b' ' | b'\t')) {
            continue;
        }
        let value = skip_blanks(bytes, after);
        let body = run_end(bytes, value, |b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/');
        let end = run_end(bytes, body, |b| b == b'=').min(body + 2);
        let boundary_after = bytes.get(end).is_none_or(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'=' | b'"' | b'_')));
        if (8..=MAX_BASIC).contains(&(end - value)) && boundary_after && decodes_to_credentials(&bytes[value..end]) {
            spans.push(value..end);
        }
    }
    spans
}

/// The longest `Basic` credentials read, in bytes of base64.
const MAX_BASIC: usize = 1024;

/// Whether `b64` decodes ([`decode_base64`](super::encoded::decode_base64)) to text with a
/// colon: `user:password`.
fn decodes_to_credentials(b64: &[u8]) -> bool {
    super::encoded::decode_base64(b64).is_some_and(|text| text.contains(':'))
}

/// The value of a `Cookie:` or `Set-Cookie:` header line.
pub(crate) fn cookie_headers(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for at in positions_ignore_ascii_case(text, "cookie") {
        let mut line_start = at;
        if at >= 4 && bytes[at - 4..at].eq_ignore_ascii_case(b"set-") {
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

/// Cookie values in a cookie jar file (the Netscape `cookies.txt` format curl and wget
/// write): lines of seven tab-separated fields, domain, `TRUE`/`FALSE`, path,
/// `TRUE`/`FALSE`, expiry, name, value. The value is the secret.
pub(crate) fn cookie_jar_values(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut line_start = 0;
    while line_start < bytes.len() {
        let line_end = line_start + bytes[line_start..].iter().position(|&b| b == b'\n').unwrap_or(bytes.len() - line_start);
        crate::search::work::tally(line_end - line_start + 1);
        let line = text[line_start..line_end].trim_end_matches('\r');
        let fields: Vec<&str> = line.splitn(8, '\t').collect();
        let flag = |f: &str| f.eq_ignore_ascii_case("true") || f.eq_ignore_ascii_case("false");
        if fields.len() == 7 && flag(fields[1]) && flag(fields[3]) && !fields[4].is_empty() && fields[4].bytes().all(|b| b.is_ascii_digit())
        {
            let value = fields[6];
            let start = line_start + line.len() - value.len();
            if !value.is_empty() && !is_placeholder_value(value) {
                spans.push(start..line_start + line.len());
            }
        }
        line_start = line_end + 1;
    }
    spans
}
