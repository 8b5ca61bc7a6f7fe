//! Text sanitizing: what may never reach a model's context whatever the text says.
//!
//! Removes C0 and C1 control characters (keeping tab and newline), DEL, bidirectional
//! overrides and isolates, and every other invisible format character a text can hide a
//! word with (zero-width characters, the soft hyphen, the combining grapheme joiner, tag
//! characters, variation selectors, fillers); folds full-width ASCII forms to ASCII, so a
//! token or a marker written in them is seen. Line breaks and indentation are kept.
//! Defanging markers is [`defang`](super::defang)'s.

use std::borrow::Cow;

use crate::search::{byte_class, next_in_class};

/// Whether `c` is removed outright.
pub(crate) fn is_stripped(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{B}'..='\u{1F}' | '\u{7F}'..='\u{84}' | '\u{86}'..='\u{9F}'
        // bidi embeddings, overrides and isolates, and the marks that steer them
        | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{61C}'
        // zero-width space, non-joiner, joiner, word joiner, invisible operators, the
        // deprecated format characters, BOM
        | '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2065}' | '\u{206A}'..='\u{206F}' | '\u{FEFF}'
        // soft hyphen, combining grapheme joiner, Khmer and Mongolian invisible marks
        | '\u{AD}' | '\u{34F}' | '\u{17B4}' | '\u{17B5}' | '\u{180B}'..='\u{180F}'
        // Hangul fillers, which render as nothing
        | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}'
        // variation selectors
        | '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}'
        // interlinear annotation controls, musical and shorthand format controls
        | '\u{FFF9}'..='\u{FFFB}' | '\u{1D173}'..='\u{1D17A}' | '\u{1BCA0}'..='\u{1BCA3}'
        // tag characters (invisible ASCII look-alikes)
        | '\u{E0000}'..='\u{E007F}'
    )
}

/// The character a text shows in place of `c`: every blank other than the space (the
/// space separators of Unicode: no-break, en, em, thin, hair, ideographic spaces and kin;
/// and the braille blank U+2800, which renders as one) becomes a space, and line breaks of
/// other kinds become a newline, so the rules that follow see one spelling and a blank
/// hides nothing. Full-width forms fold by runs ([`fold_wide_runs`]).
fn folded(c: char) -> char {
    match c {
        '\u{A0}' | '\u{1680}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{2800}' => ' ',
        '\u{85}' | '\u{2028}' | '\u{2029}' => '\n',
        other => other,
    }
}

/// Whether `c` is kept exactly as it is (a full-width letter may not be: see
/// [`fold_wide_runs`]).
fn is_plain(c: char) -> bool {
    !is_stripped(c) && folded(c) == c && !is_wide_letter(c)
}

/// A full-width form of an ASCII character (`！` to `～`).
fn is_wide(c: char) -> bool {
    ('\u{FF01}'..='\u{FF5E}').contains(&c)
}

/// A full-width Latin letter (`Ａ` to `Ｚ`, `ａ` to `ｚ`).
fn is_wide_letter(c: char) -> bool {
    ('\u{FF21}'..='\u{FF3A}').contains(&c) || ('\u{FF41}'..='\u{FF5A}').contains(&c)
}

/// `text` with every run of full-width forms that holds a Latin letter folded to ASCII
/// (`ｇｈｐ＿ａｂｃ１２３` is a token spelled wide; `Ｈｕｍａｎ：` a role label), and runs
/// without one kept: CJK text writes its punctuation and digits wide (`（税込）`,
/// `合計：１２３円`), and a marker made of wide brackets and bars alone is found by the
/// defanging's look-alikes.
fn fold_wide_runs(text: String) -> String {
    if !text.chars().any(is_wide_letter) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    let mut lettered = false;
    let flush = |out: &mut String, run: &mut String, lettered: bool| {
        if lettered {
            out.extend(run.chars().map(|c| char::from_u32(c as u32 - 0xFEE0).unwrap_or(c)));
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for c in text.chars() {
        if is_wide(c) {
            lettered |= is_wide_letter(c);
            run.push(c);
        } else {
            flush(&mut out, &mut run, lettered);
            lettered = false;
            out.push(c);
        }
    }
    flush(&mut out, &mut run, lettered);
    out
}

byte_class!(
    /// A byte outside printable ASCII, tab and newline.
    NotPlainAscii = |b| !(b.within(b' ', b'~') | b.is(b'\t') | b.is(b'\n'))
);

/// The characters of `text` that stay, with their offsets: what [`is_stripped`] names goes,
/// and so does a whole ANSI control sequence (`ESC [ 0 m`, the colours of a terminal's
/// output), whose printable tail would otherwise stay and split a token in two.
fn kept_chars(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut chars = text.char_indices();
    std::iter::from_fn(move || loop {
        let (i, c) = chars.next()?;
        if c == '\u{1b}' {
            if let Some(len) = control_sequence_len(&text.as_bytes()[i..]) {
                // The sequence is ASCII: a character a byte.
                for _ in 1..len {
                    chars.next();
                }
                continue;
            }
        }
        if !is_stripped(c) {
            return Some((i, c));
        }
    })
}

/// The length of the ANSI control sequence (CSI) `bytes` starts with: `ESC [`, parameter
/// and intermediate bytes, a final byte; at most [`MAX_CONTROL_SEQUENCE`] bytes. `None`
/// when it starts none (its `ESC` alone is then stripped).
fn control_sequence_len(bytes: &[u8]) -> Option<usize> {
    if bytes.get(1) != Some(&b'[') {
        return None;
    }
    let body = bytes[2..].iter().take(MAX_CONTROL_SEQUENCE - 3).take_while(|b| (0x20..=0x3F).contains(*b)).count();
    bytes.get(2 + body).is_some_and(|b| (0x40..=0x7E).contains(b)).then_some(3 + body)
}

/// The longest ANSI control sequence stripped whole, in bytes: colours and cursor moves
/// take a few parameters.
const MAX_CONTROL_SEQUENCE: usize = 32;

/// Remove every stripped character (and ANSI control sequence) from `text`.
pub(crate) fn strip_controls(text: &str) -> Cow<'_, str> {
    // Printable ASCII, tab and newline are never stripped: the common case is one byte scan.
    let bytes = text.as_bytes();
    let plain_ascii = next_in_class(bytes, 0, NotPlainAscii) == bytes.len();
    if plain_ascii || text.chars().all(is_plain) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(fold_wide_runs(kept_chars(text).map(|(_, c)| folded(c)).collect()))
}

/// Strip like [`strip_controls`], but keep at most `max_units` UTF-16 units of output.
/// Returns the kept text and whether all of `text` was consumed. Stripping comes before the
/// cut so that characters an attacker pads with cannot push a secret across the window
/// edge unseen.
pub(crate) fn strip_controls_prefix(text: &str, max_units: usize) -> (Cow<'_, str>, bool) {
    // Printable ASCII needs no stripping and counts one unit a byte: borrow it whole.
    let limit = text.len().min(max_units);
    if text.as_bytes()[..limit].iter().all(|&b| (0x20..0x7F).contains(&b) || b == b'\t' || b == b'\n') {
        let whole = limit == text.len() || kept_chars(&text[limit..]).next().is_none();
        return (Cow::Borrowed(&text[..limit]), whole);
    }
    let mut out = String::with_capacity(text.len().min(max_units.saturating_mul(2)));
    let mut units = 0;
    for (i, c) in kept_chars(text) {
        if units + c.len_utf16() > max_units {
            return (Cow::Owned(fold_wide_runs(out)), kept_chars(&text[i..]).next().is_none());
        }
        let c = folded(c);
        units += c.len_utf16();
        out.push(c);
    }
    (Cow::Owned(fold_wide_runs(out)), true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_bidi_and_zero_width_go_tabs_and_newlines_stay() {
        let input = "a\u{0}b\u{7}c\td\ne\r\u{9F}f\u{202E}g\u{2066}h\u{200B}i\u{FEFF}j\u{2060}k\u{85}l";
        assert_eq!(strip_controls(input), "abc\td\nefghijk\nl");
    }

    #[test]
    fn ordinary_unicode_is_untouched() {
        assert_eq!(strip_controls("héllo wörld — 日本語 😀"), "héllo wörld — 日本語 😀");
    }

    #[test]
    fn markers_hidden_by_invisible_or_full_width_characters_are_found() {
        let mut counts = crate::text::redact::Redactions::default();
        let hidden = strip_controls("<\u{200B}|im_start|\u{E0041}> and ＜｜im_end｜＞ and ｇｈｐ＿");
        assert_eq!(hidden, "<|im_start|> and ＜｜im_end｜＞ and ghp_");
        assert_eq!(crate::text::defang::defang_markers(&hidden, &mut counts), "⟨|im_start|⟩ and ⟨|im_end|⟩ and ghp_");
        // Wide punctuation and digits of CJK text stay.
        assert_eq!(strip_controls("合計：１２３円（税込） ｔｏｋｅｎ＝ａｂｃ"), "合計：１２３円（税込） token=abc");
    }

    #[test]
    fn invisible_format_characters_are_stripped() {
        let hiding = "pa\u{AD}ss\u{34F}wo\u{180E}rd\u{3164}\u{115F}\u{FFF9}\u{FE0F}\u{E0100}\u{E0020}";
        assert_eq!(strip_controls(hiding), "password");
        assert_eq!(strip_controls("line\u{2028}break"), "line\nbreak");
        assert_eq!(strip_controls("a\u{2800}\u{2800}b\u{A0}c\u{2003}d\u{202F}e\u{3000}f"), "a  b c d e f");
        // A terminal's colours go whole, so no `[0m` splits a token; a lone or unended
        // escape loses only its ESC.
        assert_eq!(strip_controls("\u{1b}[31mERROR\u{1b}[0m: ghp_abcd\u{1b}[1;4mefgh"), "ERROR: ghp_abcdefgh");
        assert_eq!(strip_controls("a\u{1b}xb \u{1b}(B \u{1b}[12"), "axb (B [12");
        assert_eq!(strip_controls_prefix("\u{1b}[0mabc\u{1b}[0m", 3), (Cow::Owned("abc".to_owned()), true));
    }
}
