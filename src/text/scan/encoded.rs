//! Text carried encoded: in base64 (a Kubernetes Secret's `.dockerconfigjson`, a
//! kubeconfig's `client-key-data`, an encoded JSON config or PEM file) or percent-encoded
//! in a URL (`?state=%7B%22token%22%3A%22…%22%7D`). The engine reads what such a run
//! decodes to as text of its own ([`crate::text::redact`]), and masks the whole run when
//! that text holds a secret: a secret inside is no safer for being encoded.

use std::ops::Range;

use super::*;

/// How base64 blobs worth decoding start: the encodings of `-----BEGIN` (a PEM file) and
/// of a JSON object's opening (`{"`, `{ "`, `{` then a line break).
const BLOB_OPENINGS: &[&str] = &["LS0tLS1CRUdJTi", "eyJ", "eyAi", "ewog", "ewoJ", "ew0K"];

crate::search::byte_class!(
    /// Where a blob's opening may start: `e` before `y` or `w`, `L` before `S`.
    BlobOpening = |b, next| (b.is(b'e') & (next.is(b'y') | next.is(b'w'))) | (b.is(b'L') & next.is(b'S'))
);

/// The shortest blob decoded, in base64 characters.
const MIN_BLOB: usize = 16;

/// The longest blob decoded, in base64 characters (a larger one is not read).
pub(crate) const MAX_BLOB: usize = 48 * 1024;

/// Whether `b` is in base64's alphabet, standard or URL-safe, or its padding.
fn base64_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'-' | b'_' | b'=')
}

/// The base64 blobs of `text` that decode to text (valid UTF-8 with no control character
/// but tab and line breaks), each with what it decodes to. A blob may be wrapped in lines
/// of 60 or more characters, a multiple of 4 (`base64`'s 76, PEM's 64).
pub(crate) fn base64_blobs(text: &str) -> Vec<(Range<usize>, String)> {
    let bytes = text.as_bytes();
    let mut blobs = Vec::new();
    let mut resume = 0;
    let mut at = 0;
    // The openings start `ey`, `ew` or `LS`: one pass finds those pairs.
    loop {
        let start = crate::search::next_in_pair_class(bytes, at, BlobOpening);
        if start >= bytes.len() {
            break;
        }
        at = start + 1;
        if !BLOB_OPENINGS.iter().any(|o| bytes[start..].starts_with(o.as_bytes())) {
            continue;
        }
        if start < resume || (start > 0 && base64_byte(bytes[start - 1])) {
            continue;
        }
        let end = blob_end(bytes, start);
        resume = end;
        if end - start < MIN_BLOB || end - start > MAX_BLOB {
            continue;
        }
        if let Some(decoded) = decode_base64(&bytes[start..end]) {
            blobs.push((start..end, decoded));
        }
    }
    blobs
}

/// The widest line a wrapped blob is read across: wrappers break at 64 (PEM) or 76
/// (MIME) characters, `base64` at 76; a longer line is a blob of one line.
const MAX_WRAP: usize = 128;

/// Where the blob that starts at `start` ends: its last base64 character, across line
/// breaks that wrap it (every wrapped line as wide as the first, of 60 to [`MAX_WRAP`]
/// characters and a multiple of 4), so a line that merely starts with a letter after a
/// one-line blob is not read into it.
fn blob_end(bytes: &[u8], start: usize) -> usize {
    let mut end = start;
    let mut line = start;
    let mut wrap_width = None;
    loop {
        let line_end = run_end(bytes, end, base64_byte);
        // A line read on from a wrapped one is the blob's only if it is a whole line of
        // whole quads: `Set-Cookie: …`, `---` or `EOF` after a blob are text.
        if line > start && (!matches!(bytes.get(line_end), None | Some(b'\n' | b'\r')) || (line_end - line) % 4 != 0) {
            return line - if bytes[..line].ends_with(b"\r\n") { 2 } else { 1 };
        }
        end = line_end;
        let width = end - line;
        let wrap = match bytes.get(end..) {
            Some([b'\n', ..]) => 1,
            Some([b'\r', b'\n', ..]) => 2,
            _ => 0,
        };
        let continues = bytes.get(end + wrap).is_some_and(|&b| base64_byte(b));
        let wrapped = (60..=MAX_WRAP).contains(&width) && width % 4 == 0 && *wrap_width.get_or_insert(width) == width;
        // Padding ends a blob.
        let padded = bytes[..end].ends_with(b"=");
        if wrap == 0 || !wrapped || padded || !continues || end - start > MAX_BLOB {
            return end;
        }
        end += wrap;
        line = end;
    }
}

/// What `blob` (base64, standard or URL-safe, padded or not, wrapped or not) decodes to,
/// when that is text: valid UTF-8 with no control character but tab and line breaks.
pub(super) fn decode_base64(blob: &[u8]) -> Option<String> {
    let mut out = Vec::with_capacity(blob.len() / 4 * 3 + 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &b in blob {
        let digit = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' | b'\n' | b'\r' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(digit);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    let text = String::from_utf8(out).ok()?;
    (!text.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))).then_some(text)
}

/// Percent-encoded runs of `text` that hold a quote or a brace (`%22`, `%7B`: encoded
/// JSON, or a quoted value), each with what it decodes to (`+` as a space). A run is what
/// a URL's query value can hold: it ends at `&`, `=`, `#`, a blank or a quote.
pub(crate) fn percent_encoded_runs(text: &str) -> Vec<(Range<usize>, String)> {
    let bytes = text.as_bytes();
    let url_byte = |b: u8| {
        b.is_ascii_alphanumeric()
            || matches!(b, b'%' | b'.' | b'_' | b'~' | b'+' | b'-' | b'*' | b'!' | b'(' | b')' | b',' | b';' | b':' | b'/' | b'@')
    };
    let mut runs = Vec::new();
    let mut starts: Vec<usize> = ["%22", "%7B", "%7b"].iter().flat_map(|anchor| positions(text, anchor)).collect();
    crate::order::sort_by_key(&mut starts, |&at| at);
    let mut resume = 0;
    for anchor in starts {
        if anchor < resume {
            continue;
        }
        // Back to the run's start, within reach.
        let reach = anchor.saturating_sub(MAX_BLOB);
        let start = (reach..anchor).rev().find(|&k| !url_byte(bytes[k])).map_or(reach, |k| k + 1);
        let end = run_end(bytes, anchor, url_byte);
        resume = end;
        if end - start > MAX_BLOB {
            continue;
        }
        if let Some(decoded) = percent_decode(&bytes[start..end]) {
            runs.push((start..end, decoded));
        }
    }
    runs
}

/// What a percent-encoded run decodes to, when that is text.
fn percent_decode(run: &[u8]) -> Option<String> {
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(run.len());
    let mut i = 0;
    while i < run.len() {
        match run[i] {
            b'%' => match (run.get(i + 1).copied().and_then(hex), run.get(i + 2).copied().and_then(hex)) {
                (Some(h), Some(l)) => {
                    out.push(h << 4 | l);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    let text = String::from_utf8(out).ok()?;
    (!text.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blobs_that_decode_to_text_are_found() {
        // `{"auths":{"r":{"auth":"dXNlcjpwYXNzd29yZA=="}}}` and a PEM line, wrapped at 64.
        let json = "eyJhdXRocyI6eyJyIjp7ImF1dGgiOiJkWE5sY2pwd1lYTnpkMjl5WkE9PSJ9fX0=";
        let found = base64_blobs(&format!("data:\n  .dockerconfigjson: {json}\n"));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, r#"{"auths":{"r":{"auth":"dXNlcjpwYXNzd29yZA=="}}}"#);
        let pem = "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2UUlCQURBTkJna3Foa2lH\nOXcwQkFRRUZBQVNDQktjd2dnU2pBZ0VBQW9JQkFRQzcKLS0tLS1FTkQgUFJJVkFU\nRSBLRVktLS0tLQo=";
        let found = base64_blobs(&format!("client-key-data: {pem}\nnext: x"));
        assert_eq!(found.len(), 1);
        assert!(found[0].1.starts_with("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG"), "{}", found[0].1);
        assert!(found[0].1.ends_with("-----END PRIVATE KEY-----\n"));
    }

    #[test]
    fn a_blob_ends_where_the_text_after_it_starts() {
        // A one-line blob wider than any wrapper's lines, then a line that starts with a
        // letter: the line is not read into the blob (which would then not decode).
        let one_line = "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2UUlCQURBTkJna3Foa2lHOXcwQkFRRUZBQVNDQktjd2dnU2pBZ0VBQW9JQkFRQzcKLS0tLS1FTkQgUFJJVkFURSBLRVktLS0tLQo=";
        let found = base64_blobs(&format!("client-key-data: {one_line}\nSet-Cookie: a=b"));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].1.starts_with("-----BEGIN PRIVATE KEY-----\n"));
        // Wrapped at 64, its last line full, then text.
        let wrapped = "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2UUlCQURBTkJna3Foa2lH\nOXcwQkFRRUZBQVNDQktjd2dnU2pBZ0VBQW9JQkFRQzcKLS0tLS1FTkQgUFJJVkFU";
        let found = base64_blobs(&format!("{wrapped}\nSome: text"));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].1.starts_with("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG"));
    }

    #[test]
    fn percent_encoded_json_is_decoded() {
        let text = "GET /cb?state=%7B%22access_token%22%3A%22ya29.a0AfH6SMBx%22%7D&x=1 HTTP/1.1";
        let found = percent_encoded_runs(text);
        assert_eq!(found.len(), 1);
        assert_eq!(&text[found[0].0.clone()], "%7B%22access_token%22%3A%22ya29.a0AfH6SMBx%22%7D");
        assert_eq!(found[0].1, r#"{"access_token":"ya29.a0AfH6SMBx"}"#);
        assert!(percent_encoded_runs("a=%ZZ%22").iter().all(|(_, t)| t == "%ZZ\""));
    }

    #[test]
    fn binary_short_and_embedded_runs_are_not_blobs() {
        for text in [
            "eyJhbGciOiJIUzI1NiJ9",
            "xeyJhdXRocyI6eyJyIjp7ImF1dGgiOiJkWE5sY2pwd1lYTnpkMjl5WkE9PSJ9fX0=",
            "ewog",
            "ewoJ////////////////AAAA",
        ] {
            let found = base64_blobs(text);
            assert!(found.iter().all(|(_, t)| !t.is_empty() && t.len() >= 12), "{text}: {found:?}");
        }
        assert!(base64_blobs("ewoJ////////////////AAAA").is_empty());
        assert!(base64_blobs("xeyJhdXRocyI6eyJyIjp7ImF1dGgiOiJ9").is_empty());
    }
}
