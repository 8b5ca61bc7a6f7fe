//! `redact_json` on arbitrary text.
//!
//! Asserts, for every input:
//! - a refusal is a typed error, the same on a second run;
//! - text the core accepts is JSON (serde_json reads it too), past the kept items as well;
//! - the output is JSON, compact, with the keys of every object sorted, the same bytes on
//!   a second run (deterministic);
//! - every string and key of it is sanitized (no removed character, no chat marker);
//! - the peak allocation is at most 4 × the input + 16 MiB;
//! - idempotence, `redact_json(redact_json(x)) == redact_json(x)` (the same redactor runs
//!   on every string).

use crate as check;
use codemode_errors::redact_json;

/// One input: the checks this module's doc lists, each fatal.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (first, peak) = check::measure(|| redact_json(text));
    check::assert_memory_bounded("redact_json", data.len(), peak);
    let once = match (first, redact_json(text)) {
        (Err(a), Err(b)) => {
            assert_eq!((a.code(), a.path(), a.message()), (b.code(), b.path(), b.message()), "refusal differs on a second run");
            return;
        }
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b, "redact_json differs on a second run");
            a
        }
        (a, b) => panic!("one run refused and the other did not: {a:?} / {b:?}"),
    };
    check::accepted_json("redact_json", data, text);
    let v = check::json("redact_json's output", &once);
    check::assert_sorted_keys(&v, &once);
    // Compact: no whitespace outside string literals.
    assert_eq!(outside_strings(&once).iter().filter(|c| c.is_ascii_whitespace()).count(), 0, "not compact: {once}");
    let mut texts = Vec::new();
    check::strings(&v, &mut texts);
    texts.iter().for_each(|t| check::assert_clean("a redacted string", t));
    let twice = redact_json(&once).unwrap_or_else(|e| panic!("redact_json refused its own output: {e}\n{once}"));
    check::idempotence("redact_json", data, &once, &twice);
}

/// The bytes of `json` outside its string literals.
fn outside_strings(json: &str) -> Vec<u8> {
    let (mut out, mut in_string, mut escaped) = (Vec::new(), false, false);
    for &b in json.as_bytes() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if b == b'"' {
            in_string = true;
        } else {
            out.push(b);
        }
    }
    out
}
