//! `normalize_json` on arbitrary text under the default policy.
//!
//! Asserts, for every input:
//! - a refusal is a typed error, the same on a second run;
//! - text the core accepts is JSON (serde_json reads it too), past the kept items as well;
//! - an outcome serializes to JSON `{"error": …, "breaker": …}` with a known breaker, and
//!   the same bytes on a second run (deterministic);
//! - the error, when there is one, has `contract_version: 1` and the required members, is
//!   at most `max_error_bytes` (32 KiB) long, and validates against the reference schema
//!   and ours (a sample of inputs, see `sampled`);
//! - every string and key of the error is sanitized (no removed character, no chat marker);
//! - `parse_call_error` reads the error back byte for byte (rule 6; the reader runs the
//!   redactor again over redacted text, so this is also the redactor's idempotence);
//! - the peak allocation is at most 4 × the input + 16 MiB.

use crate as check;
use codemode_errors::{normalize_json, parse_call_error, Policy};

/// One input: the checks this module's doc lists, each fatal.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let policy = Policy::default();
    let (first, peak) = check::measure(|| normalize_json(text, &policy));
    check::assert_memory_bounded("normalize_json", data.len(), peak);
    let second = normalize_json(text, &policy);
    let outcome = match (first, second) {
        (Err(a), Err(b)) => {
            assert_eq!((a.code(), a.path(), a.message()), (b.code(), b.path(), b.message()), "refusal differs on a second run");
            return;
        }
        (Ok(a), Ok(b)) => {
            let (ja, jb) = (a.to_json(), b.to_json());
            assert_eq!(ja, jb, "outcome differs on a second run");
            a
        }
        (a, b) => panic!("one run refused and the other did not: {a:?} / {b:?}"),
    };
    check::accepted_json("normalize_json", data, text);
    let (error_json, outcome_json) = outcome.to_json_parts();
    let whole = check::json("the outcome", &outcome_json);
    assert!(["success", "failure", "none"].contains(&whole["breaker"].as_str().unwrap_or("")), "breaker: {outcome_json}");
    let Some(error_json) = error_json else {
        assert!(whole["error"].is_null());
        return;
    };
    let error = check::call_error(&error_json, Some(policy.max_error_bytes()), data);
    let mut texts = Vec::new();
    check::strings(&error, &mut texts);
    texts.iter().for_each(|t| check::assert_clean("an emitted string", t));
    let reread =
        parse_call_error(&error_json).unwrap_or_else(|e| panic!("parse_call_error refused the core's own error: {e}\n{error_json}"));
    // Reading back runs the redactor over redacted text: a difference is the redactor's
    // idempotence failing (see `check::idempotence`).
    check::idempotence("normalize_json-readback", data, &error_json, &reread.to_json());
}
