//! The text pipeline: every free text that reaches a model is sanitized (controls and
//! invisible characters stripped), redacted, defanged, then capped, in that order, so no
//! partial secret survives at a cut and a cut never leaves half a redaction marker.

use crate::json::{utf16_len, utf16_prefix, JsonText};
use crate::search;
use crate::text::redact::{redact_secrets, Redactions};
use crate::text::sanitize::{defang_chat_markers, strip_controls_prefix};

/// Extra UTF-16 units read past a text cap, so a secret that starts before the cut is
/// seen whole by the redactor.
pub(crate) const REDACTION_MARGIN: usize = 1024;

/// A text after sanitizing, redaction and capping.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CappedText {
    /// The text to show.
    pub text: String,
    /// Whether anything was cut.
    pub truncated: bool,
    /// The original length in UTF-16 code units.
    pub original_length: usize,
}

/// Sanitize, redact, defang, then cap a text at `cap` UTF-16 units.
pub(crate) fn capped_text(input: &JsonText, cap: usize, counts: &mut Redactions) -> CappedText {
    let (window, whole) = strip_controls_prefix(input.head(), cap.saturating_add(REDACTION_MARGIN));
    let redacted = redact_secrets(&window, counts);
    let clean = defang_chat_markers(&redacted, counts);
    let fits = utf16_len(&clean) <= cap;
    let text = if fits { clean.into_owned() } else { cut_at(&clean, cap).to_owned() };
    CappedText { text, truncated: !fits || !whole || !input.is_complete(), original_length: input.total_utf16() }
}

/// Sanitize, redact, defang and cap a text of any length to `cap` units, reading at most
/// the cap plus [`REDACTION_MARGIN`] (so a secret straddling the cut is still seen whole);
/// a cut ends in `…`. Idempotent on its own output when the cap is not reached.
pub(crate) fn clean_text(text: &str, cap: usize, counts: &mut Redactions) -> String {
    let window = JsonText::from_head(utf16_prefix(text, cap.saturating_add(REDACTION_MARGIN)), utf16_len(text));
    let c = capped_text(&window, cap, counts);
    if c.truncated {
        c.text + "…"
    } else {
        c.text
    }
}

/// Cap `text` at `cap` units without leaving half a redaction marker at the end.
pub(crate) fn cut_at(text: &str, cap: usize) -> &str {
    let cut = utf16_prefix(text, cap);
    if cut.len() < text.len() {
        without_open_marker(cut)
    } else {
        cut
    }
}

/// A text that was just cut short, without a redaction marker left open at its end: an
/// unclosed `[REDACTED:…`, or a cut inside the opening itself (`[REDAC`).
pub(crate) fn without_open_marker(cut: &str) -> &str {
    const OPEN: &str = "[REDACTED:";
    if let Some(open) = search::rfind(cut, OPEN).filter(|&open| !cut[open..].contains(']')) {
        return &cut[..open];
    }
    match cut.rfind('[') {
        Some(open) if OPEN.starts_with(&cut[open..]) => &cut[..open],
        _ => cut,
    }
}

/// Sanitize, redact, defang and cap a short label (MIME type, name, block type, URI, key).
pub(crate) fn label(text: &str, cap: usize, counts: &mut Redactions) -> String {
    let (window, _) = strip_controls_prefix(text, cap.saturating_add(REDACTION_MARGIN));
    let redacted = redact_secrets(&window, counts);
    // A URI, name or key reaches the model like any text: chat markers are defanged too.
    let clean = defang_chat_markers(&redacted, counts);
    cut_at(&clean, cap).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> JsonText {
        JsonText::whole(s)
    }

    #[test]
    fn text_is_capped_after_redaction() {
        let mut c = Redactions::default();
        let secret = format!("{} ghp_abcdefghijklmnopqrstuvwxyz0123456789 tail", "a".repeat(89));
        let out = capped_text(&text(&secret), 100, &mut c);
        // The token straddles the cut: it is redacted first, then the marker is cut whole.
        assert!(!out.text.contains("ghp_"), "{}", out.text);
        assert!(out.truncated);
        assert_eq!(out.original_length, secret.len());
        assert_eq!(c.get("api_key"), 1);
    }

    #[test]
    fn a_cut_never_leaves_part_of_a_marker() {
        let marked = "ab [REDACTED:api_key] cd";
        for cap in 0..marked.len() {
            let cut = cut_at(marked, cap);
            assert!(!cut.contains('[') || cut.contains(']'), "{cap}: {cut:?}");
        }
        // Text that merely ends in a bracket is kept when nothing was cut.
        assert_eq!(cut_at("see [RED", 100), "see [RED");
        assert_eq!(cut_at("a [x] b", 4), "a [x");
    }

    #[test]
    fn stripped_padding_cannot_push_a_secret_past_the_window() {
        let mut c = Redactions::default();
        let padded = format!("{}ghp_abcdefghijklmnopqrstuvwxyz0123456789", "\u{0}".repeat(64 + REDACTION_MARGIN - 10));
        let out = capped_text(&text(&padded), 64, &mut c);
        assert_eq!(out.text, "[REDACTED:api_key]");
        assert_eq!(c.get("api_key"), 1);
    }

    #[test]
    fn huge_text_costs_its_window() {
        let mut c = Redactions::default();
        let head = "x".repeat(200_000);
        let t = JsonText::from_head(head, 50_000_000);
        let out = capped_text(&t, 8192, &mut c);
        assert_eq!(out.text.len(), 8192);
        assert_eq!(out.original_length, 50_000_000);
    }
}
