//! `Policy::from_json` on arbitrary text.
//!
//! Asserts, for every input:
//! - every refusal is `invalid_policy` (also when the text is no JSON), the same on a
//!   second run;
//! - text the core accepts is JSON (serde_json reads it too), past the kept items as well;
//! - an accepted policy holds every cap within its documented range, keeps the default
//!   of every cap the text does not name, and round-trips: `Policy::from_json` of its
//!   `to_json` is the same policy;
//! - every cap the text names holds the number named (read as serde_json reads the text,
//!   when it has at most 256 members, all the core reads);
//! - every redaction list is within its bound, and holds exactly the entries the text
//!   names for it (or none when it names none), in order; every token format is one the
//!   core would accept on its own.

use crate as check;
use codemode_errors::{Cap, ErrorCode, Policy, TokenFormat};
use serde_json::Value;

/// One input: the checks this module's doc lists, each fatal.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let policy = match (Policy::from_json(text), Policy::from_json(text)) {
        (Err(a), Err(b)) => {
            assert_eq!((a.code(), a.path(), a.message()), (b.code(), b.path(), b.message()), "refusal differs on a second run");
            assert_eq!(a.code(), ErrorCode::InvalidPolicy, "refused with {:?}: {a}", a.code());
            return;
        }
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b, "policy differs on a second run");
            a
        }
        (a, b) => panic!("one run refused and the other did not: {a:?} / {b:?}"),
    };
    check::accepted_json("policy_from_json", data, text);
    let named: Option<serde_json::Map<String, Value>> = match serde_json::from_str(text) {
        Ok(Value::Object(m)) if m.len() <= 256 => Some(m),
        _ => None,
    };
    for &cap in Cap::ALL.iter() {
        let spec = cap.spec();
        let value = policy.get(cap);
        assert!((spec.min as usize..=spec.max as usize).contains(&value), "{cap:?} = {value} is out of range");
        if let Some(m) = &named {
            match m.get(cap.as_str()) {
                None => assert_eq!(value, spec.default as usize, "{cap:?} was not named but is not its default"),
                Some(n) => assert_eq!(n.as_f64(), Some(value as f64), "{cap:?} is not the value named"),
            }
        }
    }
    let strings = |list: &[String]| list.iter().map(|s| Value::String(s.clone())).collect::<Vec<_>>();
    let format = |f: &TokenFormat| serde_json::json!({"family": f.family, "prefix": f.prefix, "alphabet": f.alphabet.as_str(), "min_body_length": f.min_body_length});
    let lists = [
        ("secret_keys", 256, strings(policy.secret_keys())),
        ("token_formats", 64, policy.token_formats().iter().map(format).collect()),
        ("allow", 256, strings(policy.allow())),
        ("allow_keys", 256, strings(policy.allow_keys())),
    ];
    for (name, bound, entries) in &lists {
        assert!(entries.len() <= *bound, "{name} holds {} entries, over {bound}", entries.len());
        if let Some(m) = &named {
            match m.get(*name) {
                None => assert!(entries.is_empty(), "{name} was not named but holds entries"),
                Some(Value::Array(named)) if *name == "token_formats" => {
                    let minimal: Vec<Value> = named
                        .iter()
                        .map(|f| {
                            serde_json::json!({
                                "family": f["family"], "prefix": f["prefix"], "alphabet": f["alphabet"],
                                "min_body_length": f["min_body_length"].as_f64().map(|n| n as u32),
                            })
                        })
                        .collect();
                    assert_eq!(&minimal, entries, "{name} is not the formats named");
                }
                Some(Value::Array(named)) => assert_eq!(named, entries, "{name} is not the entries named"),
                Some(other) => panic!("{name} was accepted as {other}"),
            }
        }
    }
    for f in policy.token_formats() {
        let alone = Policy::default().with_token_format(f.clone());
        assert!(alone.is_ok(), "the accepted format {f:?} is refused on its own: {alone:?}");
    }
    let round = Policy::from_json(&policy.to_json()).unwrap_or_else(|e| panic!("the policy's own JSON is refused: {e}"));
    assert_eq!(round, policy, "the policy does not round-trip through to_json");
}
