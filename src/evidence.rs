//! Evidence: every content block described safely (rules 7-10), structured values
//! redacted and capped. Redaction always runs before truncation, on a window a little
//! longer than the cap, so no partial secret survives at a cut and a huge input costs no
//! more than its window.

use std::borrow::Cow;

use crate::json::{write_json, ByteCount, Json, JsonList, JsonText, INPUT_LIMITS};
use crate::rules::policy::Policy;
use crate::search;
use crate::text::redact::{secret_spans, Taken};
use crate::text::{capped_text, label, looks_random, marker, CappedText, CustomRules, Redactions, SafeJson, SafeText};
use crate::wire::{ContentDescriptor, ResourceBody, ShownText};

/// Longest URI kept, in UTF-16 code units.
pub(crate) const MAX_URI: usize = 2048;

/// Longest MIME type, name or block type kept, in UTF-16 code units.
pub(crate) const MAX_LABEL: usize = 256;

/// Longest object key kept in structured evidence, in UTF-16 code units.
pub(crate) const MAX_KEY: usize = 128;

/// A capped text as evidence shows it.
fn shown(c: CappedText) -> ShownText {
    ShownText::new(c.text, c.truncated, c.original_length)
}

/// The members of a content block that its evidence reads, by block type, each with the
/// type MCP gives it (`.resource.uri` lies inside the embedded resource). A block holding
/// one with another type is malformed, and the normalizer says so ([`mistyped_member`])
/// instead of reading it as absent.
const READ_MEMBERS: &[(&str, &[(&str, &str)])] = &[
    ("text", &[(".text", "a string")]),
    ("image", &[(".data", "a string"), (".mimeType", "a string")]),
    ("audio", &[(".data", "a string"), (".mimeType", "a string")]),
    (
        "resource",
        &[
            (".resource", "an object"),
            (".resource.uri", "a string"),
            (".resource.mimeType", "a string"),
            (".resource.text", "a string"),
            (".resource.blob", "a string"),
        ],
    ),
    ("resource_link", &[(".uri", "a string"), (".name", "a string"), (".mimeType", "a string")]),
];

/// The first member of `block` that [`describe_block`] reads and that is present with a
/// type other than MCP's: its path after the block (`.text`), its value, what it should be.
pub(crate) fn mistyped_member<'a>(block: &'a Json, block_type: &str) -> Option<(&'static str, &'a Json, &'static str)> {
    let (_, members) = READ_MEMBERS.iter().find(|(t, _)| *t == block_type)?;
    members.iter().find_map(|&(path, expected)| {
        let value = path[1..].split('.').try_fold(block, |v, key| v.get(key))?;
        let fits = match expected {
            "an object" => value.as_object().is_some(),
            _ => matches!(value, Json::String(_)),
        };
        (!fits && !matches!(value, Json::Null)).then_some((path, value, expected))
    })
}

/// The evidence descriptor for one MCP content block (already known to be an object with
/// a string `type`). Binary data never passes; `_meta` and `annotations` never pass.
pub(crate) fn describe_block(block: &Json, block_type: &str, policy: &Policy, counts: &mut Redactions) -> ContentDescriptor {
    let text_cap = policy.max_text_chars();
    let custom = policy.custom_rules();
    let str_of = |key: &str| block.get(key).and_then(Json::as_text);
    let mut label_of = |value: &Json, key: &str, cap: usize| value.get(key).and_then(Json::as_str).map(|v| label(v, cap, custom, counts));
    match block_type {
        "text" => {
            let empty = JsonText::whole("");
            ContentDescriptor::Text(shown(capped_text(str_of("text").unwrap_or(&empty), text_cap, custom, counts)))
        }
        "image" | "audio" => {
            let mime_type = label_of(block, "mimeType", MAX_LABEL);
            let encoded_bytes = str_of("data").map_or(0, JsonText::total_utf16) as u64;
            if block_type == "image" {
                ContentDescriptor::Image { mime_type, encoded_bytes }
            } else {
                ContentDescriptor::Audio { mime_type, encoded_bytes }
            }
        }
        "resource" => {
            let resource = block.get("resource").unwrap_or(&Json::Null);
            let uri = label_of(resource, "uri", MAX_URI);
            let mime_type = label_of(resource, "mimeType", MAX_LABEL);
            let body = if let Some(text) = resource.get("text").and_then(Json::as_text) {
                ResourceBody::Text(shown(capped_text(text, text_cap, custom, counts)))
            } else if let Some(blob) = resource.get("blob").and_then(Json::as_text) {
                ResourceBody::Blob { encoded_bytes: blob.total_utf16() as u64 }
            } else {
                ResourceBody::Empty
            };
            ContentDescriptor::Resource { uri, mime_type, body }
        }
        "resource_link" => {
            let uri = label_of(block, "uri", MAX_URI);
            let name = label_of(block, "name", MAX_LABEL);
            let mime_type = label_of(block, "mimeType", MAX_LABEL);
            ContentDescriptor::ResourceLink { uri, name, mime_type }
        }
        other => ContentDescriptor::Unknown { block_type: label(other, 64, custom, counts) },
    }
}

/// The strings of an array read together, as the array's JSON text shows them
/// (`["mysql", "-u", "root", "-p…"]`), so a secret whose context lies in another item is
/// found: a command's password after its flag, a key block given a line an item. Each
/// item such a secret overlaps gets the part it holds replaced by the secret's marker
/// (counted once in `counts`); `None` for an item left as it is, and for every item when
/// fewer than two are strings. An item that is no string, or a string longer than
/// [`ITEM_READ_TOGETHER`], stands in the joint text as `null` and breaks the context.
///
/// The core's own markers read back keep the joint text the first pass saw: the marker of
/// a value nested too deep, or of items left out, stands as `null` (in the first pass it
/// was no string, or no item); so does a string the core cut (`…[TRUNCATED]`), whose
/// whole text the first pass saw, or saw as `null` when it was long, and whose end is
/// gone; an item that is one redaction marker is read but never cut (it holds no secret).
/// So a second pass changes nothing (F18: a `Cookie:` item took every later string, and
/// markers made by the first pass became cookie markers; F19: a cut string ending in
/// `Set-Cookie:` lost its `…[TRUNCATED]` to the cookie marker, and the next item its text).
fn secrets_across_items(items: &[Json], custom: &CustomRules, counts: &mut Redactions) -> Vec<Option<String>> {
    let texts: Vec<Option<&str>> = items
        .iter()
        .map(|item| match item {
            Json::String(t) if t.head() == TOO_DEEP_MARKER || is_items_marker(t.head()) || t.head().ends_with(CUT_ENDING) => None,
            Json::String(t) if t.head().len() <= ITEM_READ_TOGETHER && t.is_complete() => Some(t.head()),
            _ => None,
        })
        .collect();
    if texts.iter().flatten().count() < 2 {
        return Vec::new();
    }
    let mut joint = String::from("[");
    let mut places = Vec::with_capacity(items.len());
    for (k, text) in texts.into_iter().enumerate() {
        if k > 0 {
            joint.push_str(", ");
        }
        match text {
            Some(text) => {
                joint.push('"');
                places.push(Some(joint.len()..joint.len() + text.len()));
                joint.push_str(text);
                joint.push('"');
            }
            None => {
                places.push(None);
                joint.push_str("null");
            }
        }
    }
    joint.push(']');
    let mut scratch = Redactions::default();
    let spans = secret_spans(&joint, custom, &mut scratch);
    // The parts of each item the secrets cover, left to right (the spans are sorted).
    let mut cuts: Vec<Vec<(std::ops::Range<usize>, &Taken)>> = vec![Vec::new(); items.len()];
    for t in &spans {
        let mut held = false;
        for (k, place) in places.iter().enumerate() {
            let Some(place) = place else { continue };
            let (start, end) = (t.span.start.max(place.start), t.span.end.min(place.end));
            if start < end {
                cuts[k].push((start - place.start..end - place.start, t));
                held = true;
            }
        }
        if held {
            t.count_in(counts);
        }
    }
    places
        .iter()
        .zip(cuts)
        .map(|(place, cuts)| {
            let text = &joint[place.clone()?];
            if cuts.is_empty() || is_one_redaction_marker(text) {
                return None;
            }
            let mut out = String::with_capacity(text.len());
            let mut copied = 0;
            for (cut, t) in cuts {
                out.push_str(&text[copied..cut.start]);
                t.write_marker(&mut out);
                copied = cut.end;
            }
            out.push_str(&text[copied..]);
            Some(out)
        })
        .collect()
}

/// The longest string of an array read together with the others, in bytes: a command's
/// argument or a key block's line is far shorter.
const ITEM_READ_TOGETHER: usize = 4096;

/// How much of each side of a junction between two text blocks is scanned together, in
/// UTF-16 units: longer than any secret the rules know in one piece.
const JUNCTION: usize = 512;

/// Text blocks with a secret split across their junction (a token cut in two by the
/// upstream's chunking) rewritten so that neither half survives: the first block ends in
/// the secret's marker, the next starts after the secret. `None` for a block that needs no
/// change.
pub(crate) fn split_secrets(blocks: &[&Json], types: &[&str], custom: &CustomRules, counts: &mut Redactions) -> Vec<Option<Json>> {
    // Borrowed until a junction rewrites a block: most reports have nothing to rewrite.
    let mut texts: Vec<Option<Cow<'_, str>>> = blocks
        .iter()
        .zip(types)
        .map(|(b, t)| if *t == "text" { b.get("text").and_then(Json::as_str).map(Cow::Borrowed) } else { None })
        .collect();
    for i in 1..texts.len() {
        let (Some(left), Some(right)) = (&texts[i - 1], &texts[i]) else { continue };
        let mut tail_start = tail_start(left, JUNCTION);
        let mut head = crate::json::utf16_prefix(right, JUNCTION);
        // A secret that spans lines is a key block; any other one lies on the junction's
        // line, so the rest of the window need not be scanned again.
        let armoured = |t: &str| search::contains(t, "-----") || search::contains(t, "---- ") || search::contains(t, "PuTTY");
        if !armoured(&left[tail_start..]) && !armoured(head) {
            if let Some(nl) = left[tail_start..].rfind('\n') {
                tail_start += nl + 1;
            }
            head = &head[..head.find('\n').unwrap_or(head.len())];
        }
        let tail = &left[tail_start..];
        if tail.is_empty() || head.is_empty() {
            continue;
        }
        // Glued together: a token cut in two, or a header name in one block and its value
        // in the next.
        let joint = format!("{tail}{head}");
        let mut joint_counts = Redactions::default();
        // The first secret that starts in one block and ends in the next: every other one
        // lies in one block, whose own cleaning finds it.
        let spans = secret_spans(&joint, custom, &mut joint_counts);
        let Some(straddling) = across(&spans, tail.len()) else {
            continue;
        };
        let (start, end) = (straddling.span.start, straddling.span.end);
        let mut marker = String::new();
        straddling.write_marker(&mut marker);
        counts.merge(&joint_counts);
        // The joint's span may start or end inside a secret a block's own scan finds whole
        // (a key block without its end runs to the end of the window, which may be in the
        // middle of a value or just after a key name): the cuts keep no piece of it.
        let start = cut_before_secret(tail, search::floor_boundary(tail, start), custom);
        let mut new_left = left[..tail_start + start].to_owned();
        new_left.push_str(&marker);
        let new_right = rest_after_cut(right, search::floor_boundary(right, end - tail.len()), custom, counts);
        texts[i - 1] = Some(Cow::Owned(new_left));
        texts[i] = Some(Cow::Owned(new_right));
    }
    texts
        .into_iter()
        .map(|text| {
            let Some(Cow::Owned(text)) = text else { return None };
            let total = crate::json::utf16_len(&text);
            let members = vec![
                ("type".to_owned(), Json::String(JsonText::whole("text"))),
                ("text".to_owned(), Json::String(JsonText::from_head(text, total))),
            ];
            Some(Json::Object(JsonList::new(members, 2)))
        })
        .collect()
}

/// What is left of `text`, the block after a junction, once its head up to `at` is cut
/// away into the span the scan across the junction took. The secrets the block's own scan
/// finds near the cut are replaced here, while their names are still in view: cut first
/// and a value whose key name (or a token whose prefix) was in the head would lose what
/// marks it as a secret. A secret the cut falls inside is dropped whole, as the span's
/// marker stands for it. Each secret replaced is counted in `counts`.
///
/// The block is read in a window from its start, doubled while a secret near the cut runs
/// to the window's end, so the work is linear in what that secret covers.
fn rest_after_cut(text: &str, at: usize, custom: &CustomRules, counts: &mut Redactions) -> String {
    // Near the cut: a junction's width past it, more than a secret's name and value.
    let near = at + crate::json::utf16_prefix(&text[at..], JUNCTION).len();
    let mut units = 4 * JUNCTION;
    loop {
        let window = crate::json::utf16_prefix(text, units);
        let mut scratch = Redactions::default();
        let spans = secret_spans(window, custom, &mut scratch);
        let chosen: Vec<_> = spans.iter().filter(|t| t.span.end > at && t.span.start < near).collect();
        if chosen.last().is_some_and(|t| t.span.end == window.len()) && window.len() < text.len() {
            units = units.saturating_mul(2);
            continue;
        }
        let begin = match chosen.first() {
            Some(t) if t.span.start < at => t.span.end,
            _ => at,
        };
        let mut rest = String::with_capacity(text.len() - begin);
        let mut copied = begin;
        for t in chosen.iter().filter(|t| t.span.start >= begin) {
            rest.push_str(&text[copied..t.span.start]);
            t.write_marker(&mut rest);
            t.count_in(counts);
            copied = t.span.end;
        }
        rest.push_str(&text[copied..]);
        return rest;
    }
}

/// `at`, a cut in `text` (a block's end) where the span the scan across the junction took
/// starts, moved back to the start of the secret it falls inside, as `text`'s own scan
/// finds it: the head of that secret must not stay behind in the block.
fn cut_before_secret(text: &str, at: usize, custom: &CustomRules) -> usize {
    let mut scratch = Redactions::default();
    across(&secret_spans(text, custom, &mut scratch), at).map_or(at, |t| t.span.start)
}

/// The span that starts before `at` and ends after it, if one does.
fn across<'s, 'r>(spans: &'s [Taken<'r>], at: usize) -> Option<&'s Taken<'r>> {
    spans.iter().find(|t| t.span.start < at && at < t.span.end)
}

/// Where the last `units` UTF-16 units of `text` start.
fn tail_start(text: &str, units: usize) -> usize {
    let total = crate::json::utf16_len(text);
    if total <= units {
        return 0;
    }
    crate::json::utf16_prefix(text, total - units).len()
}

/// Caps for rendering a structured value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JsonCaps {
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
    pub(crate) fn structured(policy: &Policy) -> Self {
        JsonCaps {
            depth: policy.max_json_depth(),
            items: policy.max_json_items(),
            string_chars: policy.max_json_string_chars(),
            bytes: policy.max_structured_bytes(),
        }
    }

    /// The caps for `parsed_error`.
    pub(crate) fn parsed_error(policy: &Policy) -> Self {
        JsonCaps { bytes: policy.max_parsed_error_bytes(), ..Self::structured(policy) }
    }

    /// Caps that only bound work, for [`redact_json`](crate::Normalizer::redact_json).
    pub(crate) fn unbounded() -> Self {
        JsonCaps { depth: usize::MAX, items: usize::MAX, string_chars: usize::MAX / 2, bytes: usize::MAX / 2 }
    }
}

/// The key of the member a cut object ends with; its value counts the members not shown.
const MEMBERS_MARKER: &str = "[TRUNCATED]";

/// How a string the core cut ends.
const CUT_ENDING: &str = "…[TRUNCATED]";

/// What a value nested past the depth cap is rendered as.
const TOO_DEEP_MARKER: &str = "[TRUNCATED: nested too deep]";

/// Room kept at each level for the truncation marker.
const MARKER_RESERVE: usize = 48;

/// Render a redacted copy of `value` within `caps`. Keys that name secrets have their
/// values replaced; strings are scanned as free text. Cuts are marked explicitly:
/// a string ends in `…[TRUNCATED]`, an array gets a last item `"[TRUNCATED: N more items]"`,
/// an object a member `"[TRUNCATED]": N` (members not shown), a too-deep value becomes
/// `"[TRUNCATED: nested too deep]"`. The serialized result never exceeds `caps.bytes`.
/// Key names and strings are judged by the built-in rules and `custom`'s; a secret-named
/// member whose whole value is a string `custom` allows is kept.
pub(crate) fn render_json(value: &Json, caps: JsonCaps, custom: &CustomRules, counts: &mut Redactions) -> SafeJson {
    let mut budget = caps.bytes;
    let mut local = Redactions::default();
    let rendered = Render { caps, custom }.render(value, 0, &mut budget, &mut local);
    if size_of(&rendered) <= caps.bytes {
        counts.merge(&local);
        SafeJson::from_rendered(rendered)
    } else {
        SafeJson::literal("[TRUNCATED: value too large]")
    }
}

fn size_of(value: &Json) -> usize {
    let mut count = ByteCount::default();
    write_json(&mut count, value);
    count.0
}

/// What a rendering applies: the caps, and the policy's rules.
#[derive(Clone, Copy)]
struct Render<'r> {
    caps: JsonCaps,
    custom: &'r CustomRules,
}

impl Render<'_> {
    fn render(&self, value: &Json, depth: usize, budget: &mut usize, counts: &mut Redactions) -> Json {
        let (caps, custom) = (self.caps, self.custom);
        match value {
            // The core's own list marker, read back, stays whole: cutting it would change it.
            Json::String(text) if is_items_marker(text.head()) => {
                let v = Json::String(text.clone());
                *budget = budget.saturating_sub(size_of(&v));
                v
            }
            Json::String(text) => {
                let c = capped_text(text, caps.string_chars, custom, counts);
                let mut s = c.text.into_string();
                if c.truncated {
                    s = crate::text::clean::ended(s, CUT_ENDING, custom);
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
                // A list cut short keeps one item fewer, so with its marker it is no longer than
                // the cap: read and rendered again, it is the same list (the marker is an item).
                let cap = caps.items.min(INPUT_LIMITS.array_items);
                let keep = if list.total() > cap { cap.saturating_sub(1) } else { cap };
                let kept = &list.items()[..keep.min(list.items().len())];
                let mut across = secrets_across_items(kept, custom, counts).into_iter();
                for item in kept {
                    if *budget < MARKER_RESERVE * 2 {
                        break;
                    }
                    let mut inner = budget.saturating_sub(MARKER_RESERVE);
                    let before = inner;
                    let rendered = match across.next().flatten() {
                        Some(text) => self.render(&Json::String(JsonText::whole(text)), depth + 1, &mut inner, counts),
                        None => self.render(item, depth + 1, &mut inner, counts),
                    };
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
                // By name, then by priority keeping names in order: the crate's two sorts.
                crate::order::sort_by(&mut sorted, |a, b| a.0 < b.0);
                crate::order::sort_by_key(&mut sorted, |m| priority(&m.0));
                let mut members = Vec::new();
                *budget = budget.saturating_sub(2);
                // `{"name": "X-Api-Key", "value": "…"}`: the sibling says what the value is;
                // a short name (`{"name": "session", …}`) says so when the value looks
                // generated, as the same name as a member's key does.
                let names: Vec<SafeText> = list
                    .items()
                    .iter()
                    .filter(|(k, _)| k.eq_ignore_ascii_case("name") || k.eq_ignore_ascii_case("key"))
                    .filter_map(|(_, v)| self.sibling_name(v))
                    .collect();
                let named_secret = names.iter().any(|n| custom.keys.names_its_value(n.as_str()));
                let named_weak = names.iter().any(|n| custom.keys.is_weak(n.as_str()));
                // As for lists: a cut object keeps one member fewer, so with its marker member
                // it is no larger than the cap and reads back the same.
                let cap = caps.items.min(INPUT_LIMITS.object_members);
                let keep = if list.total() > cap { cap.saturating_sub(1) } else { cap };
                // A cut object's member named like the marker would be dropped for it: it
                // takes no place among those kept.
                let over = list.total() > cap;
                let shown = sorted.into_iter().filter(|(key, _)| !(over && key == MEMBERS_MARKER));
                for (key, member) in shown.take(keep) {
                    if *budget < MARKER_RESERVE * 2 {
                        break;
                    }
                    // The key is judged as a secret name after cleaning, so characters that hide
                    // its name (`pass\u{200B}word`) cannot pass its value.
                    let clean_key = label(key, MAX_KEY, custom, counts).into_string();
                    let key_cost = clean_key.len() + 4;
                    let mut inner = budget.saturating_sub(MARKER_RESERVE + key_cost);
                    let before = inner;
                    let is_value = clean_key.eq_ignore_ascii_case("value");
                    let named = custom.keys.is_secret(&clean_key) || (named_secret && is_value);
                    let weak = custom.keys.is_weak(&clean_key) || (named_weak && is_value);
                    let masked =
                        ((named && !describes_a_secret(member)) || (!named && weak && holds_generated(member))) && !allowed(member, custom);
                    let rendered = if masked {
                        counts.add("secret_field");
                        let v = Json::String(JsonText::whole(marker("secret_field")));
                        inner = inner.saturating_sub(size_of(&v));
                        v
                    } else {
                        self.render(member, depth + 1, &mut inner, counts)
                    };
                    *budget = budget.saturating_sub(before - inner + key_cost);
                    if members.iter().all(|(k, _): &(String, Json)| *k != clean_key) {
                        members.push((clean_key, rendered));
                    }
                }
                // The input may name a member as the marker does; when the marker is written,
                // that member counts among those not shown, so no key appears twice.
                if list.total() > members.len() {
                    members.retain(|(k, _)| k != MEMBERS_MARKER);
                }
                let dropped = list.total() - members.len();
                if dropped > 0 {
                    *budget = budget.saturating_sub(24);
                    members.push((MEMBERS_MARKER.to_owned(), Json::Number(dropped as f64)));
                }
                crate::order::sort_by(&mut members, |a, b| a.0 < b.0);
                let n = members.len();
                Json::Object(JsonList::new(members, n))
            }
            other => {
                *budget = budget.saturating_sub(size_of(other));
                other.clone()
            }
        }
    }
}

impl Render<'_> {
    /// `value`, a `name` or `key` member beside a `value`, as the name the value is judged
    /// by (`"X-Api-Key"`, `"session"`), when it can be one. It is taken as it will be
    /// rendered (cleaned, redacted), so the rendered object, read again, is judged the
    /// same: a name is short and shown whole, and a marker the redactor left in it
    /// (`[REDACTED:cli_password]`) names no key.
    fn sibling_name(&self, value: &Json) -> Option<SafeText> {
        let Json::String(text) = value else { return None };
        if !text.is_complete() || text.total_utf16() > MAX_KEY {
            return None;
        }
        let name = label(text.head(), MAX_KEY, self.custom, &mut Redactions::default());
        let shown_whole =
            crate::json::utf16_len(name.as_str()) <= NAME_CHARS.min(self.caps.string_chars) && !name.as_str().ends_with("…[TRUNCATED]");
        shown_whole.then_some(name)
    }
}

/// Longest `name` beside a `value` judged as a secret's name, in UTF-16 units: header and
/// variable names are far shorter.
const NAME_CHARS: usize = 64;

/// Whether a member's value is a whole string the policy allows.
fn allowed(value: &Json, custom: &CustomRules) -> bool {
    matches!(value, Json::String(s) if s.is_complete() && custom.allows(s.head()))
}

/// Members an error object is read by, kept first when the budget is short.
const PRIORITY_KEYS: &[&str] = &["kind", "message", "code", "status", "error"];

fn priority(key: &str) -> usize {
    PRIORITY_KEYS.iter().position(|k| *k == key).unwrap_or(PRIORITY_KEYS.len())
}

fn too_deep(budget: &mut usize) -> Json {
    let v = Json::String(JsonText::whole(TOO_DEEP_MARKER));
    *budget = budget.saturating_sub(size_of(&v));
    v
}

/// Whether `text` is one redaction marker and nothing else (`[REDACTED:cookie]`).
fn is_one_redaction_marker(text: &str) -> bool {
    text.strip_prefix(crate::text::MARKER_PREFIX)
        .and_then(|rest| rest.strip_suffix(']'))
        .is_some_and(|family| !family.is_empty() && family.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
}

/// Whether `text` is exactly the marker a cut list ends with, `[TRUNCATED: N more items]`.
fn is_items_marker(text: &str) -> bool {
    text.strip_prefix("[TRUNCATED: ")
        .and_then(|rest| rest.strip_suffix(" more items]"))
        .is_some_and(|n| !n.is_empty() && n.len() <= 20 && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Keys of an object that describes a secret rather than holds one: a JSON Schema of a
/// `password` property (`{"type": "string", "minLength": 12}`), an auth method (`{"type":
/// "oauth2", "scopes": [...]}`). `default`, `const` and `examples` may hold a secret and
/// are not among them.
const DESCRIPTION_KEYS: &[&str] = &[
    "type",
    "format",
    "description",
    "title",
    "minlength",
    "maxlength",
    "pattern",
    "writeonly",
    "readonly",
    "deprecated",
    "nullable",
    "required",
    "scopes",
    "scheme",
    "in",
    "name",
    "flows",
    "$ref",
    "$comment",
];

/// Whether a secret-named member's value is an object that only describes the secret.
///
/// A description as the core renders it, read again, is still one: the marker member of a
/// cut object (`{"type": "string", "[TRUNCATED]": 3}`) and the marker that stands for one
/// nested too deep describe nothing that could be secret.
fn describes_a_secret(value: &Json) -> bool {
    if value.as_str() == Some(TOO_DEEP_MARKER) {
        return true;
    }
    value.as_object().is_some_and(|members| {
        !members.items().is_empty()
            && members.total() == members.items().len()
            && members.items().iter().all(|(k, v)| {
                (k == MEMBERS_MARKER && matches!(v, Json::Number(_)))
                    || (DESCRIPTION_KEYS.iter().any(|d| d.eq_ignore_ascii_case(k)) && (v.as_str().is_none_or(|s| !looks_generated(s))))
            })
    })
}

/// Whether a weakly named member (`pass`, `key`) holds a generated-looking string, or a
/// list of them.
fn holds_generated(value: &Json) -> bool {
    match value {
        Json::String(s) => looks_generated(s.head()),
        Json::Array(items) => items.items().iter().any(|v| v.as_str().is_some_and(looks_generated)),
        _ => false,
    }
}

/// Whether a string looks generated as it will be shown: with the characters the
/// sanitizer strips taken out (a zero-width joiner must not make a key look written).
fn looks_generated(text: &str) -> bool {
    looks_random(&crate::text::sanitize::strip_controls(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse_json;

    /// An array's strings are read together: a command's password in the item after its
    /// flag, and a key block given a line an item, are redacted (each item the secret
    /// covers holds its marker; it is counted once); lists of field names are not.
    #[test]
    fn secrets_across_array_items_are_redacted() {
        let render = |value: &str| {
            let mut counts = Redactions::default();
            let json = render_json(&parse_json(value).unwrap(), JsonCaps::unbounded(), CustomRules::none(), &mut counts).to_json();
            (json, counts)
        };
        let (out, counts) = render(r#"["mysql","-u","root","-pNKVBBG_oELym1ki8","-h","db"]"#);
        assert_eq!(out, r#"["mysql","-u","root","-p[REDACTED:cli_password]","-h","db"]"#);
        assert_eq!(counts.get("cli_password"), 1);
        let (out, _) = render(r#"{"argv":["sshpass","-p","NKVBBG_oELym1ki8","ssh","h"]}"#);
        assert_eq!(out, r#"{"argv":["sshpass","-p","[REDACTED:cli_password]","ssh","h"]}"#);
        let key = r#"["-----BEGIN PRIVATE KEY-----","MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7","ZwIZRtbRMk+9Sg0kJw6Y","-----END PRIVATE KEY-----","after"]"#;
        let (out, counts) = render(key);
        let marker = "\"[REDACTED:private_key]\"";
        assert_eq!(out, format!("[{marker},{marker},{marker},{marker},\"after\"]"));
        assert_eq!(counts.get("private_key"), 1);
        // Read again, the output is the same.
        assert_eq!(render(&out).0, out);
        for plain in [
            r#"["username","password","email"]"#,
            r#"["key","value"]"#,
            r#"["--password","--token"]"#,
            r#"["Authorization","Cookie"]"#,
            // An item that ends in a secret name's `[` opens no value across the next
            // items (found by the fuzzer: how far it ran hung on what the items held).
            r#"["row 4: x.com/r?X-Amz_key=[REDAredacte column c4","row 5: constraint","row 6: y"]"#,
        ] {
            assert_eq!(render(plain).0, plain);
        }
    }
    /// F18: the core's markers in an array read back stay as they are. A `Cookie:` item
    /// takes every later string of the joint text; the first pass saw values nested too
    /// deep and items left out as no strings, so their markers must read the same way.
    #[test]
    fn markers_in_an_array_read_back_are_kept() {
        let caps = JsonCaps { depth: 2, items: 4, ..JsonCaps::unbounded() };
        let render = |value: &str| {
            let mut counts = Redactions::default();
            render_json(&parse_json(value).unwrap(), caps, CustomRules::none(), &mut counts).to_json()
        };
        let once = render(r#"[["x\nCookie:\t\t",[[1]],"NKVBBG_oELym1ki8",[[2]],"a","b","c"]]"#);
        assert_eq!(once, r#"[["x\nCookie:\t\t","[TRUNCATED: nested too deep]","[REDACTED:cookie]","[TRUNCATED: 4 more items]"]]"#);
        assert_eq!(render(&once), once);
        // F19: a cut string's ending is read, never cut.
        let cut = r#"[["x\nSet-Cookie:…[TRUNCATED]","[REDACTED:cookie]"]]"#;
        assert_eq!(render(cut), cut);
        // Nor does a line-long value run on from it into the next item.
        let cut = r#"[["x\nSet-Cookie:…[TRUNCATED]","row 19 has a bad value"]]"#;
        assert_eq!(render(cut), cut);
        // A cut item is the rest of one the first pass may have seen as `null` (too long to
        // read together): no flag before it takes it.
        let cut = r#"[["sshpass","-p","NKVBBG_oELym1ki8zz…[TRUNCATED]"]]"#;
        assert_eq!(render(cut), cut);
    }

    /// A short name beside a value (`{"name": "session", "value": …}`) masks the value
    /// when it looks generated, as the same name as the member's key does; a written
    /// value beside it stays.
    #[test]
    fn a_short_name_beside_a_generated_value_masks_it() {
        let render = |value: &str| {
            let mut counts = Redactions::default();
            render_json(&parse_json(value).unwrap(), JsonCaps::unbounded(), CustomRules::none(), &mut counts).to_json()
        };
        let out = render(r#"{"env":[{"name":"session","value":"N0oW9695MP4qr6GsxK7I0daq8"},{"name":"pass","value":"x9Kq2LmP7vR4tY8w"}]}"#);
        assert_eq!(
            out,
            r#"{"env":[{"name":"session","value":"[REDACTED:secret_field]"},{"name":"pass","value":"[REDACTED:secret_field]"}]}"#
        );
        assert_eq!(render(&out), out);
        let plain = r#"{"env":[{"name":"session","value":"enabled"},{"name":"key","value":"user_id"}]}"#;
        assert_eq!(render(plain), plain);
    }

    #[test]
    fn binary_blocks_keep_only_descriptors() {
        let mut c = Redactions::default();
        let p = Policy::default();
        let block = parse_json(r#"{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png","_meta":{"x":1}}"#).unwrap();
        let d = describe_block(&block, "image", &p, &mut c).to_json();
        assert_eq!(d, r#"{"type":"image","mime_type":"image/png","encoded_bytes":12,"data_omitted":true}"#);
        let block =
            parse_json(r#"{"type":"resource","resource":{"uri":"file:///a.bin","blob":"AAAA","mimeType":"application/octet-stream"}}"#)
                .unwrap();
        let d = describe_block(&block, "resource", &p, &mut c);
        assert!(matches!(d, ContentDescriptor::Resource { body: ResourceBody::Blob { encoded_bytes: 4 }, .. }), "{d:?}");
        assert!(!d.to_json().contains("AAAA"));
    }

    #[test]
    fn cuts_at_a_junction_keep_no_piece_of_a_secret() {
        let none = CustomRules::none();
        // A cut inside a value moves back to the value's start.
        let left = "ok\npassword=hunter2horse";
        let inside = left.find("horse").unwrap();
        assert_eq!(cut_before_secret(left, inside, none), left.find("hunter2").unwrap());
        assert_eq!(cut_before_secret(left, 2, none), 2);
        // Cut after a key name: the value is replaced while its name is in view.
        let mut counts = Redactions::default();
        let right = "x \"client_secret\": \"snmMT55ZmE7ms3bnykEv\", \"region\": \"eu\"";
        let at = right.find("snm").unwrap();
        assert_eq!(rest_after_cut(right, at - 1, none, &mut counts), "\"[REDACTED:secret_field]\", \"region\": \"eu\"");
        assert_eq!(counts.get("secret_field"), 1);
        // Cut inside the value: the rest of it goes with the span before.
        let mut counts = Redactions::default();
        assert_eq!(rest_after_cut(right, at + 4, none, &mut counts), "\", \"region\": \"eu\"");
        assert_eq!(counts.total(), 0);
        // Far from any secret, the rest is the text as it is.
        assert_eq!(rest_after_cut(right, 1, none, &mut counts), right[1..].replace("snmMT55ZmE7ms3bnykEv", "[REDACTED:secret_field]"));
    }

    #[test]
    fn unknown_blocks_are_omitted_with_their_type() {
        let mut c = Redactions::default();
        let block = parse_json(r#"{"type":"hologram","payload":"secret"}"#).unwrap();
        let d = describe_block(&block, "hologram", &Policy::default(), &mut c).to_json();
        assert_eq!(d, r#"{"type":"hologram","content_omitted":true}"#);
    }

    #[test]
    fn structured_values_are_redacted_and_capped_with_markers() {
        let mut c = Redactions::default();
        let v = parse_json(r#"{"password":"x","list":[1,2,3,4,5],"deep":{"a":{"b":1}},"s":"abcdefghijklmnopqrstuvwxyz"}"#).unwrap();
        let caps = JsonCaps { depth: 2, items: 3, string_chars: 16, bytes: 4096 };
        let out = render_json(&v, caps, CustomRules::none(), &mut c).to_string();
        assert_eq!(out, r#"{"[TRUNCATED]":2,"deep":{"a":"[TRUNCATED: nested too deep]"},"list":[1,2,"[TRUNCATED: 3 more items]"]}"#);
        // A list cut to the cap, marker included, renders the same again (the fuzzer found
        // the marker counted as one more item on a second pass).
        let list = parse_json(r#"[1,2,3,4,5]"#).unwrap();
        let once = render_json(&list, caps, CustomRules::none(), &mut c).to_string();
        assert_eq!(once, r#"[1,2,"[TRUNCATED: 3 more items]"]"#);
        assert_eq!(render_json(&parse_json(&once).unwrap(), caps, CustomRules::none(), &mut c).to_string(), once);
        assert_eq!(c.get("secret_field"), 0, "the password member was cut with the others");
    }

    #[test]
    fn a_member_named_like_the_cut_marker_never_makes_a_key_twice() {
        let mut c = Redactions::default();
        let caps = JsonCaps { depth: 4, items: 3, string_chars: 16, bytes: 4096 };
        let v = parse_json(r#"{"[TRUNCATED]":"mine","a":1,"b":2,"c":3}"#).unwrap();
        let once = render_json(&v, caps, CustomRules::none(), &mut c).to_string();
        assert_eq!(once, r#"{"[TRUNCATED]":2,"a":1,"b":2}"#);
        assert_eq!(render_json(&parse_json(&once).unwrap(), caps, CustomRules::none(), &mut c).to_string(), once);
        // Under the cap the member is the input's own and stays.
        let v = parse_json(r#"{"[TRUNCATED]":"mine","a":1}"#).unwrap();
        assert_eq!(render_json(&v, caps, CustomRules::none(), &mut c).to_string(), r#"{"[TRUNCATED]":"mine","a":1}"#);
    }

    #[test]
    fn secret_names_mask_values_but_not_descriptions_of_secrets() {
        let render = |json: &str| {
            render_json(&parse_json(json).unwrap(), JsonCaps::unbounded(), CustomRules::none(), &mut Redactions::default()).to_string()
        };
        // A schema of a password property, an auth method: descriptions, shown as they are.
        let schema = r#"{"properties":{"password":{"minLength":12,"type":"string"}}}"#;
        assert_eq!(render(schema), schema);
        assert_eq!(render(r#"{"auth":{"scopes":["repo"],"type":"oauth2"}}"#), r#"{"auth":{"scopes":["repo"],"type":"oauth2"}}"#);
        // A default may hold the secret: the whole object is masked.
        assert_eq!(render(r#"{"password":{"default":"hunter2","type":"string"}}"#), r#"{"password":"[REDACTED:secret_field]"}"#);
        // Weak names: generated-looking values only.
        assert_eq!(render(r#"{"pass":"sqGuGVygUHdMh2izBV5U","key":"name"}"#), r#"{"key":"name","pass":"[REDACTED:secret_field]"}"#);
        assert_eq!(render(r#"{"tokens":["aNtD6xWbegQtJeJFrM9U"]}"#), r#"{"tokens":"[REDACTED:secret_field]"}"#);
        assert_eq!(render(r#"{"tokens":5}"#), r#"{"tokens":5}"#);
        // A generated-looking value is judged without the characters that hide it.
        assert_eq!(render(r#"{"api_key":{"name":"e0hZE11c00000000000000000ldap\u200d"}}"#), r#"{"api_key":"[REDACTED:secret_field]"}"#);
        assert_eq!(render(r#"{"pass":"sqGuGVygUHdMh2\u200bizBV5U"}"#), r#"{"pass":"[REDACTED:secret_field]"}"#);
        // A description cut by the caps is still one when read again.
        let schema = parse_json(r#"{"password":{"maxLength":64,"minLength":12,"type":"string"}}"#).unwrap();
        for caps in [JsonCaps { depth: 1, ..JsonCaps::unbounded() }, JsonCaps { items: 2, ..JsonCaps::unbounded() }] {
            let once = render_json(&schema, caps, CustomRules::none(), &mut Redactions::default()).to_string();
            assert!(!once.contains("secret_field"), "{once}");
            let twice = render_json(&parse_json(&once).unwrap(), caps, CustomRules::none(), &mut Redactions::default()).to_string();
            assert_eq!(twice, once);
        }
        // A name beside a value: a header name masks it; a sentence, or a name the redactor
        // replaced, names nothing, and reads the same when rendered again.
        assert_eq!(render(r#"{"name":"X-Api-Key","value":7}"#), r#"{"name":"X-Api-Key","value":"[REDACTED:secret_field]"}"#);
        assert_eq!(render(r#"{"name":"x-api\u200bkey","value":7}"#), r#"{"name":"x-apikey","value":"[REDACTED:secret_field]"}"#);
        assert_eq!(render(r#"{"Key":"Client Secret","Value":7}"#), r#"{"Key":"Client Secret","Value":"[REDACTED:secret_field]"}"#);
        for json in [
            r#"{"name":"mysql -u root -phunter22 db","value":7}"#,
            r#"{"key":"sk-ant-api03-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","value":7}"#,
        ] {
            let once = render(json);
            assert!(once.ends_with(r#""value":7}"#), "{once}");
            assert_eq!(render(&once), once);
        }
    }

    #[test]
    fn structured_values_respect_the_byte_cap() {
        let mut c = Redactions::default();
        let items: Vec<String> = (0..200).map(|i| format!("\"item number {i} with some padding text\"")).collect();
        let v = parse_json(&format!("[{}]", items.join(","))).unwrap();
        for bytes in [256, 1000, 4096] {
            let caps = JsonCaps { depth: 8, items: 256, string_chars: 1024, bytes };
            let out = render_json(&v, caps, CustomRules::none(), &mut c).to_string();
            assert!(out.len() <= bytes, "{} > {bytes}", out.len());
            assert!(out.contains("[TRUNCATED:"), "{out}");
        }
    }
}
