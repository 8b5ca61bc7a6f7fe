//! Evidence: every content block described safely (rules 7-10), structured values
//! redacted and capped. Redaction always runs before truncation, on a window a little
//! longer than the cap, so no partial secret survives at a cut and a huge input costs no
//! more than its window.

use crate::json::{utf16_len, utf16_prefix, write_json, ByteCount, Json, JsonList, JsonText};
use crate::policy::Policy;
use crate::redact::{is_secret_key, marker, redact_secrets, Redactions};
use crate::sanitize::{defang_chat_markers, strip_controls_prefix};

/// Extra UTF-16 units read past a text cap, so a secret that starts before the cut is
/// seen whole by the redactor.
pub const REDACTION_MARGIN: usize = 1024;

/// Longest URI kept, in UTF-16 code units.
pub const MAX_URI: usize = 2048;

/// Longest MIME type, name or block type kept, in UTF-16 code units.
pub const MAX_LABEL: usize = 256;

/// Longest object key kept in structured evidence, in UTF-16 code units.
pub const MAX_KEY: usize = 128;

/// A text after sanitizing, redaction and capping.
#[derive(Clone, Debug, PartialEq)]
pub struct CappedText {
    /// The text to show.
    pub text: String,
    /// Whether anything was cut.
    pub truncated: bool,
    /// The original length in UTF-16 code units.
    pub original_length: usize,
}

/// Sanitize, redact, defang, then cap a text at `cap` UTF-16 units.
pub fn capped_text(input: &JsonText, cap: usize, counts: &mut Redactions) -> CappedText {
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
pub fn clean_text(text: &str, cap: usize, counts: &mut Redactions) -> String {
    let window = JsonText::from_head(utf16_prefix(text, cap.saturating_add(REDACTION_MARGIN)), utf16_len(text));
    let c = capped_text(&window, cap, counts);
    if c.truncated {
        c.text + "…"
    } else {
        c.text
    }
}

/// Cap `text` at `cap` units without leaving half a redaction marker at the end.
pub fn cut_at(text: &str, cap: usize) -> &str {
    let cut = utf16_prefix(text, cap);
    if cut.len() < text.len() {
        without_open_marker(cut)
    } else {
        cut
    }
}

/// A text that was just cut short, without a redaction marker left open at its end: an
/// unclosed `[REDACTED:…`, or a cut inside the opening itself (`[REDAC`).
pub fn without_open_marker(cut: &str) -> &str {
    const OPEN: &str = "[REDACTED:";
    if let Some(open) = crate::search::rfind(cut, OPEN).filter(|&open| !cut[open..].contains(']')) {
        return &cut[..open];
    }
    match cut.rfind('[') {
        Some(open) if OPEN.starts_with(&cut[open..]) => &cut[..open],
        _ => cut,
    }
}

/// Sanitize, redact, defang and cap a short label (MIME type, name, block type, URI, key).
pub fn label(text: &str, cap: usize, counts: &mut Redactions) -> String {
    let (window, _) = strip_controls_prefix(text, cap.saturating_add(REDACTION_MARGIN));
    let redacted = redact_secrets(&window, counts);
    // A URI, name or key reaches the model like any text: chat markers are defanged too.
    let clean = defang_chat_markers(&redacted, counts);
    cut_at(&clean, cap).to_owned()
}

/// Builds content descriptors: objects whose members keep insertion order, `type` first.
struct Descriptor(Vec<(String, Json)>);

impl Descriptor {
    fn new(block_type: &str) -> Self {
        Descriptor(vec![("type".to_owned(), Json::String(JsonText::whole(block_type)))])
    }

    fn text(mut self, key: &str, value: String) -> Self {
        self.0.push((key.to_owned(), Json::String(JsonText::whole(value))));
        self
    }

    fn number(mut self, key: &str, n: usize) -> Self {
        self.0.push((key.to_owned(), Json::Number(n as f64)));
        self
    }

    fn flag(mut self, key: &str) -> Self {
        self.0.push((key.to_owned(), Json::Bool(true)));
        self
    }

    fn capped(self, key: &str, c: CappedText) -> Self {
        let truncated = c.truncated;
        let original = c.original_length;
        let d = self.text(key, c.text);
        if truncated {
            d.flag("truncated").number("original_length", original)
        } else {
            d
        }
    }

    fn build(self) -> Json {
        let n = self.0.len();
        Json::Object(JsonList::new(self.0, n))
    }
}

/// The evidence descriptor for one MCP content block (already known to be an object with
/// a string `type`). Binary data never passes; `_meta` and `annotations` never pass.
pub fn describe_block(block: &Json, block_type: &str, policy: &Policy, counts: &mut Redactions) -> Json {
    let text_cap = policy.max_text_chars();
    let str_of = |key: &str| block.get(key).and_then(Json::as_text);
    match block_type {
        "text" => {
            let empty = JsonText::whole("");
            Descriptor::new("text").capped("text", capped_text(str_of("text").unwrap_or(&empty), text_cap, counts)).build()
        }
        "image" | "audio" => {
            let mut d = Descriptor::new(block_type);
            if let Some(mime) = block.get("mimeType").and_then(Json::as_str) {
                d = d.text("mime_type", label(mime, MAX_LABEL, counts));
            }
            d.number("encoded_bytes", str_of("data").map_or(0, JsonText::total_utf16)).flag("data_omitted").build()
        }
        "resource" => {
            let resource = block.get("resource").unwrap_or(&Json::Null);
            let mut d = Descriptor::new("resource");
            if let Some(uri) = resource.get("uri").and_then(Json::as_str) {
                d = d.text("uri", label(uri, MAX_URI, counts));
            }
            if let Some(mime) = resource.get("mimeType").and_then(Json::as_str) {
                d = d.text("mime_type", label(mime, MAX_LABEL, counts));
            }
            if let Some(text) = resource.get("text").and_then(Json::as_text) {
                d = d.capped("text", capped_text(text, text_cap, counts));
            } else if let Some(blob) = resource.get("blob").and_then(Json::as_text) {
                d = d.number("encoded_bytes", blob.total_utf16()).flag("data_omitted");
            }
            d.build()
        }
        "resource_link" => {
            let mut d = Descriptor::new("resource_link");
            for (from, to, cap) in [("uri", "uri", MAX_URI), ("name", "name", MAX_LABEL), ("mimeType", "mime_type", MAX_LABEL)] {
                if let Some(v) = block.get(from).and_then(Json::as_str) {
                    d = d.text(to, label(v, cap, counts));
                }
            }
            d.build()
        }
        other => Descriptor::new(&label(other, 64, counts)).flag("content_omitted").build(),
    }
}

/// Caps for rendering a structured value.
#[derive(Clone, Copy, Debug)]
pub struct JsonCaps {
    /// Nesting levels kept.
    pub depth: usize,
    /// Items or members kept per level.
    pub items: usize,
    /// UTF-16 units kept per string.
    pub string_chars: usize,
    /// Serialized bytes of the whole value.
    pub bytes: usize,
}

impl JsonCaps {
    /// The caps for `structured_content`.
    pub fn structured(policy: &Policy) -> Self {
        JsonCaps {
            depth: policy.max_json_depth(),
            items: policy.max_json_items(),
            string_chars: policy.max_json_string_chars(),
            bytes: policy.max_structured_bytes(),
        }
    }

    /// The caps for `parsed_error`.
    pub fn parsed_error(policy: &Policy) -> Self {
        JsonCaps { bytes: policy.max_parsed_error_bytes(), ..Self::structured(policy) }
    }

    /// Caps that only bound work, for [`redact_json`](crate::Normalizer::redact_json).
    pub fn unbounded() -> Self {
        JsonCaps { depth: usize::MAX, items: usize::MAX, string_chars: usize::MAX / 2, bytes: usize::MAX / 2 }
    }
}

/// Room kept at each level for the truncation marker.
const MARKER_RESERVE: usize = 48;

/// Render a redacted copy of `value` within `caps`. Keys that name secrets have their
/// values replaced; strings are scanned as free text. Cuts are marked explicitly:
/// a string ends in `…[TRUNCATED]`, an array gets a last item `"[TRUNCATED: N more items]"`,
/// an object a member `"[TRUNCATED]": N` (members not shown), a too-deep value becomes
/// `"[TRUNCATED: nested too deep]"`. The serialized result never exceeds `caps.bytes`.
pub fn render_json(value: &Json, caps: JsonCaps, counts: &mut Redactions) -> Json {
    let mut budget = caps.bytes;
    let mut local = Redactions::default();
    let rendered = render(value, caps, 0, &mut budget, &mut local);
    if size_of(&rendered) <= caps.bytes {
        counts.merge(&local);
        rendered
    } else {
        Json::String(JsonText::whole("[TRUNCATED: value too large]"))
    }
}

fn size_of(value: &Json) -> usize {
    let mut count = ByteCount::default();
    write_json(&mut count, value);
    count.0
}

fn render(value: &Json, caps: JsonCaps, depth: usize, budget: &mut usize, counts: &mut Redactions) -> Json {
    match value {
        Json::String(text) => {
            let c = capped_text(text, caps.string_chars, counts);
            let mut s = c.text;
            if c.truncated {
                s.push_str("…[TRUNCATED]");
            }
            let v = Json::String(JsonText::whole(s));
            *budget = budget.saturating_sub(size_of(&v));
            v
        }
        Json::Array(list) if depth >= caps.depth && list.total() > 0 => too_deep(budget),
        Json::Object(list) if depth >= caps.depth && list.total() > 0 => too_deep(budget),
        Json::Array(list) => {
            let mut items = Vec::new();
            *budget = budget.saturating_sub(2);
            for item in list.items().iter().take(caps.items) {
                if *budget < MARKER_RESERVE * 2 {
                    break;
                }
                let mut inner = budget.saturating_sub(MARKER_RESERVE);
                let before = inner;
                let rendered = render(item, caps, depth + 1, &mut inner, counts);
                *budget = budget.saturating_sub(before - inner + 1);
                items.push(rendered);
            }
            let dropped = list.total() - items.len();
            if dropped > 0 {
                let marker = Json::String(JsonText::whole(format!("[TRUNCATED: {dropped} more items]")));
                *budget = budget.saturating_sub(size_of(&marker) + 1);
                items.push(marker);
            }
            let n = items.len();
            Json::Array(JsonList::new(items, n))
        }
        Json::Object(list) => {
            // The budget goes first to the members that say what the error is, then to the
            // rest in key order; the output is written in key order either way.
            let mut sorted: Vec<&(String, Json)> = list.items().iter().collect();
            sorted.sort_unstable_by(|a, b| (priority(&a.0), &a.0).cmp(&(priority(&b.0), &b.0)));
            let mut members = Vec::new();
            *budget = budget.saturating_sub(2);
            for (key, member) in sorted.into_iter().take(caps.items) {
                if *budget < MARKER_RESERVE * 2 {
                    break;
                }
                let clean_key = label(key, MAX_KEY, counts);
                let key_cost = clean_key.len() + 4;
                let mut inner = budget.saturating_sub(MARKER_RESERVE + key_cost);
                let before = inner;
                let rendered = if is_secret_key(key) {
                    counts.add("secret_field");
                    let v = Json::String(JsonText::whole(marker("secret_field")));
                    inner = inner.saturating_sub(size_of(&v));
                    v
                } else {
                    render(member, caps, depth + 1, &mut inner, counts)
                };
                *budget = budget.saturating_sub(before - inner + key_cost);
                if members.iter().all(|(k, _): &(String, Json)| *k != clean_key) {
                    members.push((clean_key, rendered));
                }
            }
            let dropped = list.total() - members.len();
            if dropped > 0 {
                *budget = budget.saturating_sub(24);
                members.push(("[TRUNCATED]".to_owned(), Json::Number(dropped as f64)));
            }
            members.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            let n = members.len();
            Json::Object(JsonList::new(members, n))
        }
        other => {
            *budget = budget.saturating_sub(size_of(other));
            other.clone()
        }
    }
}

/// Members an error object is read by, kept first when the budget is short.
const PRIORITY_KEYS: &[&str] = &["kind", "message", "code", "status", "error"];

fn priority(key: &str) -> usize {
    PRIORITY_KEYS.iter().position(|k| *k == key).unwrap_or(PRIORITY_KEYS.len())
}

fn too_deep(budget: &mut usize) -> Json {
    let v = Json::String(JsonText::whole("[TRUNCATED: nested too deep]"));
    *budget = budget.saturating_sub(size_of(&v));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse_json;

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

    #[test]
    fn binary_blocks_keep_only_descriptors() {
        let mut c = Redactions::default();
        let p = Policy::default();
        let block = parse_json(r#"{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png","_meta":{"x":1}}"#).unwrap();
        let d = describe_block(&block, "image", &p, &mut c).to_string();
        assert_eq!(d, r#"{"data_omitted":true,"encoded_bytes":12,"mime_type":"image/png","type":"image"}"#);
        let block =
            parse_json(r#"{"type":"resource","resource":{"uri":"file:///a.bin","blob":"AAAA","mimeType":"application/octet-stream"}}"#)
                .unwrap();
        let d = describe_block(&block, "resource", &p, &mut c);
        assert_eq!(d.get("encoded_bytes"), Some(&Json::Number(4.0)));
        assert!(d.get("blob").is_none());
    }

    #[test]
    fn unknown_blocks_are_omitted_with_their_type() {
        let mut c = Redactions::default();
        let block = parse_json(r#"{"type":"hologram","payload":"secret"}"#).unwrap();
        let d = describe_block(&block, "hologram", &Policy::default(), &mut c).to_string();
        assert_eq!(d, r#"{"content_omitted":true,"type":"hologram"}"#);
    }

    #[test]
    fn structured_values_are_redacted_and_capped_with_markers() {
        let mut c = Redactions::default();
        let v = parse_json(r#"{"password":"x","list":[1,2,3,4,5],"deep":{"a":{"b":1}},"s":"abcdefghijklmnopqrstuvwxyz"}"#).unwrap();
        let caps = JsonCaps { depth: 2, items: 3, string_chars: 16, bytes: 4096 };
        let out = render_json(&v, caps, &mut c).to_string();
        assert_eq!(
            out,
            r#"{"[TRUNCATED]":1,"deep":{"a":"[TRUNCATED: nested too deep]"},"list":[1,2,3,"[TRUNCATED: 2 more items]"],"password":"[REDACTED:secret_field]"}"#
        );
        assert_eq!(c.get("secret_field"), 1);
    }

    #[test]
    fn structured_values_respect_the_byte_cap() {
        let mut c = Redactions::default();
        let items: Vec<String> = (0..200).map(|i| format!("\"item number {i} with some padding text\"")).collect();
        let v = parse_json(&format!("[{}]", items.join(","))).unwrap();
        for bytes in [256, 1000, 4096] {
            let caps = JsonCaps { depth: 8, items: 256, string_chars: 1024, bytes };
            let out = render_json(&v, caps, &mut c).to_string();
            assert!(out.len() <= bytes, "{} > {bytes}", out.len());
            assert!(out.contains("[TRUNCATED:"), "{out}");
        }
    }
}
