//! Values whose name says they are secret: assignments in every syntax, YAML values,
//! name/value pairs, XML elements, flags; and what a secret-named value may be instead
//! (a placeholder, a reference).

use std::ops::Range;

use super::*;

fn key_char(b: u8) -> bool {
    KeyChar::test(b)
}

byte_class!(
    /// A byte of a key name: an ASCII letter or digit, `_`, `.` or `-`.
    KeyChar = |b| b.within(b'a', b'z') | b.within(b'A', b'Z') | b.within(b'0', b'9') | b.is(b'_') | b.is(b'.') | b.is(b'-')
);

byte_class!(
    /// A separator between a key and its value.
    KeyValueSeparator = |b| b.is(b':') | b.is(b'=')
);

byte_class!(
    /// A quote that may open a quoted name.
    Quote = |b| b.is(b'"') | b.is(b'\'')
);

/// Values of `key=value`, `key: value` and JSON members whose key names a secret (see
/// [`KeyNames::is_secret`]). A quoted value keeps its quotes.
///
/// Only the separators a secret name can stand before are looked at: a built-in secret
/// name holds a stem ([`Hints::stems`]), and between a key and its separator stand only key
/// characters, quotes, backslashes and blanks, so its separator is the first one after
/// the stem. (A policy's names need not hold a stem: with them, every separator.)
pub(crate) fn secret_field_values(text: &str, names: &KeyNames, hints: &Hints<'_>) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans: Vec<Range<usize>> = Vec::new();
    let mut from = 0;
    let (mut line_start, mut line_scan) = (0, 0);
    let every_separator = names.adds_secret_names();
    // The next stem, then the separator after it; the key and value checks run per
    // separator.
    loop {
        if !every_separator {
            match hints.stems().next(from) {
                Some(stem) => from = stem,
                None => break,
            }
        }
        let sep = next_in_class(bytes, from, KeyValueSeparator);
        if sep == bytes.len() {
            break;
        }
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
        let quoted_key = key_end > 0 && matches!(bytes[key_end - 1], b'"' | b'\'');
        if quoted_key {
            key_end -= 1;
            // JSON quoted inside a string, once or more: `\"client_secret\": ...`,
            // `\\\"password\\\": ...`.
            while key_end > 0 && bytes[key_end - 1] == b'\\' {
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
        // A path's last segment is no key: `registry.example.com/auth:4f1c2a9e` names an
        // image `auth` and its tag, `/srv/token:3` a file and a line.
        let in_a_path = key_start > 0 && bytes[key_start - 1] == b'/' && !quoted_key;
        if !first_ok || key.len() > MAX_KEY_NAME || in_a_path {
            continue;
        }
        // A weak name (`pass`, `key`) holds a secret only when its value looks like one.
        let weak = match (names.is_secret(key), names.is_weak(key)) {
            (true, _) => false,
            (false, true) => true,
            (false, false) => continue,
        };
        let found_before = spans.len();
        let mut value = skip_blanks(bytes, sep + 1);
        // A quoted (JSON) key's value may start on the next line.
        if quoted_key && bytes[sep] == b':' && matches!(bytes.get(value), Some(b'\n' | b'\r')) {
            let next = run_end(bytes, value, |b| b.is_ascii_whitespace());
            if matches!(bytes.get(next), Some(b'"' | b'\'')) {
                value = next;
            }
        }
        // `PWD=/home/ann`: the shell's working directory, not a password.
        let shell_dir = key.eq_ignore_ascii_case("pwd") || key.eq_ignore_ascii_case("oldpwd");
        if shell_dir && matches!(bytes.get(value), Some(b'/' | b'~')) {
            continue;
        }
        // A markdown table's row `| Password: | x |`: the bar closes the name's cell, and
        // the value is the next cell (a YAML block scalar's bar has no cell before it).
        let marks = run_end(bytes, value, |b| matches!(b, b'*' | b'`'));
        let bar = skip_blanks(bytes, marks);
        if bytes[sep] == b':' && marks - value <= 4 && bytes.get(bar) == Some(&b'|') && opens_a_cell(bytes, key_start) {
            let cell = cell_after(bytes, bar);
            if !cell.is_empty() && !is_placeholder(&text[cell.clone()]) {
                spans.push(cell);
            }
            if weak {
                keep_random(&mut spans, found_before, text);
            }
            continue;
        }
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
                if weak {
                    keep_random(&mut spans, found_before, text);
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
            Some(b'[') if !text[value..].starts_with(MARKER_PREFIX) => {
                let close = run_end(bytes, value + 1, |c| c != b']' && c != b'\n' && c != b'[');
                // A flow sequence's items are all quoted (or objects) or none is: a quote
                // after an unquoted start closes a string the bracket stands in (a JSON
                // array's items read together, `["…key=[x", "next"]`), no item of its own.
                let first = skip_blanks(bytes, value + 1);
                let quoted = matches!(bytes.get(first), Some(b'"' | b'\'' | b'{'));
                let sequence = quoted || !bytes[value + 1..close].iter().any(|&b| matches!(b, b'"' | b'\''));
                if sequence && close > value + 1 && bytes.get(close) == Some(&b']') && !is_placeholder(&text[value + 1..close]) {
                    spans.push(value + 1..close);
                }
            }
            // TOML's multi-line strings: to the closing triple quote.
            Some(&q @ (b'"' | b'\'')) if bytes[value..].starts_with(&[q, q, q]) => {
                let inner = value + 3;
                let limit = crate::search::floor_boundary(text, inner + MAX_BLOCK_VALUE);
                let close = bytes[inner..limit].windows(3).position(|w| w == [q, q, q]).map_or(limit, |k| inner + k);
                crate::search::work::tally(close - inner + 1);
                if close > inner && !is_placeholder(text[inner..close].trim()) {
                    spans.push(inner..close);
                }
            }
            Some(&q @ (b'"' | b'\'')) => {
                // An unclosed quote (a value cut off at the window edge) runs to the line end.
                let inner = value + 1;
                let close = quoted_end(bytes, inner, q);
                if close > inner && !is_placeholder(&text[inner..close]) {
                    spans.push(inner..close);
                }
            }
            Some(b'\\') if matches!(bytes.get(run_end(bytes, value, |b| b == b'\\')), Some(b'"' | b'\'')) => {
                // An escaped quote (escaped once or more) opens the value: it runs to the
                // matching escaped quote.
                let quote_at = run_end(bytes, value, |b| b == b'\\');
                let q = bytes[quote_at];
                let inner = quote_at + 1;
                let mut close = inner;
                while close < bytes.len() && bytes[close] != b'\n' && !(bytes[close] == b'\\' && bytes.get(close + 1) == Some(&q)) {
                    close += 1;
                }
                // The closing quote's escape may be several backslashes long.
                while close > inner && bytes[close - 1] == b'\\' {
                    close -= 1;
                }
                if close > inner && !is_placeholder(&text[inner..close]) {
                    spans.push(inner..close);
                }
            }
            // `${TOKEN}`, `$(cat …)`, `{{ secrets.X }}`: a reference, not a value.
            Some(b'$' | b'{' | b'!') => {}
            Some(_) => {
                let end = escaped_value_end(bytes, value);
                // `os.getenv('TOKEN')`, `getSecret()`: a call, named without digits.
                let call = bytes.get(end) == Some(&b'(') && end - value <= 40 && !bytes[value..end].iter().any(u8::is_ascii_digit);
                if end > value && !call && !is_placeholder(&text[value..end]) {
                    if !is_prose(bytes, value, end) {
                        spans.push(value..end);
                    } else if let Some(phrase) = passphrase_line(bytes, key_start, value).filter(|_| !weak) {
                        spans.push(phrase);
                    }
                }
            }
            None => {}
        }
        if weak {
            keep_random(&mut spans, found_before, text);
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
            if !block && is_mapping_line(&bytes[end + line_indent..line_end]) {
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

/// Whether a YAML line (without its indentation) is a mapping entry, `key: value` or
/// `key:`, also as a list item (`- key: value`): the line starts with a key (a word, or a
/// quoted name) and a colon that ends it. A `: ` further on is part of a value (`echo a: b`), and deciding on it would let a redaction
/// that covers it turn a mapping into a value on a second pass.
fn is_mapping_line(line: &[u8]) -> bool {
    let line = line.strip_prefix(b"- ").unwrap_or(line);
    // A quoted key may hold blanks: `"my key": x`.
    let key_end = match line.first() {
        Some(&q @ (b'"' | b'\'')) => line[1..].iter().position(|&b| b == q).map_or(line.len(), |k| k + 2),
        _ => line.iter().position(|b| b.is_ascii_whitespace() || *b == b':').unwrap_or(line.len()),
    };
    key_end > 0 && line.get(key_end) == Some(&b':') && line.get(key_end + 1).is_none_or(|b| b.is_ascii_whitespace())
}

/// Whether the unquoted value `value..end` reads as words of a sentence (`Invalid token:
/// Drop the spans found since `from` whose text does not look like a secret.
fn keep_random(spans: &mut Vec<Range<usize>>, from: usize, text: &str) {
    let mut k = from;
    while k < spans.len() {
        if looks_random(&text[spans[k].clone()]) {
            k += 1;
        } else {
            spans.remove(k);
        }
    }
}

/// Whether a value looks like a generated secret rather than a word, a number, a path, a
/// time or an identifier: ten or more characters with no blank or `:`, a digit or a
/// symbol, and three of the four classes (lower, upper, digit, symbol); UUIDs and hex
/// digests (git SHAs) are identifiers.
pub(crate) fn looks_random(value: &str) -> bool {
    let v = value.trim_matches(|c| matches!(c, '"' | '\'' | '`' | '[' | ']' | ',' | ';'));
    let bytes = v.as_bytes();
    if !(10..=512).contains(&bytes.len()) || bytes.iter().any(|b| b.is_ascii_whitespace() || *b == b':' || !b.is_ascii()) {
        return false;
    }
    if matches!(bytes[0], b'/' | b'.' | b'~' | b'$' | b'{' | b'<') || is_uuid(bytes) || is_hex_digest(bytes) {
        return false;
    }
    let (mut lower, mut upper, mut digit, mut symbol) = (false, false, false, false);
    for &b in bytes {
        lower |= b.is_ascii_lowercase();
        upper |= b.is_ascii_uppercase();
        digit |= b.is_ascii_digit();
        symbol |= b.is_ascii_punctuation();
    }
    (digit || symbol) && [lower, upper, digit, symbol].iter().filter(|&&c| c).count() >= 3
}

/// 40 or 64 hex digits: a commit's hash or a SHA-256 digest.
fn is_hex_digest(bytes: &[u8]) -> bool {
    matches!(bytes.len(), 40 | 64) && bytes.iter().all(u8::is_ascii_hexdigit)
}

/// `8-4-4-4-12` hex digits.
fn is_uuid(bytes: &[u8]) -> bool {
    bytes.len() == 36
        && bytes.iter().enumerate().all(|(i, b)| if matches!(i, 8 | 13 | 18 | 23) { *b == b'-' } else { b.is_ascii_hexdigit() })
}

/// The words a name followed by a spaced value must hold. Each starts with one of
/// [`SECRET_NAME_STEMS`](crate::text::secret_names::SECRET_NAME_STEMS), so its places are
/// among the stems' starts the rule walks (a test checks it).
pub(crate) const SPACED_NAME_STEMS: &[&str] = &["pass", "pwd", "secret", "token", "key", "credential", "auth"];

/// Values after a secret's name and a blank, with no sign between (`aws_secret_access_key
/// <value>`, `ENV API_TOKEN <value>`, netrc's `password <value>`, `with secret <value>`):
/// only values that look generated ([`looks_random`]), since a name followed by a word
/// is usually prose. Built-in names are found by their stems; a policy's secret names by
/// one more pass over the words followed by a blank.
pub(crate) fn spaced_values(text: &str, names: &KeyNames, hints: &Hints<'_>) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans: Vec<Range<usize>> = Vec::new();
    let stems = hints.stems();
    let mut from = 0;
    // The end of the last word judged: a name is judged once, whichever stems it holds.
    let mut word_seen = 0;
    while let Some(at) = stems.next(from) {
        from = at + 1;
        if at < word_seen || !SPACED_NAME_STEMS.iter().any(|s| starts_with_ci(bytes, at, s)) {
            continue;
        }
        let mut start = at;
        while start > 0 && key_char(bytes[start - 1]) {
            start -= 1;
        }
        let end = run_end(bytes, at, key_char);
        word_seen = end;
        if end - start > MAX_KEY_NAME {
            continue;
        }
        if let Some(cell) = table_value(text, start, end, names) {
            spans.push(cell);
            continue;
        }
        if !matches!(bytes.get(end), Some(b' ' | b'\t')) {
            continue;
        }
        // A name of two words in prose (`API key`, `secret key`) is judged joined when its
        // first word is one that makes a key a credential's (`previous key` is no name).
        let before = (start >= 2 && bytes[start - 1] == b' ').then(|| {
            let floor = start.saturating_sub(MAX_KEY_NAME);
            (floor..start - 1).rev().find(|&i| !key_char(bytes[i])).map_or(floor, |i| i + 1)
        });
        let before = before.filter(|&b| PROSE_NAME_QUALIFIERS.iter().any(|q| text[b..start - 1].eq_ignore_ascii_case(q)));
        let named = names.is_secret(&text[start..end])
            || before.is_some_and(|b| names.is_secret(&format!("{}_{}", &text[b..start - 1], &text[start..end])));
        if named {
            spans.extend(spaced_value(text, start, end));
        }
    }
    if names.adds_secret_names() {
        let mut from = 0;
        while from < bytes.len() {
            let start = next_in_class(bytes, from, KeyChar);
            let end = run_end(bytes, start, key_char);
            from = end + 1;
            if end > start
                && end - start <= MAX_KEY_NAME
                && matches!(bytes.get(end), Some(b' ' | b'\t'))
                && names.is_policy_secret(&text[start..end])
                && !names.is_plain(&text[start..end])
            {
                spans.extend(spaced_value(text, start, end));
            }
        }
    }
    crate::order::sort_by_key(&mut spans, |s| (s.start, s.end));
    spans.dedup();
    spans
}

/// First words of a secret's name of two words written apart in prose (`API key`,
/// `access token`, `client secret`).
const PROSE_NAME_QUALIFIERS: &[&str] =
    &["api", "access", "secret", "private", "client", "signing", "encryption", "master", "auth", "refresh", "session", "account"];

/// Words that may stand between a secret's name and its value in prose (`the password is
/// …`, `token was …`, `set the key to …`), each followed by a blank or a colon.
const LINKING_WORDS: &[&str] = &["is", "was", "to"];

/// Words that may follow a linking word before the value (`was set to`, `is now`, `has
/// been reset to`).
const LINK_FILLERS: &[&str] = &["now", "set", "been", "reset", "changed", "updated", "still", "to"];

/// How many words of letters may stand between a secret's name and the linking word
/// (`for the admin account`).
const MAX_WORDS_BEFORE_LINK: usize = 5;

/// The value after a secret's name at `start..end` (a blank follows), when it looks
/// generated; in prose after a password's name (`the password is hunter22`), when it
/// reads as a password.
fn spaced_value(text: &str, start: usize, end: usize) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let mut value = skip_blanks(bytes, end);
    let mut linked = false;
    // Prose may name what the secret is for before linking it to its value: `the password
    // for the admin account is …`, `password was set to …`. A few words of letters, in
    // the same sentence, then the linking word and the verbs that may follow it.
    let mut word = value;
    for k in 0..=MAX_WORDS_BEFORE_LINK {
        // `to` right after the name and followed by `is` or `was` says what the secret is
        // for (`the password to server01 is …`); `set the secret to …` links its value.
        let names_a_target = |at: usize| {
            let next: Vec<&str> = text[at..crate::search::floor_boundary(text, at + 64)].split_whitespace().skip(1).take(3).collect();
            next.iter().skip(1).any(|w| w.eq_ignore_ascii_case("is") || w.eq_ignore_ascii_case("was"))
        };
        let links = LINKING_WORDS.iter().filter(|w| k > 0 || **w != "to" || !names_a_target(word));
        if let Some(link) = links.into_iter().find(|w| starts_with_ci(bytes, word, w)) {
            let after = word + link.len();
            let next = match bytes.get(after) {
                Some(b' ' | b'\t') => Some(after),
                Some(b':') => Some(after + 1),
                _ => None,
            };
            if let Some(mut next) = next {
                next = skip_blanks(bytes, next);
                while let Some(filler) =
                    LINK_FILLERS.iter().find(|f| starts_with_ci(bytes, next, f) && bytes.get(next + f.len()) == Some(&b' '))
                {
                    next = skip_blanks(bytes, next + filler.len());
                }
                value = next;
                linked = true;
                break;
            }
        }
        let word_end = run_end(bytes, word, |b| b.is_ascii_alphabetic());
        let describes = crate::text::secret_names::is_metadata_word(&text[word..word_end].to_ascii_lowercase());
        if word_end == word || word_end - word > 20 || bytes.get(word_end) != Some(&b' ') || describes {
            break;
        }
        word = word_end + 1;
    }
    if linked {
        // Prose: the sentence's period is no part of the value, and a value named in prose
        // must read as a credential, not as a term (`is Case-Sensitive`, `is SHA256-hashed`).
        let mut value_end = run_end(bytes, value, value_byte);
        while value_end > value && matches!(bytes[value_end - 1], b'.' | b'!' | b'?') {
            value_end -= 1;
        }
        if looks_like_a_credential(&text[value..value_end]) {
            return Some(value..value_end);
        }
        // A password people chose is shorter and less random than a generated key, and
        // holds what a query's value may not (`Tr0ub4dor&3`): after a password's name,
        // the word to the next blank, less the sentence's closing marks.
        let named_password = ["pass", "pwd"].iter().any(|w| text[start..end].to_ascii_lowercase().contains(w));
        let mut word_end = run_end(bytes, value, |b| b.is_ascii_graphic());
        while word_end > value && matches!(bytes[word_end - 1], b'.' | b',' | b';' | b':' | b'!' | b'?' | b')') {
            word_end -= 1;
        }
        return (named_password && reads_as_a_password(&text[value..word_end])).then_some(value..word_end);
    }
    // `var apiKey string = "…"`: a type name between the name and the sign.
    let ty = run_end(bytes, value, |b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'[' | b']' | b'*'));
    let sign = skip_blanks(bytes, ty);
    if ty > value && ty - value <= 16 && bytes.get(sign) == Some(&b'=') && bytes.get(sign + 1) != Some(&b'=') {
        value = skip_blanks(bytes, sign + 1);
    }
    // A quoted value (`set password "…"`) is read to its closing quote.
    let (value, value_end) = match bytes.get(value) {
        Some(&q @ (b'"' | b'\'')) => (value + 1, run_end(bytes, value + 1, |b| b != q && b != b'\n' && b != b'\\')),
        _ => (value, run_end(bytes, value, value_byte)),
    };
    // Two stems in one name find the same value: deduplicated after sorting.
    looks_random(&text[value..value_end]).then_some(value..value_end)
}

/// The value of a markdown table's row whose cell before it names a secret, when the
/// name's last word is `text[start..end]`: `| password | Xk9v… |`, `| API Key | `…` |`.
/// The name is the whole cell (its words joined by `_`), the value the next cell trimmed
/// (of blanks and a code span's backticks), and it must look generated: a table of a
/// schema's fields holds types and descriptions (`| token | string | … |`).
fn table_value(text: &str, start: usize, end: usize, names: &KeyNames) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let marks = run_end(bytes, end, |b| matches!(b, b'*' | b'`'));
    let bar = skip_blanks(bytes, marks);
    if bytes.get(bar) != Some(&b'|') || marks - end > 4 {
        return None;
    }
    // The name's cell opens with a bar, back over its words, blanks and markdown's
    // emphasis and code marks on the same line (`| **API Key** |`, ``| `password` |``).
    let floor = start.saturating_sub(MAX_KEY_NAME);
    let open = (floor..start).rev().find(|&i| !(key_char(bytes[i]) || matches!(bytes[i], b' ' | b'\t' | b'*' | b'`')))?;
    if bytes[open] != b'|' {
        return None;
    }
    let name = text[open + 1..end].trim_matches([' ', '\t', '*', '`']).replace([' ', '\t'], "_");
    if name.is_empty() || !names.is_secret(&name) {
        return None;
    }
    let Range { start: mut value, end: mut value_end } = cell_after(bytes, bar);
    if value_end - value >= 2 && bytes[value] == b'`' && bytes[value_end - 1] == b'`' {
        (value, value_end) = (value + 1, value_end - 1);
    }
    let cell = &text[value..value_end];
    // A cell named a secret may hold a key of letters and digits alone (`8f2a9c7e…`), which
    // prose after a name may not: the table says what the cell is. A commit's hash or a
    // digest (40 or 64 hex digits) stays a digest, a short key id (16 hex digits) an id.
    let key_like = cell.len() >= 20
        && !is_hex_digest(cell.as_bytes())
        && !is_address(cell)
        && cell.bytes().all(|b| b.is_ascii_alphanumeric())
        && cell.bytes().any(|b| b.is_ascii_digit())
        && cell.bytes().any(|b| b.is_ascii_alphabetic());
    (key_like || looks_like_a_credential(cell)).then_some(value..value_end)
}

/// [`looks_random`], held to more for a value that only layout or prose names (a table's
/// cell, `the password is …`): a digit, no Ethereum-style `0x` address, and not a compound
/// of words and numbers (`AES-256-GCM`, `SHA256-hashed`, `Base64-encoded`, `GitHub.com`:
/// every part between separators letters then digits).
pub(crate) fn looks_like_a_credential(value: &str) -> bool {
    looks_random(value) && value.bytes().any(|b| b.is_ascii_digit()) && !is_compound(value) && !is_address(value)
}

/// A compound of words and numbers (`AES-256-GCM`, `SHA256-hashed`, `utf8-encoded`): every
/// part between separators letters then digits. A term, not a credential.
fn is_compound(value: &str) -> bool {
    value.contains(['-', '.', '_', '/'])
        && value.split(['-', '.', '_', '/']).all(|part| {
            let letters = part.bytes().take_while(u8::is_ascii_alphabetic).count();
            part.bytes().skip(letters).all(|b| b.is_ascii_digit())
        })
}

/// A password a person chose, as prose names one (`hunter22`, `P@ssw0rd!`,
/// `Tr0ub4dor&3`, `123456`): 6 to 64 printable ASCII bytes with a letter and a digit or a
/// symbol, or digits alone,
/// not a placeholder (`${DB_PASSWORD}`, `<password>`, `********`), a quoted term, an email
/// address or a URL, and not a compound of words and numbers (`utf8-encoded`,
/// `SHA256-hashed`).
fn reads_as_a_password(value: &str) -> bool {
    let bytes = value.as_bytes();
    let letter = bytes.iter().any(u8::is_ascii_alphabetic);
    let digit_or_symbol = bytes.iter().any(|b| b.is_ascii_digit() || b.is_ascii_punctuation());
    let digits = bytes.iter().all(u8::is_ascii_digit);
    (6..=64).contains(&bytes.len())
        && bytes.iter().all(u8::is_ascii_graphic)
        && ((letter && digit_or_symbol) || digits)
        && !is_compound(value)
        && !matches!(bytes[0], b'$' | b'{' | b'<' | b'%' | b'*' | b'[' | b'(' | b'`' | b'\'' | b'"')
        && !(value.contains('@') && value.contains('.'))
        && !value.contains("://")
}

/// An Ethereum-style account address (`0x` and 40 hex digits): public.
fn is_address(value: &str) -> bool {
    value.len() == 42 && value.starts_with("0x") && value[2..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// Values under a column whose header names a secret, in a table of rows: CSV, TSV (its
/// secret column after the first: the rule's hints) and markdown tables with a header row (`id,email,api_key` then `7,ann@example.com,…`; the
/// AWS console's credentials download `User name,Password,Access key ID,Secret access key`;
/// a query tool's `| id | user | password |`). A header is a line of at least two cells,
/// each a name of one to four words; a row is a line with as many cells as the header,
/// and the rows end at the first line that has another count. A cell taken holds no
/// blank (a password rarely does; prose split at its commas does), has at least
/// [`MIN_COLUMN_SECRET`] bytes and a digit or looks generated (not a name, a status, an
/// identifier such as `DB_PASSWORD` in a list of secrets' names), and under a short name that holds a secret only
/// sometimes it must look generated. Every line is read once, as
/// a header or as a row: linear time.
pub(crate) fn column_values(text: &str, names: &KeyNames, hints: &Hints<'_>) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let stems = hints.stems();
    let mut spans = Vec::new();
    let mut from = 0;
    // Where the last line read (as a header or a row) ended.
    let mut read = 0;
    while let Some(at) = stems.next(from) {
        from = at + 1;
        if at < read {
            continue;
        }
        let start = bytes[read..at].iter().rposition(|&b| b == b'\n').map_or(read, |n| read + n + 1);
        let end = line_end(bytes, at);
        read = end;
        let line = &text[start..end];
        let Some(delimiter) = [b'|', b'\t', b','].into_iter().find(|&d| line.as_bytes().contains(&d)) else { continue };
        let header = cells(line, delimiter);
        if header.len() < 2 || !header.iter().all(|c| is_column_name(&line[c.clone()])) {
            continue;
        }
        // For each column: whether its name is a secret's, a short name's, or neither.
        let columns: Vec<(bool, bool)> = header
            .iter()
            .map(|c| {
                let name = line[c.clone()].replace([' ', '\t'], "_");
                (names.is_secret(&name), names.is_weak(&name) && is_short_password_name(&name))
            })
            .collect();
        if !columns.iter().any(|&(secret, weak)| secret || weak) {
            continue;
        }
        let mut row = next_line(bytes, end);
        // A markdown table's delimiter row (`|---|:--:|`).
        if delimiter == b'|' && row < bytes.len() {
            let row_end = line_end(bytes, row);
            if bytes[row..row_end].iter().all(|b| matches!(b, b'|' | b'-' | b':' | b' ' | b'\t')) {
                row = next_line(bytes, row_end);
            }
        }
        while row < bytes.len() {
            let row_end = line_end(bytes, row);
            let line = &text[row..row_end];
            let row_cells = cells(line, delimiter);
            if row_cells.len() != header.len() {
                break;
            }
            read = row_end;
            for (cell, &(secret, weak)) in row_cells.iter().zip(&columns) {
                let mut cell = cell.clone();
                let b = line.as_bytes();
                if cell.len() >= 2 && matches!(b[cell.start], b'"' | b'\'' | b'`') && b[cell.end - 1] == b[cell.start] {
                    cell = cell.start + 1..cell.end - 1;
                }
                let value = &line[cell.clone()];
                let taken = (secret || weak)
                    && value.len() >= MIN_COLUMN_SECRET
                    && !value.contains([' ', '\t'])
                    && !value.contains(MARKER_PREFIX)
                    && !is_placeholder(value)
                    && if secret {
                        value.bytes().any(|b| b.is_ascii_digit()) || looks_random(value)
                    } else {
                        looks_like_a_credential(value)
                    };
                if taken {
                    spans.push(row + cell.start..row + cell.end);
                }
            }
            row = next_line(bytes, row_end);
        }
    }
    spans
}

/// Whether a short name that holds a secret only sometimes names a password (`pass`,
/// `pw`): as an element or a column, `key`, `session` and `tokens` name object keys,
/// states and counts far more often (an S3 listing's `<Key>`, a `| Key | Value |` table).
fn is_short_password_name(name: &str) -> bool {
    ["pass", "pw"].iter().any(|n| name.eq_ignore_ascii_case(n))
}

/// The shortest cell taken under a secret's column: a count or a flag (`2`, `yes`) in a
/// table of tokens is no secret.
const MIN_COLUMN_SECRET: usize = 6;

/// Whether a table's bar opens the cell whose name starts at `key_start` (past blanks and
/// markdown's emphasis and code marks).
fn opens_a_cell(bytes: &[u8], key_start: usize) -> bool {
    let floor = key_start.saturating_sub(8);
    (floor..key_start).rev().find(|&i| !matches!(bytes[i], b' ' | b'\t' | b'*' | b'`')).is_some_and(|i| bytes[i] == b'|')
}

/// Where the line that holds `at` ends: at its `\r\n` or `\n`, or the text's end.
fn line_end(bytes: &[u8], at: usize) -> usize {
    let end = crate::search::find_byte(bytes, at, b'\n').unwrap_or(bytes.len());
    if end > at && bytes[end - 1] == b'\r' {
        end - 1
    } else {
        end
    }
}

/// Where the line after the one that ends at `end` (as [`line_end`] gives it) starts.
fn next_line(bytes: &[u8], end: usize) -> usize {
    end + if bytes.get(end) == Some(&b'\r') { 2 } else { 1 }
}

/// The cells of a table's line split at `delimiter`, each trimmed of blanks; a markdown
/// row's outer bars open and close it, and make no empty cells.
fn cells(line: &str, delimiter: u8) -> Vec<Range<usize>> {
    let bytes = line.as_bytes();
    let (mut start, mut end) = (0, bytes.len());
    if delimiter == b'|' {
        Range { start, end } = without_blanks(bytes, 0..end);
        if bytes.get(start) == Some(&b'|') {
            start += 1;
        }
        if end > start && bytes[end - 1] == b'|' {
            end -= 1;
        }
    }
    let mut out = Vec::new();
    let mut cell = start;
    for i in start..=end {
        if i == end || bytes[i] == delimiter {
            out.push(without_blanks(bytes, cell..i));
            cell = i + 1;
        }
    }
    crate::search::work::tally(end - start + 1);
    out
}

/// The cell after a table's bar at `bar`: to the next bar or the line's end, without the
/// blanks around it.
fn cell_after(bytes: &[u8], bar: usize) -> Range<usize> {
    without_blanks(bytes, bar + 1..run_end(bytes, bar + 1, |b| !matches!(b, b'|' | b'\n' | b'\r')))
}

/// `range` of `bytes` without the blanks at either end.
fn without_blanks(bytes: &[u8], range: Range<usize>) -> Range<usize> {
    let start = range.start + bytes[range.clone()].iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
    let end = range.end - bytes[start..range.end].iter().rev().take_while(|b| matches!(b, b' ' | b'\t')).count();
    start..end
}

/// Whether a header cell reads as a column's name: one to four words of a key's bytes.
fn is_column_name(cell: &str) -> bool {
    !cell.is_empty()
        && cell.len() <= MAX_KEY_NAME
        && cell.bytes().all(|b| key_char(b) || b == b' ')
        && cell.split(' ').filter(|w| !w.is_empty()).count() <= 4
}

/// A quoted secret name followed by its quoted value, in code: `define("DB_PASSWORD",
/// "…")`, `config["secret"] = "…"`, `ENV["API_KEY"] ||= "…"`, a `"password", "…"` pair
/// in a list. After a comma the value must look generated (a list of field names is no
/// secret).
///
/// Every quote is tried as a name's opening, also one that closes a string (a value that
/// runs into a name, `"…"DB_PASSWORD", "…"`): pairing quotes left to right would make the
/// outcome hang on what the strings before hold, and a marker (`"[REDACTED:…]"`) pairs
/// otherwise than the value it replaced, so a redacted text would be read differently.
/// The runs read from two quotes end at the later one: linear time.
pub(crate) fn quoted_pairs(text: &str, names: &KeyNames, _: &Hints) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans: Vec<Range<usize>> = Vec::new();
    let mut from = 0;
    loop {
        let open = next_in_class(bytes, from, Quote);
        if open == bytes.len() {
            break;
        }
        let q = bytes[open];
        let name_end = run_end(bytes, open + 1, key_char);
        from = open + 1;
        if bytes.get(name_end) != Some(&q) || name_end - open - 1 > MAX_KEY_NAME || !names.is_secret(&text[open + 1..name_end]) {
            continue;
        }
        let mut i = name_end + 1;
        if bytes.get(i) == Some(&b']') {
            i += 1;
        }
        i = skip_blanks(bytes, i);
        let comma = bytes.get(i) == Some(&b',');
        let sign = ["=", "||=", ":=", "??="].iter().find(|s| bytes[i..].starts_with(s.as_bytes()) && bytes.get(i + s.len()) != Some(&b'='));
        let after = match (comma, sign) {
            (true, _) => i + 1,
            (false, Some(s)) => i + s.len(),
            (false, None) => continue,
        };
        let value = skip_blanks(bytes, after);
        let Some(&vq @ (b'"' | b'\'')) = bytes.get(value) else { continue };
        let close = run_end(bytes, value + 1, |b| b != vq && b != b'\n' && b != b'\\');
        let secret = &text[value + 1..close];
        if bytes.get(close) == Some(&vq) && !secret.is_empty() && !is_placeholder(secret) && (!comma || looks_random(secret)) {
            spans.push(value + 1..close);
            // The closing quote may open a name (see above).
            from = close;
        }
    }
    spans
}

/// signature verification failed`): lowercase letters only, and another word follows.
/// Where an unquoted value that starts at `value` ends: at a byte no value holds, but a
/// Java properties file's escapes (`\=`, `\:`, `\#`, `\!`, `\ `) are part of it.
fn escaped_value_end(bytes: &[u8], value: usize) -> usize {
    let mut end = run_end(bytes, value, value_byte);
    while end > value && bytes.get(end) == Some(&b'\\') && matches!(bytes.get(end + 1), Some(b'=' | b':' | b'#' | b'!' | b' ')) {
        end = run_end(bytes, end + 2, value_byte);
    }
    end
}

/// A value of words written alone on a configuration line (`password = correct horse
/// battery staple`, `passphrase: two words`): a password's name opens the line, and what
/// follows the separator to the line's end is a few words of letters and digits, none of
/// the little words a sentence is made with (`password: unable to connect`). The words,
/// when so.
fn passphrase_line(bytes: &[u8], key_start: usize, value: usize) -> Option<Range<usize>> {
    let key = &bytes
        [key_start..bytes[key_start..value].iter().position(|&b| matches!(b, b' ' | b'\t' | b'=' | b':')).map_or(value, |k| key_start + k)];
    let names_a_password =
        ["pass", "pwd", "psk", "secret"].iter().any(|w| key.windows(w.len()).any(|k| k.eq_ignore_ascii_case(w.as_bytes())));
    if !names_a_password {
        return None;
    }
    let mut start = key_start;
    while start > 0 && matches!(bytes[start - 1], b' ' | b'\t') {
        start -= 1;
    }
    if start > 0 && bytes[start - 1] != b'\n' {
        return None;
    }
    let end = line_end(bytes, value);
    let line = &bytes[value..end];
    let trimmed = line.len() - line.iter().rev().take_while(|b| b.is_ascii_whitespace()).count();
    let words = line[..trimmed].split(|&b| b == b' ').count();
    let sentence = line[..trimmed].split(|&b| b == b' ').any(|w| SENTENCE_WORDS.iter().any(|s| w.eq_ignore_ascii_case(s.as_bytes())));
    let plain = !sentence && line[..trimmed].iter().all(|&b| b.is_ascii_alphanumeric() || matches!(b, b' ' | b'-' | b'_'));
    (plain && (2..=8).contains(&words) && trimmed <= 64).then_some(value..value + trimmed)
}

/// Words that make a line a sentence rather than a passphrase ([`passphrase_line`]).
const SENTENCE_WORDS: &[&str] = &[
    "the", "a", "an", "to", "with", "for", "of", "in", "on", "is", "are", "was", "be", "not", "no", "your", "you", "please", "must",
    "should", "has", "have", "from", "by", "at", "as", "and", "or", "it", "this", "that", "unable", "failed", "invalid",
];

fn is_prose(bytes: &[u8], value: usize, end: usize) -> bool {
    let word = &bytes[value..end];
    word.len() <= 16
        && word.iter().all(u8::is_ascii_lowercase)
        && bytes.get(end) == Some(&b' ')
        && bytes.get(end + 1).is_some_and(u8::is_ascii_lowercase)
}

/// Literals no secret is: null values, placeholders, states.
const PLACEHOLDER_WORDS: &[&str] = &[
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
    // Booleans and states, which a setting about a secret holds (`password_auth: no`).
    "yes",
    "no",
    "on",
    "off",
    "enabled",
    "disabled",
    "set",
    "none set",
    "not set",
    // Permissions (GitHub Actions' `id-token: write`).
    "read",
    "write",
    // Type names, where code declares a secret's variable (`password: str`,
    // `apiKey: string | null`, `token: Option<String>`).
    "str",
    "string",
    "int",
    "integer",
    "bool",
    "boolean",
    "number",
    "bytes",
    "any",
    "object",
    "unknown",
    "option",
    "optional",
    "secretstr",
    "secretstring",
    "secretbytes",
];

/// Whether a secret-named value is a placeholder or a reference, not a secret: empty, a
/// run of one masking character (`xxx`, `***`), an environment or template reference
/// (`${TOKEN}`, `$TOKEN`, `{{ secret }}`, `%TOKEN%`, `<your-token>`, `process.env.X`), a
/// literal no secret is (`null`, `true`, `changeme`), or the core's own markers.
pub(crate) fn is_placeholder(value: &str) -> bool {
    let v = trimmed_value(value);
    // A configuration path (`settings.API_KEY`, `config.token`): dotted identifiers
    // without digits.
    let dotted = v.contains('.')
        && v.split('.').all(|p| {
            p.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && p.chars().all(|c| c.is_ascii_alphabetic() || c == '_')
        });
    dotted || is_placeholder_value(value)
}

/// A value without the blanks, separators and quotes around it.
fn trimmed_value(value: &str) -> &str {
    value.trim().trim_end_matches([',', ';']).trim_matches(|c| c == '"' || c == '\'' || c == '`')
}

/// [`is_placeholder`] without the configuration paths: where a value cannot be a path
/// into code (after an authorization scheme), only placeholders and references count.
pub(crate) fn is_placeholder_value(value: &str) -> bool {
    let v = trimmed_value(value);
    if v.is_empty() || PLACEHOLDER_WORDS.iter().any(|w| v.eq_ignore_ascii_case(w)) {
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
    // `sk-...`, `ghp_xxxx…`: a documented prefix with a dummy body.
    let dummy_body = v.ends_with("...") || v.ends_with('…') || {
        let tail: Vec<char> = v.chars().rev().take(8).collect();
        tail.len() == 8 && tail.iter().all(|c| *c == tail[0]) && matches!(tail[0], 'x' | 'X' | '0' | '*')
    };
    reference || dummy_body || lower.starts_with("your") || v.starts_with(MARKER_PREFIX)
}

/// Where a value opened by the quote `q` ends, reading from `inner`: at the quote, or at
/// the line's end when it is not closed (a value cut off at the window edge). A quote
/// after a backslash is part of the value (`"abc\"def"`), as in JSON, shells and most
/// languages' strings.
fn quoted_end(bytes: &[u8], inner: usize, q: u8) -> usize {
    let mut i = inner;
    while i < bytes.len() && !matches!(bytes[i], b'\n' | b'\r') && bytes[i] != q {
        i += if bytes[i] == b'\\' && bytes.get(i + 1).is_some_and(|&b| b != b'\n' && b != b'\r') { 2 } else { 1 };
    }
    crate::search::work::tally((i - inner) / 8 + 1);
    i.min(bytes.len())
}

/// A password's label in other languages, written in Latin letters without accents, as
/// configuration tools and web consoles write it before a value (`Kennwort: …`,
/// `Senha: …`, `Mot de passe : …`). Matched ASCII case-insensitively.
pub(crate) const LATIN_PASSWORD_LABELS: &[&str] = &[
    "kennwort",
    "senha",
    "wachtwoord",
    "haslo",
    "sifre",
    "parola",
    "losenord",
    "salasana",
    "heslo",
    "contrasena",
    "mot de passe",
    "adgangskode",
    "passord",
];

/// A password's label in scripts other than ASCII's (Cyrillic, Chinese, Japanese, Korean,
/// Greek, Hebrew, Arabic, Thai, Vietnamese) and Latin ones with accents, in the cases its
/// script has.
const OTHER_PASSWORD_LABELS: &[&str] = &[
    "пароль",
    "Пароль",
    "ПАРОЛЬ",
    "密码",
    "密碼",
    "口令",
    "パスワード",
    "비밀번호",
    "암호",
    "κωδικός",
    "Κωδικός",
    "סיסמה",
    "كلمة المرور",
    "รหัสผ่าน",
    "mật khẩu",
    "Mật khẩu",
    "contraseña",
    "Contraseña",
    "hasło",
    "Hasło",
    "şifre",
    "Şifre",
    "lösenord",
    "Lösenord",
    "jelszó",
    "Jelszó",
];

/// Values after a password's label in another language written in Latin letters and a
/// colon (`Kennwort: …`, `Senha: …`): the value's first word, or what its quotes hold.
/// One pass over the separators, each read back for a label.
pub(crate) fn latin_labeled_values(text: &str) -> Vec<Range<usize>> {
    // Such a label starts its line (a console's or a form's listing): the lines are read,
    // not every separator, which a log holds by the thousand.
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut line = 0;
    while line < bytes.len() {
        let start = skip_blanks(bytes, line);
        let label = LATIN_PASSWORD_LABELS
            .iter()
            .find(|l| bytes[start..].len() >= l.len() && bytes[start..start + l.len()].eq_ignore_ascii_case(l.as_bytes()));
        if let Some(label) = label {
            spans.extend(labeled_value(text, start + label.len()));
        }
        line = crate::search::find_byte(bytes, line, b'\n').map_or(bytes.len(), |n| n + 1);
    }
    spans
}

/// [`latin_labeled_values`] for labels in other scripts (`Пароль: …`, `密码：…`,
/// `Contraseña: …`); nothing to find in an ASCII text, which is told at once.
pub(crate) fn script_labeled_values(text: &str) -> Vec<Range<usize>> {
    if text.is_ascii() {
        return Vec::new();
    }
    labeled_values(text, OTHER_PASSWORD_LABELS)
}

byte_class!(
    /// A label's separator: `:`, `=`, or the first byte of `：` (and of other characters).
    LabelSeparator = |b| b.is(b':') | b.is(b'=') | b.is(0xEF)
);

/// The values after each of `labels` (exact bytes) that stands before a separator (`:`,
/// `：`, `=`, after blanks) and starts a word: the separators are found in one pass, and the
/// bytes before each compared with the labels, their last byte first.
fn labeled_values(text: &str, labels: &[&str]) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut from = 0;
    let lasts: Vec<u8> = labels.iter().filter_map(|l| l.as_bytes().last().copied()).collect();
    loop {
        let sep = next_in_class(bytes, from, LabelSeparator);
        if sep >= bytes.len() {
            break;
        }
        from = sep + 1;
        if bytes[sep] == 0xEF && !bytes[sep..].starts_with("：".as_bytes()) {
            continue;
        }
        let label_end = sep - bytes[..sep].iter().rev().take(8).take_while(|&&b| b == b' ' || b == b'\t').count();
        if label_end == 0 || !lasts.contains(&bytes[label_end - 1]) {
            continue;
        }
        let found = labels.iter().any(|label| {
            let l = label.as_bytes();
            label_end >= l.len()
                && &bytes[label_end - l.len()..label_end] == l
                && !text[..label_end - l.len()].chars().next_back().is_some_and(char::is_alphanumeric)
        });
        if found {
            spans.extend(labeled_value(text, label_end));
        }
    }
    spans
}

/// The value after a label that ends at `end`: blanks, a colon (`:`, `：`) or `=`, blanks,
/// then a word or a quoted value that is no placeholder.
fn labeled_value(text: &str, end: usize) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let mut i = skip_blanks(bytes, end);
    if text[i..].starts_with('：') {
        i += '：'.len_utf8();
    } else if matches!(bytes.get(i), Some(b':' | b'=')) {
        i += 1;
    } else {
        return None;
    }
    let value = skip_blanks(bytes, i);
    let (start, stop) = match bytes.get(value) {
        Some(&q @ (b'"' | b'\'')) => (value + 1, quoted_end(bytes, value + 1, q)),
        // A password is written in ASCII: a word of another script after the label is prose
        // (`密码：请输入至少 8 位字符`).
        Some(_) => (value, run_end(bytes, value, |b| b.is_ascii_graphic() && !matches!(b, b'"' | b'\'' | b',' | b';'))),
        None => return None,
    };
    let v = &text[start..stop];
    (v.chars().count() >= 4 && !is_placeholder(v)).then_some(start..stop)
}

/// Passwords SQL sets for a user: `CREATE USER … IDENTIFIED BY 'x'`, `ALTER USER …
/// IDENTIFIED WITH mysql_native_password BY 'x'` (MySQL, Oracle, Snowflake), the quoted
/// value or the word after `BY`.
pub(crate) fn sql_identified_by(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for at in positions_ignore_ascii_case(text, "identified") {
        let mut i = skip_blanks(bytes, at + "identified".len());
        // `IDENTIFIED WITH <plugin> BY`.
        if starts_with_ci(bytes, i, "with ") {
            i = skip_blanks(bytes, i + "with ".len());
            i = skip_blanks(bytes, run_end(bytes, i, |b| b.is_ascii_alphanumeric() || b == b'_'));
        }
        if !starts_with_ci(bytes, i, "by ") {
            continue;
        }
        let value = skip_blanks(bytes, i + "by ".len());
        let (start, stop) = match bytes.get(value) {
            Some(&q @ (b'"' | b'\'')) => (value + 1, quoted_end(bytes, value + 1, q)),
            // Unquoted, a password must read as one (`identified by its name` is prose).
            Some(_) => {
                let stop = run_end(bytes, value, |b| !b.is_ascii_whitespace() && b != b';');
                (value, if looks_like_a_credential(&text[value..stop]) { stop } else { value })
            }
            None => continue,
        };
        if stop > start && !is_placeholder(&text[start..stop]) {
            spans.push(start..stop);
        }
    }
    spans
}

/// Values of HTML password fields (`<input type="password" value="…">`, the attributes in
/// any order, quoted or not): what a form fills a password field with is the password.
pub(crate) fn password_inputs(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for at in positions_ignore_ascii_case(text, "<input") {
        let from = at + "<input".len();
        if !bytes.get(from).is_some_and(|b| b.is_ascii_whitespace() || *b == b'/') {
            continue;
        }
        // The tag's attributes, up to its `>` (a quoted value may hold one), within
        // `MAX_TAG` bytes: every read below stops at `end`.
        let (mut password, mut value) = (false, None);
        let end = crate::search::floor_boundary(text, from + MAX_TAG);
        let tag = &bytes[..end];
        let mut i = from;
        while i < end {
            i = run_end(tag, i, |b| b.is_ascii_whitespace() || b == b'/');
            if i >= end || matches!(tag[i], b'>' | b'<') {
                break;
            }
            let name_end = run_end(tag, i, |b| !b.is_ascii_whitespace() && !matches!(b, b'=' | b'>' | b'/' | b'<'));
            let name = &text[i..name_end];
            let eq = skip_blanks(tag, name_end);
            if tag.get(eq) != Some(&b'=') {
                i = name_end.max(i + 1);
                continue;
            }
            let open = skip_blanks(tag, eq + 1);
            let (start, stop, next) = match tag.get(open) {
                // A quoted value that does not close within the tag is none.
                Some(&q @ (b'"' | b'\'')) => match tag[open + 1..].iter().position(|&b| b == q) {
                    Some(k) => (open + 1, open + 1 + k, open + 2 + k),
                    None => break,
                },
                Some(_) => {
                    let stop = run_end(tag, open, |b| !b.is_ascii_whitespace() && !matches!(b, b'>' | b'<'));
                    // `TYPE=password/>`: the slash closes the tag.
                    let value_end = if tag.get(stop) == Some(&b'>') && stop > open && tag[stop - 1] == b'/' { stop - 1 } else { stop };
                    (open, value_end, stop)
                }
                None => break,
            };
            if name.eq_ignore_ascii_case("type") {
                password = text[start..stop].eq_ignore_ascii_case("password");
            } else if name.eq_ignore_ascii_case("value") {
                value = Some(start..stop);
            }
            i = next.max(i + 1);
        }
        if let Some(v) = value.filter(|v| password && v.end > v.start && !is_placeholder(&text[v.clone()])) {
            spans.push(v);
        }
    }
    spans
}

/// The longest HTML tag [`password_inputs`] reads, in bytes.
const MAX_TAG: usize = 1024;

/// Passwords of PostgreSQL password files (`.pgpass`): lines of
/// `hostname:port:database:username:password`, the port digits or `*`, the password the
/// rest of the line (a `\:` in it is a colon).
pub(crate) fn pgpass_passwords(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for colon in positions(text, ":") {
        if !bytes.get(colon + 1).is_some_and(|&b| b.is_ascii_digit() || b == b'*') {
            continue;
        }
        // Back to the line's start: the host ends at the line's first colon, so reading
        // back stops at another colon too, and each byte is read back once.
        let reach = colon.saturating_sub(MAX_PGPASS_HOST);
        let line = match bytes[reach..colon].iter().rposition(|&b| b == b'\n' || b == b':') {
            Some(k) if bytes[reach + k] == b'\n' => reach + k + 1,
            None if reach == 0 => 0,
            _ => continue,
        };
        let host = &bytes[line..colon];
        let host_ok = !host.is_empty()
            && host.iter().all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'*'))
            && host.iter().any(|&b| b.is_ascii_alphabetic() || matches!(b, b'.' | b'*'));
        if !host_ok {
            continue;
        }
        let field = |from: usize| run_end(bytes, from, |b| !matches!(b, b':' | b'\n' | b'\r' | b' ' | b'\t'));
        let port_end = run_end(bytes, colon + 1, |b| b.is_ascii_digit() || b == b'*');
        let db_end = field(port_end + 1);
        let user_end = field(db_end + 1);
        let fields_ok =
            bytes.get(port_end) == Some(&b':') && db_end > port_end + 1 && bytes.get(db_end) == Some(&b':') && user_end > db_end + 1;
        if !fields_ok || bytes.get(user_end) != Some(&b':') {
            continue;
        }
        let password = user_end + 1;
        let end = run_end(bytes, password, |b| b != b'\n' && b != b'\r');
        let end = password + text[password..end].trim_end().len();
        if end > password && !is_placeholder(&text[password..end]) {
            spans.push(password..end);
        }
    }
    spans
}

/// The longest host name of a `.pgpass` line read, in bytes.
const MAX_PGPASS_HOST: usize = 256;

/// How far back a `value` looks for the `name` (or `key`) that says what it is.
const PAIR_REACH: usize = 160;

/// Values named by a sibling rather than by their own key: `{"name": "X-Api-Key",
/// "value": "…"}`, `<add key="ApiKey" value="…"/>`, `<property name="password"
/// value="…"/>`, Kubernetes `- name: API_TOKEN` / `value: …`; and XML elements whose tag
/// names a secret (`<password>…</password>`).
pub(crate) fn paired_values(text: &str, names: &KeyNames, _: &Hints) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for at in positions_ignore_ascii_case(text, "value") {
        if !boundary_before(bytes, at) && bytes[at - 1] != b'"' {
            continue;
        }
        let mut i = at + "value".len();
        let json = bytes.get(i) == Some(&b'"') && at > 0 && bytes[at - 1] == b'"';
        i += usize::from(json);
        let sep = skip_blanks(bytes, i);
        let (value, name) = match bytes.get(sep) {
            Some(b'=') if !json => (skip_blanks(bytes, sep + 1), sibling(text, at, &[" key=", " name="], " value=", b'<')),
            Some(b':') if json => (skip_blanks(bytes, sep + 1), sibling(text, at, &["\"name\"", "\"key\""], "\"value\"", b'{')),
            Some(b':') => (skip_blanks(bytes, sep + 1), yaml_sibling(text, at)),
            _ => continue,
        };
        if !name.is_some_and(|n| names.names_its_value(n)) {
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
    // `<password>…</password>`, `<SecretKey>…</SecretKey>`, `<Pass encoding="base64">…`,
    // and elements named by an attribute: `<entry key="api.token">…</entry>`. A short
    // name that holds a secret only sometimes (`<Pass>`, `<key>`) takes a value that
    // looks generated.
    for open in positions(text, "<") {
        let name_end = run_end(bytes, open + 1, |b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':'));
        if name_end == open + 1 {
            continue;
        }
        let name = &text[open + 1..name_end];
        let (secret, weak) = (names.is_secret(name), names.is_weak(name) && is_short_password_name(name));
        let (tag_end, named) = match bytes.get(name_end) {
            Some(b'>') if secret || weak => (name_end, false),
            Some(b' ') => {
                let limit = crate::search::floor_boundary(text, name_end + 256);
                let close = run_end(&bytes[..limit], name_end, |b| b != b'>' && b != b'<');
                let attrs = &text[name_end..close];
                let named = [" key=", " name="].iter().any(|a| {
                    crate::search::find(attrs, a).is_some_and(|k| {
                        let v = &attrs[k + a.len()..];
                        let q = v.as_bytes().first().copied().unwrap_or(b' ');
                        matches!(q, b'"' | b'\'') && v[1..].split(q as char).next().is_some_and(|n| names.names_its_value(n))
                    })
                });
                if close < limit && bytes[close] == b'>' && (named || secret || weak) && !attrs.contains(" value=") {
                    (close, named)
                } else {
                    continue;
                }
            }
            _ => continue,
        };
        let start = tag_end + 1;
        let end = run_end(bytes, start, |b| b != b'<');
        let value = &text[start..end];
        let taken = !value.is_empty() && !is_placeholder(value) && (secret || named || looks_random(value));
        if taken && closes(&bytes[end..], &bytes[open + 1..name_end]) {
            spans.push(start..end);
        }
    }
    crate::order::sort_by_key(&mut spans, |s| s.start);
    spans.dedup_by(|b, a| b.start < a.end);
    spans
}

/// Whether `rest` starts with the closing tag of the element `name` (`</name>`, either
/// case), or with a piece of it that the text ends in (a text cut inside the tag). Any
/// other tag ends no secret: were the text up to another element's closing tag taken, a
/// `<` that some other rule redacts would decide whether it is, and a second redaction
/// would find what the first did not.
fn closes(rest: &[u8], name: &[u8]) -> bool {
    let Some(after) = rest.strip_prefix(b"</") else { return false };
    let n = after.len().min(name.len());
    after[..n].eq_ignore_ascii_case(&name[..n])
        && (after.len() <= name.len() || matches!(after[name.len()], b'>' | b' ' | b'\t' | b'\n' | b'\r'))
}

/// The quoted value of the nearest of `names` (`"name"`, ` key=`) before `at`, within
/// [`PAIR_REACH`] bytes, not across `boundary` (the start of the object or tag) and not
/// across an earlier `value` member (`"value"`, ` value=`): a name says what the first
/// value after it is. (Were the reach alone the limit, a second value would be paired
/// once the first was redacted, the marker being shorter than the value.)
fn sibling<'a>(text: &'a str, at: usize, names: &[&str], value: &str, boundary: u8) -> Option<&'a str> {
    let from = at.saturating_sub(PAIR_REACH);
    let from = (from..at).find(|&i| text.is_char_boundary(i)).unwrap_or(at);
    let window = &text[from..at];
    // Not past a redaction marker: read again, a window shortened by one would reach a
    // name it did not reach before.
    let window = crate::search::rfind(window, MARKER_PREFIX).map_or(window, |m| &window[m + 1..]);
    let window = window.rfind(boundary as char).map_or(window, |b| &window[b..]);
    let window = window.to_ascii_lowercase().rfind(value).map_or(window, |v| &window[v + value.len()..]);
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
    let previous = previous.trim_start().trim_start_matches("- ");
    let (label, name) = previous.split_once(':')?;
    SIBLING_LABELS.iter().any(|l| label.trim_end().eq_ignore_ascii_case(l)).then(|| name.trim().trim_matches(|c| c == '"' || c == '\''))
}

/// Labels of the line before a `value:` line that name what the value is: Kubernetes'
/// `name:`, and the property, key, parameter, variable and setting listings of
/// configuration tools and consoles (`Property: app.passwd` then `Value: "…"`).
const SIBLING_LABELS: &[&str] = &["name", "property", "key", "parameter", "variable", "setting", "secret", "field"];

/// Values of command-line flags that name secrets, written with a space:
/// `--api-key <value>`, `--password <value>` (the `=` form is a [`secret_field_values`] case).
pub(crate) fn flag_values(text: &str, names: &KeyNames, _: &Hints) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for at in positions(text, "--") {
        if at > 0 && bytes[at - 1] == b'-' || !boundary_before(bytes, at) {
            continue;
        }
        let key_end = run_end(bytes, at + 2, |b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if key_end == at + 2 || !matches!(bytes.get(key_end), Some(b' ' | b'\t')) || !names.is_secret(&text[at + 2..key_end]) {
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

    #[test]
    fn an_element_ends_at_its_own_closing_tag() {
        for (rest, closed) in [
            ("</password>", true),
            ("</PASSWORD >", true),
            ("</pass", true),
            ("</", true),
            ("</passwords>", false),
            ("</other>", false),
            ("<b>", false),
            ("", false),
        ] {
            assert_eq!(closes(rest.as_bytes(), b"password"), closed, "{rest}");
        }
    }

    #[test]
    fn a_mapping_line_starts_with_its_key() {
        for (line, mapping) in [
            ("file: x", true),
            ("file:", true),
            ("- name: API_TOKEN", true),
            ("\"my key\": x", true),
            ("'k': v", true),
            ("echo a: b", false),
            ("key:value", false),
            ("https://a.b/c", false),
            (": x", false),
            ("", false),
        ] {
            assert_eq!(is_mapping_line(line.as_bytes()), mapping, "{line}");
        }
    }
}
