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
    crate::search::work::tally(i - start + 1);
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

/// Whole private-key blocks of every armour, across lines (also inside JSON-escaped
/// text); an unterminated block runs to the end: PEM and OpenSSH (`-----BEGIN … PRIVATE
/// KEY-----`), OpenPGP (`-----BEGIN PGP PRIVATE KEY BLOCK-----`), SSH2 (`---- BEGIN SSH2
/// … PRIVATE KEY ----`) and PuTTY key files (from `PuTTY-User-Key-File-` to the end of
/// their `Private-MAC:` line).
pub(crate) fn private_keys(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans: Vec<Range<usize>> = Vec::new();
    for (begin, end_marker) in [("-----BEGIN", "-----END"), ("---- BEGIN", "---- END")] {
        let dashes = &begin[..begin.find(' ').unwrap_or(5).min(5)];
        let mut from = 0;
        while let Some(start) = find_from(text, begin, from) {
            let label_start = start + begin.len();
            let label_end = run_end(bytes, label_start, |b| b == b' ' || b.is_ascii_uppercase() || b.is_ascii_digit());
            let label = text[label_start..label_end].trim_end();
            let closes = text[label_end..].starts_with(dashes.trim_end());
            if !closes || !(label.ends_with("PRIVATE KEY") || label.ends_with("PRIVATE KEY BLOCK")) {
                from = label_start;
                continue;
            }
            let body = label_end;
            let end = find_from(text, end_marker, body)
                .map(|e| {
                    let close = run_end(bytes, e + end_marker.len(), |b| b == b' ' || b.is_ascii_uppercase() || b.is_ascii_digit());
                    run_end(bytes, close, |b| b == b'-')
                })
                .unwrap_or(text.len());
            if spans.iter().all(|s| end <= s.start || start >= s.end) {
                spans.push(start..end);
            }
            from = end.max(label_start);
        }
    }
    let mut from = 0;
    while let Some(start) = find_from(text, "PuTTY-User-Key-File-", from) {
        let end = match find_from(text, "Private-MAC:", start) {
            Some(mac) => run_end(bytes, mac, |b| b != b'\n' && b != b'\\'),
            None => text.len(),
        };
        spans.push(start..end);
        from = end.max(start + 1);
    }
    spans.sort_unstable_by_key(|s| s.start);
    spans
}

/// Webhook URLs whose path is the credential: what follows the host and path prefix.
const WEBHOOKS: &[(&str, &str)] = &[
    ("hooks.slack.com/services/", "slack_webhook"),
    ("hooks.slack.com/workflows/", "slack_webhook"),
    ("hooks.slack.com/triggers/", "slack_webhook"),
    ("discord.com/api/webhooks/", "discord_webhook"),
    ("discordapp.com/api/webhooks/", "discord_webhook"),
    (".webhook.office.com/webhookb2/", "teams_webhook"),
    ("outlook.office.com/webhook/", "teams_webhook"),
];

/// The secret part of webhook URLs ([`WEBHOOKS`]), each with its family.
pub(crate) fn webhook_urls(text: &str) -> Vec<(Range<usize>, &'static str)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for (prefix, family) in WEBHOOKS {
        for at in positions(text, prefix) {
            let start = at + prefix.len();
            let end = run_end(bytes, start, |b| {
                b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'%' | b'/' | b'@' | b'+' | b'=')
            });
            if end > start {
                spans.push((start..end, *family));
            }
        }
    }
    spans.sort_unstable_by_key(|(s, _)| s.start);
    spans
}

/// Tokens known by their shape rather than a prefix, each with its family: Mailchimp API
/// keys (`<32 hex>-us<N>`), Microsoft Entra client secrets (`<3 chars><digit>Q~<31+
/// chars>`) and Discord bot tokens (`<base64 user id>.<6>.<27+>`).
pub(crate) fn shaped_tokens(text: &str) -> Vec<(Range<usize>, &'static str)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for at in positions(text, "-us") {
        let start = at.saturating_sub(32);
        let digits = run_end(bytes, at + 3, |b| b.is_ascii_digit());
        if at >= 32
            && bytes[start..at].iter().all(u8::is_ascii_hexdigit)
            && boundary_before(bytes, start)
            && (1..=2).contains(&(digits - at - 3))
            && !bytes.get(digits).is_some_and(|b| b.is_ascii_alphanumeric())
        {
            spans.push((start..digits, "mailchimp_key"));
        }
    }
    let entra = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'~' | b'.' | b'-');
    for at in positions(text, "Q~") {
        if at < 4 || !bytes[at - 1].is_ascii_digit() || !bytes[at - 4..at].iter().all(|&b| entra(b)) {
            continue;
        }
        let end = run_end(bytes, at + 2, entra);
        if end - at - 2 >= 31 && (at == 4 || !entra(bytes[at - 5])) {
            spans.push((at - 4..end, "entra_client_secret"));
        }
    }
    for dot in positions(text, ".") {
        let mut start = dot;
        while start > 0 && dot - start < 30 && base64url(bytes[start - 1]) {
            start -= 1;
        }
        let id = &bytes[start..dot];
        if !(23..=28).contains(&id.len()) || !matches!(id[0], b'M' | b'N' | b'O') || !boundary_before(bytes, start) {
            continue;
        }
        let stamp = run_end(bytes, dot + 1, base64url);
        if stamp - dot - 1 != 6 || bytes.get(stamp) != Some(&b'.') {
            continue;
        }
        let end = run_end(bytes, stamp + 1, base64url);
        if end - stamp - 1 >= 27 {
            spans.push((start..end, "discord_bot_token"));
        }
    }
    spans.sort_unstable_by_key(|(s, _)| s.start);
    spans.dedup_by(|b, a| b.0.start < a.0.end);
    spans
}

/// Telegram bot tokens: `<bot id>:<35 characters>`, bare or after `bot` in an API URL.
pub(crate) fn telegram_tokens(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for colon in positions(text, ":") {
        let mut id = colon;
        while id > 0 && colon - id < 10 && bytes[id - 1].is_ascii_digit() {
            id -= 1;
        }
        let glued_to_bot = id >= 3 && text[..id].ends_with("bot");
        if colon - id < 8 || !(boundary_before(bytes, id) || glued_to_bot) || (id > 0 && bytes[id - 1].is_ascii_digit()) {
            continue;
        }
        let end = run_end(bytes, colon + 1, base64url);
        if end - colon - 1 == 35 {
            spans.push(id..end);
        }
    }
    spans
}

/// JSON Web Tokens: three base64url segments, the first starting `eyJ`.
pub(crate) fn jwts(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut resume = 0;
    for start in positions(text, "eyJ") {
        // `pk.eyJ…` is a Mapbox public token, meant to be shown.
        if start < resume || !boundary_before(bytes, start) || text[..start].ends_with("pk.") {
            continue;
        }
        let first = run_end(bytes, start, base64url);
        if first - start < 11 || bytes.get(first) != Some(&b'.') {
            // Every `eyJ` inside this run ends where it does: none can be a token either.
            resume = first;
            continue;
        }
        let second = run_end(bytes, first + 1, base64url);
        if second - first - 1 < 8 {
            resume = second;
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
        let second = bytes.get(i + 1).copied().unwrap_or(0);
        let mut next = i + 1;
        for t in starting_with(bytes[i]) {
            let prefix = t.prefix.as_bytes();
            // The second byte rules out most candidates; the rest is compared byte by byte
            // (short prefixes: a loop costs less than a call to compare memory).
            if prefix[1] != second || bytes.len() < i + prefix.len() || !prefix.iter().zip(&bytes[i..]).all(|(a, b)| a == b) {
                continue;
            }
            // Distinctive prefixes are secrets even when glued to a word (`xghp_…`); short,
            // common ones (`sk-`, `hf_`, `SG.`) need a word boundary before them.
            let distinctive = t.prefix.len() >= 4 && !t.prefix.ends_with('-');
            if !(at_boundary || distinctive) {
                continue;
            }
            if let Some(end) = token_end(bytes, i + t.prefix.len(), t.body, t.min) {
                if !is_placeholder(&text[i..end]) {
                    spans.push((i..end, t.family));
                }
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
    for (i, &b) in bytes.iter().enumerate() {
        if b != b'?' && b != b'&' {
            continue;
        }
        let name_end = run_end(bytes, i + 1, |c| !matches!(c, b'=' | b'&' | b'#' | b'?') && !c.is_ascii_whitespace());
        if bytes.get(name_end) != Some(&b'=') || name_end - i > MAX_KEY_NAME || spans.last().is_some_and(|s: &Range<usize>| i < s.end) {
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
    let (mut line_start, mut line_scan) = (0, 0);
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
        // `password => 'x'` (Ruby, PHP, Perl), `password := "x"` (Go, Pascal), and typed
        // assignments (`apiKey: string = "x"`, `password: &str = "x"`): the value is after
        // the last sign.
        if matches!((bytes[sep], bytes.get(value)), (b'=', Some(b'>')) | (b':', Some(b'='))) {
            value = skip_blanks(bytes, value + 1);
        } else if bytes[sep] == b':' {
            let ty =
                run_end(bytes, value, |b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'&' | b'<' | b'>' | b'[' | b']' | b'.' | b'?'));
            let eq = skip_blanks(bytes, ty);
            // A type is a short name (`string`, `&str`, `Option<String>`, `i32`), not a value.
            let type_like = ty > value && ty - value <= 24 && bytes[value..ty].iter().filter(|b| b.is_ascii_digit()).count() <= 2;
            if type_like && bytes.get(eq) == Some(&b'=') && bytes.get(eq + 1) != Some(&b'=') {
                value = skip_blanks(bytes, eq + 1);
            }
        }
        // YAML: a value on the next, more indented line, or a block scalar (`|`, `>-`) whose
        // lines follow.
        if bytes[sep] == b':' {
            // The key's line starts after the last newline before it, found by scanning
            // forward once over the whole text (keys come in order).
            if let Some(nl) = bytes[line_scan.min(key_start)..key_start].iter().rposition(|&b| b == b'\n') {
                let line_scan = line_scan.min(key_start);
                line_start = line_scan + nl + 1;
            }
            line_scan = key_start;
            if let Some(block) = yaml_next_line_value(bytes, line_start, key_start, value) {
                if !is_placeholder(&text[block.clone()]) {
                    spans.push(block);
                }
                continue;
            }
        }
        // `Authorization: Basic <credential>`: the scheme is not the secret, what follows is.
        if let Some(scheme) = AUTH_SCHEMES.iter().find(|s| starts_with_ci(bytes, value, s)) {
            if matches!(bytes.get(value + scheme.len()), Some(b' ' | b'\t')) {
                value = skip_blanks(bytes, value + scheme.len());
            }
        }
        match bytes.get(value) {
            // `"api_keys": ["…", "…"]`: the items, up to the closing bracket on the line.
            Some(b'[') if !text[value..].starts_with("[REDACTED:") => {
                let close = run_end(bytes, value + 1, |c| c != b']' && c != b'\n' && c != b'[');
                if close > value + 1 && bytes.get(close) == Some(&b']') && !is_placeholder(&text[value + 1..close]) {
                    spans.push(value + 1..close);
                }
            }
            Some(&q @ (b'"' | b'\'')) => {
                // An unclosed quote (a value cut off at the window edge) runs to the line end.
                let inner = value + 1;
                let close = run_end(bytes, inner, |c| c != q && c != b'\n' && c != b'\r');
                if close > inner && !is_placeholder(&text[inner..close]) {
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
                if close > inner && !is_placeholder(&text[inner..close]) {
                    spans.push(inner..close);
                }
            }
            // `${TOKEN}`, `$(cat …)`, `{{ secrets.X }}`: a reference, not a value.
            Some(b'$' | b'{' | b'!') => {}
            Some(_) => {
                let end = run_end(bytes, value, value_byte);
                // `os.getenv('TOKEN')`, `getSecret()`: a call, named without digits.
                let call = bytes.get(end) == Some(&b'(') && end - value <= 40 && !bytes[value..end].iter().any(u8::is_ascii_digit);
                if end > value && !call && !is_placeholder(&text[value..end]) && !is_prose(bytes, value, end) {
                    spans.push(value..end);
                }
            }
            None => {}
        }
    }
    spans
}

/// The longest YAML block value read, in bytes.
const MAX_BLOCK_VALUE: usize = 8 * 1024;

/// The value of a YAML key whose value is not on its own line: the next line when it is
/// more indented than the key, or every more indented line after a block scalar
/// indicator (`|`, `>`, `|-`, `>+`). `value` is where the value would start on the key's
/// line.
fn yaml_next_line_value(bytes: &[u8], line_start: usize, key_start: usize, value: usize) -> Option<Range<usize>> {
    let indent = |at: usize| bytes[at..].iter().take_while(|&&b| b == b' ').count();
    let key_indent = indent(line_start);
    // Only a key that starts its line (after indentation or a list dash) is a YAML key.
    let lead = &bytes[line_start + key_indent..key_start];
    if !(lead.is_empty() || lead == b"- ") {
        return None;
    }
    let rest_end = run_end(bytes, value, |b| b != b'\n' && b != b'\r');
    let indicator = &bytes[value..rest_end];
    let block = matches!(indicator, b"|" | b">" | b"|-" | b">-" | b"|+" | b">+");
    if !(indicator.is_empty() || block) {
        return None;
    }
    let mut next = rest_end + usize::from(bytes.get(rest_end) == Some(&b'\r'));
    if bytes.get(next) != Some(&b'\n') {
        return None;
    }
    next += 1;
    let mut end = next;
    let mut start = None;
    // A block value is bounded, so a text of nested blocks costs its length, not its square.
    while end < bytes.len() && end - next < MAX_BLOCK_VALUE {
        let line_end = run_end(bytes, end, |b| b != b'\n');
        let line_indent = indent(end);
        let blank = end + line_indent == line_end;
        if !blank && line_indent <= key_indent {
            break;
        }
        if !blank {
            start.get_or_insert(end + line_indent);
            // A nested mapping (`password:` then `  file: x`) is no value.
            if !block && bytes[end + line_indent..line_end].windows(2).any(|w| w == b": ") {
                return None;
            }
        }
        end = line_end;
        if !block && !blank {
            break;
        }
        end += usize::from(end < bytes.len());
    }
    let start = start?;
    let end = bytes[..end].iter().rposition(|b| !b.is_ascii_whitespace()).map_or(start, |i| i + 1);
    (end > start).then_some(start..end)
}

/// Whether the unquoted value `value..end` reads as words of a sentence (`Invalid token:
/// signature verification failed`): lowercase letters only, and another word follows.
fn is_prose(bytes: &[u8], value: usize, end: usize) -> bool {
    let word = &bytes[value..end];
    word.len() <= 16
        && word.iter().all(u8::is_ascii_lowercase)
        && bytes.get(end) == Some(&b' ')
        && bytes.get(end + 1).is_some_and(u8::is_ascii_lowercase)
}

/// Whether a secret-named value is a placeholder or a reference, not a secret: empty, a
/// run of one masking character (`xxx`, `***`), an environment or template reference
/// (`${TOKEN}`, `$TOKEN`, `{{ secret }}`, `%TOKEN%`, `<your-token>`, `process.env.X`), a
/// literal no secret is (`null`, `true`, `changeme`), or the core's own markers.
pub(crate) fn is_placeholder(value: &str) -> bool {
    const WORDS: &[&str] = &[
        "null",
        "none",
        "nil",
        "undefined",
        "true",
        "false",
        "changeme",
        "change_me",
        "redacted",
        "[redacted]",
        "[filtered]",
        "filtered",
        "hidden",
        "masked",
        "secret",
        "password",
        "token",
        "example",
        "placeholder",
        "required",
        "optional",
        "expired",
        "invalid",
        "missing",
        "empty",
        "unset",
        "n/a",
        "-",
        "...",
        "…",
        "pass",
        "replace_me",
        "replaceme",
        "dummy",
        "sample",
        "test",
        "todo",
        "tbd",
    ];
    let v = value.trim().trim_end_matches([',', ';']).trim_matches(|c| c == '"' || c == '\'' || c == '`');
    if v.is_empty() || WORDS.iter().any(|w| v.eq_ignore_ascii_case(w)) {
        return true;
    }
    let first = v.chars().next().unwrap_or(' ');
    if v.chars().count() >= 3 && v.chars().all(|c| c == first) && matches!(first, 'x' | 'X' | '*' | '#' | '.' | '-' | '•' | '0') {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    let reference = (v.starts_with("${") && v.ends_with('}'))
        || (v.starts_with("{{") && v.ends_with("}}"))
        || (v.starts_with('<') && v.ends_with('>') && !v[1..].contains('<'))
        || (v.starts_with('%') && v.ends_with('%') && v.len() > 2)
        || (v.starts_with('$') && v[1..].bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_') && v.len() > 1)
        || lower.starts_with("your_")
        || lower.starts_with("your-")
        || lower.starts_with("process.env.")
        || lower.starts_with("os.environ")
        || lower.starts_with("env(")
        || lower.starts_with("!ref")
        || lower.starts_with("vault:")
        || lower.starts_with("secretref:");
    // A configuration path (`settings.API_KEY`, `config.token`): dotted identifiers
    // without digits.
    let dotted = v.contains('.')
        && v.split('.').all(|p| {
            p.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && p.chars().all(|c| c.is_ascii_alphabetic() || c == '_')
        });
    // `sk-...`, `ghp_xxxx…`: a documented prefix with a dummy body.
    let dummy_body = v.ends_with("...") || v.ends_with('…') || {
        let tail: Vec<char> = v.chars().rev().take(8).collect();
        tail.len() == 8 && tail.iter().all(|c| *c == tail[0]) && matches!(tail[0], 'x' | 'X' | '0' | '*')
    };
    reference || dotted || dummy_body || lower.starts_with("your") || v.starts_with("[REDACTED:")
}

/// How far back a `value` looks for the `name` (or `key`) that says what it is.
const PAIR_REACH: usize = 160;

/// Values named by a sibling rather than by their own key: `{"name": "X-Api-Key",
/// "value": "…"}`, `<add key="ApiKey" value="…"/>`, `<property name="password"
/// value="…"/>`, Kubernetes `- name: API_TOKEN` / `value: …`; and XML elements whose tag
/// names a secret (`<password>…</password>`).
pub(crate) fn paired_values(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let lower = text.to_ascii_lowercase();
    let mut spans = Vec::new();
    for at in positions(&lower, "value") {
        if !boundary_before(bytes, at) && bytes[at - 1] != b'"' {
            continue;
        }
        let mut i = at + "value".len();
        let json = bytes.get(i) == Some(&b'"') && at > 0 && bytes[at - 1] == b'"';
        i += usize::from(json);
        let sep = skip_blanks(bytes, i);
        let (value, name) = match bytes.get(sep) {
            Some(b'=') if !json => (skip_blanks(bytes, sep + 1), sibling(text, at, &[" key=", " name="], b'<')),
            Some(b':') if json => (skip_blanks(bytes, sep + 1), sibling(text, at, &["\"name\"", "\"key\""], b'{')),
            Some(b':') => (skip_blanks(bytes, sep + 1), yaml_sibling(text, at)),
            _ => continue,
        };
        if !name.is_some_and(is_secret_key) {
            continue;
        }
        let span = match bytes.get(value) {
            Some(&q @ (b'"' | b'\'')) => value + 1..run_end(bytes, value + 1, |c| c != q && c != b'\n'),
            Some(_) => value..run_end(bytes, value, value_byte),
            None => continue,
        };
        if span.end > span.start && !is_placeholder(&text[span.clone()]) {
            spans.push(span);
        }
    }
    // `<password>…</password>`, `<SecretKey>…</SecretKey>`.
    for open in positions(text, "<") {
        let name_end = run_end(bytes, open + 1, |b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':'));
        if name_end == open + 1 || bytes.get(name_end) != Some(&b'>') || !is_secret_key(&text[open + 1..name_end]) {
            continue;
        }
        let start = name_end + 1;
        let end = run_end(bytes, start, |b| b != b'<');
        if end > start && text[end..].starts_with("</") && !is_placeholder(&text[start..end]) {
            spans.push(start..end);
        }
    }
    spans.sort_unstable_by_key(|s| s.start);
    spans.dedup_by(|b, a| b.start < a.end);
    spans
}

/// The quoted value of the nearest of `names` (`"name"`, ` key=`) before `at`, within
/// [`PAIR_REACH`] bytes and not across `boundary` (the start of the object or tag).
fn sibling<'a>(text: &'a str, at: usize, names: &[&str], boundary: u8) -> Option<&'a str> {
    let from = at.saturating_sub(PAIR_REACH);
    let from = (from..at).find(|&i| text.is_char_boundary(i)).unwrap_or(at);
    let window = &text[from..at];
    let window = window.rfind(boundary as char).map_or(window, |b| &window[b..]);
    let lower = window.to_ascii_lowercase();
    let (found, name) = names.iter().filter_map(|n| lower.rfind(n).map(|p| (p, *n))).max_by_key(|(p, _)| *p)?;
    let rest = window[found + name.len()..].trim_start_matches([' ', ':', '=']);
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let inner = &rest[1..];
    inner.find(quote).map(|end| &inner[..end])
}

/// The name in a YAML `name: X` line right above a `value:` line (`- name: API_TOKEN`).
fn yaml_sibling(text: &str, at: usize) -> Option<&str> {
    let line_start = text[..at].rfind('\n')?;
    let previous = &text[text[..line_start].rfind('\n').map_or(0, |p| p + 1)..line_start];
    let name = previous.trim_start().trim_start_matches("- ").strip_prefix("name:")?;
    Some(name.trim().trim_matches(|c| c == '"' || c == '\''))
}

/// How a command's flag carries a credential.
#[derive(Clone, Copy, Debug)]
enum Flag {
    /// The next argument, or what is glued to the flag (`-p secret`, `-psecret`).
    Value(&'static str),
    /// Only what is glued to the flag (`mysql -psecret`: `-p secret` prompts).
    Glued(&'static str),
    /// `user:password` (or `user%password`) in the next or glued argument: the password.
    UserPassword(&'static str, u8),
    /// An argument that starts with this literal (`pass:secret` for OpenSSL).
    Prefixed(&'static str),
}

/// Commands whose arguments carry credentials, and how.
const COMMANDS: &[(&str, &[Flag])] = &[
    ("sshpass", &[Flag::Value("-p")]),
    ("mysql", &[Flag::Glued("-p")]),
    ("mysqldump", &[Flag::Glued("-p")]),
    ("mariadb", &[Flag::Glued("-p")]),
    ("curl", &[Flag::UserPassword("-u", b':'), Flag::UserPassword("--user", b':'), Flag::UserPassword("--proxy-user", b':')]),
    ("wget", &[Flag::Value("--password"), Flag::Value("--http-password")]),
    ("docker", &[Flag::Value("-p")]),
    ("podman", &[Flag::Value("-p")]),
    ("nerdctl", &[Flag::Value("-p")]),
    ("helm", &[Flag::Value("-p")]),
    ("redis-cli", &[Flag::Value("-a")]),
    ("openssl", &[Flag::Prefixed("pass:")]),
    ("ldapsearch", &[Flag::Value("-w")]),
    ("ldapmodify", &[Flag::Value("-w")]),
    ("ldapadd", &[Flag::Value("-w")]),
    ("ldapdelete", &[Flag::Value("-w")]),
    ("sqlcmd", &[Flag::Value("-P")]),
    ("bcp", &[Flag::Value("-P")]),
    ("smbclient", &[Flag::UserPassword("-U", b'%')]),
    ("zip", &[Flag::Value("-P")]),
    ("unzip", &[Flag::Value("-P")]),
    ("7z", &[Flag::Glued("-p")]),
    ("az", &[Flag::Value("-p")]),
    ("mongosh", &[Flag::Value("-p")]),
    ("mongo", &[Flag::Value("-p")]),
    ("mongodump", &[Flag::Value("-p")]),
];

/// The longest command line read after a command's name, in bytes.
const MAX_COMMAND_LINE: usize = 2048;

/// Credentials in command lines of [`COMMANDS`], also when the arguments are logged as a
/// JSON array (`["sshpass", "-p", "…"]`): the rest of the line is read as arguments.
pub(crate) fn cli_credentials(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for (command, flags) in COMMANDS {
        let mut resume = 0;
        for at in positions(text, command) {
            let end = at + command.len();
            // A command named again within the arguments just read was read with them.
            if at < resume {
                continue;
            }
            let before_ok = at == 0 || matches!(bytes[at - 1], b' ' | b'\t' | b'\n' | b'/' | b'"' | b'\'' | b'$' | b'[' | b'(');
            let after_ok = matches!(bytes.get(end), Some(b' ' | b'\t' | b'"' | b'\''));
            if !before_ok || !after_ok {
                continue;
            }
            // A command line is read to its end, at most this far: an argument list is short.
            let reach = bytes.len().min(end + MAX_COMMAND_LINE);
            let line_end = end + bytes[end..reach].iter().position(|&b| b == b'\n' || b == b'\r').unwrap_or(reach - end);
            crate::search::work::tally(line_end - end);
            resume = line_end;
            let args = arguments(bytes, end, line_end);
            for (k, arg) in args.iter().enumerate() {
                let word = &text[arg.clone()];
                for flag in *flags {
                    let found = match *flag {
                        Flag::Value(f) if word == f => args.get(k + 1).cloned(),
                        Flag::Value(f) | Flag::Glued(f)
                            if word.len() > f.len() && word.starts_with(f) && !word[f.len()..].starts_with('-') =>
                        {
                            Some(arg.start + f.len()..arg.end)
                        }
                        Flag::UserPassword(f, sep) => {
                            let value = if word == f {
                                args.get(k + 1).cloned()
                            } else if word.len() > f.len() && word.starts_with(f) && f.len() == 2 {
                                Some(arg.start + f.len()..arg.end)
                            } else {
                                None
                            };
                            value.and_then(|v| text[v.clone()].find(sep as char).map(|c| v.start + c + 1..v.end))
                        }
                        Flag::Prefixed(p) if word.len() > p.len() && word.starts_with(p) => Some(arg.start + p.len()..arg.end),
                        _ => None,
                    };
                    if let Some(span) = found.filter(|s| s.end > s.start && !is_placeholder(&text[s.clone()])) {
                        spans.push(span);
                    }
                }
            }
        }
    }
    spans.sort_unstable_by_key(|s| s.start);
    spans.dedup_by(|b, a| b.start < a.end);
    spans
}

/// The arguments of a command line between `from` and `to`: words split at blanks, with
/// their quotes (and a JSON array's commas) left out of each range.
fn arguments(bytes: &[u8], from: usize, to: usize) -> Vec<Range<usize>> {
    let mut args = Vec::new();
    let mut i = from;
    while i < to && args.len() < 64 {
        while i < to && matches!(bytes[i], b' ' | b'\t' | b',' | b']') {
            i += 1;
        }
        if i >= to {
            break;
        }
        let (start, end) = match bytes[i] {
            q @ (b'"' | b'\'') => {
                let close = i + 1 + bytes[i + 1..to].iter().position(|&b| b == q).unwrap_or(to - i - 1);
                (i + 1, close)
            }
            _ => (i, i + bytes[i..to].iter().position(|&b| matches!(b, b' ' | b'\t' | b',')).unwrap_or(to - i)),
        };
        args.push(start..end);
        i = end + 1;
    }
    args
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
