//! Credentials in URLs: user info and secret query parameters.

use std::ops::Range;

use super::*;

fn url_stop(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'/' | b'?' | b'#' | b'@' | b'"' | b'\'' | b'<' | b'>')
}

/// Longest user info considered, in bytes.
pub(crate) const MAX_USERINFO: usize = 256;

/// `user:password` in `scheme://user:password@host` (also JSON-escaped, `https:\/\/`).
/// Passwords are not always percent-encoded: one may hold `@`, `/`, `#`, `?` (or a blank,
/// in a quoted URL), so the user info runs to the last `@` that is followed by a host,
/// within the URL; a `:` followed by digits and `/` is a port, not a password.
pub(crate) fn url_credentials(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans: Vec<Range<usize>> = Vec::new();
    let plain = positions(text, "://").map(|sep| (sep, sep + 3));
    let escaped = positions(text, r":\/\/").map(|sep| (sep, sep + 5));
    let mut seps: Vec<(usize, usize)> = plain.chain(escaped).collect();
    crate::order::sort_by_key(&mut seps, |&s| s);
    for (sep, after) in seps {
        let mut scheme = sep;
        while scheme > 0
            && sep - scheme <= 32
            && (bytes[scheme - 1].is_ascii_alphanumeric() || matches!(bytes[scheme - 1], b'+' | b'.' | b'-'))
        {
            scheme -= 1;
        }
        if sep - scheme < 2 || !bytes[scheme].is_ascii_alphabetic() || spans.last().is_some_and(|s| after < s.end) {
            continue;
        }
        let quoted = scheme > 0 && matches!(bytes[scheme - 1], b'"' | b'\'');
        let limit = crate::search::floor_boundary(text, after + MAX_USERINFO);
        spans.extend(user_info(text, after, limit, quoted));
    }
    spans
}

/// The user info of the URL whose `://` ends at `after`, read up to `limit`.
fn user_info(text: &str, after: usize, limit: usize, quoted: bool) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let url_end =
        run_end(&bytes[..limit], after, |b| !(b.is_ascii_control() || matches!(b, b'"' | b'\'' | b'<' | b'>') || (b == b' ' && !quoted)));
    // The user info ends at the last `@` a host follows: a password may hold `@`, and an `@`
    // further on that no host follows (in the path, or before text that is no host) must
    // not hide the one that ends the user info.
    let at = (after..url_end).rev().filter(|&k| bytes[k] == b'@').find(|&at| host_follows(bytes, at + 1));
    // A user info cut off at the end of the text still counts: it may be a window edge. As
    // with an `@`, it is sought within `MAX_USERINFO` bytes, so a cut text's last few
    // hundred bytes tell whether it ends in one (`clean::settled`).
    let end = at.unwrap_or_else(|| run_end(&bytes[..limit], after, |b| !url_stop(b)));
    // A user info never runs over a redaction marker: were it to, what the redactor took
    // from a later URL would change which `@` ends this one when read again. (Sought only
    // in a user info found: most URLs have none.)
    if let Some(marker) = (at.is_some() || end == bytes.len()).then(|| crate::search::find(&text[after..end], MARKER_PREFIX)).flatten() {
        return user_info(text, after, after + marker, quoted);
    }
    let Some(at) = at else {
        // `http://0.0.0.0:8000` at the end of a text is a host and its port.
        let host_port = text[after..end].rsplit_once(':').is_some_and(|(_, port)| {
            let port = port.trim_end_matches(['.', ',', ')', ';']);
            !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit() || b == b'/')
        });
        return (end == bytes.len() && !host_port && has_password(&text[after..end])).then_some(after..end);
    };
    let userinfo = &text[after..at];
    // `host:8080/path/@user`: the authority ended at the port's `/`.
    let port = userinfo.split_once(':').is_some_and(|(_, rest)| {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0 && rest.as_bytes().get(digits) == Some(&b'/')
    });
    let plain = !userinfo.contains(['/', '\\']) || userinfo.contains('@');
    (!port && (plain || userinfo.contains(':')) && (has_password(userinfo) || userinfo.contains('@') || is_key_as_user(userinfo)))
        .then_some(after..at)
}

/// Credentials in data source names without a scheme: Go's MySQL driver
/// (`user:password@tcp(host:3306)/db`, also `@unix(`) and Oracle connect strings after
/// its tools (`sqlplus user/password@//host/service`).
pub(crate) fn schemeless_dsn(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let user_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'$');
    for protocol in ["@tcp(", "@unix(", "@udp("] {
        for at in positions(text, protocol) {
            // Back over the password (any byte but blanks, quotes and `@`) to the `:` after the user.
            let mut start = at;
            while start > 0
                && at - start <= MAX_USERINFO
                && !bytes[start - 1].is_ascii_whitespace()
                && !matches!(bytes[start - 1], b'"' | b'\'' | b'@' | b'=')
            {
                start -= 1;
            }
            // The reach may stop inside a character: the user info starts after it.
            let start = crate::search::ceil_boundary(text, start);
            let info = &text[start..at];
            // A marker in the user info is the core's own output: the password before the
            // `@` was redacted, and a reach that now passes over the shorter marker must
            // not take the text before it too.
            if info.contains(MARKER_PREFIX) {
                continue;
            }
            if let Some((user, password)) = info.split_once(':') {
                if !user.is_empty() && user.bytes().all(user_byte) && !password.is_empty() && !is_placeholder(password) {
                    spans.push(start..at);
                }
            }
        }
    }
    // Oracle's tools and its JDBC URLs take `user/password@connect`.
    for tool in ["sqlplus ", "rman ", "expdp ", "impdp ", "sqlldr ", "jdbc:oracle:thin:", "jdbc:oracle:oci:"] {
        for at in positions(text, tool) {
            let start = skip_blanks(bytes, at + tool.len());
            let end = run_end(bytes, start, |b| !b.is_ascii_whitespace() && b != b'@');
            let info = &text[start..end];
            if bytes.get(end) == Some(&b'@')
                && !info.contains(MARKER_PREFIX)
                && info.split_once('/').is_some_and(|(u, p)| !u.is_empty() && u.bytes().all(user_byte) && !p.is_empty())
            {
                spans.push(start..end);
            }
        }
    }
    crate::order::sort_by_key(&mut spans, |s| s.start);
    spans
}

/// Credentials before a host and its port with no scheme, as proxies are often given
/// (`HTTP_PROXY=ann:s3cret-pw@proxy.internal:3128`, `--proxy ann:Q7v!x2pz@10.0.0.5:8080`):
/// a word of a user's name starting with a letter, `:`, a password of any bytes but
/// blanks, quotes, brackets and `/ : @` (at least [`MIN_PROXY_PASSWORD`] of them, and not
/// letters alone), then `@`, a host name and a port of one to five digits. The user
/// info must start a word (after a blank, a quote, `=`, `(`, `<`, `,` or the line's
/// start): after a `/` it is a URL's, which [`url_credentials`] reads. Every `@` is tried
/// once, reading back at most [`MAX_USERINFO`] bytes and on over one host name: linear.
pub(crate) fn proxy_credentials(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let user_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.');
    let password_byte =
        |b: u8| !b.is_ascii_whitespace() && !matches!(b, b'@' | b'/' | b':' | b'"' | b'\'' | b'`' | b'\\' | b'[' | b']' | b'<' | b'>');
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(at) = crate::search::find_byte(bytes, from, b'@') {
        from = at + 1;
        let host_end = run_end(bytes, at + 1, |b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'));
        // `image:tag@sha256:…` pins an image by its digest.
        let digest = DIGEST_NAMES.iter().any(|d| text[at + 1..host_end].eq_ignore_ascii_case(d));
        if host_end == at + 1 || bytes.get(host_end) != Some(&b':') || digest {
            continue;
        }
        let port_end = run_end(bytes, host_end + 1, |b| b.is_ascii_digit());
        // The port ends the address, or a sentence (`…:8080.`).
        let after_port = match bytes.get(port_end) {
            Some(b'.' | b'-') => port_end + 1,
            _ => port_end,
        };
        if !(1..=5).contains(&(port_end - host_end - 1)) || bytes.get(after_port).is_some_and(|&b| user_byte(b)) {
            continue;
        }
        let floor = at.saturating_sub(MAX_USERINFO);
        let mut colon = at;
        while colon > floor && password_byte(bytes[colon - 1]) {
            colon -= 1;
        }
        if colon == at || colon == 0 || bytes[colon - 1] != b':' {
            continue;
        }
        let colon = colon - 1;
        let mut start = colon;
        while start > floor && user_byte(bytes[start - 1]) {
            start -= 1;
        }
        let starts_a_word = start == 0
            || bytes[start - 1].is_ascii_whitespace()
            || matches!(bytes[start - 1], b'"' | b'\'' | b'=' | b'(' | b'<' | b',' | b'`');
        let user = &text[start..colon];
        if !starts_a_word
            || !user.starts_with(|c: char| c.is_ascii_alphabetic())
            || URI_SCHEMES_BEFORE_AN_ADDRESS.iter().any(|s| user.eq_ignore_ascii_case(s))
        {
            continue;
        }
        // A word for a password is a name (`to:ann@…`, `queue:jobs@redis:6379`, `app:db@…`).
        let password = &text[colon + 1..at];
        if password.len() >= MIN_PROXY_PASSWORD && !password.bytes().all(|b| b.is_ascii_alphabetic()) && !is_placeholder(password) {
            spans.push(start..at);
        }
    }
    spans
}

/// The shortest password taken in a proxy's user info: `image:v1@digest:1234` is no
/// credential.
const MIN_PROXY_PASSWORD: usize = 6;

/// Digest algorithms that name a digest after an `@` (`node:20@sha256:…`).
const DIGEST_NAMES: &[&str] = &["md5", "sha1", "sha224", "sha256", "sha384", "sha512", "blake2b", "blake3"];

/// Schemes written `scheme:user@host` (a mail or chat address, not user info): `mailto:ann@mail.example.com:25`
/// names no password.
const URI_SCHEMES_BEFORE_AN_ADDRESS: &[&str] = &["mailto", "sip", "sips", "xmpp", "acct", "im", "pres"];

/// `user:password` or `:password` (as Redis URLs write it), with a password that is no
/// placeholder.
fn has_password(userinfo: &str) -> bool {
    // A marker's colon is no separator: text the core already redacted is its own output.
    !userinfo.contains(MARKER_PREFIX) && userinfo.find(':').is_some_and(|c| c + 1 < userinfo.len() && !is_placeholder(&userinfo[c + 1..]))
}

/// Whether a user name alone is a key: a DSN that authenticates by its user part (Sentry's
/// `https://<public key>@o1.ingest.sentry.io/2`, a token given as the user name of a Git
/// remote): 20 or more letters, digits, `_` and `-`, with both letters and digits. People's
/// and services' user names are shorter, or words.
fn is_key_as_user(userinfo: &str) -> bool {
    let b = userinfo.as_bytes();
    b.len() >= 20
        && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
        && b.iter().any(u8::is_ascii_digit)
        && b.iter().any(u8::is_ascii_alphabetic)
        && !userinfo.contains(MARKER_PREFIX)
}

/// Whether a host name starts at `i` and ends where an authority ends.
fn host_follows(bytes: &[u8], i: usize) -> bool {
    let end = run_end(bytes, i, |b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'[' | b']'));
    end > i
        && (end == bytes.len()
            || matches!(bytes[end], b'/' | b':' | b'?' | b'#' | b'"' | b'\'' | b'\\' | b' ' | b'\n' | b')' | b'>' | b','))
}

/// Query parameters that carry secrets, by lowercase name.
pub(crate) const SECRET_QUERY_PARAMS: &[&str] = &[
    "access_token",
    "api-key",
    "api_key",
    "apikey",
    "auth",
    "client_secret",
    "code",
    "hapikey",
    "id_token",
    "jsessionid",
    "key",
    "passwd",
    "password",
    "phpsessid",
    "pwd",
    "refresh_token",
    "secret",
    "session",
    "sessionid",
    "sid",
    "sig",
    "signature",
    "token",
    "x-amz-credential",
    "x-amz-security-token",
    "x-amz-signature",
    "x-goog-credential",
    "x-goog-signature",
];

byte_class!(
    /// Where a query parameter may start: after `?`, `&`, `;` or a percent-encoded `?` or
    /// `&`.
    QueryStart = |b| b.is(b'?') | b.is(b'&') | b.is(b';') | b.is(b'%')
);

/// Where a braced value that starts at `from` closes: the first `}` not doubled, on the
/// same line and within [`MAX_BRACED_VALUE`] bytes.
fn braced_value_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while i < bytes.len().min(from + MAX_BRACED_VALUE) {
        match bytes[i] {
            b'}' if bytes.get(i + 1) == Some(&b'}') => i += 2,
            b'}' => return Some(i),
            b'\n' | b'\r' => return None,
            _ => i += 1,
        }
    }
    None
}

/// The longest braced value [`braced_value_end`] reads, in bytes.
const MAX_BRACED_VALUE: usize = 256;

/// The values of secret query parameters ([`SECRET_QUERY_PARAMS`] and a policy's secret
/// names, unless the policy names the parameter plain; `pass` when its value looks
/// generated), after `?`, `&` or a `;` path parameter (`;jsessionid=`), also in a URL
/// nested percent-encoded in another (`%3Ftoken%3D…`). Names are compared percent-decoded
/// (`access%5Ftoken`, `%61pi_key`).
pub(crate) fn secret_query_values(text: &str, names: &KeyNames, _: &Hints) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans: Vec<Range<usize>> = Vec::new();
    let mut next = 0;
    loop {
        let i = next_in_class(bytes, next, QueryStart);
        if i == bytes.len() {
            break;
        }
        next = i + 1;
        let encoded = bytes[i] == b'%';
        if encoded && !(encoded_byte(bytes, i) == Some(b'?') || encoded_byte(bytes, i) == Some(b'&')) {
            continue;
        }
        let name_start = if encoded { i + 3 } else { i + 1 };
        if spans.last().is_some_and(|s| i < s.end) {
            continue;
        }
        // The name, decoded, up to `=` (or `%3D` in a nested URL).
        let mut name = [0u8; MAX_KEY_NAME];
        let (mut len, mut k) = (0, name_start);
        let value = loop {
            match bytes.get(k) {
                Some(b'=') => break Some(k + 1),
                Some(b'%') if encoded && encoded_byte(bytes, k) == Some(b'=') => break Some(k + 3),
                Some(b'%') if encoded_byte(bytes, k).is_some_and(|b| b != b'&' && b != b'?') => {
                    name[len] = encoded_byte(bytes, k).unwrap_or(0);
                    k += 3;
                }
                Some(&b) if !(matches!(b, b'&' | b'#' | b'?' | b';' | b'%') || b.is_ascii_whitespace()) => {
                    name[len] = b;
                    k += 1;
                }
                _ => break None,
            }
            len += 1;
            if len == MAX_KEY_NAME {
                break None;
            }
        };
        let Some(value) = value.filter(|_| len > 0) else {
            continue;
        };
        let name = &mut name[..len];
        // A policy's names are compared as the text spells them; the tables in lowercase.
        let policy_name = |judge: fn(&KeyNames, &str) -> bool, name: &[u8]| std::str::from_utf8(name).is_ok_and(|n| judge(names, n));
        let policy_secret = names.adds_secret_names() && policy_name(KeyNames::is_policy_secret, name);
        name.make_ascii_lowercase();
        // By the name's shape (length, first and last byte), then by length, then byte by
        // byte.
        let listed = |table: &[&str]| table.iter().any(|p| p.len() == name.len() && p.bytes().zip(name.iter()).all(|(a, &b)| a == b));
        let may_be_listed = may_be_listed(name);
        let strong = policy_secret || (may_be_listed && listed(SECRET_QUERY_PARAMS));
        let weak = !strong && may_be_listed && listed(WEAK_QUERY_PARAMS);
        if (!strong && !weak) || (names.adds_plain_names() && policy_name(KeyNames::is_plain, name)) {
            continue;
        }
        // An ODBC connection string's braced value (`PWD={p;a}}ss}`) holds any `;`, and a
        // `}}` stands for a `}`: the value is all that the braces hold.
        if bytes.get(value) == Some(&b'{') {
            if let Some(close) = braced_value_end(bytes, value + 1) {
                if close > value + 1 && (strong || fields::looks_random(&text[value + 1..close])) {
                    spans.push(value + 1..close);
                }
                continue;
            }
        }
        let mut end = value;
        while end < bytes.len()
            && !bytes[end].is_ascii_whitespace()
            && !matches!(bytes[end], b'&' | b'#' | b'"' | b'\'' | b'<' | b'>' | b';')
        {
            if encoded && bytes[end] == b'%' && encoded_byte(bytes, end) == Some(b'&') {
                break;
            }
            end += 1;
        }
        crate::search::work::tally(end - value + 1);
        let end = value + without_closing_punctuation(&bytes[value..end]);
        if end > value && (strong || fields::looks_random(&text[value..end])) {
            spans.push(value..end);
        }
    }
    spans
}

/// How much of a query value is the value: a URL written in prose or markup ends before
/// the punctuation after it (`(see https://h/?token=abc).`, `[docs](https://h/?token=abc)`),
/// so trailing `.,:!?` and closing brackets beyond the ones the value opened are the
/// text's, not the value's. A generated secret does not end in them.
fn without_closing_punctuation(value: &[u8]) -> usize {
    // Brackets the value leaves unclosed or closes beyond its openers, counted in one pass;
    // trimming a closer only lowers its count, so the loop does no rescan.
    let count = |b: u8| value.iter().filter(|&&c| c == b).count();
    let mut unmatched = [
        (b')', count(b')').saturating_sub(count(b'('))),
        (b']', count(b']').saturating_sub(count(b'['))),
        (b'}', count(b'}').saturating_sub(count(b'{'))),
    ];
    let mut end = value.len();
    while let Some(&last) = value[..end].last() {
        match unmatched.iter_mut().find(|(closer, _)| *closer == last) {
            Some((_, extra)) if *extra > 0 => *extra -= 1,
            Some(_) => break,
            None if matches!(last, b'.' | b',' | b':' | b'!' | b'?') => {}
            None => break,
        }
        end -= 1;
    }
    end
}

/// Query parameters that hold a secret only when the value looks generated.
const WEAK_QUERY_PARAMS: &[&str] = &["pass", "pw"];

/// The length, first and last byte of every listed name ([`SECRET_QUERY_PARAMS`],
/// [`WEAK_QUERY_PARAMS`]): a bit of the entry for its length, picked by its first and
/// last byte ([`shape_bit`]). Most names a text holds (`page`, `id`, `q`) find no bit
/// set, and are passed over without a comparison with the tables.
const LISTED_SHAPES: [u64; 32] = {
    let mut shapes = [0u64; 32];
    let tables = [SECRET_QUERY_PARAMS, WEAK_QUERY_PARAMS];
    let mut t = 0;
    while t < tables.len() {
        let mut k = 0;
        while k < tables[t].len() {
            let name = tables[t][k].as_bytes();
            assert!(!name.is_empty() && name.len() < 32, "a listed query name has 1 to 31 bytes");
            shapes[name.len()] |= shape_bit(name[0], name[name.len() - 1]);
            k += 1;
        }
        t += 1;
    }
    shapes
};

/// The bit of a name's shape: its first and last byte, mixed into 64 places.
const fn shape_bit(first: u8, last: u8) -> u64 {
    1 << ((first.wrapping_mul(31) ^ last) & 63)
}

/// Whether `name` (lowercase) may be a listed name, by its length, first and last byte:
/// `false` only for a name no table holds.
fn may_be_listed(name: &[u8]) -> bool {
    match (name.first(), name.last()) {
        (Some(&first), Some(&last)) if name.len() < LISTED_SHAPES.len() => LISTED_SHAPES[name.len()] & shape_bit(first, last) != 0,
        _ => false,
    }
}

/// Stems of which every secret query parameter name holds one: `%`, since a name is
/// compared percent-decoded (`%74oken` is `token`), and the stems of the names
/// ([`SECRET_QUERY_PARAMS`], [`WEAK_QUERY_PARAMS`]). A text without any has no secret
/// query value.
pub(crate) const QUERY_NAME_STEMS: &[&str] =
    &["%", "token", "key", "secret", "pass", "pw", "sig", "credential", "auth", "code", "sid", "sess"];

/// The byte a `%XX` escape at `i` stands for.
fn encoded_byte(bytes: &[u8], i: usize) -> Option<u8> {
    let hex = |b: u8| (b as char).to_digit(16);
    match (bytes.get(i), bytes.get(i + 1), bytes.get(i + 2)) {
        (Some(b'%'), Some(&h), Some(&l)) => Some((hex(h)? * 16 + hex(l)?) as u8),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_secret_query_name_holds_a_stem() {
        // The tables are compared with a name in lowercase.
        for table in [SECRET_QUERY_PARAMS, WEAK_QUERY_PARAMS] {
            assert!(table.iter().all(|n| *n == n.to_ascii_lowercase()), "{table:?}");
        }
        for name in SECRET_QUERY_PARAMS.iter().chain(WEAK_QUERY_PARAMS) {
            assert!(QUERY_NAME_STEMS.iter().any(|s| name.contains(s)), "{name} holds none of QUERY_NAME_STEMS");
        }
        // Percent-encoded names are decoded, so `%` alone lets the rule run.
        assert!(QUERY_NAME_STEMS.contains(&"%"));
    }

    #[test]
    fn the_shape_filter_passes_every_listed_name_and_few_others() {
        for name in SECRET_QUERY_PARAMS.iter().chain(WEAK_QUERY_PARAMS) {
            assert!(may_be_listed(name.as_bytes()), "{name}");
        }
        for name in ["page", "id", "q", "", "limit", &"t".repeat(40)] {
            assert!(!may_be_listed(name.as_bytes()), "{name}");
        }
        let spans = |text: &str| secret_query_values(text, &KeyNames::default(), &Hints::of(text));
        assert_eq!(spans("GET /v1/items?page=2&token=abc123&pw=Zx81kQ0pLm3").len(), 2);
        assert!(spans("GET /v1/items?page=2&limit=50").is_empty());
    }

    #[test]
    fn a_user_info_stops_at_a_redaction_marker() {
        // Read again after a later URL's user info was redacted, this one must not take
        // the `@` after the marker (fuzz finding, F4).
        let text = "git://bob:x92@tlab+deploy:pw[REDACTED:url_credentials]@dken.example/";
        let spans = url_credentials(text);
        assert!(spans.iter().all(|s| !text[s.clone()].contains("[REDACTED:")), "{spans:?}");
        let plain = "https://user:hunter2@db.example/ and https://a:b@c.example/";
        assert_eq!(url_credentials(plain).len(), 2);
    }
}
