//! The text pipeline: every free text that reaches a model is sanitized (controls and
//! invisible characters stripped), defanged, redacted, then capped, in that order, so no
//! partial secret survives at a cut and a cut never leaves half a redaction marker.
//! Defanging comes before redaction so that the redactor sees the text as it will be
//! shown: the output is a fixed point of the pipeline (a defanged marker right after a
//! secret's name is judged the same on every pass).

use std::borrow::Cow;

use crate::error::{ErrorCode, ReportError};
use crate::json::{utf16_len, utf16_prefix, JsonText};
use crate::search;
use crate::text::custom::CustomRules;
use crate::text::defang::{defang_markers, defang_role_words, MARKER_SIGNS};
use crate::text::redact::{redact_secrets, redact_secrets_with, Redactions, TextHints, MARKER_PREFIX};
use crate::text::safe::{SafeText, SafeTextBuilder};
use crate::text::sanitize::{strip_controls, strip_controls_prefix};

/// Extra UTF-16 units read past a text cap, so a secret that starts before the cut is
/// seen whole by the redactor.
pub(crate) const REDACTION_MARGIN: usize = 1024;

/// A text after sanitizing, redaction and capping.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CappedText {
    /// The text to show.
    pub text: SafeText,
    /// Whether anything was cut.
    pub truncated: bool,
    /// The original length in UTF-16 code units.
    pub original_length: usize,
}

/// Sanitize, defang, redact (by the built-in rules and `custom`'s), then cap a text at
/// `cap` UTF-16 units.
pub(crate) fn capped_text(input: &JsonText, cap: usize, custom: &CustomRules, counts: &mut Redactions) -> CappedText {
    let ((text, cut), whole) = capped(input.head(), cap, custom, counts);
    CappedText {
        text: SafeText::from_pipeline(text),
        truncated: cut || !whole || !input.is_complete(),
        original_length: input.total_utf16(),
    }
}

/// `text` sanitized, defanged, redacted and cut at `cap` units: the kept text and whether
/// it was cut, and whether the window read was all of `text`.
///
/// The redactor reads a window of the cap plus [`REDACTION_MARGIN`], so that a secret
/// that starts before the cut is seen whole. Redaction can shrink what it reads (eight
/// private keys become eight markers), which pulls text from near the window's end in
/// front of the cut, where a secret cut off by the window would show its head. So when
/// the redacted window leaves less than the margin after the cut, the window is doubled
/// and read again: each read at least doubles the last, so the work stays linear in what
/// is read.
fn capped(text: &str, cap: usize, custom: &CustomRules, counts: &mut Redactions) -> ((String, bool), bool) {
    let needed = cap.saturating_add(REDACTION_MARGIN);
    let mut reach = needed;
    loop {
        let mut found = Redactions::default();
        let (window, whole) = strip_controls_prefix(text, reach);
        let clean = defang_and_redact(&window, custom, &mut found);
        let units = utf16_len(&clean);
        if whole || units >= needed || reach == usize::MAX {
            counts.merge(&found);
            let fits = units <= cap;
            // A cut text loses the blanks it ends in and is settled as it then stands (a
            // label's cut has no ending to judge it with): `Authorization: Bearer ` cut
            // before its redacted value would read `Bearer` as the value.
            let kept = if fits {
                clean.into_owned()
            } else {
                // `cut_at` settled the cut; only a cut that then loses blanks is judged again.
                let mut cut = cut_at(&clean, cap, custom);
                for _ in 0..SETTLE_ROUNDS {
                    let trimmed = cut.trim_end();
                    if trimmed.len() == cut.len() {
                        break;
                    }
                    cut = settle(trimmed, custom);
                }
                markers_at_cut(cut, cap, counts)
            };
            return ((kept, !fits), whole);
        }
        reach = reach.saturating_mul(2);
    }
}

/// `text` (of any length, borrowed) sanitized, defanged, redacted and capped at `cap`
/// units, and whether anything was left out: [`capped_text`] without a [`JsonText`].
pub(crate) fn capped_str(text: &str, cap: usize, custom: &CustomRules, counts: &mut Redactions) -> (SafeText, bool) {
    let ((kept, cut), whole) = capped(text, cap, custom, counts);
    (SafeText::from_pipeline(kept), cut || !whole)
}

/// A cut text with the chat markers its cut made defanged. Whether a bracket opens a
/// marker can depend on what follows it (an autolink `<https://…` with no `>` is one up to
/// the first blank), so a cut that takes that away can make a marker of what the whole
/// text did not: the cut is defanged on its own, as the next pass will read it. Defanging
/// keeps every character's width but an image's, which gains `image: ` and is kept only
/// when it still fits.
fn markers_at_cut(cut: &str, cap: usize, counts: &mut Redactions) -> String {
    let mut found = Redactions::default();
    match defang_markers(cut, &mut found) {
        Cow::Owned(defanged) if utf16_len(&defanged) <= cap => {
            counts.merge(&found);
            defanged
        }
        _ => cut.to_owned(),
    }
}

/// Sanitize, defang, redact and cap a text of any length to `cap` units, reading the cap
/// plus [`REDACTION_MARGIN`] (more when redaction shrinks what it read; see [`capped`]),
/// so a secret straddling the cut is still seen whole; a cut ends in `…`. Idempotent on
/// its own output when the cap is not reached.
pub(crate) fn clean_text(text: &str, cap: usize, custom: &CustomRules, counts: &mut Redactions) -> SafeText {
    let ((kept, cut), whole) = capped(text, cap, custom, counts);
    SafeText::from_pipeline(if cut || !whole { ended(kept, "…", custom) } else { kept })
}

/// [`clean_text`] under the built-in rules, for a text cleaned before the policy in force
/// is known (the normalizer cleans it again under the policy). Where the cap cuts the
/// text, the word the cut falls in is dropped whole, up to the last character no token or
/// secret value holds (see [`in_token_run`](crate::text::tokens::in_token_run)): a
/// policy's token or secret value cut in part would no longer be recognized by the policy's
/// rules, and its first part would pass.
///
/// ```text
/// "db::q xoxb-123 acme_0123456789abcdefghij" capped at 26  →  "db::q xoxb-123 …"
/// ```
pub(crate) fn clean_text_for_any_policy(text: &str, cap: usize, counts: &mut Redactions) -> SafeText {
    let none = CustomRules::none();
    let ((mut kept, cut), whole) = capped(text, cap, none, counts);
    if !cut && whole {
        return SafeText::from_pipeline(kept);
    }
    let word = kept.bytes().rev().take_while(|&b| crate::text::tokens::in_token_run(b)).count();
    kept.truncate(kept.len() - word);
    SafeText::from_pipeline(ended(kept, "…", none))
}

/// A refusal of an input, whose path and message may quote it (a token given as the tool's
/// name, a secret as an unknown member's key): both go through the pipeline under the
/// built-in rules (an input is refused before its policy applies), capped at
/// [`MAX_REFUSAL_TEXT`] units ([`ReportError`] caps them further).
pub(crate) fn refusal(code: ErrorCode, path: &str, message: impl Into<String>) -> ReportError {
    let clean = |text: &str| clean_text(text, MAX_REFUSAL_TEXT, CustomRules::none(), &mut Redactions::default()).into_string();
    ReportError::new(code, clean(path), clean(&message.into()))
}

/// The longest refusal path or message read, in UTF-16 units: past a refusal's own caps.
const MAX_REFUSAL_TEXT: usize = 4096;

/// The whole of a text cleaned, with no cap: for [`redact_text`](crate::redact_text) and
/// for the texts of an object read back from `Error.message`.
pub(crate) fn clean_whole(text: &str, custom: &CustomRules, counts: &mut Redactions) -> SafeText {
    clean_whole_if_changed(text, custom, counts).unwrap_or_else(|| SafeText::from_pipeline(text.to_owned()))
}

/// [`clean_whole`], or `None` when no step changed `text` (each handed it on borrowed).
pub(crate) fn clean_whole_if_changed(text: &str, custom: &CustomRules, counts: &mut Redactions) -> Option<SafeText> {
    let stripped = strip_controls(text);
    let cleaned = defang_and_redact(&stripped, custom, counts);
    match (&stripped, &cleaned) {
        (Cow::Borrowed(_), Cow::Borrowed(_)) => None,
        _ => Some(SafeText::from_pipeline(cleaned.into_owned())),
    }
}

/// `text` as an identifier (1 to 64 characters of `[a-z0-9_]`, a kind) when the pipeline
/// leaves it as it is, `None` otherwise. The alphabet keeps out every invisible character
/// and marker, but not a token's shape: `ghp_` and 36 lowercase letters and digits is a
/// well-formed kind, and a model must not read it.
pub(crate) fn clean_identifier(text: &str, custom: &CustomRules) -> Option<SafeText> {
    let identifier = SafeText::identifier(text)?;
    let mut counts = Redactions::default();
    (clean_whole(text, custom, &mut counts).as_str() == text).then_some(identifier)
}

/// How many times a text is defanged and redacted again after a redaction, at most.
const ROUNDS_AFTER_A_REDACTION: usize = 2;

/// `text` (sanitized) defanged, then redacted. A redaction can leave a chat marker behind
/// that the defanging before it did not see (`<<SYS>…[secret]…>` loses its inner `<`),
/// and a marker defanged can change what the redactor sees; so a text that redaction
/// changed is defanged again, and redacted again if that changed it, until neither does
/// (a few rounds at most: each only ever replaces more). A text without secrets pays for
/// one pass of each.
fn defang_and_redact<'a>(text: &'a str, custom: &CustomRules, counts: &mut Redactions) -> Cow<'a, str> {
    // The text's hints tell whether it may hold a chat marker at all; unchanged by the
    // defanging, the redaction reads the same hints.
    let hints = TextHints::of(text);
    let redacted = if hints.may_hold_a_marker(&MARKER_SIGNS) {
        match defang_markers(text, counts) {
            Cow::Borrowed(_) => redact_secrets_with(hints, custom, counts),
            Cow::Owned(defanged) => match redact_secrets(&defanged, custom, counts) {
                Cow::Borrowed(_) => return Cow::Owned(defanged),
                Cow::Owned(redacted) => Cow::Owned(redacted),
            },
        }
    } else {
        redact_secrets_with(hints, custom, counts)
    };
    let mut clean = match redacted {
        Cow::Borrowed(_) => return Cow::Borrowed(text),
        Cow::Owned(redacted) => redacted,
    };
    for _ in 0..ROUNDS_AFTER_A_REDACTION {
        let Some(defanged) = defang_marker_lines(&clean, counts) else { break };
        clean = redact_secrets(&defanged, custom, counts).into_owned();
    }
    Cow::Owned(clean)
}

/// `text` with the lines that hold a redaction marker defanged again, or `None` when that
/// changes nothing. A chat marker and a role line lie on one line, so a redaction can only
/// change how the line it is on is defanged.
fn defang_marker_lines(text: &str, counts: &mut Redactions) -> Option<String> {
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut from = 0;
    while let Some(found) = search::find_from(text, MARKER_PREFIX, from) {
        // `from` is where the last line read ended, never before `copied`.
        let start = text[from..found].rfind('\n').map_or(from, |nl| from + nl + 1);
        let end = text[found..].find('\n').map_or(text.len(), |nl| found + nl);
        if let Cow::Owned(line) = defang_markers(&text[start..end], counts) {
            let out = out.get_or_insert_with(|| String::with_capacity(text.len()));
            out.push_str(&text[copied..start]);
            out.push_str(&line);
            copied = end;
        }
        from = end;
    }
    let mut out = out?;
    out.push_str(&text[copied..]);
    Some(out)
}

/// Collapse whitespace to single spaces and cap at `cap` units, ending in `…` when cut
/// (or when `truncated` says the text was cut already). Reads only as far as the cap.
pub(crate) fn one_line(text: &SafeText, cap: usize, truncated: bool, custom: &CustomRules) -> SafeText {
    let mut out = String::with_capacity(cap.min(text.len()) + 4);
    let mut units = 0;
    let mut pending_space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            pending_space = !out.is_empty();
            continue;
        }
        let needed = c.len_utf16() + usize::from(pending_space);
        if units + needed > cap.saturating_sub(1) {
            let cut = settled(without_open_marker(&out), "…", custom).len();
            out.truncate(cut);
            out.push('…');
            return rejoined(out, custom);
        }
        if pending_space {
            out.push(' ');
            pending_space = false;
        }
        out.push(c);
        units += needed;
    }
    if truncated {
        out = ended(out, "…", custom);
    }
    rejoined(out, custom)
}

/// A text whose whitespace was collapsed, defanged and redacted again: joining two lines
/// can put a secret's name next to a value it was apart from (`token=` then `=>x` a line
/// below), and collapsing blanks can make a chat marker of what was not one (`<S     >`
/// becomes `<S >`); what the core emits must read the same when cleaned again.
fn rejoined(text: String, custom: &CustomRules) -> SafeText {
    match defang_and_redact(&text, custom, &mut Redactions::default()) {
        Cow::Borrowed(_) => SafeText::from_pipeline(text),
        Cow::Owned(redacted) => SafeText::from_pipeline(redacted),
    }
}

/// Cap `text` at `cap` units without leaving half a redaction marker at the end. The cut
/// text is settled both as it is and with the `…` a caller may end it with, since the
/// redactor may judge the two differently (`Authorization: Beare` is a value, while a
/// value ending in `…` was cut away).
pub(crate) fn cut_at<'a>(text: &'a str, cap: usize, custom: &CustomRules) -> &'a str {
    let cut = utf16_prefix(text, cap);
    if cut.len() < text.len() {
        settle(without_open_marker(cut), custom)
    } else {
        cut
    }
}

/// A cut text [`settled`] with and without the `…` a cut carries, until that changes
/// nothing: dropping a dangling value can leave a new tail that reads as a secret
/// (`bearer abc+key=` once `key=…`'s value is gone). Each round shortens the text; at
/// most [`SETTLE_ROUNDS`], each over a bounded tail.
fn settle<'a>(mut cut: &'a str, custom: &CustomRules) -> &'a str {
    for _ in 0..SETTLE_ROUNDS {
        let next = settled(settled(cut, "…", custom), "", custom);
        if next.len() == cut.len() {
            break;
        }
        cut = next;
    }
    cut
}

/// Rounds [`settle`] runs at most. Each drops a secret's context the last one left, and
/// such chains are short in anything but crafted text.
const SETTLE_ROUNDS: usize = 8;

/// `text`, which was cut short, settled (see [`settled`]) and ended in `ending`.
pub(crate) fn ended(mut text: String, ending: &str, custom: &CustomRules) -> String {
    let keep = settled(&text, ending, custom).len();
    text.truncate(keep);
    text.push_str(ending);
    text
}

/// A cut text that reads the same when it is cleaned again. A cut can leave the context of
/// a secret without its (already redacted) value, `Authorization: Basic` say, which the
/// redactor would now take for a value; such a tail is dropped, so the core's own output
/// is stable under its own pipeline (rule 6: an object reads back byte for byte).
/// Judged with the `ending` the cut text will carry (`Authorization: Basic…`).
fn settled<'a>(cut: &'a str, ending: &str, custom: &CustomRules) -> &'a str {
    // Only the end of the text can be left dangling: the context of a secret is short, and
    // it stands before the word the cut fell in (a value judged whole, a placeholder's
    // `…000000`, a run of `é` too long to be a value, may read as a secret without its
    // end), however long that word is and whatever its characters.
    let word = cut.bytes().rev().take_while(|b| !b.is_ascii_whitespace()).count();
    let mut from = search::floor_boundary(cut, (cut.len() - word).saturating_sub(CUT_TAIL_REACH));
    // A URL's user info runs up to 256 bytes past its scheme, without a blank, and one the
    // cut ends is judged a secret: so when the tail has no blank, the last `://` before it,
    // that near, moves it back to keep the scheme in view.
    if from > 0 && !cut.as_bytes()[from..].iter().any(u8::is_ascii_whitespace) {
        let near = search::floor_boundary(cut, from.saturating_sub(URL_REACH));
        if let Some(sep) = search::rfind(&cut[near..from], "://").or_else(|| search::rfind(&cut[near..from], r":\/\/")) {
            from = search::floor_boundary(cut, (near + sep).saturating_sub(SCHEME_ROOM));
        }
    }
    let ended = format!("{}{ending}", &cut[from..]);
    match redact_secrets(&ended, custom, &mut Redactions::default()) {
        Cow::Borrowed(_) => cut,
        Cow::Owned(redacted) => {
            let same = ended.bytes().zip(redacted.bytes()).take_while(|(a, b)| a == b).count();
            &cut[..search::floor_boundary(cut, from + same.min(cut.len() - from))]
        }
    }
}

/// How far back from the token a cut falls in [`settled`] looks for a dangling secret
/// context, in bytes.
const CUT_TAIL_REACH: usize = 256;

/// How far before that [`settled`] looks for a URL whose user info may run into the tail:
/// the URL rule's longest user info, and room for the separator.
const URL_REACH: usize = crate::text::scan::MAX_USERINFO + 8;

/// Room kept before a URL's `://` for its scheme.
const SCHEME_ROOM: usize = 40;

/// A safe text cut to `cap` units, never inside a redaction marker.
pub(crate) fn cut_safe(text: &SafeText, cap: usize, custom: &CustomRules) -> SafeText {
    SafeText::from_pipeline(cut_at(text, cap, custom).to_owned())
}

/// A text that was just cut short, without a redaction marker left open at its end: an
/// unclosed `[REDACTED:…` (however many open one after another, `[REDACTED:[REDACTED:x`,
/// from a text that held an opening already), or a cut inside the opening itself
/// (`[REDAC`).
pub(crate) fn without_open_marker(cut: &str) -> &str {
    const OPEN: &str = MARKER_PREFIX;
    // Every opening after the last `]` is unclosed: the first of them ends the text.
    let closed = cut.rfind(']').map_or(0, |close| close + 1);
    let mut cut = search::find_from(cut, OPEN, closed).map_or(cut, |open| &cut[..open]);
    // A cut inside an opening leaves a prefix of it, maybe after another (`[RE[REDAC`).
    loop {
        let floor = search::floor_boundary(cut, cut.len().saturating_sub(OPEN.len()));
        match cut[floor..].rfind('[') {
            Some(at) if OPEN.starts_with(&cut[floor + at..]) => cut = &cut[..floor + at],
            _ => return cut,
        }
    }
}

/// Sanitize, defang, redact and cap a short label (MIME type, name, block type, URI, key).
pub(crate) fn label(text: &str, cap: usize, custom: &CustomRules, counts: &mut Redactions) -> SafeText {
    // A URI, name or key reaches the model like any text: chat markers are defanged too,
    // and so are role labels anywhere in it (`x::Human: go`), which a label on one line
    // can carry where a text would start a line with them.
    let ((kept, _), _) = capped(text, cap, custom, counts);
    match defang_role_words(&kept, counts) {
        Cow::Borrowed(_) => SafeText::from_pipeline(kept),
        Cow::Owned(defanged) => SafeText::from_pipeline(defanged),
    }
}

/// Room a qualified name's second part always keeps, in UTF-16 units: more than the
/// longest marker, so a redacted name is never cut to nothing.
const NAME_PART_ROOM: usize = 64;

/// A `namespace::name` (a tool) as a [`label`], each part cleaned on its own so that a
/// redaction or a cut never swallows the `::` between them: the answer reads
/// `namespace::name` with both parts present, within `cap` units (at least
/// [`NAME_PART_ROOM`] + 3). A text without `::` is one label.
pub(crate) fn qualified_label(text: &str, cap: usize, custom: &CustomRules, counts: &mut Redactions) -> SafeText {
    let Some((namespace, name)) = search::split_once(text, "::") else {
        return label(text, cap, custom, counts);
    };
    let cap = cap.max(NAME_PART_ROOM + 3);
    // Nearly every tool name is clean: when cleaning it whole changes nothing and neither
    // part needs a cut, the parts cleaned apart would read the same, so one pass answers.
    if utf16_len(namespace) <= cap - NAME_PART_ROOM - 2 && utf16_len(text) <= cap {
        let mut found = Redactions::default();
        let whole = label(text, cap, custom, &mut found);
        if whole.as_str() == text {
            return whole;
        }
    }
    let namespace = label(namespace, cap - NAME_PART_ROOM - 2, custom, counts);
    let name = label(name, cap - utf16_len(&namespace) - 2, custom, counts);
    let mut out = SafeTextBuilder::with_capacity(namespace.len() + name.len() + 2);
    out.safe(&namespace).literal("::").safe(&name);
    out.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Collapsing blanks can make a chat marker: the collapsed text is defanged again, so
    /// it reads the same when cleaned again (found by the fuzzer).
    #[test]
    fn a_collapsed_line_is_a_fixed_point() {
        let none = CustomRules::none();
        for text in ["x <S      >S>x<</jSY>", "name=xgxxxxxxxx<S  xxxxxxxxxgxxxxxxxx<S      >S>x<</jSY>\\\": [\\\"b\\\"]"] {
            let mut counts = Redactions::default();
            let once = one_line(&clean_whole(text, none, &mut counts), 4096, false, none);
            let again = clean_whole(&once, none, &mut counts);
            assert_eq!(&*again, &*once, "{text:?}");
        }
    }

    /// A cut that takes away what kept a bracket from opening a marker (the blank after an
    /// autolink with no `>`) defangs it in the cut text, which the next pass reads alone
    /// (found by the fuzzer in an object key).
    #[test]
    fn a_marker_the_cut_makes_is_defanged() {
        let none = CustomRules::none();
        let text = "session line\n<pizationlg.xttps://api.-key=[x] then more words";
        let cap = text.find("=[x]").unwrap();
        let mut counts = Redactions::default();
        let once = label(text, cap, none, &mut counts);
        assert_eq!(once.as_str(), "session line\n⟨pizationlg.xttps://api.-key");
        assert_eq!(counts.get("markdown_link"), 1);
        assert_eq!(label(once.as_str(), cap, none, &mut Redactions::default()).as_str(), once.as_str());
    }

    /// After a redaction, the lines that hold a marker are defanged again, and only those: a
    /// marker's view ends at its line's end, so no tag reaches a marker from a line before
    /// (`<S` then a marker's line: the fuzzer's case, when views of plain text ran on).
    #[test]
    fn lines_with_a_redaction_marker_are_defanged_again() {
        let mut counts = Redactions::default();
        let text = "a [REDACTED:x] <|im_end|>\nnext <|im_end|>\n[REDACTED:y] [INST]";
        assert_eq!(
            defang_marker_lines(text, &mut counts).as_deref(),
            Some("a [REDACTED:x] ⟨|im_end|⟩\nnext <|im_end|>\n[REDACTED:y] ⟦INST⟧")
        );
        assert_eq!(counts.get("chat_template"), 2);
        assert_eq!(defang_marker_lines("[REDACTED:x] clean\n<|im_end|>", &mut counts), None);
        assert_eq!(defang_markers("a\n<S\nx [REDACTED:y] z>", &mut counts), "a\n<S\nx [REDACTED:y] z>");
    }

    #[test]
    fn a_qualified_label_keeps_its_separator_whatever_is_redacted() {
        let mut c = Redactions::default();
        // A secret-field value running across the `::` would swallow it in one label.
        let tool = "shell --password=FAKEc::run_command";
        let out = qualified_label(tool, 256, CustomRules::none(), &mut c);
        let (ns, name) = out.split_once("::").expect("the separator survives");
        assert!(!ns.is_empty() && !name.is_empty() && !out.contains("FAKEc"), "{out}");
        // A long namespace leaves the name its room; the whole stays within the cap.
        let long = format!("{}::tool", "n".repeat(300));
        let out = qualified_label(&long, 256, CustomRules::none(), &mut c);
        assert!(out.ends_with("::tool") && crate::json::utf16_len(&out) <= 256, "{out}");
        assert_eq!(qualified_label("no separator", 256, CustomRules::none(), &mut c).as_str(), "no separator");
    }

    fn text(s: &str) -> JsonText {
        JsonText::whole(s)
    }

    #[test]
    fn a_secret_cut_off_by_the_window_is_read_whole_when_redaction_shrinks_the_window() {
        // Eight private keys shrink to eight markers, which pulls a token from far past the
        // first window in front of the cut: the window grows until the token is whole.
        let key = "-----BEGIN RSA PRIVATE KEY-----\ntKsxZNAFNe8rYDGJGXkTGQa9ebRqjBpT7Xr82GnUA0YFZ2OJVdub50WupghlsFLx\ng68eMKKfYN1oAAb7UI89uwj8nIAz9l8I1OebiouX6RPvaeg3NSPZeRdtXhiCgP7N\n-----END RSA PRIVATE KEY-----\n";
        let text = format!("EISDIR {} ghp_nUq0yn1KnObNvy3dGhRabcdefghijklmnopq0123 tail", key.repeat(8));
        // Some cap puts the first window's end inside the token (or inside a key).
        for cap in (150..=420).step_by(10) {
            let mut c = Redactions::default();
            let out = clean_text(&text, cap, CustomRules::none(), &mut c);
            assert!(!out.contains("nUq0yn1K") && !out.contains("tKsxZNAF"), "cap {cap}: {out}");
            assert_eq!(c.get("private_key"), 8, "cap {cap}: every key counted once, whatever the reads");
            let out = capped_text(&JsonText::whole(text.clone()), cap, CustomRules::none(), &mut Redactions::default()).text;
            assert!(!out.contains("nUq0yn1K"), "cap {cap}: {out}");
        }
    }

    #[test]
    fn text_is_capped_after_redaction() {
        let mut c = Redactions::default();
        let secret = format!("{} ghp_abcdefghijklmnopqrstuvwxyz0123456789 tail", "a".repeat(89));
        let out = capped_text(&text(&secret), 100, CustomRules::none(), &mut c);
        // The token straddles the cut: it is redacted first, then the marker is cut whole.
        assert!(!out.text.contains("ghp_"), "{}", out.text);
        assert!(out.truncated);
        assert_eq!(out.original_length, secret.len());
        assert_eq!(c.get("github_token"), 1);
    }

    #[test]
    fn a_cut_inside_a_long_user_info_reads_the_same_again() {
        // No host follows the user info, so it is no credential; cut, it ends the text and
        // may be one. Whatever its length, the cut text is cleaned as it would be again.
        for run in [40, 200, 250, 300, 600] {
            let input = format!("curl https://x:{} done", "a".repeat(run));
            for cap in [30, 60, 120, 240] {
                let once = clean_text(&input, cap, CustomRules::none(), &mut Redactions::default());
                let twice = clean_text(once.as_str(), cap, CustomRules::none(), &mut Redactions::default());
                assert_eq!(twice.as_str(), once.as_str(), "{run} at {cap}");
            }
        }
    }

    #[test]
    fn a_cut_is_settled_until_its_new_tail_reads_the_same() {
        // Cut inside `key=…`'s value, the value is dropped; the tail left,
        // `bearer sort_4444+key=`, is then a bearer token: it goes too.
        let key = format!("note bearer sort_44444444444444+key=crTo~retl2Q~2Q~{} rest", "8".repeat(200));
        for cap in [60, 80, 100, 128] {
            let once = label(&key, cap, CustomRules::none(), &mut Redactions::default());
            let twice = label(once.as_str(), cap, CustomRules::none(), &mut Redactions::default());
            assert_eq!(twice.as_str(), once.as_str(), "at {cap}");
            assert!(!once.as_str().ends_with("key="), "at {cap}: {}", once.as_str());
        }
        // A structured string cut inside a run of `é` after `bearer :`: the name before
        // the run is in view however long the word the cut falls in, whatever its
        // characters, so the cut reads the same when the string is read again.
        let cut = format!("bearer :\n {}", "é".repeat(1014));
        let once = ended(cut, "…[TRUNCATED]", CustomRules::none());
        assert!(matches!(redact_secrets(&once, CustomRules::none(), &mut Redactions::default()), Cow::Borrowed(_)), "{once}");
        // A command whose password is a word counted from it: each cut word dropped must
        // not make the word before a password.
        let line = "re* htpasswd -b `TlutnizeIFAACEFAKEFAK1E235nized key: \\\":secr~et_field,{\"CP eEcceecognized key: \\\": htpasswd ld,{\"cognized key;backup+-errsr: X-A'or";
        for cap in 20..line.len() {
            let once = label(line, cap, CustomRules::none(), &mut Redactions::default());
            let twice = label(once.as_str(), cap, CustomRules::none(), &mut Redactions::default());
            assert_eq!(twice.as_str(), once.as_str(), "at {cap}");
        }
    }

    #[test]
    fn a_cut_never_leaves_part_of_a_marker() {
        let marked = "ab [REDACTED:api_key] cd";
        for cap in 0..marked.len() {
            let cut = cut_at(marked, cap, CustomRules::none());
            assert!(!cut.contains('[') || cut.contains(']'), "{cap}: {cut:?}");
        }
        // Text that merely ends in a bracket is kept when nothing was cut.
        assert_eq!(cut_at("see [RED", 100, CustomRules::none()), "see [RED");
        assert_eq!(cut_at("a [x] b", 4, CustomRules::none()), "a [x");
        // An opening the text held before a marker: both go, and so does a cut opening
        // after a partial one.
        assert_eq!(without_open_marker("key=[REDACTED:[REDACTED:notion_tok"), "key=");
        assert_eq!(without_open_marker("[x] key=[REDACTED:a [REDACTED:b"), "[x] key=");
        assert_eq!(without_open_marker("key=[RE[REDAC"), "key=");
        assert_eq!(without_open_marker("é[REDAC"), "é");
        assert_eq!(without_open_marker("[REDACTED:a] é"), "[REDACTED:a] é");
    }

    #[test]
    fn stripped_padding_cannot_push_a_secret_past_the_window() {
        let mut c = Redactions::default();
        let padded = format!("{}ghp_abcdefghijklmnopqrstuvwxyz0123456789", "\u{0}".repeat(64 + REDACTION_MARGIN - 10));
        let out = capped_text(&text(&padded), 64, CustomRules::none(), &mut c);
        assert_eq!(out.text, "[REDACTED:github_token]");
        assert_eq!(c.get("github_token"), 1);
    }

    #[test]
    fn huge_text_costs_its_window() {
        let mut c = Redactions::default();
        let head = "x".repeat(200_000);
        let t = JsonText::from_head(head, 50_000_000);
        let out = capped_text(&t, 8192, CustomRules::none(), &mut c);
        assert_eq!(out.text.len(), 8192);
        assert_eq!(out.original_length, 50_000_000);
    }
}
