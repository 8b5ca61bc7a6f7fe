//! Secrets known by their own shape: private-key blocks, webhook URLs, provider tokens
//! with documented prefixes, JWTs and tokens with a telling form.

use std::ops::Range;

use super::*;
use crate::text::redact::Family;
use crate::text::tokens::{
    in_token_run, starting_with, starts_some_prefix, CustomTokens, Shape, Token, TokenAlphabet, FIRST_BYTES, MAX_NESTED_PREFIXES,
};

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
            // A block that overlaps one of the other armour is kept too: the union below
            // covers both (dropping it left its header for a second pass to find once
            // the other block was a marker).
            spans.push(start..end);
            from = end.max(label_start);
        }
    }
    // A key's base64 body without its armour lines (cut off, or in another block): known
    // by how the DER encoding of a private key starts.
    for (anchor, back) in DER_PRIVATE_KEY_STARTS {
        for at in positions(text, anchor) {
            let start = at.saturating_sub(*back);
            if at < *back
                || !bytes[start..at].iter().all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/')
                || !boundary_before(bytes, start)
            {
                continue;
            }
            spans.push(start..base64_block_end(bytes, at));
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
    // Blocks of different armours may overlap (a PuTTY header inside a PEM block): one
    // redaction covers their union, so nothing of either is left for a second pass.
    crate::order::sort_by_key(&mut spans, |s| s.start);
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(spans.len());
    for span in spans {
        match merged.last_mut() {
            Some(last) if span.start <= last.end => last.end = last.end.max(span.end),
            _ => merged.push(span),
        }
    }
    merged
}

/// How the base64 of a DER-encoded private key starts: the literal, and how many
/// characters before it (a length that varies with the key's size).
const DER_PRIVATE_KEY_STARTS: &[(&str, usize)] = &[
    // PKCS#8 (`MII..` then version 0 and the algorithm's sequence).
    ("IBADANBgkqhkiG9w0BAQ", 6),
    ("MC4CAQAwBQYDK2VwBCIEI", 0),
    // PKCS#1 RSA (version 0, then the modulus).
    ("IBAAKCAQEA", 6),
    ("IBAAKCAgEA", 6),
    // SEC1 EC keys (P-256, P-384).
    ("MHcCAQEEI", 0),
    ("MIGkAgEBBDA", 0),
    // The OpenSSH format (`openssh-key-v1`).
    ("b3BlbnNzaC1rZXktdjEAAAAA", 0),
];

/// The end of a base64 block from `start`: base64 characters and line breaks (also
/// escaped ones, `\n`), up to a blank line or anything else, at most 16 KiB.
fn base64_block_end(bytes: &[u8], start: usize) -> usize {
    let limit = bytes.len().min(start + 16 * 1024);
    let mut i = start;
    let mut last = start;
    while i < limit {
        match bytes[i] {
            b if b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=') => {
                i += 1;
                last = i;
            }
            b'\n' | b'\r' if i + 1 < limit && (bytes[i + 1].is_ascii_alphanumeric() || bytes[i + 1] == b'+' || bytes[i + 1] == b'/') => {
                i += 1
            }
            b'\\'
                if bytes.get(i + 1) == Some(&b'n')
                    && bytes.get(i + 2).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/') =>
            {
                i += 2
            }
            _ => break,
        }
    }
    crate::search::work::tally(i - start + 1);
    last
}

/// Webhook URLs whose path is the credential: what follows the host and path prefix.
const WEBHOOKS: &[(&str, &str)] = &[
    ("hooks.slack.com/services/", "slack_webhook"),
    ("hooks.slack.com\\/services\\/", "slack_webhook"),
    ("discord.com\\/api\\/webhooks\\/", "discord_webhook"),
    ("hooks.slack.com/workflows/", "slack_webhook"),
    ("hooks.slack.com/triggers/", "slack_webhook"),
    ("discord.com/api/webhooks/", "discord_webhook"),
    ("discordapp.com/api/webhooks/", "discord_webhook"),
    (".webhook.office.com/webhookb2/", "teams_webhook"),
    ("outlook.office.com/webhook/", "teams_webhook"),
];

/// The secret part of webhook URLs ([`WEBHOOKS`]), each with its family.
pub(crate) fn webhook_urls(text: &str, hints: &Hints) -> Vec<(Range<usize>, &'static str)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for (prefix, family) in WEBHOOKS {
        for at in found(text, hints, prefix) {
            let start = at + prefix.len();
            // JSON-escaped slashes (`\/`) belong to the path too.
            let mut end = run_end(bytes, start, |b| {
                b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'%' | b'/' | b'@' | b'+' | b'=' | b'\\')
            });
            while end > start && bytes[end - 1] == b'\\' {
                end -= 1;
            }
            if end > start {
                spans.push((start..end, *family));
            }
        }
    }
    crate::order::sort_by_key(&mut spans, |(s, _)| s.start);
    spans
}

/// Where `literal` occurs in `text`, searched for only when `hints` cannot rule it out.
fn found<'a>(text: &'a str, hints: &Hints, literal: &'a str) -> impl Iterator<Item = usize> + 'a {
    hints.may_occur(literal).then(|| positions(text, literal)).into_iter().flatten()
}

/// Tokens known by their shape rather than a prefix and found from a literal in them,
/// each with its family: Mailchimp API keys (`<32 hex>-us<N>`), Microsoft Entra client
/// secrets (`<3 chars><digit>Q~<31+ chars>`), Terraform Cloud tokens
/// (`<14>.atlasv1.<60+>`), Azure storage account keys and old HashiCorp Vault tokens.
pub(crate) fn shaped_tokens(text: &str, hints: &Hints) -> Vec<(Range<usize>, &'static str)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for at in found(text, hints, "-us") {
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
    for at in found(text, hints, "Q~") {
        if at < 4 || !bytes[at - 1].is_ascii_digit() || !bytes[at - 4..at].iter().all(|&b| entra(b)) {
            continue;
        }
        let end = run_end(bytes, at + 2, entra);
        if end - at - 2 >= 31 && (at == 4 || !entra(bytes[at - 5])) {
            spans.push((at - 4..end, "entra_client_secret"));
        }
    }
    // Terraform Cloud / HCP API tokens: `<14 letters and digits>.atlasv1.<60+>`.
    for at in found(text, hints, ".atlasv1.") {
        let start = at.saturating_sub(14);
        let body = at + ".atlasv1.".len();
        let end = run_end(bytes, body, |b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'='));
        if at >= 14 && bytes[start..at].iter().all(u8::is_ascii_alphanumeric) && boundary_before(bytes, start) && end - body >= 60 {
            spans.push((start..end, "terraform_token"));
        }
    }
    // Azure storage account keys: 64 bytes in base64, 86 characters and `==`.
    let base64 = |b: u8| b.is_ascii_alphanumeric() || b == b'+' || b == b'/';
    let mut after_key = 0;
    for pad in found(text, hints, "==") {
        let start = pad.saturating_sub(86);
        if pad < 86 || start < after_key || !bytes[start..pad].iter().all(|&b| base64(b)) {
            continue;
        }
        // `sha512-…==` is an integrity digest of the same length.
        let clear_before = start == 0 || !(base64(bytes[start - 1]) || matches!(bytes[start - 1], b'=' | b'-'));
        let clear_after = bytes.get(pad + 2).is_none_or(|&b| !(base64(b) || b == b'='));
        if clear_before && clear_after {
            spans.push((start..pad + 2, "azure_storage_key"));
            after_key = pad + 2;
        }
    }
    // HashiCorp Vault service tokens in the format before `hvs.`: `s.` and 24 characters.
    // (Found by the pair `s.`, 32 places a step, in a text where it may occur.)
    let vault_starts = hints.may_occur("s.").then(|| positions_ignore_ascii_case(text, "s.")).into_iter().flatten();
    for at in vault_starts.filter(|&at| bytes[at] == b's') {
        let dot = at + 1;
        let end = run_end(bytes, dot + 1, |b| b.is_ascii_alphanumeric());
        let clear_before = at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || matches!(bytes[at - 1], b'.' | b'_' | b'-'));
        let clear_after = bytes.get(end).is_none_or(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-')));
        if end - dot - 1 == 24 && clear_before && clear_after && looks_random(&text[dot + 1..end]) {
            spans.push((at..end, "vault_token"));
        }
    }
    crate::order::sort_by_key(&mut spans, |(s, _)| s.start);
    spans.dedup_by(|b, a| b.0.start < a.0.end);
    spans
}

/// Tokens known by their shape that lie in long runs of base64url bytes and dots, each
/// with its family: Discord bot tokens (`<base64 user id>.<6>.<27+>`) and Airtable
/// personal access tokens. No literal anchors them (a dot is in every line), so they are
/// looked for in the whole text, and only where such a run is long enough.
pub(crate) fn dotted_tokens(text: &str, _: &Hints) -> Vec<(Range<usize>, &'static str)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    // Discord bot tokens lie in a run of base64url bytes and dots at least as long as the
    // shortest of them: only the dots of such runs are looked at.
    runs_by_blocks(bytes, DISCORD_SHORTEST, DiscordByte, |run_start, run_end| {
        // Airtable's personal access tokens lie in such runs too.
        let mut from = run_start;
        while let Some(at) = find_from(&text[..run_end], "pat", from) {
            if let Some(end) = airtable_token_at(bytes, at) {
                spans.push((at..end, "airtable_token"));
            }
            from = at + 1;
        }
        let mut dot = run_start;
        while let Some(at) = bytes[dot..run_end].iter().position(|&b| b == b'.') {
            dot += at;
            if let Some(span) = discord_token_at(bytes, dot) {
                spans.push((span, "discord_bot_token"));
            }
            dot += 1;
        }
    });
    crate::order::sort_by_key(&mut spans, |(s, _)| s.start);
    spans.dedup_by(|b, a| b.0.start < a.0.end);
    spans
}

/// The Airtable personal access token at `at`, where `pat` stands: `pat`, 14 letters and
/// digits or more, a dot, 64 hex digits or more, the whole a word of its own (`pat` is a
/// common word's start: only the exact shape is taken). Looked for in the long runs of
/// [`shaped_tokens`], not among the provider prefixes, whose filter `pat` would pass in
/// nearly every text.
fn airtable_token_at(bytes: &[u8], at: usize) -> Option<usize> {
    if !boundary_before(bytes, at) {
        return None;
    }
    let body = run_end(bytes, at + 3, |b| b.is_ascii_alphanumeric());
    if body - at - 3 < 14 || bytes.get(body) != Some(&b'.') {
        return None;
    }
    let hex = run_end(bytes, body + 1, |b| b.is_ascii_hexdigit());
    (hex - body > 64 && !bytes.get(hex).is_some_and(|&b| base64url(b))).then_some(hex)
}

/// The shortest Discord bot token: a user id of 23 characters, a dot, a stamp of 6, a dot,
/// an HMAC of 27.
const DISCORD_SHORTEST: usize = 23 + 1 + 6 + 1 + 27;

/// The Discord bot token whose first dot is at `dot` (`<base64 user id>.<6>.<27+>`, the id
/// starting with `M`, `N` or `O`, 23 to 28 characters long).
fn discord_token_at(bytes: &[u8], dot: usize) -> Option<Range<usize>> {
    let mut start = dot;
    while start > 0 && dot - start < 30 && base64url(bytes[start - 1]) {
        start -= 1;
    }
    let id = &bytes[start..dot];
    if !(23..=28).contains(&id.len()) || !matches!(id[0], b'M' | b'N' | b'O') || !boundary_before(bytes, start) {
        return None;
    }
    let stamp = run_end(bytes, dot + 1, base64url);
    if stamp - dot - 1 != 6 || bytes.get(stamp) != Some(&b'.') {
        return None;
    }
    let end = run_end(bytes, stamp + 1, base64url);
    // The HMAC part: 27 characters or more after the stamp's dot.
    (end - (stamp + 1) >= 27).then_some(start..end)
}

byte_class!(
    /// The bytes a Discord bot token is made of: base64url and the dot.
    DiscordByte = |b| b.within(b'a', b'z') | b.within(b'A', b'Z') | b.within(b'0', b'9') | b.is(b'_') | b.is(b'-') | b.is(b'.')
);

/// Visit every run of `class` bytes at least `shortest` long (31 or more), left to right,
/// as `(start, end)`. Such a run holds `k = (shortest - 15) / 16` whole blocks of sixteen
/// bytes at multiples of sixteen in a row, so one of them at a multiple of `16 k`
/// ([`next_block_all_in`](crate::search::next_block_all_in)): only the blocks there are tested, and only a block all of
/// the class is read on, back to its run's start and on to its end. A text of short
/// words is read a test every `16 k` bytes.
fn runs_by_blocks<C: ByteClass + Copy>(bytes: &[u8], shortest: usize, class: C, mut visit: impl FnMut(usize, usize)) {
    debug_assert!(shortest >= 31, "a run this long holds a whole block");
    let step = 16 * ((shortest - 15) / 16).max(1);
    let test = |b: u8| C::test(b);
    let mut from = 0;
    while let Some(block) = crate::search::next_block_all_in(bytes, from, step, class) {
        let mut start = block;
        while start > 0 && test(bytes[start - 1]) {
            start -= 1;
        }
        let end = run_end(bytes, block + 16, test);
        crate::search::work::tally((end - start) / 8 + 1);
        if end - start >= shortest {
            visit(start, end);
        }
        from = (end / step + 1) * step;
    }
}

/// Visit every run of `class` bytes at least `shortest` long, left to right, as
/// `(start, end)`: found by probing every `shortest`-th byte, as [`long_token_runs`] does.
fn runs_at_least(bytes: &[u8], shortest: usize, class: impl Fn(u8) -> bool, mut visit: impl FnMut(usize, usize)) {
    let shortest = shortest.max(1);
    let mut i = 0;
    while i + shortest <= bytes.len() {
        let probe = i + shortest - 1;
        if !class(bytes[probe]) {
            crate::search::work::tally(1);
            i = probe + 1;
            continue;
        }
        let mut start = probe;
        while start > i && class(bytes[start - 1]) {
            start -= 1;
        }
        let end = run_end(bytes, probe + 1, &class);
        crate::search::work::tally((end - start) / 8 + 1);
        if end - start >= shortest {
            visit(start, end);
        }
        i = end + 1;
    }
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

/// The secret access key of an AWS key pair written without its name: 40 characters of
/// base64's alphabet, mixed case with a digit, standing on its own within a few lines
/// after an access key id (`AKIA…`, `ASIA…`: 20 capitals and digits), as the pair is
/// printed by `aws configure`, in CSV exports and in prose.
pub(crate) fn aws_secret_keys(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let key_byte = |b: u8| b.is_ascii_alphanumeric() || b == b'/' || b == b'+';
    let mut spans: Vec<Range<usize>> = Vec::new();
    let mut ids: Vec<usize> = positions(text, "AKIA").chain(positions(text, "ASIA")).collect();
    crate::order::sort_by_key(&mut ids, |&at| at);
    // Where the last id's look ahead stopped: an id within it looks on from there (what
    // lies before was read, and held no key), so each byte is read about once.
    let mut read_to = 0;
    for id in ids {
        let id_end = run_end(bytes, id, |b| b.is_ascii_uppercase() || b.is_ascii_digit());
        if id_end - id != 20 || !boundary_before(bytes, id) {
            continue;
        }
        let limit = crate::search::floor_boundary(text, id_end + AWS_PAIR_REACH);
        let mut i = id_end.max(read_to).min(limit);
        read_to = limit;
        // Resumed inside a run: that run was read already.
        if i > 0 && key_byte(bytes[i - 1]) {
            i = run_end(&bytes[..limit], i, key_byte);
        }
        while i < limit {
            let Some(k) = bytes[i..limit].iter().position(|&b| key_byte(b)) else { break };
            let start = i + k;
            let end = run_end(&bytes[..limit], start, key_byte);
            let run = &bytes[start..end];
            let mixed =
                run.iter().any(u8::is_ascii_lowercase) && run.iter().any(u8::is_ascii_uppercase) && run.iter().any(u8::is_ascii_digit);
            let apart = |b: Option<&u8>| b.is_none_or(|&b| !matches!(b, b'=' | b'-' | b'_' | b'.'));
            if run.len() == 40
                && mixed
                && start > id_end
                && apart(bytes.get(start - 1))
                && apart(bytes.get(end))
                && (end < limit || limit == bytes.len())
            {
                spans.push(start..end);
                break;
            }
            i = end;
        }
    }
    spans
}

/// How far after an access key id its secret key is looked for, in bytes.
const AWS_PAIR_REACH: usize = 256;

/// JSON Web Tokens: three base64url segments, the first starting `eyJ` (JWS compact
/// serialization), or five (JWE compact serialization: header, encrypted key, which is
/// empty under direct encryption, IV, ciphertext, tag). A segment may carry base64's `=`
/// padding, as some encoders write it.
pub(crate) fn jwts(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut resume = 0;
    for start in positions(text, "eyJ") {
        // `pk.eyJ…` is a Mapbox public token, meant to be shown.
        if start < resume || !boundary_before(bytes, start) || text[..start].ends_with("pk.") {
            continue;
        }
        let first = jwt_segment_end(bytes, start);
        if first - start < 11 || bytes.get(first) != Some(&b'.') {
            // Every `eyJ` inside this run ends where it does: none can be a token either.
            resume = first;
            continue;
        }
        let second = jwt_segment_end(bytes, first + 1);
        if second - first - 1 < 8 {
            // A JWE under direct encryption has no encrypted key: `header..iv.ciphertext.tag`.
            if let Some(end) = (second == first + 1).then(|| jwe_rest(bytes, second)).flatten() {
                spans.push(start..end);
                resume = end;
            } else {
                resume = second;
            }
            continue;
        }
        // The signature may be cut off (or absent): header and payload are enough.
        let mut end = if bytes.get(second) == Some(&b'.') { jwt_segment_end(bytes, second + 1) } else { second };
        // A JWE's ciphertext and tag follow its IV.
        if end > second + 1 {
            if let Some(jwe_end) = jwe_rest(bytes, second) {
                end = jwe_end;
            }
        }
        spans.push(start..end);
        resume = end;
    }
    spans
}

/// The end of a JWT segment from `start`: base64url, then at most two `=` of padding.
fn jwt_segment_end(bytes: &[u8], start: usize) -> usize {
    let end = run_end(bytes, start, base64url);
    let padded = bytes[end..].iter().take(2).take_while(|&&b| b == b'=').count();
    end + padded
}

/// The end of a JWE's last three segments (IV, ciphertext, tag), none empty, when `dot`
/// is the dot before them; `None` when they are not all there.
fn jwe_rest(bytes: &[u8], dot: usize) -> Option<usize> {
    let mut end = dot;
    for _ in 0..3 {
        if bytes.get(end) != Some(&b'.') {
            return None;
        }
        let segment = jwt_segment_end(bytes, end + 1);
        if segment == end + 1 {
            return None;
        }
        end = segment;
    }
    Some(end)
}

/// Provider tokens from [`TOKENS`](crate::text::tokens::TOKENS) and a policy's formats
/// (`custom`), each with its family, found in one pass over the text. A token lies inside
/// one run of [`in_token_run`] bytes at least [`CustomTokens::shortest`] long, so shorter runs
/// (most words of a text) are skipped a block at a time; inside a long run only bytes that
/// start some prefix are examined, and only the formats whose prefix starts with that byte
/// (for the built-in ones, and the byte after it). A policy's format is tried before the
/// built-in ones at the same place, longest prefix first.
pub(crate) fn provider_tokens<'r>(text: &str, custom: &'r CustomTokens) -> Vec<(Range<usize>, Family<'r>)> {
    let bytes = text.as_bytes();
    let shortest = custom.shortest();
    let mut spans = Vec::new();
    // Where the last body of each alphabet a policy's format scanned ended: every body of
    // that alphabet starting inside it ends there too, so however many formats share a
    // place, each byte is scanned once per alphabet.
    let mut bodies = [(usize::MAX, 0usize); TokenAlphabet::ALL.len()];
    long_token_runs(bytes, shortest, |run_start, run_end| {
        // Two copies of the loop: the built-in formats' alone is the one most texts take.
        if custom.adds_formats() {
            tokens_in_run::<true>(text, run_start, run_end, custom, &mut bodies, &mut spans);
        } else {
            tokens_in_run::<false>(text, run_start, run_end, custom, &mut bodies, &mut spans);
        }
    });
    spans
}

/// Visit every run of token bytes ([`in_token_run`]) at least `shortest` long, left to
/// right, as `(start, end)`. The runs are found by probing every `shortest`-th byte: a
/// run that long starting at or after `i` holds the byte at `i + shortest - 1`, so where
/// that byte is no token byte, none starts before it. Most words are shorter than any
/// token, and most of their bytes are never read. (Invariant: `i` is 0 or follows a byte
/// that is no token byte.)
fn long_token_runs(bytes: &[u8], shortest: usize, visit: impl FnMut(usize, usize)) {
    runs_at_least(bytes, shortest, |b| TOKEN_RUN[usize::from(b)], visit);
}

/// [`in_token_run`] of every byte, as a table.
const TOKEN_RUN: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = in_token_run(b as u8);
        b += 1;
    }
    table
};

/// The provider tokens that start in `text[start..end]`, a run of token bytes; with
/// `POLICY`, a policy's formats too. Out of line: the probing loop that finds the runs
/// stays small whatever this function grows to.
#[inline(never)]
fn tokens_in_run<'r, const POLICY: bool>(
    text: &str,
    start: usize,
    end: usize,
    custom: &'r CustomTokens,
    bodies: &mut [(usize, usize)],
    spans: &mut Vec<(Range<usize>, Family<'r>)>,
) {
    let bytes = text.as_bytes();
    let first_bytes = if POLICY { custom.first_bytes() } else { &FIRST_BYTES };
    let mut i = start;
    while i < end {
        // A small loop to the next possible first byte; the checks below run per candidate.
        // (Start-up: V8 charges tier-up budget per iteration by the size of the loop.)
        match bytes[i..end].iter().position(|&b| first_bytes[usize::from(b)]) {
            Some(skip) => i += skip,
            None => break,
        }
        let second = bytes.get(i + 1).copied().unwrap_or(0);
        let builtin_here = starts_some_prefix(bytes[i], second);
        let policy_here = POLICY && custom.policy_starts_with(bytes[i]);
        if !builtin_here && !policy_here {
            i += 1;
            continue;
        }
        let at_boundary = boundary_before(bytes, i);
        if policy_here {
            if let Some((token_end, family)) = policy_token(bytes, i, custom, at_boundary, bodies) {
                if !is_placeholder(&text[i..token_end]) {
                    spans.push((i..token_end, Family::Custom(family)));
                }
                i = token_end;
                continue;
            }
        }
        let mut next = i + 1;
        for t in starting_with(bytes[i]) {
            let prefix = t.prefix.as_bytes();
            // The second byte rules out most candidates; the rest is compared byte by byte
            // (short prefixes: a loop costs less than a call to compare memory).
            if prefix[1] != second || bytes.len() < i + prefix.len() || !prefix.iter().zip(&bytes[i..]).all(|(a, b)| a == b) {
                continue;
            }
            if !(at_boundary || distinctive(t.prefix)) {
                continue;
            }
            let body = i + t.prefix.len();
            let found = builtin_token_end(bytes, body, t);
            if let Some(token_end) = found {
                if !is_placeholder(&text[i..token_end]) {
                    spans.push((i..token_end, Family::Builtin(t.family)));
                }
                next = token_end;
                break;
            }
        }
        i = next;
    }
}

/// The policy's format, longest prefix first, whose token starts at `i`: where it ends,
/// and its family.
#[inline(never)]
fn policy_token<'r>(
    bytes: &[u8],
    i: usize,
    custom: &'r CustomTokens,
    at_boundary: bool,
    bodies: &mut [(usize, usize)],
) -> Option<(usize, &'r str)> {
    let mut found = [0; MAX_NESTED_PREFIXES];
    let n = custom.prefixes_of(&bytes[i..], &mut found);
    for f in found[..n].iter().rev().filter_map(|&k| custom.format(k)) {
        if !(at_boundary || distinctive(&f.prefix)) {
            continue;
        }
        if let Some(token_end) = body_end(bytes, i + f.prefix.len(), f.alphabet, f.min_body_length as usize, bodies) {
            return Some((token_end, f.family.as_str()));
        }
    }
    None
}

/// Distinctive prefixes are secrets even when glued to a word (`xghp_…`); short, common
/// ones (`sk-`, `hf_`, `SG.`) need a word boundary before them, and so do prefixes of
/// capitals and digits alone (`EAAA`, `AKIA`): base64 is made of such runs (`EAAA` is
/// how three bytes 0x10 0x00 0x00 encode, and every RSA public key holds it).
fn distinctive(prefix: &str) -> bool {
    prefix.len() >= 4 && !prefix.ends_with('-') && !prefix.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

/// [`token_end`] for a policy's format, remembering in `bodies` where each alphabet's last
/// body ended.
fn body_end(bytes: &[u8], start: usize, body: TokenAlphabet, min: usize, bodies: &mut [(usize, usize)]) -> Option<usize> {
    let slot = &mut bodies[body as usize];
    if body == TokenAlphabet::TwoSegments {
        return token_end(bytes, start, body, min);
    }
    let end = if slot.0 <= start && start <= slot.1 {
        crate::search::work::tally(1);
        slot.1
    } else {
        let end = run_end(bytes, start, |b| body.accepts(b));
        *slot = (start, end);
        end
    };
    (end - start >= min).then_some(end)
}

/// End of a built-in token whose body starts at `start`, when it is there ([`Shape`]).
/// Out of line: a matching prefix is rare, and the loop that looks for one stays small.
#[inline(never)]
fn builtin_token_end(bytes: &[u8], start: usize, t: &Token) -> Option<usize> {
    match t.shape {
        Shape::Body => token_end(bytes, start, t.body, t.min),
        Shape::DotSegments => {
            let mut end = token_end(bytes, start, t.body, t.min)?;
            for _ in 0..2 {
                if bytes.get(end) != Some(&b'.') {
                    break;
                }
                let segment = run_end(bytes, end + 1, |b| b.is_ascii_alphanumeric());
                if segment == end + 1 {
                    break;
                }
                end = segment;
            }
            Some(end)
        }
        Shape::AfterSegment => token_end(bytes, start, t.body, t.min).or_else(|| {
            let segment = run_end(bytes, start, base64url);
            let named = segment > start && segment - start <= MAX_SEGMENT && bytes.get(segment) == Some(&b'.');
            if named {
                token_end(bytes, segment + 1, t.body, t.min)
            } else {
                None
            }
        }),
    }
}

/// The longest segment before a body ([`Shape::AfterSegment`]): Doppler's config names.
const MAX_SEGMENT: usize = 64;

/// End of a provider token body starting at `start`, when it is long enough.
fn token_end(bytes: &[u8], start: usize, body: TokenAlphabet, min: usize) -> Option<usize> {
    let end = run_end(bytes, start, |b| body.accepts(b));
    if end - start < min {
        return None;
    }
    if let TokenAlphabet::TwoSegments = body {
        if bytes.get(end) != Some(&b'.') {
            return None;
        }
        let second = run_end(bytes, end + 1, base64url);
        return (second - end > min).then_some(second);
    }
    Some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every run of token bytes, split the plain way: each byte read once.
    fn runs_read_byte_by_byte(bytes: &[u8], shortest: usize) -> Vec<(usize, usize)> {
        let mut runs = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let start = i;
            while i < bytes.len() && in_token_run(bytes[i]) {
                i += 1;
            }
            if i - start >= shortest.max(1) {
                runs.push((start, i));
            }
            i += 1;
        }
        runs
    }

    #[test]
    fn probing_finds_every_long_run_that_reading_every_byte_finds() {
        let mut next = crate::text::scan::tests::random_numbers(0x2545_F491_4F6C_DD1D);
        const BYTES: &[u8] = b"aZ09_-.=+/% :;\n\"(\xc3\xa9";
        for _ in 0..3000 {
            let len = (next() % 80) as usize;
            // Runs of every length: a separator with a chance that varies per text.
            let gap = 2 + next() % 20;
            let text: Vec<u8> =
                (0..len).map(|_| if next() % gap == 0 { b' ' } else { BYTES[(next() % BYTES.len() as u64) as usize] }).collect();
            for shortest in 0..20 {
                let mut probed = Vec::new();
                long_token_runs(&text, shortest, |s, e| probed.push((s, e)));
                assert_eq!(probed, runs_read_byte_by_byte(&text, shortest), "{:?} shortest {shortest}", String::from_utf8_lossy(&text));
            }
        }
    }

    /// Discord bot tokens are looked for only at the dots of long runs: that finds what
    /// looking at every dot of the text finds.
    #[test]
    fn discord_tokens_at_the_dots_of_long_runs_are_all_of_them() {
        let mut next = crate::text::scan::tests::random_numbers(0x9E37_79B9_7F4A_7C15);
        const PIECES: &[&str] = &[
            "MTIzNDU2Nzg5MDEyMzQ1Njc4",
            "NzkyNzE1NDU0MTk2MDg4ODQy",
            "OTk5",
            ".",
            "GZ8kpA",
            "Xy.",
            ".GZ8kpA.",
            "MTIzNDU2Nzg5MDEyMzQ1Njc4.GZ8kpA.abcdefghijklmnopqrstuvwxyz0",
            "abcdefghijklmnopqrstuvwxyz0",
            "_-",
            " ",
            "\\n",
            "x",
            "é",
            "s.",
        ];
        let mut tokens = 0;
        for _ in 0..4000 {
            let len = (next() % 14) as usize;
            let text: String = (0..len).map(|_| PIECES[(next() % PIECES.len() as u64) as usize]).collect();
            let bytes = text.as_bytes();
            let every_dot: Vec<Range<usize>> =
                (0..bytes.len()).filter(|&i| bytes[i] == b'.').filter_map(|dot| discord_token_at(bytes, dot)).collect();
            let found: Vec<Range<usize>> = dotted_tokens(&text, &Hints::of(&text))
                .into_iter()
                .filter(|(_, family)| *family == "discord_bot_token")
                .map(|(span, _)| span)
                .collect();
            assert_eq!(found, every_dot, "{text:?}");
            tokens += found.len();
        }
        assert!(tokens > 500, "only {tokens} tokens in the generated texts");
        let token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GZ8kpA.abcdefghijklmnopqrstuvwxyz0";
        assert_eq!(dotted_tokens(token, &Hints::of(token)), vec![(0..token.len(), "discord_bot_token")]);
    }

    fn builtin(text: &str) -> Vec<(&str, &str)> {
        provider_tokens(text, &CustomTokens::NONE)
            .into_iter()
            .map(|(span, family)| {
                let family = match family {
                    Family::Builtin(f) => f,
                    _ => "",
                };
                (&text[span], family)
            })
            .collect()
    }

    /// Formats whose tokens a leak test found passing through: each found whole, under its
    /// family, and what only looks like them left alone.
    #[test]
    fn newer_provider_formats_are_found_whole() {
        let hex64 = "cacf836e".repeat(8);
        let alnum = |n: usize| "aB3dE6gH9k".chars().cycle().take(n).collect::<String>();
        let cases = [
            (format!("xoxc-1234567890-1234567890123-1234567890123-{hex64}"), "slack_token"),
            (format!("xoxd-{}%2F{}%2B{}%3D", alnum(40), alnum(30), alnum(20)), "slack_token"),
            (format!("tskey-auth-k{}CNTRL-{}", alnum(10), alnum(33)), "tailscale_key"),
            (format!("tskey-api-k{}CNTRL-{}", alnum(10), alnum(33)), "tailscale_key"),
            (
                format!("dt0c01.{}.{}", "ST2EY72KQINMH574WMNVI7YN", "G3DFPBEJYMODIDAEX454M7YWBUVEFOWKPRVMWFASS64NFH52PX6BNDVFFM572RZM"),
                "dynatrace_token",
            ),
            (format!("EAAB{}", alnum(150)), "facebook_token"),
            (format!("EAAJ{}", alnum(180)), "facebook_token"),
            (format!("nvapi-{}", alnum(64)), "nvidia_key"),
            (format!("lsv2_pt_{}_{}", &hex64[..32], &hex64[..10]), "langsmith_key"),
            (format!("lsv2_sk_{}_{}", &hex64[..32], &hex64[..10]), "langsmith_key"),
            (format!("tvly-{}", alnum(32)), "tavily_key"),
            (format!("tvly-dev-{}", alnum(32)), "tavily_key"),
            (format!("fc-{}", &hex64[..32]), "firecrawl_key"),
            ("sk-lf-3f2a9c1e-7b4d-4e8a-9c0f-1a2b3c4d5e6f".to_string(), "langfuse_key"),
            (format!("phx_{}", alnum(43)), "posthog_key"),
            (format!("sl.{}", alnum(140)), "dropbox_token"),
            (format!("sl.u.{}", alnum(160)), "dropbox_token"),
            (format!("sk.eyJ1IjoiYWNtZSIsImEiOiJjbHh4eHh4eHgwMDAwMmtxcGV4YW1wbGUifQ.{}", alnum(22)), "mapbox_token"),
            (format!("CFPAT-{}", alnum(43)), "contentful_token"),
            (format!("LTAI{}", alnum(20)), "alibaba_access_key_id"),
            (format!("bkua_{}", &hex64[..40]), "buildkite_token"),
            (format!("CCIPAT_{}_{}", alnum(22), &hex64[..40]), "circleci_token"),
            (format!("nfp_{}", alnum(36)), "netlify_token"),
            (format!("rnd_{}", alnum(24)), "render_key"),
            (format!("sb_secret_{}", alnum(31)), "supabase_token"),
            (format!("sgp_{}_{}", &hex64[..16], &hex64[..40]), "sourcegraph_token"),
            (format!("AKCp{}", alnum(69)), "jfrog_key"),
            (format!("xkeysib-{hex64}-{}", alnum(16)), "brevo_key"),
            (format!("CLOJARS_{}", alnum(60)), "clojars_token"),
            (format!("ops_eyJ{}+/{}==", alnum(200), alnum(60)), "onepassword_token"),
            (format!("glagent-{}", alnum(50)), "gitlab_token"),
            (format!("glsoat-{}", alnum(20)), "gitlab_token"),
            (format!("glffct-{}", alnum(20)), "gitlab_token"),
            (format!("api_org_{}", alnum(34)), "huggingface_token"),
            (format!("fm2_{}+/{}=", alnum(120), alnum(40)), "flyio_token"),
            (format!("ATCTT3xFfGN0{}={}", alnum(180), "A1B2C3D4"), "atlassian_token"),
            // Bodies that ran past the old alphabets: base64 claims, a config, a routing suffix.
            (format!("sntrys_eyJpYXQiOjE3MTYwMDAwMDAuMCwidXJsIjoi+/aHR0cHM6Ly9zZW50cnkuaW8i=={}_{}", alnum(20), alnum(43)), "sentry_token"),
            (format!("dp.st.dev.{}", alnum(43)), "doppler_token"),
            (format!("dp.st.dev_personal.{}", alnum(43)), "doppler_token"),
            (format!("glpat-{}.01.{}", alnum(27), "1k2m3n4p5"), "gitlab_token"),
        ];
        for (token, family) in &cases {
            for text in [format!("token {token} rejected"), format!("KEY={token}"), format!("{{\"v\": \"{token}\"}}")] {
                assert_eq!(builtin(&text), vec![(token.as_str(), *family)], "{text}");
            }
        }
        // Short words and shapes that are not the tokens.
        for text in [
            "the patient record patt58EmNu7CzgRqx was moved",
            "patt58EmNu7CzgRqx.cacf836e and pattern_matching_enabled.configuration_value_x",
            "patch_request_handler.handle_incoming_request_for_the_user",
            "sl.example.com and sl.short",
            "EAAB0123456789abcdefghij",
            "the tskey-auth flag and tvly-demo keys",
            "fc-barcelona fc-0123",
            "LTAIR rnd_seed_value_for_tests phx_dashboard sgp_ nfp_",
            "glpat-. dp.st. sk.eyJ",
        ] {
            assert_eq!(builtin(text), vec![], "{text}");
        }
        // Airtable's tokens are found by their shape among the long runs, not by prefix.
        let airtable = format!("patt58EmNu7CzgRqx.{hex64}");
        for text in [format!("token {airtable} rejected"), format!("KEY={airtable}"), format!("{{\"v\": \"{airtable}\"}}")] {
            let found: Vec<_> = dotted_tokens(&text, &Hints::of(&text)).into_iter().map(|(span, f)| (&text[span], f)).collect();
            assert_eq!(found, vec![(airtable.as_str(), "airtable_token")], "{text}");
        }
        for text in [
            "the patient record patt58EmNu7CzgRqx was moved",
            "patt58EmNu7CzgRqx.cacf836e and pattern_matching_enabled.configuration_value_x",
            &format!("xpatt58EmNu7CzgRqx.{hex64}"),
            &format!("patt58EmNu7CzgRqx.{hex64}g"),
        ] {
            assert!(dotted_tokens(text, &Hints::of(text)).is_empty(), "{text}");
        }
        // A sentence's full stop after a GitLab token stays.
        let text = format!("use glpat-{}. Then retry", alnum(20));
        assert_eq!(builtin(&text), vec![(&text[4..30], "gitlab_token")]);
    }

    #[test]
    fn jwts_with_padding_and_jwes_are_found_whole() {
        let found = |text: &str| jwts(text).into_iter().map(|r| text[r].to_string()).collect::<Vec<_>>();
        let padded = "eyJhbGciOiJIUzI1NiJ9==.eyJzdWIiOiIxMjM0NTY3ODkwIn0=.c2lnbmF0dXJlLXNpZ25hdHVyZQ";
        assert_eq!(found(&format!("token {padded} ok")), vec![padded]);
        let jwe = "eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZHQ00ifQ.OKOawDo13gRp2ojaHV7LFpZcgV7T6DVZKTyKOMTYUmKoTCVJRgckCL9kiMT03JGe.48V1_ALb6US04U3b.5eym8TW_c8SuK0ltJ3rpYIzOeDQz7TALvtu6UG9oMo4vpzs9tX_EFShS8iB7j6ji.XFBoMYUZodetZdvTiFvSkQ";
        assert_eq!(found(&format!("payload {jwe} sent")), vec![jwe]);
        let direct =
            "eyJhbGciOiJkaXIiLCJlbmMiOiJBMTI4R0NNIn0..48V1_ALb6US04U3b.5eym8TW_c8SuK0ltJ3rpYIzOeDQz7TALvtu6UG9oMo4.XFBoMYUZodetZdvTiFvSkQ";
        assert_eq!(found(&format!("payload {direct} sent")), vec![direct]);
        // Four segments are no JWE: the JWS in them is found as before.
        let four = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig.json";
        assert_eq!(found(four), vec!["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig"]);
        assert!(found("eyJhbGciOiJIUzI1NiJ9..x").is_empty());
    }
}
