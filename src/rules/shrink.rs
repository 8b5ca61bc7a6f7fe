//! The hard cap on the whole serialized error. When an error is too large, evidence is
//! shrunk in a fixed order until it fits; the required fields are built from capped parts
//! and always survive.

use crate::json::{utf16_len, Json, JsonText};
use crate::text::cut_at;
use crate::wire::{CodeModeCallError, ContentDescriptor};

/// Text kept of each later text block by the first shrink step, in UTF-16 code units.
pub const LATER_TEXT_FLOOR: usize = 512;

/// Text kept of the first text block by the third shrink step.
pub const FIRST_TEXT_FLOOR: usize = 1024;

/// The shrink steps, in the order they are tried. Each names what it gives up.
pub const SHRINK_STEPS: &[&str] = &[
    "trim every text block after the first to 512 characters",
    "replace structured_content with a marker",
    "trim the first text block to 1024 characters",
    "drop every content block after the first (counted in omitted_content_blocks)",
    "replace parsed_error with a marker",
    "trim the first text block to 256 characters",
    "drop the remaining content block",
    "keep at most 4 invalid_arguments",
    "drop the evidence",
    "drop invalid_arguments and cause",
];

/// Text kept of the first text block before it is dropped altogether.
pub const LAST_TEXT_FLOOR: usize = 256;

/// The marker that replaces a structured value dropped to fit the cap.
pub const DROPPED_MARKER: &str = "[TRUNCATED: removed to fit the error size cap]";

/// Shrink `error` until its JSON is at most `max_bytes` long (or nothing optional is left).
pub fn fit_to_cap(error: &mut CodeModeCallError, max_bytes: usize) {
    let mut step = 0;
    while error.json_len() > max_bytes && step < SHRINK_STEPS.len() {
        apply(error, step);
        step += 1;
    }
}

/// One shrink step. Out of line: most errors fit at once.
#[inline(never)]
fn apply(error: &mut CodeModeCallError, step: usize) {
    match step {
        7 => return error.invalid_arguments.truncate(4),
        8 => return error.evidence = None,
        9 => {
            error.invalid_arguments.clear();
            error.cause = None;
            return;
        }
        _ => {}
    }
    let Some(evidence) = error.evidence.as_mut() else {
        return;
    };
    let marker = || Json::String(JsonText::whole(DROPPED_MARKER));
    match step {
        0 => evidence.content.iter_mut().skip(1).for_each(|b| trim_text(b, LATER_TEXT_FLOOR)),
        1 => {
            if evidence.structured_content.is_some() {
                evidence.structured_content = Some(marker());
            }
        }
        2 => evidence.content.iter_mut().take(1).for_each(|b| trim_text(b, FIRST_TEXT_FLOOR)),
        3 => {
            let dropped = evidence.content.len().saturating_sub(1);
            evidence.content.truncate(1);
            evidence.omitted_content_blocks += dropped;
        }
        4 => {
            if evidence.parsed_error.is_some() {
                evidence.parsed_error = Some(marker());
            }
        }
        5 => evidence.content.iter_mut().for_each(|b| trim_text(b, LAST_TEXT_FLOOR)),
        _ => {
            evidence.omitted_content_blocks += evidence.content.len();
            evidence.content.clear();
        }
    }
}

/// Cut a descriptor's text to `cap` units, marking it truncated with its original length.
fn trim_text(block: &mut ContentDescriptor, cap: usize) {
    let Some(shown) = block.shown_text_mut() else { return };
    let length = utf16_len(&shown.text);
    if length <= cap {
        return;
    }
    shown.text = cut_at(&shown.text, cap).to_owned();
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
    fn later_blocks_shrink_before_the_first() {
        let e = Normalizer::default().normalize_json(&big_report(4, 6000)).unwrap().error.unwrap();
        let ev = e.evidence.unwrap();
        let first = &ev.content[0].shown_text().unwrap().text;
        let second = ev.content[1].shown_text().unwrap();
        assert!(utf16_len(first) > utf16_len(&second.text), "{} vs {}", utf16_len(first), utf16_len(&second.text));
        assert_eq!(second.original_length, Some(6000));
    }
}
