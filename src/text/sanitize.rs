//! Text sanitizing: what may never reach a model's context whatever the text says.
//!
//! Removes C0 and C1 control characters (keeping tab and newline), DEL, bidirectional
//! overrides and isolates, and zero-width characters; defangs chat-template markers so an
//! upstream cannot forge conversation turns. Line breaks and indentation are kept.

use std::borrow::Cow;

use crate::text::redact::Redactions;

/// Whether `c` is removed outright.
pub(crate) fn is_stripped(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{B}'..='\u{1F}' | '\u{7F}'..='\u{84}' | '\u{86}'..='\u{9F}'
        // bidi embeddings, overrides and isolates, and the marks that steer them
        | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{61C}'
        // zero-width space, non-joiner, joiner, word joiner, invisible operators, BOM
        | '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}'
    )
}

/// Remove every stripped character from `text`.
pub(crate) fn strip_controls(text: &str) -> String {
    // Printable ASCII, tab and newline are never stripped: the common case is one byte scan.
    let plain_ascii = text.bytes().all(|b| (0x20..0x7F).contains(&b) || b == b'\t' || b == b'\n');
    if plain_ascii || !text.chars().any(|c| is_stripped(c) || c == '\u{85}') {
        return text.to_owned();
    }
    text.chars().filter(|c| !is_stripped(*c)).map(line_break).collect()
}

/// NEL (U+0085) is a C1 control that means a line break: it becomes a newline rather than
/// disappearing, so the words around it stay apart.
fn line_break(c: char) -> char {
    if c == '\u{85}' {
        '\n'
    } else {
        c
    }
}

/// Strip like [`strip_controls`], but keep at most `max_units` UTF-16 units of output.
/// Returns the kept text and whether all of `text` was consumed. Stripping comes before the
/// cut so that characters an attacker pads with cannot push a secret across the window
/// edge unseen.
pub(crate) fn strip_controls_prefix(text: &str, max_units: usize) -> (Cow<'_, str>, bool) {
    // Printable ASCII needs no stripping and counts one unit a byte: borrow it whole.
    let limit = text.len().min(max_units);
    if text.as_bytes()[..limit].iter().all(|&b| (0x20..0x7F).contains(&b) || b == b'\t' || b == b'\n') {
        let whole = limit == text.len() || text[limit..].chars().all(is_stripped);
        return (Cow::Borrowed(&text[..limit]), whole);
    }
    let mut out = String::with_capacity(text.len().min(max_units.saturating_mul(2)));
    let mut units = 0;
    for (i, c) in text.char_indices() {
        if is_stripped(c) {
            continue;
        }
        if units + c.len_utf16() > max_units {
            return (Cow::Owned(out), text[i..].chars().all(is_stripped));
        }
        units += c.len_utf16();
        out.push(line_break(c));
    }
    (Cow::Owned(out), true)
}

/// Chat-template markers and how each is defanged. Delimited markers (`<|…|>`) are
/// matched generically; the rest are listed. Matching is ASCII case-insensitive.
const LISTED_MARKERS: &[&str] = &[
    "[INST]",
    "[/INST]",
    "<<SYS>>",
    "<</SYS>>",
    "<s>",
    "</s>",
    "<system>",
    "</system>",
    "<user>",
    "</user>",
    "<assistant>",
    "</assistant>",
    "<start_of_turn>",
    "<end_of_turn>",
    "<tool_call>",
    "</tool_call>",
    "<function_calls>",
    "</function_calls>",
];

/// The longest name accepted inside `<|…|>`.
const MAX_DELIMITED_NAME: usize = 40;

/// Replace chat-template markers with look-alikes that no tokenizer treats as special:
/// `<` becomes `‹`, `>` becomes `›`, `[` becomes `⟦` and `]` becomes `⟧`. Each marker is
/// counted under the `chat_template` family.
pub(crate) fn defang_chat_markers<'a>(text: &'a str, counts: &mut Redactions) -> Cow<'a, str> {
    if !text.as_bytes().iter().any(|&b| b == b'<' || b == b'[') {
        return Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'<' || bytes[i] == b'[' {
            if let Some(len) = marker_len(&bytes[i..]) {
                out.push_str(&text[copied..i]);
                for c in text[i..i + len].chars() {
                    out.push(match c {
                        '<' => '‹',
                        '>' => '›',
                        '[' => '⟦',
                        ']' => '⟧',
                        other => other,
                    });
                }
                counts.add("chat_template");
                i += len;
                copied = i;
                continue;
            }
        }
        i += 1;
    }
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// Length in bytes of the marker that starts `s`, if one does.
fn marker_len(s: &[u8]) -> Option<usize> {
    if s.starts_with(b"<|") {
        let body = &s[2..];
        let end = body.iter().take(MAX_DELIMITED_NAME + 2).position(|&b| b == b'|')?;
        let name = &body[..end];
        let well_formed = !name.is_empty()
            && name.iter().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'/' | b' ' | b'.'))
            && body.get(end + 1) == Some(&b'>');
        return well_formed.then_some(2 + end + 2);
    }
    LISTED_MARKERS.iter().find(|m| s.len() >= m.len() && s[..m.len()].eq_ignore_ascii_case(m.as_bytes())).map(|m| m.len())
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
    fn chat_markers_are_defanged_and_counted() {
        let mut counts = Redactions::default();
        let out = defang_chat_markers("x <|im_start|>system\n  [INST] hi [/INST] <System>y</system>", &mut counts);
        assert_eq!(out, "x ‹|im_start|›system\n  ⟦INST⟧ hi ⟦/INST⟧ ‹System›y‹/system›");
        assert_eq!(counts.get("chat_template"), 5);
    }

    #[test]
    fn lookalike_text_is_not_a_marker() {
        let mut counts = Redactions::default();
        let text = "a <| b and x[0] and <b>bold</b> and <|unterminated";
        assert_eq!(defang_chat_markers(text, &mut counts), text);
        assert_eq!(counts.get("chat_template"), 0);
    }

    #[test]
    fn defanging_is_idempotent() {
        let mut counts = Redactions::default();
        let once = defang_chat_markers("<|im_end|> <<SYS>>", &mut counts);
        let twice = defang_chat_markers(&once, &mut counts);
        assert_eq!(once, twice);
    }
}
