//! `redact_text` on arbitrary text.
//!
//! Asserts, for every input:
//! - the output is the same on a second run (deterministic);
//! - it holds no character the sanitizer removes and no chat-template marker;
//! - the peak allocation is at most 4 × the input + 16 MiB;
//! - idempotence, `redact_text(redact_text(x)) == redact_text(x)`;
//! - `redact_text_if_changed` is `None` only where the output is the input, and otherwise
//!   gives the same output.

use crate as check;
use codemode_errors::{redact_text, Normalizer};

/// One input: the checks this module's doc lists, each fatal.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (once, peak) = check::measure(|| redact_text(text));
    check::assert_memory_bounded("redact_text", data.len(), peak);
    assert_eq!(once, redact_text(text), "redact_text differs on a second run");
    check::assert_clean("redact_text's output", &once);
    let if_changed = Normalizer::default().redact_text_if_changed(text);
    assert_eq!(if_changed.as_deref().unwrap_or(text), once, "redact_text_if_changed disagrees with redact_text");
    let twice = redact_text(&once);
    check::idempotence("redact_text", data, &once, &twice);
}
