//! `run::classify_run_json` on arbitrary text.
//!
//! Asserts, for every input:
//! - a refusal is a typed error, the same on a second run;
//! - text the core accepts is JSON (serde_json reads it too), past the kept items as well;
//! - a run error serializes to JSON, the same bytes on a second run (deterministic), with
//!   a known `code`, a non-empty sanitized `message`, and `bridgeDispatchStarted` and
//!   `replaySafe` equal to the report's `bridge_dispatch_started` and `restart_safe`
//!   (default false): the executor's record and the caller's declaration, never derived;
//! - a nested `toolError` is a call error of at most 32 KiB (the default cap it is fitted
//!   to) that validates against both schemas (sampled), and the whole run error is at most
//!   32 KiB + 4 KiB (the bound the core's own unit test uses);
//! - the peak allocation is at most 4 × the input + 16 MiB.

use crate as check;
use codemode_errors::run::classify_run_json;
use codemode_errors::Policy;
use serde_json::Value;

const CODES: &[&str] =
    &["invalid_input", "runtime_unavailable", "aborted", "timeout", "output_limit_exceeded", "snapshot_limit_exceeded", "internal_error"];

/// One input: the checks this module's doc lists, each fatal.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (first, peak) = check::measure(|| classify_run_json(text));
    check::assert_memory_bounded("classify_run_json", data.len(), peak);
    let end = match (first, classify_run_json(text)) {
        (Err(a), Err(b)) => {
            assert_eq!((a.code(), a.path(), a.message()), (b.code(), b.path(), b.message()), "refusal differs on a second run");
            return;
        }
        (Ok(a), Ok(b)) => {
            assert_eq!(a.to_json(), b.to_json(), "run error differs on a second run");
            a
        }
        (a, b) => panic!("one run refused and the other did not: {a:?} / {b:?}"),
    };
    check::accepted_json("classify_run_json", data, text);
    let out = end.to_json();
    let cap = Policy::default().max_error_bytes();
    assert!(out.len() <= cap + 4096, "the run error is {} bytes", out.len());
    let v = check::json("the run error", &out);
    assert!(CODES.contains(&v["code"].as_str().unwrap_or("")), "code: {out}");
    let message = v["message"].as_str().unwrap_or("");
    assert!(!message.is_empty(), "empty message: {out}");
    check::assert_clean("the run message", message);
    // The report's own facts, read the way the core reads them: only when serde_json
    // reads the same members (the core keeps the first 256 members and ignores the rest).
    if let Ok(Value::Object(report)) = serde_json::from_str::<Value>(text) {
        if report.len() <= 256 {
            assert_eq!(v["bridgeDispatchStarted"], report["bridge_dispatch_started"], "bridgeDispatchStarted is not the report's: {out}");
            let declared = report.get("restart_safe").and_then(Value::as_bool).unwrap_or(false);
            assert_eq!(v["replaySafe"], declared, "replaySafe is not the report's restart_safe: {out}");
        }
    }
    if let Some(nested) = &end.tool_error {
        let json = nested.to_json();
        check::call_error(&json, Some(cap), data);
        assert_eq!(v["toolError"], check::json("toolError", &json), "toolError differs from the nested object");
    }
}
