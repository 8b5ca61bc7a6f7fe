//! The hard cap on the whole serialized error. When an error is too large, evidence is
//! shrunk in a fixed order until it fits; the required fields are built from capped parts
//! and always survive.

use crate::json::utf16_len;
use crate::text::{cut_safe, CustomRules, SafeJson};
use crate::wire::{CodeModeCallError, ContentDescriptor};

/// Text kept of each later text block by the first shrink step, in UTF-16 code units.
pub(crate) const LATER_TEXT_FLOOR: usize = 512;

/// Text kept of the first text block by the third shrink step.
pub(crate) const FIRST_TEXT_FLOOR: usize = 1024;

/// Text kept of the first text block before it is dropped altogether.
pub(crate) const LAST_TEXT_FLOOR: usize = 256;

/// Most invalid arguments kept by the step that trims them.
pub(crate) const FEW_INVALID_ARGUMENTS: usize = 4;

/// The marker that replaces a structured value dropped to fit the cap.
pub(crate) const DROPPED_MARKER: &str = "[TRUNCATED: removed to fit the error size cap]";

/// One shrink step: what it gives up, and the edit (a text is cut under the policy's
/// rules, so the cut reads the same when it is cleaned again).
pub(crate) type ShrinkStep = (&'static str, fn(&mut CodeModeCallError, &CustomRules));

/// The shrink steps, in the order they are tried. Each names what it gives up.
pub(crate) const SHRINK_STEPS: &[ShrinkStep] = &[
    ("trim every text block after the first to 512 characters", |e, custom| {
        content(e).iter_mut().skip(1).for_each(|b| trim_text(b, LATER_TEXT_FLOOR, custom))
    }),
    ("replace structured_content with a marker", |e, _| {
        if let Some(v) = e.evidence.as_mut().and_then(|ev| ev.structured_content.as_mut()) {
            *v = dropped();
        }
    }),
    ("trim the first text block to 1024 characters", |e, custom| {
        content(e).iter_mut().take(1).for_each(|b| trim_text(b, FIRST_TEXT_FLOOR, custom))
    }),
    ("drop every content block after the first (counted in omitted_content_blocks)", |e, _| {
        if let Some(ev) = e.evidence.as_mut() {
            ev.omitted_content_blocks += ev.content.len().saturating_sub(1);
            ev.content.truncate(1);
        }
    }),
    ("replace parsed_error with a marker", |e, _| {
        if let Some(v) = e.evidence.as_mut().and_then(|ev| ev.parsed_error.as_mut()) {
            *v = dropped();
        }
    }),
    ("trim the first text block to 256 characters", |e, custom| content(e).iter_mut().for_each(|b| trim_text(b, LAST_TEXT_FLOOR, custom))),
    ("drop the remaining content block", |e, _| {
        if let Some(ev) = e.evidence.as_mut() {
            ev.omitted_content_blocks += ev.content.len();
            ev.content.clear();
        }
    }),
    ("keep at most 4 invalid_arguments", |e, _| e.invalid_arguments.truncate(FEW_INVALID_ARGUMENTS)),
    ("drop the evidence", |e, _| e.evidence = None),
    ("drop invalid_arguments and cause", |e, _| {
        e.invalid_arguments.clear();
        e.cause = None;
    }),
];

/// Shrink `error` until its JSON is at most `max_bytes` long (or nothing optional is left).
pub(crate) fn fit_to_cap(error: &mut CodeModeCallError, max_bytes: usize, custom: &CustomRules) {
    for (_, step) in SHRINK_STEPS {
        if error.json_len() <= max_bytes {
            return;
        }
        step(error, custom);
    }
}

/// The evidence's content blocks (none when there is no evidence).
fn content(error: &mut CodeModeCallError) -> &mut [ContentDescriptor] {
    error.evidence.as_mut().map_or(&mut [], |ev| ev.content.as_mut_slice())
}

fn dropped() -> SafeJson {
    SafeJson::literal(DROPPED_MARKER)
}

/// Cut a descriptor's text to `cap` units, marking it truncated with its original length.
fn trim_text(block: &mut ContentDescriptor, cap: usize, custom: &CustomRules) {
    let Some(shown) = block.shown_text_mut() else { return };
    let length = utf16_len(&shown.text);
    if length <= cap {
        return;
    }
    shown.text = cut_safe(&shown.text, cap, custom);
    shown.original_length = Some(shown.original_length.unwrap_or(length as u64));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Normalizer, Policy};

    fn big_report(blocks: usize, chars: usize) -> String {
        let text = "é".repeat(chars);
        let block = format!(r#"{{"type":"text","text":"{text}"}}"#);
        let content = vec![block; blocks].join(",");
        format!(r#"{{"tool":"a::b","tool_result":{{"content":[{content}],"structuredContent":{{"big":"{text}"}},"isError":true}}}}"#)
    }

    #[test]
    fn every_step_keeps_the_error_within_the_cap() {
        for cap in [4096usize, 8192, 32768] {
            let policy = Policy::default().with("max_error_bytes", cap as f64).unwrap();
            let e = Normalizer::new(policy).normalize_json(&big_report(16, 8192)).unwrap().error.unwrap();
            let json = e.to_json();
            assert!(json.len() <= cap, "{} > {cap}", json.len());
            assert!(json.contains("\"contract_version\":1"));
            assert!(json.contains("\"recovery\""));
        }
    }

    #[test]
    fn each_step_names_the_floor_it_cuts_to() {
        let described = |i: usize| SHRINK_STEPS[i].0;
        assert!(described(0).contains(&LATER_TEXT_FLOOR.to_string()));
        assert!(described(2).contains(&FIRST_TEXT_FLOOR.to_string()));
        assert!(described(5).contains(&LAST_TEXT_FLOOR.to_string()));
        assert!(described(7).contains(&FEW_INVALID_ARGUMENTS.to_string()));
    }

    #[test]
    fn later_blocks_shrink_before_the_first() {
        let e = Normalizer::default().normalize_json(&big_report(4, 6000)).unwrap().error.unwrap();
        let ev = e.evidence.unwrap();
        let first = &ev.content[0].shown_text().unwrap().text;
        let second = ev.content[1].shown_text().unwrap();
        assert!(utf16_len(first) > utf16_len(&second.text), "{} vs {}", utf16_len(first), utf16_len(&second.text));
        assert_eq!(second.original_length, Some(6000));
    }
}
