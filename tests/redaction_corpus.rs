//! The redaction corpus (`tests/redaction/`, described in its README) scored against the
//! public API.
//!
//! - Text cases go through [`codemode_errors::redact_text`]; report cases (a secret split
//!   across two text blocks, or planted in `structuredContent`) go through
//!   [`codemode_errors::normalize_json`] as an MCP `CallToolResult`, and every string of
//!   the serialized error is checked.
//! - A positive is a strict hit when no secret, and no 8-character fragment of one,
//!   survives in the output as a model would read it (invisible characters dropped,
//!   full-width forms folded to ASCII). A negative is untouched when the output equals the
//!   input.
//! - `cargo test --test redaction_corpus -- --nocapture` prints recall per family and per
//!   placement, the damage to negatives, and the targets. `CORPUS_LEAKS=1` also lists every
//!   positive that leaked, with what survived.
//! - `tests/redaction/floor.json` states today's hits per family and overall. The test fails
//!   when a count falls below it (a regression) and when one rises above it (raise the floor
//!   so the file keeps stating the truth); on failure it prints the floor to commit.
//!
//! Nothing is written.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use codemode_errors::{normalize_json, redact_text, Policy};
use serde_json::{json, Map, Value};

/// The strict recall the engine is meant to reach.
const TARGET_RECALL: f64 = 0.99;
/// The share of negatives the engine is meant to leave untouched.
const TARGET_UNTOUCHED: f64 = 0.97;
/// The shortest fragment of a secret that counts as a leak.
const FRAGMENT: usize = 8;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/redaction")
}

fn read(name: &str) -> String {
    let path = corpus_dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn load(name: &str) -> Vec<Value> {
    read(name)
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| serde_json::from_str(line).unwrap_or_else(|e| panic!("{name} line {}: {e}", n + 1)))
        .collect()
}

fn field<'a>(case: &'a Value, key: &str) -> &'a str {
    case.get(key).and_then(Value::as_str).unwrap_or_else(|| panic!("case {case} has no string `{key}`"))
}

/// What a case feeds the engine.
enum Input {
    Text(String),
    Report { blocks: Vec<String>, structured: Option<Value> },
}

impl Input {
    fn of(case: &Value) -> Input {
        match field(case, "mode") {
            "text" => Input::Text(field(case, "text").to_owned()),
            "report" => Input::Report {
                blocks: case["blocks"]
                    .as_array()
                    .unwrap_or_else(|| panic!("{}: report cases need `blocks`", field(case, "id")))
                    .iter()
                    .map(|b| b.as_str().expect("a block is a string").to_owned())
                    .collect(),
                structured: case.get("structured").cloned(),
            },
            other => panic!("{}: unknown mode {other}", field(case, "id")),
        }
    }

    /// The input on one line, for the damage listing.
    fn display(&self) -> String {
        match self {
            Input::Text(text) => text.clone(),
            Input::Report { blocks, structured } => json!({"blocks": blocks, "structured": structured}).to_string(),
        }
    }

    /// Everything the input says, for checking that a case really plants its secrets.
    fn haystack(&self) -> String {
        match self {
            Input::Text(text) => text.clone(),
            Input::Report { blocks, structured } => {
                let mut all = blocks.concat();
                if let Some(value) = structured {
                    for s in strings(value) {
                        all.push('\0');
                        all.push_str(&s);
                    }
                }
                all
            }
        }
    }
}

/// The MCP `CallToolResult` report a report case is fed as.
fn report(blocks: &[String], structured: &Option<Value>) -> String {
    let content: Vec<Value> = blocks.iter().map(|t| json!({"type": "text", "text": t})).collect();
    let mut result = Map::new();
    result.insert("resultType".into(), json!("complete"));
    result.insert("isError".into(), json!(true));
    result.insert("content".into(), Value::Array(content));
    if let Some(value) = structured {
        result.insert("structuredContent".into(), value.clone());
    }
    json!({"tool": "corpus::case", "tool_result": Value::Object(result)}).to_string()
}

/// The serialized error for a report case, parsed back.
fn normalized_error(id: &str, blocks: &[String], structured: &Option<Value>) -> Value {
    let outcome = normalize_json(&report(blocks, structured), &Policy::default()).unwrap_or_else(|e| panic!("{id}: report refused: {e:?}"));
    let error = outcome.error.unwrap_or_else(|| panic!("{id}: an isError result gave no error"));
    serde_json::from_str(&error.to_json()).unwrap_or_else(|e| panic!("{id}: the error is not JSON: {e}"))
}

/// Every string in a JSON value, keys included.
fn strings(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.clone()),
            Value::Array(items) => items.iter().for_each(|i| walk(i, out)),
            Value::Object(members) => {
                for (k, v) in members {
                    out.push(k.clone());
                    walk(v, out);
                }
            }
            _ => {}
        }
    }
    walk(value, &mut out);
    out
}

/// Characters a reader does not see: dropped before looking for fragments.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{AD}' | '\u{34F}' | '\u{61C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}' | '\u{180B}'..='\u{180F}'
        | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}'
        | '\u{FEFF}' | '\u{FFA0}' | '\u{E0000}'..='\u{E0FFF}')
}

/// Text as a model reads it: invisible characters gone, full-width forms as ASCII.
fn model_view(text: &str) -> String {
    text.chars()
        .filter(|c| !invisible(*c))
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            _ => c,
        })
        .collect()
}

/// The first fragment of `secret` (at least [`FRAGMENT`] characters, or the whole secret
/// when shorter) that survives in `output`. A fragment that the input also holds outside
/// every secret (`context`: the input with its secrets cut out, as [`outside_secrets`]
/// gives it) proves nothing: a key name `rubygems_api_key` is no leak of the token
/// `rubygems_0123…`.
fn surviving_fragment(output: &str, secret: &str, context: &str) -> Option<String> {
    let secret: Vec<char> = model_view(secret).chars().collect();
    if secret.len() <= FRAGMENT {
        let whole: String = secret.iter().collect();
        return (output.contains(&whole) && !context.contains(&whole)).then_some(whole);
    }
    secret
        .windows(FRAGMENT)
        .map(|w| w.iter().collect::<String>())
        .find(|fragment| output.contains(fragment.as_str()) && !context.contains(fragment.as_str()))
}

/// `output` with every `[REDACTED:<family>]` marker replaced by a NUL.
fn without_markers(output: &str) -> String {
    let mut out = String::with_capacity(output.len());
    let mut rest = output;
    while let Some(at) = rest.find("[REDACTED:") {
        out.push_str(&rest[..at]);
        out.push('\0');
        rest = rest[at..].find(']').map_or("", |end| &rest[at + end + 1..]);
    }
    out.push_str(rest);
    out
}

/// The input as a model reads it, with every occurrence of every secret cut out.
fn outside_secrets(input: &str, secrets: &[&str]) -> String {
    let mut context = model_view(input);
    for secret in secrets {
        context = context.replace(&model_view(secret), "\0");
    }
    context
}

/// One scored positive.
struct Scored {
    id: String,
    family: String,
    placement: String,
    hit: bool,
    /// The first surviving fragment and an excerpt of the output, when it leaked.
    leak: Option<(String, String)>,
    note: Option<String>,
}

fn score_positive(case: &Value) -> Scored {
    let id = field(case, "id").to_owned();
    let secrets: Vec<&str> = case["secrets"]
        .as_array()
        .unwrap_or_else(|| panic!("{id}: no secrets"))
        .iter()
        .map(|s| s.as_str().expect("a secret is a string"))
        .collect();
    let input = Input::of(case);
    let context = outside_secrets(&input.haystack(), &secrets);
    let output = match input {
        Input::Text(text) => model_view(&redact_text(&text)),
        Input::Report { blocks, structured } => {
            let error = normalized_error(&id, &blocks, &structured);
            model_view(&strings(&error).join("\n\0\n"))
        }
    };
    // A redaction marker names a family (`[REDACTED:rubygems_key]`); it holds no part of a
    // secret, even where the family's name and a token's public prefix share letters.
    let output = without_markers(&output);
    let leak = secrets.iter().find_map(|s| surviving_fragment(&output, s, &context)).map(|fragment| {
        let at = output.find(&fragment).unwrap_or(0);
        (fragment, excerpt(&output, at))
    });
    Scored {
        id,
        family: field(case, "family").to_owned(),
        placement: field(case, "placement").to_owned(),
        hit: leak.is_none(),
        leak,
        note: case.get("note").and_then(Value::as_str).map(str::to_owned),
    }
}

/// About 120 characters of `text` around byte `at`, on one line.
fn excerpt(text: &str, at: usize) -> String {
    let start = text[..at].char_indices().rev().nth(50).map_or(0, |(i, _)| i);
    let end = text[at..].char_indices().nth(70).map_or(text.len(), |(i, _)| at + i);
    let mut s = String::new();
    if start > 0 {
        s.push('…');
    }
    s.push_str(&text[start..end].replace('\0', "").replace('\n', "⏎"));
    if end < text.len() {
        s.push('…');
    }
    s
}

/// One scored negative: `None` when untouched, else what the engine made of it.
fn score_negative(case: &Value) -> Option<String> {
    let id = field(case, "id");
    match Input::of(case) {
        Input::Text(text) => {
            let out = redact_text(&text);
            (out != text).then_some(out)
        }
        Input::Report { blocks, structured } => {
            let error = normalized_error(id, &blocks, &structured);
            let evidence = &error["evidence"];
            let texts: Vec<&str> =
                evidence["content"].as_array().map_or(Vec::new(), |c| c.iter().filter_map(|b| b["text"].as_str()).collect());
            if let Some((i, (_, got))) = blocks.iter().map(String::as_str).zip(texts.iter().copied()).enumerate().find(|(_, (w, g))| w != g)
            {
                return Some(format!("content[{i}].text: {got}"));
            }
            if texts.len() != blocks.len() {
                return Some(format!("{} text blocks shown of {}", texts.len(), blocks.len()));
            }
            let shown = evidence.get("structured_content").unwrap_or(&Value::Null);
            structured.as_ref().and_then(|want| first_difference(want, shown, "structured_content"))
        }
    }
}

/// The first place where `got` differs from `want`, as `path: got`.
fn first_difference(want: &Value, got: &Value, path: &str) -> Option<String> {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            for (k, wv) in w {
                match g.get(k) {
                    Some(gv) => {
                        if let Some(d) = first_difference(wv, gv, &format!("{path}.{k}")) {
                            return Some(d);
                        }
                    }
                    None => return Some(format!("{path}.{k}: missing")),
                }
            }
            (w.len() != g.len()).then(|| format!("{path}: {got}"))
        }
        (Value::Array(w), Value::Array(g)) if w.len() == g.len() => {
            w.iter().zip(g).enumerate().find_map(|(i, (wv, gv))| first_difference(wv, gv, &format!("{path}[{i}]")))
        }
        _ => (want != got).then(|| format!("{path}: {got}")),
    }
}

fn pct(hits: usize, cases: usize) -> f64 {
    if cases == 0 {
        0.0
    } else {
        100.0 * hits as f64 / cases as f64
    }
}

#[derive(Default, Clone, Copy)]
struct Tally {
    cases: usize,
    hits: usize,
}

/// The measured figures, in floor.json's shape.
struct Measured {
    families: BTreeMap<String, Tally>,
    placements: BTreeMap<String, Tally>,
    positives: Tally,
    negative_classes: BTreeMap<String, Tally>,
    negatives: Tally,
    leaks: Vec<Scored>,
    changed: Vec<(String, String, String)>,
}

fn measure() -> Measured {
    let mut m = Measured {
        families: BTreeMap::new(),
        placements: BTreeMap::new(),
        positives: Tally::default(),
        negative_classes: BTreeMap::new(),
        negatives: Tally::default(),
        leaks: Vec::new(),
        changed: Vec::new(),
    };
    for case in load("positives.jsonl") {
        let scored = score_positive(&case);
        for tally in [
            m.families.entry(scored.family.clone()).or_default(),
            m.placements.entry(scored.placement.clone()).or_default(),
            &mut m.positives,
        ] {
            tally.cases += 1;
            tally.hits += usize::from(scored.hit);
        }
        if !scored.hit {
            m.leaks.push(scored);
        }
    }
    for case in load("negatives.jsonl") {
        let changed = score_negative(&case);
        for tally in [m.negative_classes.entry(field(&case, "class").to_owned()).or_default(), &mut m.negatives] {
            tally.cases += 1;
            tally.hits += usize::from(changed.is_none());
        }
        if let Some(out) = changed {
            let input = Input::of(&case).display();
            m.changed.push((field(&case, "id").to_owned(), input, out));
        }
    }
    m
}

fn one_line(s: &str, max: usize) -> String {
    let flat = s.replace('\0', " | ").replace('\n', "⏎");
    if flat.chars().count() <= max {
        flat
    } else {
        flat.chars().take(max).collect::<String>() + "…"
    }
}

fn table(m: &Measured, floor: &Floor) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "\nRedaction corpus: {} positives over {} families, {} negatives",
        m.positives.cases,
        m.families.len(),
        m.negatives.cases
    );
    let _ = writeln!(t, "\n{:<28} {:>5} {:>5} {:>7} {:>6}", "family (strict recall)", "cases", "hits", "recall", "floor");
    for (family, tally) in &m.families {
        let floor = floor.families.get(family).map_or("-".to_owned(), |f| f.hits.to_string());
        let _ = writeln!(t, "{family:<28} {:>5} {:>5} {:>6.1}% {floor:>6}", tally.cases, tally.hits, pct(tally.hits, tally.cases));
    }
    let _ = writeln!(
        t,
        "{:<28} {:>5} {:>5} {:>6.1}% {:>6}   target {:.0}%",
        "OVERALL",
        m.positives.cases,
        m.positives.hits,
        pct(m.positives.hits, m.positives.cases),
        floor.positives.hits,
        TARGET_RECALL * 100.0
    );
    let _ = writeln!(t, "\n{:<28} {:>5} {:>5} {:>7}", "placement (strict recall)", "cases", "hits", "recall");
    for (placement, tally) in &m.placements {
        let _ = writeln!(t, "{placement:<28} {:>5} {:>5} {:>6.1}%", tally.cases, tally.hits, pct(tally.hits, tally.cases));
    }
    let _ = writeln!(t, "\n{:<28} {:>5} {:>9} {:>7}", "negative class", "cases", "untouched", "share");
    for (class, tally) in &m.negative_classes {
        let _ = writeln!(t, "{class:<28} {:>5} {:>9} {:>6.1}%", tally.cases, tally.hits, pct(tally.hits, tally.cases));
    }
    let _ = writeln!(
        t,
        "{:<28} {:>5} {:>9} {:>6.1}%   floor {}   target {:.0}%",
        "OVERALL",
        m.negatives.cases,
        m.negatives.hits,
        pct(m.negatives.hits, m.negatives.cases),
        floor.negatives.hits,
        TARGET_UNTOUCHED * 100.0
    );
    let _ = writeln!(t, "\ndamage: {} of {} negatives changed", m.changed.len(), m.negatives.cases);
    for (id, input, output) in &m.changed {
        let _ = writeln!(t, "  {id}\n      in:  {}\n      out: {}", one_line(input, 150), one_line(output, 150));
    }
    let _ = writeln!(
        t,
        "\nstrict recall {:.1}% (target {:.0}%), negatives untouched {:.1}% (target {:.0}%)",
        pct(m.positives.hits, m.positives.cases),
        TARGET_RECALL * 100.0,
        pct(m.negatives.hits, m.negatives.cases),
        TARGET_UNTOUCHED * 100.0
    );
    if std::env::var_os("CORPUS_LEAKS").is_some() {
        let _ = writeln!(t, "\nleaks ({}):", m.leaks.len());
        for s in &m.leaks {
            let (fragment, context) = s.leak.as_ref().expect("a leak has a fragment");
            let note = s.note.as_deref().map(|n| format!(" ({n})")).unwrap_or_default();
            let _ = writeln!(t, "  {} [{}]{note}: {fragment:?} survives in {}", s.id, s.placement, one_line(context, 140));
        }
    } else {
        let _ = writeln!(t, "(CORPUS_LEAKS=1 lists the {} leaking positives)", m.leaks.len());
    }
    t
}

/// `tests/redaction/floor.json`.
struct Floor {
    families: BTreeMap<String, Tally>,
    positives: Tally,
    negatives: Tally,
}

fn tally_of(v: &Value, hits_key: &str, what: &str) -> Tally {
    let n = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or_else(|| panic!("floor.json: {what} lacks `{k}`")) as usize;
    Tally { cases: n("cases"), hits: n(hits_key) }
}

fn load_floor() -> Floor {
    let v: Value = serde_json::from_str(&read("floor.json")).unwrap_or_else(|e| panic!("floor.json is not JSON: {e}"));
    let families = v["families"]
        .as_object()
        .expect("floor.json: `families` is an object")
        .iter()
        .map(|(k, f)| (k.clone(), tally_of(f, "hits", k)))
        .collect();
    Floor {
        families,
        positives: tally_of(&v["positives"], "hits", "positives"),
        negatives: tally_of(&v["negatives"], "untouched", "negatives"),
    }
}

/// The floor that states `m`, as it should be committed.
fn floor_json(m: &Measured) -> String {
    let mut s = String::from("{\n");
    let _ = writeln!(
        s,
        "  \"about\": \"Strict hits measured on this corpus by tests/redaction_corpus.rs. A count below its floor fails as a regression; a count above it fails until the floor is raised here. Targets: {:.0}% strict recall, {:.0}% negatives untouched.\",",
        TARGET_RECALL * 100.0,
        TARGET_UNTOUCHED * 100.0
    );
    let _ = writeln!(s, "  \"positives\": {{\"cases\": {}, \"hits\": {}}},", m.positives.cases, m.positives.hits);
    let _ = writeln!(s, "  \"negatives\": {{\"cases\": {}, \"untouched\": {}}},", m.negatives.cases, m.negatives.hits);
    s.push_str("  \"families\": {\n");
    let rows: Vec<String> =
        m.families.iter().map(|(f, t)| format!("    \"{f}\": {{\"cases\": {}, \"hits\": {}}}", t.cases, t.hits)).collect();
    s.push_str(&rows.join(",\n"));
    s.push_str("\n  }\n}\n");
    s
}

/// Every way the measurement and the floor disagree.
fn floor_problems(m: &Measured, floor: &Floor) -> Vec<String> {
    let mut problems = Vec::new();
    let mut compare = |what: &str, got: Tally, want: Option<&Tally>, unit: &str| match want {
        None => problems.push(format!("{what}: no floor (add it to floor.json)")),
        Some(want) if want.cases != got.cases => problems.push(format!(
            "{what}: the corpus has {} cases but floor.json says {} (regenerated corpus? update floor.json)",
            got.cases, want.cases
        )),
        Some(want) if got.hits < want.hits => {
            problems.push(format!("{what}: REGRESSION, {} {unit} but the floor is {}", got.hits, want.hits))
        }
        Some(want) if got.hits > want.hits => problems
            .push(format!("{what}: {} {unit}, above the floor of {}: raise the floor in tests/redaction/floor.json", got.hits, want.hits)),
        Some(_) => {}
    };
    for (family, tally) in &m.families {
        compare(&format!("family {family}"), *tally, floor.families.get(family), "hits");
    }
    compare("all positives", m.positives, Some(&floor.positives), "hits");
    compare("all negatives", m.negatives, Some(&floor.negatives), "untouched");
    for family in floor.families.keys().filter(|f| !m.families.contains_key(*f)) {
        problems.push(format!("family {family}: in floor.json but not in the corpus (remove it)"));
    }
    problems
}

#[test]
fn corpus_is_well_formed() {
    let positives = load("positives.jsonl");
    let negatives = load("negatives.jsonl");
    let mut ids = std::collections::BTreeSet::new();
    let mut families = std::collections::BTreeSet::new();
    for case in &positives {
        let id = field(case, "id");
        assert!(ids.insert(id.to_owned()), "duplicate id {id}");
        families.insert(field(case, "family"));
        field(case, "placement");
        let haystack = model_view(&Input::of(case).haystack());
        let secrets = case["secrets"].as_array().unwrap_or_else(|| panic!("{id}: no secrets"));
        assert!(!secrets.is_empty(), "{id}: plants no secret");
        for s in secrets {
            let s = model_view(s.as_str().expect("a secret is a string"));
            assert!(s.chars().count() >= FRAGMENT, "{id}: secret {s:?} is shorter than a fragment");
            assert!(haystack.contains(&s), "{id}: secret {s:?} is not in its input");
        }
    }
    for case in &negatives {
        let id = field(case, "id");
        assert!(ids.insert(id.to_owned()), "duplicate id {id}");
        field(case, "class");
        Input::of(case);
    }
    assert!(families.len() >= 40, "only {} families", families.len());
    assert!(positives.len() >= 300, "only {} positives", positives.len());
    assert!(negatives.len() >= 150, "only {} negatives", negatives.len());
}

#[test]
fn fragments_are_found_as_a_model_reads_them() {
    let secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyz";
    assert_eq!(surviving_fragment("ok [REDACTED:api_key] ok", secret, ""), None);
    assert_eq!(surviving_fragment("tail: ...mnopqrstuvwxyz", secret, "").as_deref(), Some("mnopqrst"));
    // Seven characters are not a leak; eight are.
    assert_eq!(surviving_fragment("ghp_012 and 3456789", secret, ""), None);
    assert!(surviving_fragment(&model_view("g\u{AD}hp_0123\u{200B}456"), secret, "").is_some());
    assert!(surviving_fragment(&model_view("\u{FF47}\u{FF48}\u{FF50}\u{FF3F}0123"), secret, "").is_some());
    assert_eq!(model_view("a\u{E0069}\u{E0067}b\u{34F}c\u{FE0F}"), "abc");
    // What the input holds outside the secret is no leak of it.
    let token = "rubygems_0123456789abcdef";
    let context = outside_secrets(&format!(":rubygems_api_key: {token}"), &[token]);
    assert_eq!(surviving_fragment(":rubygems_api_key: [REDACTED:secret_field]", token, &context), None);
    assert!(surviving_fragment(":rubygems_api_key: rubygems_01234567", token, &context).is_some());
}

#[test]
fn corpus_meets_its_floor() {
    let m = measure();
    let floor = load_floor();
    println!("{}", table(&m, &floor));
    let problems = floor_problems(&m, &floor);
    if !problems.is_empty() {
        panic!(
            "the redaction corpus disagrees with tests/redaction/floor.json:\n  - {}\n\nThe floor that states today's figures:\n{}",
            problems.join("\n  - "),
            floor_json(&m)
        );
    }
}

/// Long texts take a faster path through the engine (hints ruled out by the pairs of bytes
/// the text holds, provider prefixes ruled out): every text case redacts the same after
/// 1 KiB of prose and after 8 KiB of log lines as alone, so the
/// corpus's short cases speak for long texts too.
#[test]
fn a_long_text_is_redacted_as_its_parts_are() {
    // 1 KiB of prose (the pair filter's length), and 8 KiB of log lines (the lengths
    // from which the bytes are read off the pairs and provider prefixes are ruled out).
    let prose = "The upstream service answered slowly while the queue drained; retried later.\n".repeat(14);
    let log = "2026-12-01T14:03:22.114Z INFO worker-3 GET /v1/items?page=2 status=200 in 14 ms (cache hit)\n".repeat(90);
    assert!(prose.len() >= 1024 && log.len() >= 8192);
    for case in load("positives.jsonl").iter().chain(&load("negatives.jsonl")) {
        let Input::Text(text) = Input::of(case) else { continue };
        let alone = redact_text(&text);
        for before in [&prose, &log] {
            let long = redact_text(&format!("{before}{text}"));
            assert_eq!(long.strip_prefix(before.as_str()), Some(alone.as_str()), "{}: {text}", field(case, "id"));
        }
    }
}
