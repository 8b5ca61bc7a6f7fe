//! Argument validation against a tool's `inputSchema`: the JSON Schema subset tools
//! actually use (`type`, `properties`, `required`, `additionalProperties: false`, `enum`,
//! `const`, `items`, string lengths, numeric bounds). Each problem names the argument.

use crate::json::Json;
use crate::rules::kinds::Kind;

/// Deepest schema level checked.
pub(crate) const MAX_SCHEMA_DEPTH: usize = 16;

/// One argument problem as found (by the schema check, in an SDK's message, or by the
/// host), before its texts are cleaned for the model.
///
/// ```
/// use codemode_errors::{normalize, ArgumentProblem, Failure, FailureReport, ValidationFailure};
/// let mut failure = ValidationFailure::default();
/// failure.problems = vec![ArgumentProblem::new("labels[2]", "must be a string")];
/// let error = normalize(&FailureReport::new(Failure::validation(failure)?), &Default::default()).error.unwrap();
/// assert_eq!((error.invalid_arguments[0].path.as_str(), error.invalid_arguments[0].problem.as_str()), ("labels[2]", "must be a string"));
/// # Ok::<(), codemode_errors::ReportError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ArgumentProblem {
    /// The argument, e.g. `title` or `labels[2]`; empty for the arguments object itself
    /// (such a problem decides the kind, but names no argument: the error does not list it).
    pub path: String,
    /// What is wrong.
    pub problem: String,
}

impl ArgumentProblem {
    /// A problem with the argument at `path`.
    ///
    /// ```
    /// use codemode_errors::ArgumentProblem;
    /// let problem = ArgumentProblem::new("title", "missing required argument");
    /// assert_eq!((problem.path.as_str(), problem.problem.as_str()), ("title", "missing required argument"));
    /// ```
    pub fn new(path: impl Into<String>, problem: impl Into<String>) -> Self {
        ArgumentProblem { path: path.into(), problem: problem.into() }
    }
}

/// The call a failure text is read against: the tool's `inputSchema` and, when known, the
/// arguments it was sent.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CallView<'a> {
    /// The tool's input schema.
    pub schema: &'a Json,
    /// The call's arguments.
    pub arguments: Option<&'a Json>,
}

impl<'a> CallView<'a> {
    /// The top-level property names of the schema (at most 64).
    pub(crate) fn property_names(self) -> impl Iterator<Item = &'a String> {
        let properties = self.schema.get("properties").and_then(Json::as_object);
        properties.map(|p| p.items()).unwrap_or_default().iter().take(64).map(|(name, _)| name)
    }

    /// Whether the schema has `name` as a top-level property.
    pub(crate) fn has_property(self, name: &str) -> bool {
        self.property_names().any(|p| p == name)
    }

    /// The names the schema requires (at most 64).
    pub(crate) fn required(self) -> impl Iterator<Item = &'a str> {
        let required = self.schema.get("required").and_then(Json::as_array);
        required.map(|r| r.items()).unwrap_or_default().iter().take(64).filter_map(Json::as_str)
    }

    /// Whether the call left out a property the schema requires.
    pub(crate) fn left_out_required(self) -> bool {
        self.required().any(|name| self.argument(name).is_none())
    }

    /// The call's top-level argument `name`.
    pub(crate) fn argument(self, name: &str) -> Option<&'a Json> {
        self.arguments?.get(name)
    }

    /// The one top-level argument of the schema whose value a message prints as
    /// `printed`: a string bare or in quotes, a number, a boolean or null as JSON or
    /// Python write them. `None` when no argument, or more than one, has that value.
    pub(crate) fn argument_valued(self, printed: &str) -> Option<String> {
        let printed = printed.trim();
        if printed.is_empty() {
            return None;
        }
        let unquoted = ['\'', '"', '`'].iter().find_map(|&q| printed.strip_prefix(q).and_then(|p| p.strip_suffix(q))).unwrap_or(printed);
        let prints_as = |value: &Json| match value {
            Json::String(s) => s.head() == unquoted,
            Json::Number(_) => value.to_string() == printed,
            Json::Bool(b) => printed.eq_ignore_ascii_case(if *b { "true" } else { "false" }),
            Json::Null => matches!(printed, "null" | "None"),
            // An empty list or object, as JSON and Python print it.
            Json::Array(items) => items.items().is_empty() && printed == "[]",
            Json::Object(members) => members.items().is_empty() && printed == "{}",
        };
        let mut found = self.property_names().filter(|name| self.argument(name).is_some_and(prints_as));
        let first = found.next()?;
        found.next().is_none().then(|| first.clone())
    }
}

/// Most argument problems reported.
pub(crate) const MAX_INVALID_ARGUMENTS: usize = 32;

/// Longest argument path or problem kept, in UTF-16 code units.
pub(crate) const MAX_ARGUMENT_TEXT: usize = 200;

/// The problem text for an absent required argument.
pub(crate) const MISSING: &str = "missing required argument";

/// The problem text for an argument the schema does not allow.
pub(crate) const UNEXPECTED: &str = "unexpected argument";

/// Check `arguments` against `schema`, returning at most [`MAX_INVALID_ARGUMENTS`] problems.
pub(crate) fn check_arguments(arguments: &Json, schema: &Json) -> Vec<ArgumentProblem> {
    let mut problems = Vec::new();
    check(arguments, schema, "", 0, &mut problems);
    problems.truncate(MAX_INVALID_ARGUMENTS);
    problems
}

fn push(problems: &mut Vec<ArgumentProblem>, path: &str, problem: String) {
    if problems.len() < MAX_INVALID_ARGUMENTS {
        problems.push(ArgumentProblem::new(path, problem));
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn check(value: &Json, schema: &Json, path: &str, depth: usize, problems: &mut Vec<ArgumentProblem>) {
    if depth > MAX_SCHEMA_DEPTH || problems.len() >= MAX_INVALID_ARGUMENTS || schema.as_object().is_none() {
        return;
    }
    if let Some(expected) = schema.get("type") {
        if !type_matches(value, expected) {
            push(problems, path, format!("expected {}, got {}", describe_type(expected), value_type(value)));
            return;
        }
    }
    if let Some(options) = schema.get("enum").and_then(Json::as_array) {
        if !options.items().iter().any(|o| o == value) {
            let shown: Vec<String> = options.items().iter().take(8).map(|o| o.to_string()).collect();
            let more = if options.total() > 8 { ", ..." } else { "" };
            push(problems, path, format!("must be one of {}{more}", shown.join(", ")));
        }
    }
    if let Some(constant) = schema.get("const") {
        if constant != value {
            push(problems, path, format!("must be {constant}"));
        }
    }
    match value {
        Json::Object(members) => {
            let properties = schema.get("properties").and_then(Json::as_object);
            if let Some(required) = schema.get("required").and_then(Json::as_array) {
                for name in required.items().iter().filter_map(Json::as_str) {
                    if value.get(name).is_none() {
                        push(problems, &join(path, name), MISSING.to_owned());
                    }
                }
            }
            let closed = schema.get("additionalProperties").and_then(Json::as_bool) == Some(false);
            // Sorted, so problems come out in the same order whatever order the host kept keys in.
            let mut sorted: Vec<&(String, Json)> = members.items().iter().collect();
            crate::order::sort_by(&mut sorted, |a, b| a.0 < b.0);
            for (key, member) in sorted {
                let sub = properties.and_then(|p| p.items().iter().find(|(k, _)| k == key)).map(|(_, s)| s);
                match sub {
                    Some(sub) => check(member, sub, &join(path, key), depth + 1, problems),
                    None if closed => push(problems, &join(path, key), UNEXPECTED.to_owned()),
                    None => {
                        if let Some(extra) = schema.get("additionalProperties").filter(|s| s.as_object().is_some()) {
                            check(member, extra, &join(path, key), depth + 1, problems);
                        }
                    }
                }
            }
        }
        Json::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.items().iter().enumerate() {
                    check(item, item_schema, &format!("{path}[{i}]"), depth + 1, problems);
                }
            }
            bound(schema, "minItems", "maxItems", items.total() as f64, "items", path, problems);
        }
        Json::String(text) => {
            bound(schema, "minLength", "maxLength", text.total_utf16() as f64, "characters", path, problems);
        }
        Json::Number(n) => {
            if let Some(min) = schema.get("minimum").and_then(Json::as_f64) {
                if *n < min {
                    push(problems, path, format!("must be at least {}", Json::Number(min)));
                }
            }
            if let Some(max) = schema.get("maximum").and_then(Json::as_f64) {
                if *n > max {
                    push(problems, path, format!("must be at most {}", Json::Number(max)));
                }
            }
        }
        _ => {}
    }
}

fn bound(schema: &Json, min_key: &str, max_key: &str, actual: f64, unit: &str, path: &str, problems: &mut Vec<ArgumentProblem>) {
    if let Some(min) = schema.get(min_key).and_then(Json::as_f64) {
        if actual < min {
            push(problems, path, format!("must have at least {} {unit}", Json::Number(min)));
        }
    }
    if let Some(max) = schema.get(max_key).and_then(Json::as_f64) {
        if actual > max {
            push(problems, path, format!("must have at most {} {unit}", Json::Number(max)));
        }
    }
}

fn type_matches(value: &Json, expected: &Json) -> bool {
    match expected {
        Json::String(t) => one_type_matches(value, t.head()),
        Json::Array(types) => types.items().iter().filter_map(Json::as_str).any(|t| one_type_matches(value, t)),
        _ => true,
    }
}

fn one_type_matches(value: &Json, ty: &str) -> bool {
    match ty {
        "string" => matches!(value, Json::String(_)),
        "number" => matches!(value, Json::Number(_)),
        "integer" => matches!(value, Json::Number(n) if n.fract() == 0.0),
        "boolean" => matches!(value, Json::Bool(_)),
        "object" => matches!(value, Json::Object(_)),
        "array" => matches!(value, Json::Array(_)),
        "null" => matches!(value, Json::Null),
        _ => true,
    }
}

fn describe_type(expected: &Json) -> String {
    match expected {
        Json::String(t) => t.head().to_owned(),
        Json::Array(types) => types.items().iter().filter_map(Json::as_str).collect::<Vec<_>>().join(" or "),
        _ => "a valid value".to_owned(),
    }
}

fn value_type(value: &Json) -> &'static str {
    match value {
        Json::Number(n) if n.fract() == 0.0 => "integer",
        other => other.type_name(),
    }
}

/// The kind a list of argument problems means: `missing_param` when every problem is a
/// missing argument, `invalid_param` otherwise, `None` for no problems. The one rule for
/// validation failures, SDK validation messages and JSON-RPC `-32602` errors alike.
pub(crate) fn argument_kind(problems: &[ArgumentProblem]) -> Option<Kind> {
    match problems {
        [] => None,
        _ if problems.iter().all(|p| p.problem == MISSING) => Some(Kind::MissingParam),
        _ => Some(Kind::InvalidParam),
    }
}

/// What an argument named by a tool's own failure text is said to have done, by the kind
/// the failure was given; kinds not listed name no argument.
const NAMED_BY_KIND: &[(Kind, &str)] = &[
    (Kind::InvalidParam, "the tool refused its value"),
    (Kind::NotFound, "names something that does not exist"),
    (Kind::Conflict, "names something that already exists"),
    (Kind::PathTraversal, "is outside what the tool may reach"),
    (Kind::Forbidden, "names a destination the tool may not reach"),
    (Kind::PermissionDenied, "names something the tool may not touch"),
    (Kind::MissingParam, MISSING),
    (Kind::ToolError, "the tool's failure is about it"),
];

/// Longest argument value compared whole with a failure text, in bytes.
const MAX_QUOTED_VALUE: usize = 200;

/// Longest head of an argument value searched for a token the text quotes, in bytes.
const MAX_SEARCHED_VALUE: usize = 4096;

/// Most arguments named from a failure text.
const MAX_NAMED: usize = 3;

/// The arguments a tool's own failure `text` is about, named only from the tool's
/// `input_schema`, by the strongest evidence found: a property whose value in the call's
/// `arguments` the text quotes (a string of three or more characters, or of one or two
/// between quotes, or such a string in
/// a list, or an integer of two digits or more, as a whole word); else the one property
/// whose string value holds a token the text quotes (`no such table: users` in a query,
/// a path inside a URI); else properties whose name, or its spelled-out form
/// (`branch_type` and `branchType` as "branch type"), is a whole word of the text; else,
/// for a tool of one property, that one. A missing argument is first a property the
/// schema requires and the call did not send. A property the schema does not have is never
/// named, a failure of a kind that is not about an argument names none, and a failure of
/// no specific kind (`tool_error`) names only what it quotes.
#[inline(never)]
pub(crate) fn arguments_named_in(text: &str, kind: Kind, input_schema: &Json, arguments: Option<&Json>) -> Vec<ArgumentProblem> {
    let Some(&(_, problem)) = NAMED_BY_KIND.iter().find(|(k, _)| *k == kind) else {
        return Vec::new();
    };
    let Some(properties) = input_schema.get("properties").and_then(Json::as_object) else {
        return Vec::new();
    };
    // A missing argument is one the schema requires and the call did not send: the
    // strongest evidence there is, whatever the text says.
    if let (Kind::MissingParam, Some(arguments)) = (kind, arguments.filter(|a| a.as_object().is_some())) {
        let call = CallView { schema: input_schema, arguments: Some(arguments) };
        let absent: Vec<ArgumentProblem> = call
            .required()
            .filter(|name| call.has_property(name) && call.argument(name).is_none())
            .take(MAX_NAMED)
            .map(|name| ArgumentProblem::new(name, MISSING))
            .collect();
        if !absent.is_empty() {
            return absent;
        }
    }
    let lower = text.to_ascii_lowercase();
    let mut by_value = Vec::new();
    let mut by_name = Vec::new();
    for (name, _) in properties.items().iter().take(64) {
        let value = arguments.and_then(|a| a.get(name));
        if value.is_some_and(|v| quotes_value(&lower, v)) {
            by_value.push(ArgumentProblem::new(name.clone(), problem));
        } else if name.len() >= 2
            && (crate::search::has_whole_word(&lower, &name.to_ascii_lowercase())
                || crate::search::has_whole_word(&lower, &spelled_out(name)))
        {
            by_name.push(ArgumentProblem::new(name.clone(), problem));
        }
    }
    let mut named = if !by_value.is_empty() || kind == Kind::ToolError {
        by_value
    } else if let Some(name) = holding_a_quoted_token(text, properties.items(), arguments) {
        vec![ArgumentProblem::new(name, problem)]
    } else if !by_name.is_empty() {
        by_name
    } else {
        // A tool of one property: the failure about an argument is about that one.
        match properties.items() {
            [(name, _)] => vec![ArgumentProblem::new(name.clone(), problem)],
            _ => Vec::new(),
        }
    };
    // An argument the call sent is not missing, whatever the text says of it.
    if kind == Kind::MissingParam {
        named.retain(|p| arguments.and_then(|a| a.get(&p.path)).is_none());
    }
    named.truncate(MAX_NAMED);
    named
}

/// The one property whose string value holds a token `text` quotes (between quotes, after
/// `: ` to the line's end, or the word after a `: `), of four characters or more, ASCII case-insensitively:
/// `no such table: users` in a query, `'/srv/a.txt'` inside a `file://` URI. `None` when
/// no property, or more than one, holds one.
fn holding_a_quoted_token(text: &str, properties: &[(String, Json)], arguments: Option<&Json>) -> Option<String> {
    let arguments = arguments?;
    let mut tokens: Vec<String> = Vec::new();
    for quote in ['\'', '"', '`'] {
        tokens.extend(text.split(quote).skip(1).step_by(2).map(str::to_owned));
    }
    for line in text.lines() {
        if let Some((_, after)) = line.rsplit_once(": ") {
            tokens.push(after.trim().to_owned());
        }
    }
    // The word after each `: ` (`not in allowed list: /etc/hosts Allowed …`).
    for (_, after) in text.match_indices(": ").map(|(at, _)| text.split_at(at + 2)).take(16) {
        tokens.extend(after.split_whitespace().next().map(|w| w.trim_end_matches(['.', ',', ';']).to_owned()));
    }
    tokens.retain(|t| t.len() >= 4 && t.len() <= 200 && !t.contains('\n'));
    let tokens: Vec<String> = tokens.iter().take(16).map(|t| t.to_ascii_lowercase()).collect();
    let mut holders = properties.iter().take(64).filter(|(name, _)| {
        // The value's head only: a statement or a URI, not a document.
        let value = arguments
            .get(name)
            .and_then(Json::as_str)
            .map(|v| v[..crate::search::floor_boundary(v, MAX_SEARCHED_VALUE)].to_ascii_lowercase());
        value.is_some_and(|v| tokens.iter().any(|t| crate::search::contains(&v, t)))
    });
    let first = holders.next()?;
    holders.next().is_none().then(|| first.0.clone())
}

/// Whether `text` (lowercase) holds a string the call sent, as a whole word.
fn quotes_value(text: &str, value: &Json) -> bool {
    match value {
        // A value of a few words at most: a longer one is not quoted back whole.
        Json::String(s) => {
            let v = s.head().trim();
            if !(1..=MAX_QUOTED_VALUE).contains(&v.len()) {
                return false;
            }
            let v = v.to_ascii_lowercase();
            // A value of one or two letters or digits (a tag `v1`, a sheet `Q3`) only in
            // quotes: punctuation in quotes is the message's own (`Expecting ','`).
            let quoted = || ['\'', '"', '`'].iter().any(|q| crate::search::contains(text, &format!("{q}{v}{q}")));
            match v.len() {
                1..=2 => v.bytes().all(|b| b.is_ascii_alphanumeric()) && quoted(),
                _ => crate::search::has_whole_word(text, &v),
            }
        }
        Json::Array(items) => items.items().iter().take(16).any(|v| matches!(v, Json::String(_)) && quotes_value(text, v)),
        // An integer of two digits or more (an id, an index), as a whole word.
        Json::Number(n) => {
            crate::json::exact_integer(*n).is_some_and(|i| i.unsigned_abs() >= 10 && crate::search::has_whole_word(text, &i.to_string()))
        }
        _ => false,
    }
}

/// A property name as prose: `branch_type`, `branch-type` and `branchType` as "branch type".
fn spelled_out(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for c in name.chars() {
        if c == '_' || c == '-' || c == '.' {
            out.push(' ');
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower {
            out.push(' ');
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        out.push(c.to_ascii_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse_json;

    fn problems(args: &str, schema: &str) -> Vec<(String, String)> {
        check_arguments(&parse_json(args).unwrap(), &parse_json(schema).unwrap()).into_iter().map(|p| (p.path, p.problem)).collect()
    }

    const SCHEMA: &str = r#"{"type":"object","properties":{
        "title":{"type":"string","minLength":1},
        "count":{"type":"integer","minimum":1,"maximum":10},
        "state":{"enum":["open","closed"]},
        "labels":{"type":"array","items":{"type":"string"}},
        "meta":{"type":"object","properties":{"id":{"type":"number"}},"required":["id"]}
    },"required":["title"],"additionalProperties":false}"#;

    #[test]
    fn valid_arguments_have_no_problems() {
        assert!(problems(r#"{"title":"x","count":3,"state":"open","labels":["a"],"meta":{"id":1}}"#, SCHEMA).is_empty());
    }

    #[test]
    fn each_problem_names_its_argument() {
        let p = problems(r#"{"count":0.5,"state":"new","labels":["a",2],"meta":{},"extra":true}"#, SCHEMA);
        let expected: Vec<(String, String)> = [
            ("title", "missing required argument"),
            ("count", "expected integer, got number"),
            ("extra", "unexpected argument"),
            ("labels[1]", "expected string, got integer"),
            ("meta.id", "missing required argument"),
            ("state", r#"must be one of "open", "closed""#),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        assert_eq!(p, expected);
    }

    #[test]
    fn bounds_are_checked() {
        let p = problems(r#"{"title":"","count":11}"#, SCHEMA);
        assert_eq!(p[0], ("count".into(), "must be at most 10".into()));
        assert_eq!(p[1], ("title".into(), "must have at least 1 characters".into()));
    }

    #[test]
    fn non_object_arguments_are_one_problem() {
        assert_eq!(problems("[1]", SCHEMA), vec![(String::new(), "expected object, got array".into())]);
    }

    #[test]
    fn problems_are_capped() {
        let schema = r#"{"type":"object","additionalProperties":false}"#;
        let args: Vec<String> = (0..100).map(|i| format!("\"k{i}\":1")).collect();
        assert_eq!(problems(&format!("{{{}}}", args.join(",")), schema).len(), MAX_INVALID_ARGUMENTS);
    }

    #[test]
    fn each_problem_names_the_argument_it_is_about() {
        let schema =
            parse_json(r#"{"type":"object","properties":{"title":{"type":"string"}},"required":["title"],"additionalProperties":false}"#)
                .unwrap();
        let args = parse_json(r#"{"titel":"x"}"#).unwrap();
        let problems = check_arguments(&args, &schema);
        assert_eq!(problems[0].path, "title");
        assert_eq!(problems[0].problem, "missing required argument");
        assert_eq!(problems[1].path, "titel");
    }

    #[test]
    fn failure_text_names_only_arguments_of_the_schema() {
        let schema = parse_json(r#"{"type":"object","properties":{"source_timezone":{"type":"string"},"time":{"type":"string"},"branchType":{"type":"string"},"repo_path":{"type":"string"}}}"#).unwrap();
        let args = parse_json(r#"{"source_timezone":"Mars/Olympus","time":"25:99","repo_path":"/srv/repo"}"#).unwrap();
        let named =
            |text: &str, kind: Kind| arguments_named_in(text, kind, &schema, Some(&args)).into_iter().map(|p| p.path).collect::<Vec<_>>();
        // The value the call sent, quoted by the text, is the strongest evidence.
        assert_eq!(named("Invalid timezone: 'Mars/Olympus'", Kind::InvalidParam), ["source_timezone"]);
        // A name, or its spelled-out form, as a whole word.
        assert_eq!(named("Invalid branch type: tags", Kind::InvalidParam), ["branchType"]);
        assert_eq!(named("invalid time format, expected HH:MM", Kind::InvalidParam), ["time"]);
        // Not a property of the schema, not a whole word, or a kind about no argument: nothing.
        assert!(named("Invalid colour: red", Kind::InvalidParam).is_empty());
        assert!(named("the timestamps are off", Kind::InvalidParam).is_empty());
        assert!(named("Invalid time: 25:99", Kind::RateLimited).is_empty());
        assert!(arguments_named_in("time", Kind::InvalidParam, &parse_json(r#"{"type":"object"}"#).unwrap(), None).is_empty());
    }

    #[test]
    fn weaker_evidence_names_an_argument_when_stronger_finds_none() {
        let named = |text: &str, kind: Kind, schema: &str, args: &str| {
            let (schema, args) = (parse_json(schema).unwrap(), parse_json(args).unwrap());
            arguments_named_in(text, kind, &schema, Some(&args)).into_iter().map(|p| p.path).collect::<Vec<_>>()
        };
        let two = r#"{"type":"object","properties":{"uri":{"type":"string"},"id":{"type":"integer"}}}"#;
        // An integer the text prints (two digits or more), a token the text quotes inside a value.
        assert_eq!(named("No tasks found for ID(s): 99", Kind::NotFound, two, r#"{"id":99}"#), ["id"]);
        assert_eq!(named("No task 9 here", Kind::NotFound, two, r#"{"id":9}"#), Vec::<String>::new());
        let uri = r#"{"uri":"file:///srv/docs/a.pdf","id":12}"#;
        assert_eq!(named("[Errno 2] No such file or directory: '/srv/docs/a.pdf'", Kind::NotFound, two, uri), ["uri"]);
        assert_eq!(
            named("Local file not in allowed list: /srv/docs/a.pdf Allowed directories: /tmp", Kind::PermissionDenied, two, uri),
            ["uri"]
        );
        // A tool of one property.
        let one = r#"{"type":"object","properties":{"sql":{"type":"string"}}}"#;
        assert_eq!(named("relation \"users\" does not exist", Kind::NotFound, one, r#"{"sql":"select * from users"}"#), ["sql"]);
        assert_eq!(named("division by zero", Kind::InvalidParam, one, r#"{"sql":"select 1/0"}"#), ["sql"]);
        // Not for a failure of no specific kind, nor for two properties without evidence.
        assert!(named("division by zero", Kind::ToolError, one, r#"{"sql":"select 1/0"}"#).is_empty());
        assert!(named("division by zero", Kind::InvalidParam, two, r#"{"uri":"x","id":1}"#).is_empty());
    }

    #[test]
    fn a_missing_argument_is_a_required_property_the_call_left_out() {
        let named = |text: &str, args: &str| {
            let schema = parse_json(r#"{"type":"object","properties":{"owner":{"type":"string"},"repo":{"type":"string"},"page":{"type":"integer"}},"required":["owner","repo"]}"#).unwrap();
            arguments_named_in(text, Kind::MissingParam, &schema, Some(&parse_json(args).unwrap()))
                .into_iter()
                .map(|p| p.path)
                .collect::<Vec<_>>()
        };
        assert_eq!(named("Missing required argument", r#"{"owner":"a"}"#), ["repo"]);
        assert_eq!(named("Missing required argument", "{}"), ["owner", "repo"]);
        // Every required one sent: the text's own evidence, as for other kinds.
        assert_eq!(named("page is required for this listing", r#"{"owner":"a","repo":"b"}"#), ["page"]);
    }
}
