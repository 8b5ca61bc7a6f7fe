//! `parse_call_error` (the consumer, rule 14) on arbitrary text.
//!
//! Asserts, for every input:
//! - a refusal is `invalid_call_error` or `unsupported_version`, the same on a second run;
//! - text the core accepts is JSON (serde_json reads it too), past the kept items as well;
//! - an accepted object serializes to a call error that is JSON with `contract_version: 1`
//!   and the required members and validates against both schemas (sampled; a `tool` that
//!   is not `namespace::name` was the gated `tool-pattern` until the reader kept only `namespace::name`; it is fatal now), the same bytes on a second run
//!   (deterministic);
//! - every string and key of it is sanitized (no removed character, no chat marker): the
//!   object is untrusted, so the reader cleans every text;
//! - reading the reader's own output again gives the same bytes (rule 6: an object the
//!   core produced reads back unchanged). The re-read runs the redactor over redacted
//!   text: its idempotence;
//! - the peak allocation is at most 4 × the input + 16 MiB.

use crate as check;
use codemode_errors::{parse_call_error, ErrorCode};

/// One input: the checks this module's doc lists, each fatal.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (first, peak) = check::measure(|| parse_call_error(text));
    check::assert_memory_bounded("parse_call_error", data.len(), peak);
    let error = match (first, parse_call_error(text)) {
        (Err(a), Err(b)) => {
            assert_eq!((a.code(), a.path(), a.message()), (b.code(), b.path(), b.message()), "refusal differs on a second run");
            assert!(matches!(a.code(), ErrorCode::InvalidCallError | ErrorCode::UnsupportedVersion), "refused with {:?}", a.code());
            return;
        }
        (Ok(a), Ok(b)) => {
            assert_eq!(a.to_json(), b.to_json(), "the object read differs on a second run");
            a
        }
        (a, b) => panic!("one run refused and the other did not: {a:?} / {b:?}"),
    };
    check::accepted_json("parse_call_error", data, text);
    let once = error.to_json();
    let v = check::call_error(&once, None, data);
    let mut texts = Vec::new();
    check::strings(&v, &mut texts);
    texts.iter().for_each(|t| check::assert_clean("a string read back", t));
    let twice = parse_call_error(&once).unwrap_or_else(|e| panic!("the reader refused its own output: {e}\n{once}")).to_json();
    check::idempotence("parse_call_error", data, &once, &twice);
}
