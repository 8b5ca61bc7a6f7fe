//! The shared test vectors (`tests/vectors/`, format in its README), embedded at build time
//! and typed: the one loader every Rust runner uses.
//!
//! - [`Suite::load`]: every vector, the declared gaps (`gaps.json`) and the declared
//!   off-schema MCP values (`off-schema.json`); every malformed file is reported, by name.
//! - [`Form`]: the ways a vector is fed to an entry point, and [`Vector::forms`]: which of
//!   them apply to a vector, structurally (whatever the surface).
//! - [`Tally`]: one surface's results, judged against the declared gaps: a declared gap
//!   must still fail, an undeclared failure fails the run, and a form a surface declares
//!   but did not run for a vector is a failure too (no implicit skips).
//!
//! The files are embedded (`include_str!`), so nothing here touches the filesystem except
//! [`Vector::path`], which blessing writes to. The JavaScript runners
//! (`js-package/test/vector-files.mjs`, `vector-check.mjs`) read the same files with the
//! same rules.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

mod exec;
mod gaps;
mod typed;

pub use exec::{answer, ExecCall, ExecWrapping};
pub use gaps::{Gap, Gaps, SurfaceDecl, Tally};
pub use typed::{Blocked, Hints, TypedFailure, TypedReport, TRANSPORT_KINDS};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/files.rs"));
}

/// Fewest vectors the suite accepts (checked when no filter is set).
pub const MIN_VECTORS: usize = 80;

/// Top-level keys a vector may have, in the order the README lists them.
pub const VECTOR_KEYS: &[&str] = &["description", "policy", "report", "report_text", "run", "exec", "expected", "expected_error"];

/// The declared gaps, at the top of the folder.
pub const GAPS_FILE: &str = "gaps.json";

/// The declared off-schema MCP values, at the top of the folder.
pub const OFF_SCHEMA_FILE: &str = "off-schema.json";

/// The only files at the top of the folder; everything else is `<group>/<name>.json`.
pub const TOP_LEVEL_FILES: &[&str] = &["README.md", GAPS_FILE, OFF_SCHEMA_FILE];

/// The report members that hold MCP values (`tests/mcp-schema/`).
pub const MCP_MEMBERS: &[&str] = &["tool_result", "annotations", "jsonrpc_error"];

/// The schema definition an MCP value of `member` is checked against. A `tool_result` is
/// what a `tools/call` response carries as its `result`: in 2026-07-28 an
/// `InputRequiredResult` when its `resultType` says `input_required`, else a
/// `CallToolResult` (the result type tells the client how to parse the result; checking
/// against either, the response's `anyOf`, would accept almost anything, since an
/// `InputRequiredResult` requires no member).
pub fn mcp_definition(member: &str, value: &Value) -> Option<&'static str> {
    Some(match member {
        "tool_result" if value.get("resultType").and_then(Value::as_str) == Some("input_required") => "#/$defs/InputRequiredResult",
        "tool_result" => "#/$defs/CallToolResult",
        "annotations" => "#/$defs/ToolAnnotations",
        "jsonrpc_error" => "#/$defs/JSONRPCErrorResponse/properties/error",
        _ => return None,
    })
}

/// The folder the vectors were embedded from (blessing writes back there).
pub fn folder() -> &'static Path {
    Path::new(embedded::FOLDER)
}

/// `VECTORS_FILTER`, when set and not empty: run only the vectors whose name contains it.
pub fn filter_from_env() -> Option<String> {
    std::env::var("VECTORS_FILTER").ok().filter(|f| !f.is_empty())
}

/// One vector file, read and checked.
#[derive(Clone, Debug)]
pub struct Vector {
    /// The path below `tests/vectors/`, e.g. `kinds/not_found.json`.
    pub name: String,
    /// Which rule the vector checks.
    pub description: String,
    /// The `policy` object's compact JSON text, keys in the order written.
    pub policy: Option<String>,
    /// What is fed to the surface.
    pub input: Input,
    /// What the surface must answer. Always present when loaded with [`Suite::load`];
    /// `None` only for a vector not blessed yet, loaded with [`Suite::load_to_bless`].
    pub expected: Option<Expected>,
    /// The whole file, key order kept (blessing rewrites it).
    pub document: Value,
}

/// A vector's input.
#[derive(Clone, Debug)]
pub enum Input {
    /// `report`: a failure report as a JSON value, and its compact serialization with the
    /// keys in the order written (what the text entry points are fed).
    Report {
        /// The compact serialization.
        text: String,
        /// The value itself.
        value: Value,
    },
    /// `report_text`: raw text fed as-is to the text entry points.
    ReportText(String),
    /// `run`: a run report for the run classifier, and its compact serialization.
    Run {
        /// The compact serialization.
        text: String,
        /// The value itself.
        value: Value,
    },
    /// `exec`: one executor step (`{"step": ...}`, the core's `run::ExecStep`), and its
    /// compact serialization.
    Exec {
        /// The compact serialization.
        text: String,
        /// The value itself.
        value: Value,
    },
}

impl Input {
    /// The text a text entry point is fed.
    pub fn text(&self) -> &str {
        match self {
            Input::Report { text, .. } | Input::Run { text, .. } | Input::Exec { text, .. } => text,
            Input::ReportText(text) => text,
        }
    }

    /// The value an object entry point is fed (`None` for raw text).
    pub fn value(&self) -> Option<&Value> {
        match self {
            Input::Report { value, .. } | Input::Run { value, .. } | Input::Exec { value, .. } => Some(value),
            Input::ReportText(_) => None,
        }
    }

    /// Whether this is a run report or an executor step: the run layer's input, whose
    /// expectation is not a call-error outcome.
    pub fn is_run(&self) -> bool {
        matches!(self, Input::Run { .. } | Input::Exec { .. })
    }
}

/// What a surface must answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// `expected`: the compact serialization of the outcome (or, for a run, the run error),
    /// keys in the order written; the surface's output must equal it byte for byte.
    Outcome(String),
    /// `expected_error`: the typed error's code and path.
    Error {
        /// The error code, e.g. `invalid_report`.
        code: String,
        /// Where in the input, e.g. `tool_result.content[0]`; empty for the whole input.
        path: String,
    },
}

/// The ways a vector is fed to an entry point. Which apply to a vector is structural (see
/// [`Vector::applies`]); which a surface runs is declared in `gaps.json` (`surfaces`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Form {
    /// A failure report as JSON text through a text entry point (`normalize_json`,
    /// `normalizeToJson(string)`): the compact `report`, or `report_text` as-is.
    Text,
    /// A failure report as a value through an object entry point (`normalizeToJson(object)`).
    Object,
    /// A failure report as typed values through `normalize(context, failure)` (WIT).
    Typed,
    /// A run report as compact JSON text through the run classifier (`classify_run_json`,
    /// `classifyRunToJson(string)`).
    RunText,
    /// A run report as a value through the run classifier (`classifyRunToJson(object)`).
    RunObject,
    /// An executor step as JSON text through the step entry point (`exec_step_json`,
    /// `exec-step`, `execStep`).
    Exec,
    /// An executor step through its own typed entry point (the WIT `syntax-error`, the npm
    /// package's `syntaxError`, ...), the answer written as the step's JSON.
    ExecCall,
}

impl Form {
    /// Every form, in a fixed order.
    pub const ALL: [Form; 7] = [Form::Text, Form::Object, Form::Typed, Form::RunText, Form::RunObject, Form::Exec, Form::ExecCall];

    /// The name `gaps.json` and the JavaScript runners use.
    pub fn name(self) -> &'static str {
        match self {
            Form::Text => "text",
            Form::Object => "object",
            Form::Typed => "typed",
            Form::RunText => "run-text",
            Form::RunObject => "run-object",
            Form::Exec => "exec",
            Form::ExecCall => "exec-call",
        }
    }

    /// The form with this name.
    pub fn from_name(name: &str) -> Option<Form> {
        Form::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Vector {
    /// Read a vector file. `name` is its path below the folder, `text` its content.
    /// Without an expectation the vector is refused unless `to_bless`.
    pub fn parse(name: &str, text: &str, to_bless: bool) -> Result<Vector, String> {
        let document: Value = serde_json::from_str(text).map_err(|e| format!("the vector is not JSON: {e}"))?;
        let object = document.as_object().ok_or("the vector is not a JSON object")?;
        for key in object.keys() {
            if !VECTOR_KEYS.contains(&key.as_str()) {
                return Err(format!("unknown top-level key {key:?}; expected {VECTOR_KEYS:?}"));
            }
        }
        let description = match object.get("description") {
            Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
            _ => return Err("`description` (a non-empty string naming the rule) is required".into()),
        };
        let input = match (object.get("report"), object.get("report_text"), object.get("run"), object.get("exec")) {
            (Some(report), None, None, None) => Input::Report { text: compact(report), value: report.clone() },
            (None, Some(Value::String(text)), None, None) => Input::ReportText(text.clone()),
            (None, Some(_), None, None) => return Err("`report_text` must be a string".into()),
            (None, None, Some(run), None) => Input::Run { text: compact(run), value: run.clone() },
            (None, None, None, Some(step)) => Input::Exec { text: compact(step), value: step.clone() },
            _ => return Err("exactly one of `report`, `report_text`, `run` and `exec` is required".into()),
        };
        let policy = match object.get("policy") {
            None => None,
            Some(_) if input.is_run() => return Err("a `run` or `exec` vector takes no `policy`".into()),
            Some(p @ Value::Object(_)) => Some(compact(p)),
            Some(_) => return Err("`policy` must be an object (`Policy::from_json`: caps and redaction lists)".into()),
        };
        let expected = match (object.get("expected"), object.get("expected_error")) {
            (Some(outcome), None) => {
                if !input.is_run() && !matches!(outcome.get("error"), Some(Value::Object(_) | Value::Null)) {
                    return Err("`expected.error` must be an object or null".into());
                }
                Some(Expected::Outcome(compact(outcome)))
            }
            (None, Some(error)) => Some(expected_error(error)?),
            (None, None) if to_bless => None,
            _ => return Err("exactly one of `expected` and `expected_error` is required".into()),
        };
        Ok(Vector { name: name.to_owned(), description, policy, input, expected, document })
    }

    /// The expectation; every vector loaded with [`Suite::load`] has one.
    pub fn expected(&self) -> &Expected {
        self.expected.as_ref().expect("vectors loaded with Suite::load have an expectation")
    }

    /// The group (first path component), e.g. `kinds`.
    pub fn group(&self) -> &str {
        self.name.split('/').next().unwrap_or("")
    }

    /// The file on disk, for blessing.
    pub fn path(&self) -> PathBuf {
        folder().join(&self.name)
    }

    /// Whether `form` can apply to this vector at all, on any surface.
    pub fn applies(&self, form: Form) -> bool {
        match (form, &self.input) {
            // A failure report goes to the normalizer as text: the compact serialization
            // of `report`, or `report_text` as written.
            (Form::Text, Input::Report { .. } | Input::ReportText(_)) => true,
            // A `report_text` never goes to an object entry point: the text is the input,
            // and there is no value without choosing a JSON parser, whose handling of
            // duplicate keys, lone surrogates, 1e400 and deep nesting is exactly what
            // those vectors test in the core's own reader.
            (Form::Object, Input::Report { .. }) => true,
            // The typed entry point takes WIT values: a report the WIT types cannot express
            // (see `typed.rs`) tests checks a typed caller cannot reach.
            (Form::Typed, Input::Report { value, .. }) => TypedReport::from_report(value).is_some(),
            // Run reports go to the run classifier only, and failure reports never do.
            (Form::RunText | Form::RunObject, Input::Run { .. }) => true,
            // A step goes to the step entry point as text, and to its own entry point
            // when it is one (a malformed step has no typed call to make).
            (Form::Exec, Input::Exec { .. }) => true,
            (Form::ExecCall, Input::Exec { value, .. }) => ExecCall::from_step(value).is_some(),
            _ => false,
        }
    }

    /// Every form that applies to this vector, in [`Form::ALL`] order.
    pub fn forms(&self) -> Vec<Form> {
        Form::ALL.into_iter().filter(|f| self.applies(*f)).collect()
    }

    /// The report as typed values, when [`Form::Typed`] applies.
    pub fn typed(&self) -> Option<TypedReport> {
        match &self.input {
            Input::Report { value, .. } => TypedReport::from_report(value),
            _ => None,
        }
    }

    /// The report value, if the vector has one: `report`, or `report_text` when serde_json
    /// reads it (within its own nesting limit) as an object. The MCP schema check reads
    /// the MCP values in it.
    pub fn report_value(&self) -> Option<Value> {
        match &self.input {
            Input::Report { value, .. } => Some(value.clone()),
            Input::ReportText(text) => serde_json::from_str::<Value>(text).ok().filter(Value::is_object),
            Input::Run { .. } | Input::Exec { .. } => None,
        }
    }

    /// The canonical kind of the expected error object, when there is one.
    pub fn expected_kind(&self) -> Option<&str> {
        if self.input.is_run() {
            return None;
        }
        self.document.get("expected")?.get("error")?.get("kind")?.as_str()
    }
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).expect("a JSON value serializes")
}

fn expected_error(value: &Value) -> Result<Expected, String> {
    let object = value.as_object().ok_or("`expected_error` must be an object {code, path}")?;
    if let Some(key) = object.keys().find(|k| !["code", "path"].contains(&k.as_str())) {
        return Err(format!("unknown key {key:?} in `expected_error`; expected code and path"));
    }
    let field = |key: &str| match object.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        _ => Err(format!("`expected_error.{key}` must be a string")),
    };
    Ok(Expected::Error { code: field("code")?, path: field("path")? })
}

/// An MCP value declared off-schema: it must fail the 2026-07-28 schema (and, with
/// `valid_in`, pass that older version's schema).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OffSchema {
    /// The vector.
    pub vector: String,
    /// The report member, one of [`MCP_MEMBERS`].
    pub member: String,
    /// Why the vector holds a value off the schema.
    pub reason: String,
    /// An older protocol version whose schema the value must satisfy.
    pub valid_in: Option<String>,
}

/// Every vector and the declarations about them.
#[derive(Clone, Debug)]
pub struct Suite {
    /// Every vector, sorted by name (path components).
    pub vectors: Vec<Vector>,
    /// `gaps.json`.
    pub gaps: Gaps,
    /// `off-schema.json`.
    pub off_schema: Vec<OffSchema>,
}

/// Every problem found while loading, each naming its file.
#[derive(Clone, Debug)]
pub struct LoadErrors(pub Vec<String>);

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} problems in tests/vectors/:", self.0.len())?;
        for p in &self.0 {
            writeln!(f, "  {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadErrors {}

impl Suite {
    /// Every embedded vector and declaration, checked; every vector has an expectation.
    pub fn load() -> Result<Suite, LoadErrors> {
        Self::load_from(embedded::FILES, false)
    }

    /// As [`Suite::load`], but a vector without an expectation (not blessed yet) is kept.
    pub fn load_to_bless() -> Result<Suite, LoadErrors> {
        Self::load_from(embedded::FILES, true)
    }

    /// Load from `(relative path, text)` pairs (`None`: not UTF-8), as embedded.
    pub fn load_from(files: &[(&str, Option<&str>)], to_bless: bool) -> Result<Suite, LoadErrors> {
        let mut problems = Vec::new();
        let mut vectors = Vec::new();
        let mut top = BTreeMap::new();
        for (name, text) in files {
            let parts: Vec<&str> = name.split('/').collect();
            let is_vector = parts.len() == 2 && parts[1].ends_with(".json");
            let is_top_level = parts.len() == 1 && TOP_LEVEL_FILES.contains(name);
            if !is_vector && !is_top_level {
                problems.push(format!(
                    "{name}: unexpected file among the vectors (only <group>/<name>.json, and {} at the top)",
                    TOP_LEVEL_FILES.join(", ")
                ));
                continue;
            }
            let Some(text) = text else {
                problems.push(format!("{name}: not UTF-8 text"));
                continue;
            };
            if is_vector {
                match Vector::parse(name, text, to_bless) {
                    Ok(v) => vectors.push(v),
                    Err(e) => problems.push(format!("{name}: {e}")),
                }
            } else {
                top.insert(*name, *text);
            }
        }
        vectors.sort_by(|a, b| a.name.split('/').cmp(b.name.split('/')));
        let by_name: BTreeMap<&str, &Vector> = vectors.iter().map(|v| (v.name.as_str(), v)).collect();

        let gaps = match top.get(GAPS_FILE) {
            Some(text) => Gaps::parse(text, &by_name).unwrap_or_else(|e| {
                problems.extend(e.into_iter().map(|p| format!("{GAPS_FILE}: {p}")));
                Gaps::default()
            }),
            None => {
                problems.push(format!("{GAPS_FILE}: missing (it declares the surfaces and their gaps)"));
                Gaps::default()
            }
        };
        let off_schema = match top.get(OFF_SCHEMA_FILE) {
            Some(text) => parse_off_schema(text, &by_name).unwrap_or_else(|e| {
                problems.extend(e.into_iter().map(|p| format!("{OFF_SCHEMA_FILE}: {p}")));
                Vec::new()
            }),
            None => {
                problems.push(format!("{OFF_SCHEMA_FILE}: missing"));
                Vec::new()
            }
        };
        if problems.is_empty() {
            Ok(Suite { vectors, gaps, off_schema })
        } else {
            Err(LoadErrors(problems))
        }
    }

    /// The vector with this name.
    pub fn get(&self, name: &str) -> Option<&Vector> {
        self.vectors.iter().find(|v| v.name == name)
    }

    /// The vectors `filter` selects (all when `None`).
    pub fn selected<'a>(&'a self, filter: Option<&'a str>) -> impl Iterator<Item = &'a Vector> + 'a {
        self.vectors.iter().filter(move |v| filter.is_none_or(|f| v.name.contains(f)))
    }

    /// The off-schema declaration for this vector's member, if any.
    pub fn off_schema(&self, vector: &str, member: &str) -> Option<&OffSchema> {
        self.off_schema.iter().find(|o| o.vector == vector && o.member == member)
    }
}

/// `off-schema.json`: `{"description", "schema", "off_schema": [{vector, member, reason, valid_in?}]}`.
fn parse_off_schema(text: &str, vectors: &BTreeMap<&str, &Vector>) -> Result<Vec<OffSchema>, Vec<String>> {
    let doc: Value = serde_json::from_str(text).map_err(|e| vec![format!("not JSON: {e}")])?;
    let object = doc.as_object().ok_or_else(|| vec!["not a JSON object".to_owned()])?;
    let mut problems = Vec::new();
    for key in object.keys() {
        if !["description", "schema", "off_schema"].contains(&key.as_str()) {
            problems.push(format!("unknown key {key:?}; expected description, schema and off_schema"));
        }
    }
    if object.get("schema").and_then(Value::as_str) != Some("2026-07-28") {
        problems.push("`schema` must be \"2026-07-28\", the version every MCP value is checked against".into());
    }
    let entries = match object.get("off_schema") {
        Some(Value::Array(list)) => list.as_slice(),
        _ => {
            problems.push("`off_schema` must be an array".into());
            &[]
        }
    };
    let mut out: Vec<OffSchema> = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        match off_schema_entry(entry, vectors) {
            Ok(o) if out.iter().any(|p| p.vector == o.vector && p.member == o.member) => {
                problems.push(format!("off_schema[{i}]: {} {} is declared twice", o.vector, o.member));
            }
            Ok(o) => out.push(o),
            Err(e) => problems.push(format!("off_schema[{i}]: {e}")),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

fn off_schema_entry(entry: &Value, vectors: &BTreeMap<&str, &Vector>) -> Result<OffSchema, String> {
    let object: &Map<String, Value> = entry.as_object().ok_or("must be an object {vector, member, reason, valid_in?}")?;
    if let Some(key) = object.keys().find(|k| !["vector", "member", "reason", "valid_in"].contains(&k.as_str())) {
        return Err(format!("unknown key {key:?}"));
    }
    let text = |key: &str| -> Result<String, String> {
        match object.get(key) {
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
            _ => Err(format!("`{key}` must be a non-empty string")),
        }
    };
    let (name, member, reason) = (text("vector")?, text("member")?, text("reason")?);
    let valid_in = object.get("valid_in").map(|_| text("valid_in")).transpose()?;
    let vector = vectors.get(name.as_str()).ok_or_else(|| format!("no vector named {name}"))?;
    if !MCP_MEMBERS.contains(&member.as_str()) {
        return Err(format!("{name}: `member` {member:?} is not an MCP value ({MCP_MEMBERS:?})"));
    }
    if vector.report_value().and_then(|r| r.get(&member).cloned()).is_none() {
        return Err(format!("{name} has no `{member}`"));
    }
    if member == "tool_result" && vector.expected_kind() == Some("decode_error") {
        return Err(format!("{name}: the tool_result of a decode_error vector is off-schema by rule; remove the entry"));
    }
    Ok(OffSchema { vector: name, member, reason, valid_in })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAPS: &str = r#"{"description": "d", "surfaces": {
        "s": {"runner": "r", "forms": ["text", "object", "typed", "run-text"]}}, "gaps": []}"#;
    const OFF_SCHEMA: &str = r#"{"description": "d", "schema": "2026-07-28", "off_schema": []}"#;
    const REPORT: &str =
        r#"{"description": "d", "report": {"transport": {"kind": "dns"}}, "expected": {"error": null, "breaker": "success"}}"#;
    const TEXT: &str = r#"{"description": "d", "report_text": "{", "expected_error": {"code": "invalid_json", "path": ""}}"#;
    const RUN: &str = r#"{"description": "d", "run": {"bridge_dispatch_started": false, "aborted": {}}, "expected": {"code": "aborted"}}"#;

    fn suite(files: &[(&str, &str)]) -> Result<Suite, LoadErrors> {
        let mut all: Vec<(&str, Option<&str>)> = vec![("gaps.json", Some(GAPS)), ("off-schema.json", Some(OFF_SCHEMA))];
        all.retain(|(n, _)| !files.iter().any(|(f, _)| f == n));
        all.extend(files.iter().map(|(n, t)| (*n, Some(*t))));
        Suite::load_from(&all, false)
    }

    fn problems(files: &[(&str, &str)]) -> String {
        suite(files).expect_err("the files are refused").to_string()
    }

    #[test]
    fn the_embedded_suite_loads() {
        let suite = Suite::load().unwrap_or_else(|e| panic!("{e}"));
        assert!(suite.vectors.len() >= MIN_VECTORS);
        assert!(suite.vectors.windows(2).all(|w| w[0].name.split('/').lt(w[1].name.split('/'))), "sorted by path components");
    }

    #[test]
    fn malformed_files_are_refused_by_name() {
        assert!(problems(&[("g/a.json", "{")]).contains("g/a.json: the vector is not JSON"));
        assert!(problems(&[("g/a.json", r#"{"report": {}, "expected": {"error": null}}"#)]).contains("`description`"));
        assert!(problems(&[("g/a.json", r#"{"description": "d", "expected": {}}"#)]).contains("exactly one of `report`"));
        let both = r#"{"description": "d", "report": {}, "run": {}, "expected": {"error": null}}"#;
        assert!(problems(&[("g/a.json", both)]).contains("exactly one of `report`"));
        let no_expectation = r#"{"description": "d", "report": {}}"#;
        assert!(problems(&[("g/a.json", no_expectation)]).contains("exactly one of `expected` and `expected_error`"));
        assert!(Suite::load_from(
            &[("gaps.json", Some(GAPS)), ("off-schema.json", Some(OFF_SCHEMA)), ("g/a.json", Some(no_expectation))],
            true
        )
        .is_ok());
        let run_policy = r#"{"description": "d", "run": {}, "policy": {}, "expected": {}}"#;
        assert!(problems(&[("g/a.json", run_policy)]).contains("takes no `policy`"));
        let exec_policy = r#"{"description": "d", "exec": {"step": "fit_output"}, "policy": {}, "expected": null}"#;
        assert!(problems(&[("g/a.json", exec_policy)]).contains("takes no `policy`"));
        let bad_error = r#"{"description": "d", "report": {}, "expected_error": {"code": "x"}}"#;
        assert!(problems(&[("g/a.json", bad_error)]).contains("`expected_error.path` must be a string"));
        assert!(problems(&[("g/a.json", r#"{"description": "d", "report": {}, "extra": 1, "expected": {}}"#)]).contains("\"extra\""));
        assert!(problems(&[("g/a.txt", "")]).contains("g/a.txt: unexpected file"));
        assert!(problems(&[("stray.json", "{}")]).contains("stray.json: unexpected file"));
        assert!(problems(&[("g/h/a.json", REPORT)]).contains("g/h/a.json: unexpected file"));
    }

    #[test]
    fn inputs_keep_their_key_order() {
        let text = r#"{"description": "d", "report": {"b": 1, "a": {"z": 2, "y": 3}}, "policy": {"max_text_chars": 9, "max_content_blocks": 2}, "expected": {"error": null, "breaker": "none"}}"#;
        let suite = suite(&[("g/a.json", text)]).unwrap();
        let v = &suite.vectors[0];
        assert_eq!(v.input.text(), r#"{"b":1,"a":{"z":2,"y":3}}"#);
        assert_eq!(v.policy.as_deref(), Some(r#"{"max_text_chars":9,"max_content_blocks":2}"#));
        assert_eq!(v.expected(), &Expected::Outcome(r#"{"error":null,"breaker":"none"}"#.into()));
    }

    #[test]
    fn forms_apply_by_the_shape_of_the_input() {
        let suite = suite(&[("g/report.json", REPORT), ("g/text.json", TEXT), ("g/run.json", RUN)]).unwrap();
        let forms = |name: &str| suite.get(name).unwrap().forms();
        assert_eq!(forms("g/report.json"), [Form::Text, Form::Object, Form::Typed]);
        assert_eq!(forms("g/text.json"), [Form::Text]);
        assert_eq!(forms("g/run.json"), [Form::RunText, Form::RunObject]);
        let untyped = [
            r#"{"tool": 1, "transport": {"kind": "dns"}}"#,
            r#"{"tool": null, "transport": {"kind": "dns"}}"#,
            r#"{"dispatched": null, "transport": {"kind": "dns"}}"#,
            r#"{"transport": {"kind": "carrier_pigeon"}}"#,
            r#"{"transport": {"kind": "dns"}, "policy": {"kind": "k", "message": "m"}}"#,
            r#"{"budget": {"kind": "k", "message": "m", "retry_after_ms": -1}}"#,
            r#"{"jsonrpc_error": {"code": 1.5}}"#,
            r#"{"tool": "a::b"}"#,
            "[]",
        ];
        for report in untyped {
            assert_eq!(TypedReport::from_report(&serde_json::from_str(report).unwrap()), None, "{report}");
        }
        let typed = TypedReport::from_report(
            &serde_json::from_str(
                r#"{"annotations": {"readOnlyHint": "yes", "openWorldHint": true}, "jsonrpc_error": {"code": -32000, "data": null}}"#,
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(typed.annotations, Hints { open_world: Some(true), ..Hints::default() });
        assert_eq!(typed.failure, TypedFailure::JsonrpcError { code: -32000, message: String::new(), data: Some("null".into()) });
    }

    fn gaps(entries: &str) -> String {
        format!(
            r#"{{"description": "d", "surfaces": {{"s": {{"runner": "r", "forms": ["text", "object", "typed", "run-text"]}}}}, "gaps": [{entries}]}}"#
        )
    }

    #[test]
    fn gap_entries_are_checked() {
        let with = |entries: &str| problems(&[("gaps.json", &gaps(entries)), ("g/report.json", REPORT), ("g/text.json", TEXT)]);
        assert!(with(r#"{"surface": "t", "vector": "g/report.json", "reason": "r"}"#).contains("unknown surface \"t\""));
        assert!(with(r#"{"surface": "s", "vector": "g/none.json", "reason": "r"}"#).contains("no vector named g/none.json"));
        assert!(with(r#"{"surface": "s", "vector": "g/text.json", "form": "object", "reason": "r"}"#).contains("does not apply"));
        assert!(with(r#"{"surface": "s", "vector": "g/report.json", "form": "run-object", "reason": "r"}"#).contains("does not run"));
        assert!(with(r#"{"surface": "s", "vector": "g/report.json", "reason": " "}"#).contains("`reason`"));
        let twice = r#"{"surface": "s", "vector": "g/report.json", "reason": "r"}, {"surface": "s", "vector": "g/report.json", "form": "text", "reason": "r"}"#;
        assert!(with(twice).contains("declared twice"));
    }

    #[test]
    fn a_declared_gap_must_still_fail_and_an_undeclared_failure_fails() {
        let gap = r#"{"surface": "s", "vector": "g/report.json", "form": "object", "reason": "known"}"#;
        let suite = suite(&[("gaps.json", &gaps(gap)), ("g/report.json", REPORT), ("g/text.json", TEXT)]).unwrap();
        let report = suite.get("g/report.json").unwrap();
        let text = suite.get("g/text.json").unwrap();
        let run = |object: Result<(), String>, typed: Result<(), String>, skip_text_vector: bool| {
            let mut tally = Tally::new(&suite, "s", false);
            tally.record(report, Form::Text, Ok(()));
            tally.record(report, Form::Object, object);
            tally.record(report, Form::Typed, typed);
            if !skip_text_vector {
                tally.record(text, Form::Text, Ok(()));
            }
            tally.finish()
        };
        let summary = run(Err("differs".into()), Ok(()), false).expect("the declared gap fails as declared");
        assert!(summary.contains("2 vectors, 4 checks") && summary.contains("1 declared gaps") && summary.contains("known"), "{summary}");
        let fixed = run(Ok(()), Ok(()), false).expect_err("a declared gap that passes fails the run");
        assert!(fixed.contains("FIXED s g/report.json [object]") && fixed.contains("remove its entry"), "{fixed}");
        let failed = run(Err("differs".into()), Err("typed differs".into()), false).expect_err("an undeclared failure fails the run");
        assert!(failed.contains("FAILED s g/report.json [typed]") && failed.contains("typed differs"), "{failed}");
        let skipped = run(Err("differs".into()), Ok(()), true).expect_err("a vector not run fails the run");
        assert!(skipped.contains("NOT RUN s g/text.json"), "{skipped}");

        let mut tally = Tally::new(&suite, "s", false);
        tally.record(report, Form::Text, Ok(()));
        tally.record(text, Form::Text, Ok(()));
        let missing = tally.finish().expect_err("a declared form not run fails the run");
        assert!(missing.contains("SKIPPED s g/report.json [object]") && missing.contains("SKIPPED s g/report.json [typed]"), "{missing}");

        let mut tally = Tally::new(&suite, "s", false);
        tally.record(text, Form::Object, Ok(()));
        tally.record(text, Form::Text, Ok(()));
        tally.record(text, Form::Text, Ok(()));
        let wrong = tally.finish().expect_err("a form that does not apply, or runs twice, fails the run");
        assert!(wrong.contains("does not apply") && wrong.contains("twice"), "{wrong}");
    }

    #[test]
    fn a_vector_no_form_of_a_surface_applies_to_is_not_required() {
        let gaps = r#"{"description": "d", "surfaces": {"typed-only": {"runner": "r", "forms": ["typed"]}}, "gaps": []}"#;
        let suite = suite(&[("gaps.json", gaps), ("g/report.json", REPORT), ("g/text.json", TEXT), ("g/run.json", RUN)]).unwrap();
        let mut tally = Tally::new(&suite, "typed-only", false);
        assert!(tally.forms(suite.get("g/text.json").unwrap()).is_empty());
        tally.record(suite.get("g/report.json").unwrap(), Form::Typed, Ok(()));
        let summary = tally.finish().expect("the text and run vectors take no typed form");
        assert!(summary.contains("1 vectors, 1 checks (1 typed), 0 declared gaps; 2 vectors take none of its forms"), "{summary}");
    }
}
