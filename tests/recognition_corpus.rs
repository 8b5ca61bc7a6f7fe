//! The recognition corpus (`tests/recognition/`, described in its README) scored against the
//! public API.
//!
//! - Each line of `tests/recognition/failures.jsonl` is a real failure of an MCP reference
//!   server, captured through an official SDK client, with hand labels: the right `kind`
//!   (and kinds that are as good), the failure's family, and the arguments a good
//!   recognizer names.
//! - Each failure becomes a failure report as the vectors write them (`tool` as
//!   `<server>::<tool>`, the tool's `annotations`, `dispatched: true`, and the
//!   `tool_result` or `jsonrpc_error` as received) and goes through
//!   [`codemode_errors::normalize_json`]. When the core accepts a report's `input_schema` and
//!   `arguments` (probed once), the report carries the tool's schema and the call's arguments
//!   too; until then they stay in the corpus line only.
//! - Kinds: `tool_error` is no answer. Precision is, of the failures the core gave a specific
//!   kind, the share that was right; recall is, of the failures labelled with a specific
//!   kind, the share it got right. A specific kind that is not the label is *confidently
//!   wrong*, and so is a specific kind where the label is `tool_error`.
//! - Arguments are compared by their top-level name (`edits[0].newText` is `edits`): precision
//!   over the names the core put in `invalid_arguments`, recall over the labelled names.
//! - `cargo test --test recognition_corpus -- --nocapture` prints per-family figures, every
//!   confidently-wrong answer and every miss with its text.
//! - `tests/recognition/floor.json` states today's figures. The test fails when any figure
//!   differs from it, lower (a regression) or higher (raise the floor so the file keeps
//!   stating the truth), and prints the floor to commit.
//!
//! Nothing is written.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;

use codemode_errors::{normalize_json, Policy};
use serde_json::{json, Map, Value};

const FAMILIES: &[&str] = &[
    "not_found",
    "conflict",
    "outside_root",
    "invalid_value",
    "missing_argument",
    "type_error",
    "unknown_tool",
    "auth",
    "rate_limit",
    "timeout",
    "http_status",
    "errno",
    "sdk_validation",
    "validator",
    "backend_unreachable",
    "git",
    "database",
    "http_client",
    "process",
    "other",
];

/// The kind that is no answer.
const NO_ANSWER: &str = "tool_error";

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/recognition")
}

fn read(name: &str) -> String {
    let path = corpus_dir().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// One labelled failure.
struct Case {
    id: String,
    server: String,
    sdk: String,
    tool: Option<String>,
    annotations: Option<Value>,
    input_schema: Option<Value>,
    arguments: Value,
    /// `("tool_result" | "jsonrpc_error", value)`.
    failure: (String, Value),
    family: String,
    kind: String,
    acceptable: BTreeSet<String>,
    labelled_arguments: BTreeSet<String>,
}

fn string(v: &Value, key: &str, id: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or_else(|| panic!("{id}: no string `{key}`")).to_owned()
}

fn strings(v: Option<&Value>, id: &str, key: &str) -> BTreeSet<String> {
    match v {
        None => BTreeSet::new(),
        Some(Value::Array(items)) => {
            items.iter().map(|s| s.as_str().unwrap_or_else(|| panic!("{id}: `{key}` holds a non-string")).to_owned()).collect()
        }
        Some(other) => panic!("{id}: `{key}` is {other}, not a list"),
    }
}

/// The corpus the rules were built on, and the held-out one (servers no rule was built
/// from, scored only to measure), each with its floor.
const CORPORA: [(&str, &str); 2] = [("failures.jsonl", "floor.json"), ("held_out.jsonl", "held_out_floor.json")];

fn load(file: &str) -> Vec<Case> {
    read(file)
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| {
            let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{file} line {}: {e}", n + 1));
            let id = string(&v, "id", &format!("line {}", n + 1));
            let failure = v["failure"].as_object().unwrap_or_else(|| panic!("{id}: no `failure` object"));
            assert_eq!(failure.len(), 1, "{id}: `failure` holds exactly one of tool_result, jsonrpc_error");
            let (tag, value) = failure.iter().next().expect("one member");
            assert!(tag == "tool_result" || tag == "jsonrpc_error", "{id}: unknown failure tag {tag}");
            let expected = &v["expected"];
            let kind = string(expected, "kind", &id);
            let mut acceptable = strings(expected.get("acceptable"), &id, "acceptable");
            acceptable.insert(kind.clone());
            Case {
                server: string(&v, "server", &id),
                sdk: string(&v, "sdk", &id),
                tool: v.get("tool").and_then(Value::as_str).map(str::to_owned),
                annotations: v.get("annotations").filter(|a| a.is_object()).cloned(),
                input_schema: v.get("input_schema").filter(|s| s.is_object()).cloned(),
                arguments: v.get("arguments").cloned().unwrap_or(Value::Null),
                failure: (tag.clone(), value.clone()),
                family: string(expected, "family", &id),
                kind,
                acceptable,
                labelled_arguments: strings(expected.get("arguments"), &id, "arguments"),
                id,
            }
        })
        .collect()
}

/// The failure report of a case, as the vectors write one.
fn report(case: &Case, with_schema: bool) -> Value {
    let mut r = Map::new();
    if let Some(tool) = &case.tool {
        r.insert("tool".into(), json!(format!("{}::{}", case.server, tool)));
    }
    if let Some(a) = &case.annotations {
        r.insert("annotations".into(), a.clone());
    }
    r.insert("dispatched".into(), json!(true));
    if with_schema {
        if let Some(s) = &case.input_schema {
            r.insert("input_schema".into(), s.clone());
        }
        r.insert("arguments".into(), case.arguments.clone());
    }
    r.insert(case.failure.0.clone(), case.failure.1.clone());
    Value::Object(r)
}

/// Whether the core accepts a report's `input_schema` and `arguments` (the issue's "arguments
/// from the schema"); until it does, a report carrying them is refused as invalid.
fn core_takes_schema() -> bool {
    let probe = json!({
        "tool": "probe::tool",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
        "arguments": {"path": "x"},
        "tool_result": {"isError": true, "content": [{"type": "text", "text": "failed"}]}
    });
    normalize_json(&probe.to_string(), &Policy::default()).is_ok()
}

/// The core's advice for `kind` (`action/same_arguments`) under the tool's annotations, from a
/// gateway block of that kind, which keeps its kind and takes the kind's advice.
fn advice_of(kind: &str, annotations: Option<&Value>) -> String {
    let mut probe = json!({"code_mode": {"kind": kind, "message": "probe"}});
    if let Some(a) = annotations {
        probe["annotations"] = a.clone();
    }
    let outcome = normalize_json(&probe.to_string(), &Policy::default()).expect("a gateway block is a report");
    let out: Value = serde_json::from_str(&outcome.to_json()).expect("the outcome is JSON");
    advice(&out["error"])
}

fn advice(error: &Value) -> String {
    let r = &error["recovery"];
    format!("{}/{}", r["action"].as_str().unwrap_or("?"), r["same_arguments"].as_str().unwrap_or("?"))
}

/// What the core answered for one case.
struct Answer {
    /// `action/same_arguments`.
    advice: String,
    kind: String,
    kind_source: Option<String>,
    recognized_by: Option<String>,
    named: BTreeSet<String>,
}

/// The top-level argument of a path: `edits[0].newText` is `edits`.
fn top_level(path: &str) -> String {
    path.split(['.', '[']).next().unwrap_or(path).to_owned()
}

fn answer(case: &Case, with_schema: bool) -> Answer {
    let text = report(case, with_schema).to_string();
    let outcome = normalize_json(&text, &Policy::default()).unwrap_or_else(|e| panic!("{}: the report is refused: {e:?}", case.id));
    let out: Value = serde_json::from_str(&outcome.to_json()).expect("the outcome is JSON");
    let error = &out["error"];
    assert!(error.is_object(), "{}: no error for a failure", case.id);
    let named = error
        .get("invalid_arguments")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(|a| a.get("path").and_then(Value::as_str)).map(top_level).filter(|p| !p.is_empty()).collect())
        .unwrap_or_default();
    let opt = |k: &str| error.get(k).and_then(Value::as_str).map(str::to_owned);
    Answer {
        advice: advice(error),
        kind: opt("kind").expect("an error has a kind"),
        kind_source: opt("kind_source"),
        recognized_by: opt("recognized_by"),
        named,
    }
}

/// The failure's text as a person reads it: the text blocks, or the JSON-RPC error.
fn failure_text(case: &Case) -> String {
    let v = &case.failure.1;
    if case.failure.0 == "jsonrpc_error" {
        return format!("JSON-RPC {}: {}", v["code"], v["message"].as_str().unwrap_or(""));
    }
    let blocks = v["content"].as_array().map(Vec::as_slice).unwrap_or_default();
    blocks.iter().filter_map(|b| b.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join(" | ")
}

fn one_line(s: &str, max: usize) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        flat
    } else {
        format!("{}…", flat.chars().take(max).collect::<String>())
    }
}

/// Counts for one family (or all of them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    cases: usize,
    /// Cases labelled with a specific kind (not `tool_error`).
    specific_labels: usize,
    /// Cases the core gave a specific kind.
    answered: usize,
    /// Specific answers that were right.
    right: usize,
    /// Specific answers that were wrong (confidently wrong).
    wrong: usize,
    /// Cases labelled `tool_error` the core left as `tool_error`.
    abstained_right: usize,
    /// Labelled argument names.
    args_labelled: usize,
    /// Argument names the core named.
    args_named: usize,
    /// Named argument names that were labelled.
    args_right: usize,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.cases += o.cases;
        self.specific_labels += o.specific_labels;
        self.answered += o.answered;
        self.right += o.right;
        self.wrong += o.wrong;
        self.abstained_right += o.abstained_right;
        self.args_labelled += o.args_labelled;
        self.args_named += o.args_named;
        self.args_right += o.args_right;
    }

    const FIELDS: [&'static str; 9] =
        ["cases", "specific_labels", "answered", "right", "wrong", "abstained_right", "args_labelled", "args_named", "args_right"];

    fn values(&self) -> [usize; 9] {
        [
            self.cases,
            self.specific_labels,
            self.answered,
            self.right,
            self.wrong,
            self.abstained_right,
            self.args_labelled,
            self.args_named,
            self.args_right,
        ]
    }

    fn from_json(v: &Value, what: &str) -> Tally {
        let n = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or_else(|| panic!("floor.json: {what} lacks `{k}`")) as usize;
        Tally {
            cases: n("cases"),
            specific_labels: n("specific_labels"),
            answered: n("answered"),
            right: n("right"),
            wrong: n("wrong"),
            abstained_right: n("abstained_right"),
            args_labelled: n("args_labelled"),
            args_named: n("args_named"),
            args_right: n("args_right"),
        }
    }

    fn to_json(self) -> String {
        let parts: Vec<String> = Self::FIELDS.iter().zip(self.values()).map(|(k, v)| format!("\"{k}\": {v}")).collect();
        format!("{{{}}}", parts.join(", "))
    }
}

struct Scored<'a> {
    case: &'a Case,
    answer: Answer,
}

impl Scored<'_> {
    fn specific(&self) -> bool {
        self.answer.kind != NO_ANSWER
    }

    fn right(&self) -> bool {
        self.case.acceptable.contains(&self.answer.kind)
    }

    fn tally(&self) -> Tally {
        let c = self.case;
        let hit = self.answer.named.intersection(&c.labelled_arguments).count();
        Tally {
            cases: 1,
            specific_labels: usize::from(c.kind != NO_ANSWER),
            answered: usize::from(self.specific()),
            right: usize::from(self.specific() && self.right()),
            wrong: usize::from(self.specific() && !self.right()),
            abstained_right: usize::from(!self.specific() && c.kind == NO_ANSWER),
            args_labelled: c.labelled_arguments.len(),
            args_named: self.answer.named.len(),
            args_right: hit,
        }
    }
}

struct Measured<'a> {
    with_schema: bool,
    scored: Vec<Scored<'a>>,
    families: BTreeMap<String, Tally>,
    total: Tally,
}

fn measure(cases: &[Case]) -> Measured<'_> {
    let with_schema = core_takes_schema();
    let scored: Vec<Scored<'_>> = cases.iter().map(|case| Scored { case, answer: answer(case, with_schema) }).collect();
    let mut families: BTreeMap<String, Tally> = BTreeMap::new();
    let mut total = Tally::default();
    for s in &scored {
        let t = s.tally();
        families.entry(s.case.family.clone()).or_default().add(&t);
        total.add(&t);
    }
    Measured { with_schema, scored, families, total }
}

fn pct(n: usize, d: usize) -> String {
    if d == 0 {
        "   -  ".to_owned()
    } else {
        format!("{:5.1}%", 100.0 * n as f64 / d as f64)
    }
}

fn row(t: &mut String, name: &str, x: &Tally) {
    let _ = writeln!(
        t,
        "{name:<15} {:>5} | {:>4}/{:<4} {} {:>4}/{:<4} {} {:>5} | {:>4}/{:<4} {} {:>4}/{:<4} {}",
        x.cases,
        x.right,
        x.answered,
        pct(x.right, x.answered),
        x.right,
        x.specific_labels,
        pct(x.right, x.specific_labels),
        x.wrong,
        x.args_right,
        x.args_named,
        pct(x.args_right, x.args_named),
        x.args_right,
        x.args_labelled,
        pct(x.args_right, x.args_labelled),
    );
}

fn describe(s: &Scored<'_>) -> String {
    let a = &s.answer;
    let by = a.recognized_by.as_deref().map(|r| format!(", recognized_by {r}")).unwrap_or_default();
    let source = a.kind_source.as_deref().unwrap_or("-");
    let label_advice = advice_of(&s.case.kind, s.case.annotations.as_ref());
    let advice = if a.advice == label_advice {
        format!("advice {} as the label's", a.advice)
    } else {
        format!("advice {} where the label's is {label_advice}", a.advice)
    };
    format!(
        "  {} [{}] label {} got {} ({source}{by}; {advice})\n      {}",
        s.case.id,
        s.case.family,
        s.case.acceptable.iter().cloned().collect::<Vec<_>>().join("|"),
        a.kind,
        one_line(&failure_text(s.case), 220)
    )
}

fn table(m: &Measured<'_>) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "recognition corpus: {} failures; reports carry input_schema and arguments: {}\n",
        m.total.cases,
        if m.with_schema { "yes" } else { "no (the core does not take them yet)" }
    );
    let _ = writeln!(
        t,
        "{:<15} {:>5} | {:^20} {:^20} {:>5} | {:^20} {:^20}",
        "family", "cases", "kind precision", "kind recall", "wrong", "argument precision", "argument recall"
    );
    for (f, x) in &m.families {
        row(&mut t, f, x);
    }
    row(&mut t, "all", &m.total);
    let mut sdks: BTreeMap<&str, Tally> = BTreeMap::new();
    for s in &m.scored {
        sdks.entry(s.case.sdk.as_str()).or_default().add(&s.tally());
    }
    for (sdk, x) in &sdks {
        row(&mut t, &format!("sdk {sdk}"), x);
    }
    let _ = writeln!(
        t,
        "\n(precision: right of the specific answers; recall: right of the failures labelled with a specific kind; `tool_error` is no answer. {} of {} failures labelled tool_error were left as tool_error.)",
        m.total.abstained_right,
        m.total.cases - m.total.specific_labels
    );
    let wrong: Vec<&Scored<'_>> = m.scored.iter().filter(|s| s.specific() && !s.right()).collect();
    let _ = writeln!(t, "\nconfidently wrong ({}):", wrong.len());
    for s in &wrong {
        let _ = writeln!(t, "{}", describe(s));
    }
    let missed: Vec<&Scored<'_>> = m.scored.iter().filter(|s| !s.specific() && s.case.kind != NO_ANSWER).collect();
    let _ = writeln!(t, "\nmissed: labelled with a specific kind, answered tool_error ({}):", missed.len());
    for s in &missed {
        let _ = writeln!(t, "{}", describe(s));
    }
    let arg_misses: Vec<String> = m
        .scored
        .iter()
        .filter(|s| s.answer.named != s.case.labelled_arguments)
        .map(|s| {
            let list = |x: &BTreeSet<String>| if x.is_empty() { "-".to_owned() } else { x.iter().cloned().collect::<Vec<_>>().join(",") };
            format!("  {} [{}] labelled {} named {}", s.case.id, s.case.family, list(&s.case.labelled_arguments), list(&s.answer.named))
        })
        .collect();
    let _ = writeln!(t, "\narguments not named as labelled ({}):", arg_misses.len());
    for line in &arg_misses {
        let _ = writeln!(t, "{line}");
    }
    t
}

/// `tests/recognition/floor.json`.
struct Floor {
    with_schema: bool,
    families: BTreeMap<String, Tally>,
    total: Tally,
    confidently_wrong: BTreeSet<String>,
}

fn load_floor(file: &str) -> Floor {
    let v: Value = serde_json::from_str(&read(file)).unwrap_or_else(|e| panic!("{file} is not JSON: {e}"));
    Floor {
        with_schema: v["reports_carry_schema"].as_bool().expect("floor.json: `reports_carry_schema` is a boolean"),
        families: v["families"]
            .as_object()
            .expect("floor.json: `families` is an object")
            .iter()
            .map(|(k, f)| (k.clone(), Tally::from_json(f, k)))
            .collect(),
        total: Tally::from_json(&v["all"], "all"),
        confidently_wrong: strings(v.get("confidently_wrong"), "floor.json", "confidently_wrong"),
    }
}

fn confidently_wrong(m: &Measured<'_>) -> BTreeSet<String> {
    m.scored.iter().filter(|s| s.specific() && !s.right()).map(|s| s.case.id.clone()).collect()
}

/// The floor that states `m`, as it should be committed.
fn floor_json(m: &Measured<'_>, corpus: &str) -> String {
    let mut s = String::from("{\n");
    let _ = writeln!(s, "  \"about\": \"Figures measured on {corpus} by tests/recognition_corpus.rs. Any figure that differs fails the test: lower is a regression, higher means raise the floor here. right/answered is kind precision, right/specific_labels kind recall, wrong counts confidently wrong answers; args_right/args_named is argument precision, args_right/args_labelled argument recall.\",");
    let _ = writeln!(s, "  \"reports_carry_schema\": {},", m.with_schema);
    let _ = writeln!(s, "  \"all\": {},", m.total.to_json());
    s.push_str("  \"families\": {\n");
    let rows: Vec<String> = m.families.iter().map(|(f, t)| format!("    \"{f}\": {}", t.to_json())).collect();
    s.push_str(&rows.join(",\n"));
    s.push_str("\n  },\n  \"confidently_wrong\": [");
    let wrong: Vec<String> = confidently_wrong(m).iter().map(|id| format!("\n    \"{id}\"")).collect();
    s.push_str(&wrong.join(","));
    s.push_str(if wrong.is_empty() { "]\n}\n" } else { "\n  ]\n}\n" });
    s
}

/// Every way the measurement and the floor disagree.
fn floor_problems(m: &Measured<'_>, floor: &Floor) -> Vec<String> {
    let mut problems = Vec::new();
    if m.with_schema != floor.with_schema {
        problems.push(format!(
            "reports carry input_schema and arguments: {} now, {} in floor.json (the core's report changed: measure again)",
            m.with_schema, floor.with_schema
        ));
    }
    let mut compare = |what: &str, got: &Tally, want: Option<&Tally>| {
        let Some(want) = want else {
            problems.push(format!("{what}: no floor (add it to floor.json)"));
            return;
        };
        for ((field, g), w) in Tally::FIELDS.iter().zip(got.values()).zip(want.values()) {
            if g == w {
                continue;
            }
            // For `wrong`, fewer is better; for the label counts any change is a new corpus.
            let better = match *field {
                "wrong" => g < w,
                "cases" | "specific_labels" | "args_labelled" => {
                    problems.push(format!(
                        "{what}: {field} is {g} but floor.json says {w} (recaptured or relabelled corpus? update floor.json)"
                    ));
                    continue;
                }
                // More named arguments is better only when they are right; args_right decides.
                "args_named" | "answered" => {
                    problems.push(format!("{what}: {field} is {g}, floor.json says {w}: update floor.json"));
                    continue;
                }
                _ => g > w,
            };
            if better {
                problems
                    .push(format!("{what}: {field} is {g}, better than the floor of {w}: raise the floor in tests/recognition/floor.json"));
            } else {
                problems.push(format!("{what}: REGRESSION, {field} is {g} but the floor is {w}"));
            }
        }
    };
    for (family, tally) in &m.families {
        compare(&format!("family {family}"), tally, floor.families.get(family));
    }
    compare("all", &m.total, Some(&floor.total));
    for family in floor.families.keys().filter(|f| !m.families.contains_key(*f)) {
        problems.push(format!("family {family}: in floor.json but not in the corpus (remove it)"));
    }
    let now = confidently_wrong(m);
    for id in now.difference(&floor.confidently_wrong) {
        problems.push(format!("REGRESSION: {id} is newly confidently wrong"));
    }
    for id in floor.confidently_wrong.difference(&now) {
        problems.push(format!("{id} is no longer confidently wrong: remove it from floor.json"));
    }
    problems
}

#[test]
fn corpus_is_well_formed() {
    let cases: Vec<Case> = CORPORA.iter().flat_map(|(file, _)| load(file)).collect();
    let mut ids = BTreeSet::new();
    let mut servers: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for c in &cases {
        assert!(ids.insert(c.id.as_str()), "duplicate id {}", c.id);
        assert!(FAMILIES.contains(&c.family.as_str()), "{}: unknown family {}", c.id, c.family);
        servers.entry(c.sdk.as_str()).or_default().insert(c.server.as_str());
        if c.failure.0 == "tool_result" {
            assert_eq!(c.failure.1["isError"], json!(true), "{}: a captured tool_result is a failure", c.id);
        } else {
            assert!(c.failure.1["code"].is_i64(), "{}: a JSON-RPC error has an integer code", c.id);
        }
        if let Some(schema) = &c.input_schema {
            // A labelled argument is a property of the tool's schema.
            let props = schema["properties"].as_object().unwrap_or_else(|| panic!("{}: schema without properties", c.id));
            for a in &c.labelled_arguments {
                assert!(props.contains_key(a), "{}: labelled argument {a} is not in the tool's input_schema", c.id);
            }
        }
        // Reports are accepted as they stand.
        let _ = answer(c, false);
    }
    assert!(cases.len() >= 60, "only {} failures", cases.len());
    let all: BTreeSet<&str> = servers.values().flatten().copied().collect();
    assert!(all.len() >= 5, "only {} servers", all.len());
    for (sdk, s) in &servers {
        assert!(s.len() >= 2, "only {} servers on the {sdk} SDK", s.len());
    }
}

#[test]
fn corpus_meets_its_floor() {
    let mut disagreements = Vec::new();
    for (corpus, floor) in CORPORA {
        let cases = load(corpus);
        let m = measure(&cases);
        println!("== {corpus}\n{}", table(&m));
        let problems = floor_problems(&m, &load_floor(floor));
        if !problems.is_empty() {
            disagreements.push(format!(
                "{corpus} disagrees with tests/recognition/{floor}:\n  - {}\n\nThe floor that states today's figures:\n{}",
                problems.join("\n  - "),
                floor_json(&m, corpus)
            ));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n\n"));
}
