//! The fuzz targets of codemode-errors, on stable Rust: each target's body and the
//! contract's invariants they share, written once.
//!
//! The cargo-fuzz crate in `fuzz/` (nightly, libFuzzer) is only a set of one-line binaries
//! that hand libFuzzer's inputs to [`targets`]; this crate's replay test
//! (`tests/replay.rs`) hands them every saved seed and regression input instead, so a plain
//! `cargo test` on stable runs every input that ever crashed a target or broke one of its
//! checks. [`TARGETS`] lists them.
//!
//! Every target asserts more than "no panic". What a target checks is said in its module's
//! doc comment; the pieces they share live here:
//!
//! - [`call_error`]: a call error is JSON, carries `contract_version: 1`, fits its size
//!   cap in bytes and (for a sample of inputs, see [`sampled`]) validates against both the
//!   vendored reference schema and our own superset;
//! - [`measure`] and [`assert_memory_bounded`]: the peak of bytes allocated while an entry
//!   point runs, counted by a global allocator (the core's step counter
//!   `search::work::tally` is compiled in tests only, so it cannot be read from here), is
//!   at most 4 × the input plus 16 MiB;
//! - [`idempotence`]: a second pass of the pipeline over its own output changes nothing.
//!
//! Every check is fatal: a violation panics, which libFuzzer keeps as a crash and
//! `cargo fuzz tmin` minimizes.

/// One module per fuzz target, each with `pub fn run(data: &[u8])`.
pub mod targets {
    pub mod classify_run_json;
    pub mod differential;
    pub mod host_value;
    pub mod normalize_json;
    pub mod parse_call_error;
    pub mod policy_from_json;
    pub mod redact_json;
    pub mod redact_text;
    pub mod report;
}

/// Every target by its name (the `[[bin]]` of `fuzz/Cargo.toml` and the folder of its seeds
/// and regressions under `fuzz/`), with the function that checks one input.
pub const TARGETS: &[(&str, fn(&[u8]))] = &[
    ("normalize_json", targets::normalize_json::run),
    ("redact_text", targets::redact_text::run),
    ("redact_json", targets::redact_json::run),
    ("classify_run_json", targets::classify_run_json::run),
    ("parse_call_error", targets::parse_call_error::run),
    ("policy_from_json", targets::policy_from_json::run),
    ("report", targets::report::run),
    ("host_value", targets::host_value::run),
    ("differential", targets::differential::run),
];

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::OnceLock;

use serde_json::Value;

// ---------------------------------------------------------------------------------------
// Allocation counting

/// The system allocator, counting the bytes live now and the most ever live since the
/// last [`measure`] started.
pub struct CountingAllocator;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call forwards to `System` with the same arguments; the counters are only
// bookkeeping beside it.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Run `f` and return its result with the peak of bytes it had allocated at once (above
/// what was live when it started). The fuzz loop is single-threaded, so every allocation
/// counted is `f`'s.
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let out = f();
    (out, PEAK.load(Relaxed).saturating_sub(base))
}

/// The memory target of issue 13: peak allocation at most 4 × the input plus 16 MiB.
pub fn memory_bound(input_len: usize) -> usize {
    4 * input_len + 16 * 1024 * 1024
}

/// Panic when `peak` (from [`measure`]) is over [`memory_bound`] for `input_len` bytes.
pub fn assert_memory_bounded(what: &str, input_len: usize, peak: usize) {
    assert!(
        peak <= memory_bound(input_len),
        "{what}: peak allocation {peak} bytes for {input_len} bytes of input, over 4 x input + 16 MiB"
    );
}

// ---------------------------------------------------------------------------------------
// Sampling

/// FNV-1a of the input: cheap, stable across runs, so the same input is always sampled or
/// always not.
pub fn fnv1a(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// One input in this many gets its outputs validated against the JSON Schemas
/// (`CODEMODE_FUZZ_SCHEMA_EVERY`, default 64; 1 validates every input). Validation costs
/// several times what normalizing does, so validating everything would cut the campaign's
/// executions by about that factor; the cheap structural checks run on every input.
pub fn schema_every() -> u64 {
    static EVERY: OnceLock<u64> = OnceLock::new();
    *EVERY.get_or_init(|| std::env::var("CODEMODE_FUZZ_SCHEMA_EVERY").ok().and_then(|v| v.parse().ok()).filter(|&n| n > 0).unwrap_or(64))
}

/// Whether this input's outputs are validated against the schemas.
pub fn sampled(data: &[u8]) -> bool {
    fnv1a(data) % schema_every() == 0
}

// ---------------------------------------------------------------------------------------
// Schemas

struct Schemas {
    reference: jsonschema::Validator,
    ours: jsonschema::Validator,
}

fn schemas() -> &'static Schemas {
    static S: OnceLock<Schemas> = OnceLock::new();
    S.get_or_init(|| {
        let compile = |text: &str| {
            let schema: Value = serde_json::from_str(text).expect("schema is JSON");
            jsonschema::validator_for(&schema).expect("schema compiles")
        };
        Schemas {
            reference: compile(include_str!("../../../schema/reference/reference-code-mode-call-error-v1.schema.json")),
            ours: compile(codemode_errors::SCHEMA),
        }
    })
}

/// Panic unless `error` validates against the reference schema and ours. (A `tool` that
/// broke the reference schema's `namespace::name` pattern was the gated invariant
/// `tool-pattern` until the reader was fixed; it is fatal now, like every other refusal.)
pub fn assert_schemas(error: &Value, json: &str, input: &[u8]) {
    let s = schemas();
    for (name, v) in [("reference", &s.reference), ("ours", &s.ours)] {
        let problems: Vec<(String, String)> = v.iter_errors(error).map(|e| (e.instance_path().to_string(), e.to_string())).collect();
        if problems.is_empty() {
            continue;
        }
        panic!("the {name} schema refuses the call error: {problems:?}\nerror: {json}\ninput: {:?}", String::from_utf8_lossy(input));
    }
}

// ---------------------------------------------------------------------------------------
// Call errors

/// Parse `text` as JSON, panicking with the text when it is not.
pub fn json(what: &str, text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{what} is not JSON ({e}): {text}"))
}

/// Check one serialized call error built from the fuzz input `input`: JSON, an object
/// with `contract_version: 1` and the contract's required members, at most `cap` bytes
/// (when given), and both schemas when the input is [`sampled`]. Returns the parsed value
/// for further checks.
pub fn call_error(text: &str, cap: Option<usize>, input: &[u8]) -> Value {
    let v = json("the call error", text);
    assert!(v.is_object(), "the call error is not an object: {text}");
    assert_eq!(v["contract_version"], 1, "contract_version is not 1: {text}");
    for field in ["kind", "message", "origin", "side_effects"] {
        assert!(v[field].as_str().is_some_and(|s| !s.is_empty()), "{field} missing or empty: {text}");
    }
    assert!(v["recovery"]["guidance"].as_str().is_some(), "recovery.guidance missing: {text}");
    if let Some(cap) = cap {
        assert!(text.len() <= cap, "the call error is {} bytes, over its cap of {cap}", text.len());
    }
    if sampled(input) {
        assert_schemas(&v, text, input);
    }
    v
}

/// Panic unless every object in `v` has its keys in strictly increasing byte order (the
/// contract's "keys of arbitrary JSON values sorted"). Needs serde_json's preserve_order.
pub fn assert_sorted_keys(v: &Value, text: &str) {
    match v {
        Value::Object(m) => {
            let keys: Vec<&String> = m.keys().collect();
            for w in keys.windows(2) {
                assert!(w[0].as_bytes() < w[1].as_bytes(), "keys {:?} and {:?} out of order in {text}", w[0], w[1]);
            }
            m.values().for_each(|x| assert_sorted_keys(x, text));
        }
        Value::Array(a) => a.iter().for_each(|x| assert_sorted_keys(x, text)),
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------
// Sanitizing

/// Characters the contract says the sanitizer removes or replaces: none may be in any
/// text the core emits.
pub fn is_removed(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}' // C0 (not tab, newline), DEL, C1, NEL
        | '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' // bidi
        | '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}' | '\u{ad}' | '\u{34f}' // zero-width, BOM, soft hyphen, CGJ
        | '\u{2028}' | '\u{2029}' // become newlines
        | '\u{fe00}'..='\u{fe0f}' | '\u{e0000}'..='\u{e007f}' // variation selectors, tags
    )
}

/// Chat-template markers that must never reach a model verbatim.
pub const MARKERS: &[&str] = &["<|im_start|>", "<|im_end|>", "<|endoftext|>", "<|eot_id|>", "[INST]", "[/INST]", "<<SYS>>", "[TOOL_CALLS]"];

/// Panic when `text` (an emitted text) holds a removed character or a chat marker.
pub fn assert_clean(what: &str, text: &str) {
    if let Some(c) = text.chars().find(|&c| is_removed(c)) {
        panic!("{what} holds U+{:04X}, which the sanitizer removes: {text:?}", c as u32);
    }
    for m in MARKERS {
        assert!(!text.contains(m), "{what} holds the chat marker {m}: {text:?}");
    }
    assert!(markdown_image(text).is_none(), "{what} holds the markdown image {:?}: {text:?}", markdown_image(text));
    assert!(outside_link(text).is_none(), "{what} holds a link to another host at {:?}: {text:?}", outside_link(text));
}

/// Whether a link's target has a scheme or starts `//` (after blanks and a `<`).
fn points_outside(target: &[u8]) -> bool {
    let skip = target.iter().take(8).take_while(|&&b| b == b' ' || b == b'<').count();
    let t = &target[skip..];
    let scheme = t.iter().take(32).take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-')).count();
    t.starts_with(b"//") || (scheme > 0 && t[0].is_ascii_alphabetic() && t.get(scheme) == Some(&b':'))
}

/// The offset of the first inline link `](` in `text` whose target points to another
/// host, which the core breaks with a blank.
pub fn outside_link(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    (0..bytes.len().saturating_sub(1)).find(|&i| bytes[i] == b']' && bytes[i + 1] == b'(' && points_outside(&bytes[i + 2..]))
}

/// The first markdown image `![alt](target)` of another host in `text`, of the shape the
/// core defangs: alt and target on one line, alt up to 384 bytes, target up to 768
/// without a blank.
pub fn markdown_image(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = text[from..].find("![").map(|i| from + i) {
        from = at + 1;
        let alt = &bytes[at + 2..];
        let Some(close) = alt.iter().take(384).position(|&b| b == b']' || b == b'\n') else { continue };
        if alt[close] != b']' || alt.get(close + 1) != Some(&b'(') {
            continue;
        }
        let target = &alt[close + 2..];
        if !points_outside(target) {
            continue;
        }
        if let Some(end) = target.iter().take(768).position(|&b| b == b')' || b == b'\n' || b == b' ') {
            if target[end] == b')' {
                return Some(&text[at..at + 2 + close + 2 + end + 1]);
            }
        }
    }
    None
}

/// Every string and key in `v`, for [`assert_clean`].
pub fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => {
            for (k, x) in m {
                out.push(k.clone());
                strings(x, out);
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------
// Idempotence

/// Idempotence of a pass of the pipeline (`what` names it): `twice`, the pass over its
/// own output `once`, must equal `once`. The redactor runs again wherever the core reads
/// its own output (a call error read back from `Error.message`, one nested in a run
/// error), so a text that changes on a second pass would change what a model reads.
pub fn idempotence(what: &str, input: &[u8], once: &str, twice: &str) {
    if once != twice {
        panic!("{what} is not idempotent\nonce:  {once:?}\ntwice: {twice:?}\ninput: {:?}", String::from_utf8_lossy(input));
    }
}

/// The core accepted `text`: it must be JSON (RFC 8259: no lone surrogate, no number
/// beyond the double range, nesting within serde_json's 128 levels where the core refuses
/// past 120), also past the items and members the core keeps. Issue 13 reported the core
/// accepting such text after 256 filler items; the campaign found no case, so this one
/// is not gated.
pub fn accepted_json(what: &str, input: &[u8], text: &str) {
    if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
        panic!("{what} accepted text that is not JSON ({e}): {:?}", String::from_utf8_lossy(input));
    }
}
