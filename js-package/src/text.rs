//! Outcome text handed back to JavaScript.
//!
//! wasm-bindgen makes JavaScript strings with `TextDecoder`, which is fast only while every
//! byte is ASCII: one non-ASCII character anywhere (such as the ellipsis the core puts where
//! it cut a text) sends the whole string down a path that costs about a nanosecond per
//! byte. Outcome text is almost all ASCII, so it crosses as its ASCII runs and the few
//! short runs between them, joined in JavaScript.

use js_sys::JsString;

/// At most this many non-ASCII runs are split out; text with more crosses whole, as
/// joining that many pieces would cost more than it saves.
const MOST_SPLIT_RUNS: usize = 4;

/// `text` as a JavaScript string.
pub fn to_js(text: &str) -> JsString {
    match non_ascii_runs(text.as_bytes()) {
        Some(runs) if !runs.is_empty() => joined(text, &runs),
        _ => JsString::from(text),
    }
}

/// The byte ranges of the non-ASCII runs of `bytes`, or `None` when there are more than
/// [`MOST_SPLIT_RUNS`]. Every byte of a multi-byte character has its high bit set, so the
/// ranges start and end on character boundaries.
fn non_ascii_runs(bytes: &[u8]) -> Option<Vec<(usize, usize)>> {
    let mut runs = Vec::new();
    let mut at = 0;
    loop {
        let start = next_with_high_bit(bytes, at, true);
        if start == bytes.len() {
            return Some(runs);
        }
        if runs.len() == MOST_SPLIT_RUNS {
            return None;
        }
        let end = next_with_high_bit(bytes, start, false);
        runs.push((start, end));
        at = end;
    }
}

/// `text` as one JavaScript string built from its pieces: each ASCII run and each of `runs`.
fn joined(text: &str, runs: &[(usize, usize)]) -> JsString {
    let mut joined = JsString::from(&text[..runs[0].0]);
    let mut at = runs[0].0;
    for &(start, end) in runs {
        if start > at {
            joined = joined.concat(&JsString::from(&text[at..start]));
        }
        joined = joined.concat(&JsString::from(&text[start..end]));
        at = end;
    }
    if at < text.len() {
        joined = joined.concat(&JsString::from(&text[at..]));
    }
    joined
}

/// The index of the first byte at or after `from` whose high bit is set (`high`) or clear,
/// or the length. Eight bytes at a time: a loop byte by byte costs about a nanosecond a
/// byte in this size-optimized build.
fn next_with_high_bit(bytes: &[u8], from: usize, high: bool) -> usize {
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    let flip = if high { 0 } else { u64::MAX };
    let mut at = from;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let found = (u64::from_le_bytes(word) ^ flip) & HIGH_BITS;
        if found != 0 {
            return at + (found.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    bytes[at..].iter().position(|b| (*b >= 0x80) == high).map_or(bytes.len(), |n| at + n)
}
