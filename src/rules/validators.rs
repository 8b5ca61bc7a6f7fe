//! Argument problems read from validators' own output. Servers rarely write their argument
//! checks by hand: they pass what a validation library printed, so recognition reads the
//! libraries' formats (each a record below, with its examples as tests), not any server's
//! wording. Each problem names an argument by its path; a path that cannot be read (an
//! issue about the arguments object itself) names nothing and is left out.
//!
//! Formats read with no call in hand are those whose shape alone says "a validator wrote
//! this" (a zod issue array, an SDK's lead). A format whose words could be anything's (a
//! `name: problem` line, serde's `missing field`) counts only with the call's input schema,
//! and only for names that schema has.

use crate::json::{parse_json, Json};
use crate::rules::arguments::{ArgumentProblem, CallView, MAX_INVALID_ARGUMENTS, MISSING, UNEXPECTED};
use crate::search;
use crate::search::ShortPairs;
use crate::text::sanitize::strip_controls;

/// One validation library's output format.
struct Format {
    /// Literals one of which the format's output holds (a format with none is read only
    /// with the call in hand): a text whose pairs rule them all out is not read, and in
    /// WebAssembly the reader is not even compiled for it.
    anchors: &'static [&'static str],
    /// Reads the format: the problems the text states, `None` when the text is not in this
    /// format; `Some` with no problem is its output about nothing nameable (the arguments
    /// object itself).
    read: fn(Text<'_>, Option<CallView<'_>>) -> Option<Vec<ArgumentProblem>>,
}

/// The formats, most specific first; the first that reads the text gives its problems.
const FORMATS: &[Format] = &[
    // zod 3 and 4, and the libraries that print the same issue objects; ajv's error
    // objects, pydantic's `ValidationError.json()`.
    Format { anchors: &["\"path\"", "\"instancePath\"", "\"loc\""], read: issue_array },
    // Error trees: zod 3's `format()` and `flatten()`, zod 4's `treeifyError` and
    // `flattenError`, valibot's `flatten`.
    Format { anchors: &["\"fieldErrors\"", "\"_errors\"", "\"properties\"", "\"nested\""], read: error_tree },
    // valibot's key issues (`Invalid key: Expected "owner" but received undefined`).
    Format { anchors: &["Invalid key: Expected "], read: valibot_keys },
    // The TypeScript MCP SDK's own lines, the TypeScript fastmcp framework's entries.
    Format { anchors: &["Invalid arguments for tool "], read: sdk_issue_lines },
    Format { anchors: &["parameter validation failed: "], read: lead_and_entries },
    // zod 4's prettifyError, valibot's summarize.
    Format { anchors: &["\u{2716} ", "\u{d7} "], read: pretty_lines },
    Format { anchors: &["[type="], read: pydantic_errors },
    // Python jsonschema: the phrases of its messages.
    Format {
        anchors: &[
            "' is a required property",
            "Additional properties are not allowed",
            " is not ",
            " is greater than",
            " is less than",
            " is too ",
            " does not match '",
            " should be non-empty",
            " should not be valid",
            " was expected",
            " has non-unique",
        ],
        read: jsonschema,
    },
    Format { anchors: &[" must ", " should "], read: ajv },
    // serde (rmcp and other Rust servers), mcp-go's accessors and Go's encoding/json.
    Format { anchors: &["missing field `", "unknown field `", "invalid type: ", "invalid value: ", "unknown variant `"], read: serde },
    Format { anchors: &["argument \"", " into Go struct field "], read: mcp_go },
    // A server's own `name: problem` lines: with the call's schema only.
    Format { anchors: &[], read: named_lines },
];

/// The argument problems a validator's output in `text` states, read against `call` when
/// given; `None` when no format reads the text.
pub(crate) fn validator_problems(text: Text<'_>, call: Option<CallView<'_>>) -> Option<Vec<ArgumentProblem>> {
    let may_be = |f: &&Format| match f.anchors {
        [] => call.is_some(),
        anchors => anchors.iter().any(|a| text.pairs.may_contain(a)),
    };
    let mut problems = FORMATS.iter().filter(may_be).find_map(|f| (f.read)(text, call))?;
    let stated = !problems.is_empty();
    // With the call in hand, a problem is about one of its arguments: a property of the
    // schema, or an argument the call sent. Issues only about something else (a
    // JSON-RPC request's `params`) are not the arguments' problems.
    match call {
        Some(call) => problems.retain(|p| call.has_property(top(&p.path)) || call.argument(top(&p.path)).is_some()),
        // Without it, the members of a JSON-RPC request are still not arguments.
        None => problems.retain(|p| !REQUEST_MEMBERS.contains(&top(&p.path))),
    }
    if stated && problems.is_empty() {
        return None;
    }
    // A problem about a required argument the call did not send at all is that it is
    // missing, whatever the validator says of the absent value (zod 4's `Invalid option:
    // expected one of …` for an enum left out). An optional one may have been given a
    // default the server then refused: its problem stays.
    if let Some(call) = call {
        let required = |name: &str| call.required().any(|r| r == name);
        if let Some(arguments) = call.arguments.filter(|a| a.as_object().is_some()) {
            for p in
                problems.iter_mut().filter(|p| p.problem != UNEXPECTED && arguments.get(top(&p.path)).is_none() && required(top(&p.path)))
            {
                p.problem = MISSING.to_owned();
            }
        }
    }
    problems.retain(|p| !p.path.trim().is_empty());
    problems.truncate(MAX_INVALID_ARGUMENTS);
    Some(problems)
}

/// The longest message read after a problem's anchor, in bytes (a message runs to its
/// line's end or this): every anchor reads a bounded stretch, so a text that repeats one
/// costs linear time.
const MAX_MESSAGE: usize = 240;

/// The stretches of `text` before and after `at` that an anchor at `at` reads: at most
/// [`MAX_MESSAGE`] bytes each, within its line.
fn around(text: &str, at: usize) -> (&str, &str) {
    let before = &text[search::ceil_boundary(text, at.saturating_sub(MAX_MESSAGE))..at];
    let before = before.rsplit('\n').next().unwrap_or(before);
    let after = &text[at..];
    let after = &after[..search::floor_boundary(after, MAX_MESSAGE)];
    (before, after.split('\n').next().unwrap_or(after))
}

/// The longest argument path read, in bytes.
const MAX_PATH: usize = 100;

/// A JSON-RPC request's members: a validator's issue about one is about the request.
const REQUEST_MEMBERS: &[&str] = &["params", "method", "jsonrpc", "id"];

/// A text read for validators' output, with the filter of its pairs of bytes (either
/// case): a needle with a pair the text lacks is not searched for.
#[derive(Clone, Copy)]
pub(crate) struct Text<'a> {
    /// The text.
    pub text: &'a str,
    /// Its pairs.
    pub pairs: &'a ShortPairs,
}

impl<'a> Text<'a> {
    fn positions(self, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
        search::positions(if self.pairs.may_contain(needle) { self.text } else { "" }, needle)
    }

    fn find(self, needle: &str) -> Option<usize> {
        self.pairs.may_contain(needle).then(|| search::find(self.text, needle)).flatten()
    }

    fn contains(self, needle: &str) -> bool {
        self.find(needle).is_some()
    }
}

/// Strip controls and collapse whitespace. No cut here: the normalizer redacts argument
/// problems before it caps them, so a secret is never cut in half first. (The input is
/// already bounded by the recognition window.)
fn clean(text: &str) -> String {
    strip_controls(text).split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a validator's message says a value is absent.
fn says_missing(message: &str) -> bool {
    let lower = message.to_ascii_lowercase();
    lower == "required"
        || ["received undefined", "field required", "is required", "is missing", "missing required", "required property"]
            .iter()
            .any(|w| search::contains(&lower, w))
}

/// The problem for `message`: [`MISSING`] when it says the value is absent.
fn problem_of(message: &str) -> String {
    if says_missing(message) {
        MISSING.to_owned()
    } else {
        clean(message)
    }
}

/// zod (3 and 4) and every library that prints the same issue objects: a JSON array of
/// objects, each with a `path` array and a `code` or `message`. `unrecognized_keys` names
/// each key. Wherever the array stands in the text (alone, after `Error:`, after an SDK's
/// lead).
fn issue_array(t: Text<'_>, _: Option<CallView<'_>>) -> Option<Vec<ArgumentProblem>> {
    let text = t.text;
    let bytes = text.as_bytes();
    let start = t.positions("[").find(|&at| {
        let next = bytes[at + 1..].iter().position(|b| !b.is_ascii_whitespace()).map(|k| at + 1 + k);
        next.is_some_and(|n| bytes[n] == b'{')
    })?;
    let end = text.rfind(']').filter(|&end| end > start)?;
    let Ok(Json::Array(issues)) = parse_json(&text[start..=end]) else {
        return None;
    };
    let is_issue = |i: &Json| {
        i.get("path").and_then(Json::as_array).is_some()
            && (i.get("code").and_then(Json::as_str).is_some() || i.get("message").and_then(Json::as_str).is_some())
    };
    let first = issues.items().first()?;
    if !is_issue(first) {
        return other_issue_objects(issues.items());
    }
    if !issues.items().iter().all(is_issue) {
        return None;
    }
    let mut out = Vec::new();
    for issue in issues.items() {
        let message = issue.get("message").and_then(Json::as_str).unwrap_or("invalid value");
        let code = issue.get("code").and_then(Json::as_str).unwrap_or("");
        let base = issue_path(issue);
        if code == "unrecognized_keys" {
            if let Some(keys) = issue.get("keys").and_then(Json::as_array) {
                for k in keys.items().iter().filter_map(Json::as_str) {
                    let path = if base.is_empty() { k.to_owned() } else { format!("{base}.{k}") };
                    out.push(ArgumentProblem::new(clean(&path), UNEXPECTED));
                }
                continue;
            }
        }
        let received = issue.get("received").and_then(Json::as_str).unwrap_or("");
        let missing = code == "invalid_type" && (received == "undefined" || says_missing(message));
        out.push(ArgumentProblem::new(clean(&base), if missing { MISSING.to_owned() } else { clean(message) }));
    }
    Some(out)
}

/// The issue objects of the other validators that print them as a JSON array: ajv's
/// (`instancePath`, `keyword`, `params`, `message`) and pydantic's `ValidationError.json()`
/// (`loc`, `type`, `msg`). `None` unless every object is of one of them.
fn other_issue_objects(issues: &[Json]) -> Option<Vec<ArgumentProblem>> {
    let ajv = |i: &Json| i.get("instancePath").and_then(Json::as_str).is_some() && i.get("keyword").and_then(Json::as_str).is_some();
    let pydantic = |i: &Json| {
        i.get("loc").and_then(Json::as_array).is_some()
            && i.get("type").and_then(Json::as_str).is_some()
            && i.get("msg").and_then(Json::as_str).is_some()
    };
    let mut out = Vec::new();
    for issue in issues.iter().take(MAX_INVALID_ARGUMENTS) {
        let message = |key: &str| issue.get(key).and_then(Json::as_str).unwrap_or("invalid value");
        if ajv(issue) {
            // `/a/0/b` → `a[0].b`; a missing or extra property is a child of the object.
            let mut path = pointer_path(issue.get("instancePath").and_then(Json::as_str).unwrap_or(""));
            let param = |name: &str| issue.get("params").and_then(|p| p.get(name)).and_then(Json::as_str);
            let problem = match (issue.get("keyword").and_then(Json::as_str), param("missingProperty"), param("additionalProperty")) {
                (Some("required"), Some(name), _) => Some((name, MISSING.to_owned())),
                (Some("additionalProperties"), _, Some(name)) => Some((name, UNEXPECTED.to_owned())),
                _ => None,
            };
            let problem = match problem {
                Some((name, problem)) => {
                    path = if path.is_empty() { name.to_owned() } else { format!("{path}.{name}") };
                    problem
                }
                None => clean(message("message")),
            };
            out.push(ArgumentProblem::new(clean(&path), problem));
        } else if pydantic(issue) {
            let problem = match issue.get("type").and_then(Json::as_str) {
                Some("missing" | "missing_argument") => MISSING.to_owned(),
                Some("extra_forbidden" | "unexpected_keyword_argument") => UNEXPECTED.to_owned(),
                _ => clean(message("msg")),
            };
            out.push(ArgumentProblem::new(clean(&parts_path(issue.get("loc"))), problem));
        } else {
            return None;
        }
    }
    Some(out)
}

/// A JSON pointer (`/a/0/b`) as an argument path (`a[0].b`).
fn pointer_path(pointer: &str) -> String {
    let mut path = String::new();
    for part in pointer.split('/').skip(1).take(32) {
        let part = part.replace("~1", "/").replace("~0", "~");
        if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) {
            path.push('[');
            path.push_str(&part);
            path.push(']');
        } else {
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(&part);
        }
    }
    path
}

/// Error trees, as validators print them for forms: zod 3's `format()` (`{"_errors": [],
/// "owner": {"_errors": ["Required"]}}`), `flatten()` and zod 4's `flattenError`
/// (`{"formErrors": [], "fieldErrors": {"count": ["…"]}}`), zod 4's `treeifyError`
/// (`{"errors": [], "properties": {"priority": {"errors": ["…"]}}}`) and valibot's
/// `flatten` (`{"nested": {"labels.1": ["…"]}}`): each field with a message is a problem.
fn error_tree(t: Text<'_>, _: Option<CallView<'_>>) -> Option<Vec<ArgumentProblem>> {
    let text = t.text;
    let start = text.find('{')?;
    let end = text.rfind('}').filter(|&end| end > start)?;
    let Ok(tree) = parse_json(&text[start..=end]) else { return None };
    let mut out: Vec<ArgumentProblem> = Vec::new();
    let mut push = |path: &str, found: &[&str]| {
        if let (Some(first), true) = (found.first(), out.len() < MAX_INVALID_ARGUMENTS) {
            out.push(ArgumentProblem::new(clean(path), problem_of(first)));
        }
    };
    let fields = |key: &str| tree.get(key).and_then(Json::as_object).map(|o| o.items());
    if let (Some(fields), Some(_)) = (fields("fieldErrors"), messages(tree.get("formErrors"))) {
        fields.iter().for_each(|(name, v)| push(name, &messages(Some(v)).unwrap_or_default()));
    } else if let (Some(fields), true) = (fields("nested"), tree.as_object().is_some_and(|o| o.items().len() <= 3)) {
        fields.iter().for_each(|(name, v)| push(name, &messages(Some(v)).unwrap_or_default()));
    } else if messages(tree.get("errors")).is_some() && fields("properties").is_some() {
        walk_tree(&tree, "", 0, &mut push);
    } else if messages(tree.get("_errors")).is_some() {
        walk_format(&tree, "", 0, &mut push);
    } else {
        return None;
    }
    (!out.is_empty()).then_some(out)
}

/// The strings of a list of messages.
fn messages(v: Option<&Json>) -> Option<Vec<&str>> {
    v.and_then(Json::as_array).map(|a| a.items().iter().take(8).filter_map(Json::as_str).collect())
}

/// The nodes of a zod 4 error tree with messages of their own (`properties` of objects,
/// `items` of arrays), at most 4 levels deep.
fn walk_tree(node: &Json, path: &str, depth: usize, push: &mut dyn FnMut(&str, &[&str])) {
    if !path.is_empty() {
        push(path, &messages(node.get("errors")).unwrap_or_default());
    }
    if depth >= 4 {
        return;
    }
    let properties = node.get("properties").and_then(Json::as_object).map(|o| o.items()).unwrap_or_default();
    for (name, child) in properties.iter().take(MAX_INVALID_ARGUMENTS) {
        walk_tree(child, &join_path(path, name), depth + 1, push);
    }
    let items = node.get("items").and_then(Json::as_array).map(|a| a.items()).unwrap_or_default();
    for (k, child) in items.iter().enumerate().take(MAX_INVALID_ARGUMENTS) {
        walk_tree(child, &join_path(path, &k.to_string()), depth + 1, push);
    }
}

/// The nodes of a zod 3 `format()` tree with messages of their own, at most 4 levels deep.
fn walk_format(node: &Json, path: &str, depth: usize, push: &mut dyn FnMut(&str, &[&str])) {
    if !path.is_empty() {
        push(path, &messages(node.get("_errors")).unwrap_or_default());
    }
    if depth >= 4 {
        return;
    }
    let children = node.as_object().map(|o| o.items()).unwrap_or_default();
    for (name, child) in children.iter().filter(|(n, _)| n != "_errors").take(MAX_INVALID_ARGUMENTS) {
        walk_format(child, &join_path(path, name), depth + 1, push);
    }
}

/// `path` and one more part: `[k]` for an index, `.name` otherwise.
fn join_path(path: &str, part: &str) -> String {
    if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) {
        format!("{path}[{part}]")
    } else if path.is_empty() {
        part.to_owned()
    } else {
        format!("{path}.{part}")
    }
}

/// valibot's key issues: `Invalid key: Expected "owner" but received undefined` (a
/// missing key) and `Invalid key: Expected never but received "colour"` (a key the
/// object does not allow).
fn valibot_keys(t: Text<'_>, _: Option<CallView<'_>>) -> Option<Vec<ArgumentProblem>> {
    const LEAD: &str = "Invalid key: Expected ";
    let mut out = Vec::new();
    for at in t.positions(LEAD).take(MAX_INVALID_ARGUMENTS) {
        let (_, line) = around(t.text, at + LEAD.len());
        let quoted = |s: &str| s.strip_prefix('"').and_then(|s| s.split_once('"')).map(|(name, _)| name.to_owned());
        let Some((expected, received)) = line.split_once(" but received ") else { continue };
        if received.starts_with("undefined") {
            out.extend(quoted(expected).filter(|n| is_path(n)).map(|n| ArgumentProblem::new(n, MISSING)));
        } else if expected == "never" {
            out.extend(quoted(received).filter(|n| is_path(n)).map(|n| ArgumentProblem::new(n, UNEXPECTED)));
        }
    }
    (!out.is_empty()).then_some(out)
}

fn issue_path(issue: &Json) -> String {
    parts_path(issue.get("path"))
}

/// A path given as a list of names and indices.
fn parts_path(parts: Option<&Json>) -> String {
    let mut path = String::new();
    for part in parts.and_then(Json::as_array).map(|a| a.items()).unwrap_or_default() {
        match part {
            Json::Number(n) => path.push_str(&format!("[{n}]")),
            Json::String(s) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(s.head());
            }
            _ => {}
        }
    }
    path
}

/// Whether `s` reads as an argument path: a name, then `.name` or `[index]` parts.
fn is_path(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && s.len() <= MAX_PATH
        && (b[0].is_ascii_alphabetic() || b[0] == b'_' || b[0] == b'$')
        && b.iter().all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'[' | b']' | b'$'))
}

/// The top-level name of a path (`opts.count[0]` → `opts`).
fn top(path: &str) -> &str {
    path.split(['.', '[']).next().unwrap_or(path)
}

/// Whether the call's schema has `path`'s top-level name as a property (no schema: no).
fn in_schema(call: Option<CallView<'_>>, path: &str) -> bool {
    call.is_some_and(|c| c.has_property(top(path)))
}

/// The TypeScript SDK's own wording: after `Invalid arguments for tool NAME: `, one issue a
/// line, each `MESSAGE at PATH` (zod 4's SDK formatting; `MESSAGE` alone for the arguments
/// object) or `PATH: MESSAGE` (other formatters of the same issues).
fn sdk_issue_lines(t: Text<'_>, call: Option<CallView<'_>>) -> Option<Vec<ArgumentProblem>> {
    let text = t.text;
    const LEAD: &str = "Invalid arguments for tool ";
    let at = t.find(LEAD)?;
    let rest = &text[at + LEAD.len()..];
    let colon = search::find(rest, ": ")?;
    let issues = &rest[colon + 2..];
    if issues.trim_start().starts_with('[') {
        return None;
    }
    // Issues prettified after the lead (Playwright prints zod 4's `✖ … → at path`).
    if t.contains("\u{2716} ") || t.contains("\u{d7} ") {
        return pretty_lines(t, call);
    }
    let mut out = Vec::new();
    for line in issues.lines().map(str::trim).take_while(|l| !l.is_empty()) {
        let (message, path) = match search::rsplit_once(line, " at ") {
            Some((m, p)) if is_path(p) => (m, p),
            Some((m, "object root")) => (m, ""),
            _ => match line.split_once(": ") {
                Some((p, m)) if is_path(p) && (call.is_none() || in_schema(call, p)) => (m, p),
                _ => (line, ""),
            },
        };
        out.extend(issue(path, message));
    }
    Some(out)
}

/// One issue read from text: the argument at `path` and its problem, or for an issue
/// about the arguments object that lists keys it does not allow (zod 3's `Unrecognized
/// key(s) in object: 'a', 'b'`, zod 4's `Unrecognized keys: "a", "b"`), each key.
fn issue(path: &str, message: &str) -> Vec<ArgumentProblem> {
    if path.is_empty() {
        if let Some(keys) = message.strip_prefix("Unrecognized key").and_then(|m| m.split_once(": ")).map(|(_, keys)| keys) {
            return keys
                .split(['\'', '"'])
                .skip(1)
                .step_by(2)
                .filter(|k| is_path(k))
                .map(|k| ArgumentProblem::new(k, UNEXPECTED))
                .collect();
        }
    }
    vec![ArgumentProblem::new(clean(path), problem_of(message))]
}

/// The TypeScript `fastmcp` framework: `Tool 'NAME' parameter validation failed: PATH:
/// MESSAGE, PATH: MESSAGE. Please check ...`. Messages hold commas too (`expected
/// string, received undefined`): an issue starts only where a path and `: ` follow `, `.
fn lead_and_entries(t: Text<'_>, call: Option<CallView<'_>>) -> Option<Vec<ArgumentProblem>> {
    let text = t.text;
    const LEAD: &str = "parameter validation failed: ";
    let at = t.find(LEAD)?;
    let mut rest = &text[at + LEAD.len()..];
    if let Some(end) = search::find(rest, ". Please check") {
        rest = &rest[..end];
    }
    let starts_entry = |s: &str| {
        s[..search::floor_boundary(s, MAX_PATH + 2)]
            .split_once(": ")
            .is_some_and(|(p, _)| is_path(p) && (call.is_none() || in_schema(call, p) || p == "root"))
    };
    let mut entries: Vec<&str> = Vec::new();
    let mut from = 0;
    for comma in search::positions(rest, ", ") {
        if comma >= from && starts_entry(&rest[comma + 2..]) {
            entries.push(&rest[from..comma]);
            from = comma + 2;
        }
    }
    entries.push(&rest[from..]);
    let mut out = Vec::new();
    for entry in entries {
        let Some((path, message)) = entry.split_once(": ") else { continue };
        // The first entry was not checked when the entries were split.
        if path != "root" && !(is_path(path) && (call.is_none() || in_schema(call, path))) {
            continue;
        }
        out.extend(issue(if path == "root" { "" } else { path }, message));
    }
    Some(out)
}

/// zod 4's `prettifyError` and valibot's `summarize`: `✖ MESSAGE` (or `× MESSAGE`), then
/// `→ at PATH` on the next line for an issue with a path.
fn pretty_lines(t: Text<'_>, _: Option<CallView<'_>>) -> Option<Vec<ArgumentProblem>> {
    let text = t.text;
    if !t.contains("\u{2716} ") && !t.contains("\u{d7} ") {
        return None;
    }
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut out = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let Some(message) = line.strip_prefix("\u{2716} ").or_else(|| line.strip_prefix("\u{d7} ")) else { continue };
        let path = lines.get(k + 1).and_then(|l| l.strip_prefix("\u{2192} at ")).filter(|p| is_path(p)).unwrap_or("");
        out.extend(issue(path, message));
    }
    (!out.is_empty()).then_some(out)
}

/// pydantic v2 (through the Python SDK and FastMCP): a location line, then an indented
/// message ending `[type=CODE, ...`; `type=missing` is a missing argument. A message line
/// printed without its location names, with the call in hand, the argument whose value
/// its `input_value=` prints.
fn pydantic_errors(t: Text<'_>, call: Option<CallView<'_>>) -> Option<Vec<ArgumentProblem>> {
    let text = t.text;
    if !t.contains("[type=") {
        return None;
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for pair in lines.windows(2) {
        let (loc, detail) = (pair[0].trim_end(), pair[1]);
        if !is_path(loc) || !detail.starts_with([' ', '\t']) {
            continue;
        }
        let Some(ty_at) = search::find(detail, "[type=") else { continue };
        let message = detail[..ty_at].trim();
        let ty: String = detail[ty_at + 6..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
        if message.is_empty() || ty.is_empty() {
            continue;
        }
        let problem = match ty.as_str() {
            "missing" | "missing_argument" => MISSING.to_owned(),
            "extra_forbidden" | "unexpected_keyword_argument" => UNEXPECTED.to_owned(),
            _ => clean(message),
        };
        out.push(ArgumentProblem::new(clean(loc), problem));
    }
    if out.is_empty() {
        let call = call?;
        for line in lines.iter().take(MAX_INVALID_ARGUMENTS) {
            let Some(ty_at) = search::find(line, " [type=") else { continue };
            let Some(value_at) = search::find(&line[ty_at..], "input_value=").map(|k| ty_at + k + "input_value=".len()) else { continue };
            let value = &line[value_at..];
            let value = &value[..search::find(value, ", input_type=").unwrap_or(value.len())];
            let message = line[..ty_at].trim().trim_start_matches("Error: ");
            if let (Some(name), false) = (call.argument_valued(value), message.is_empty()) {
                out.push(ArgumentProblem::new(name, clean(message)));
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Python `jsonschema`'s messages: `'NAME' is a required property`, and a value's own
/// problem (`5 is not of type 'string'`, `'x' is not one of ['a', 'b']`, `3 is greater
/// than the maximum of 2`, `[] is too short`, `Additional properties are not allowed ('x'
/// was unexpected)`), whose argument is the one `On instance['NAME']` names, else the one
/// whose value the message quotes.
fn jsonschema(t: Text<'_>, call: Option<CallView<'_>>) -> Option<Vec<ArgumentProblem>> {
    let text = t.text;
    const REQUIRED: &str = "' is a required property";
    const VALUE_PROBLEMS: &[&str] = &[
        " is not of type ",
        " is not one of ",
        " is greater than the maximum of ",
        " is less than the minimum of ",
        " is greater than or equal to the maximum of ",
        " is less than or equal to the minimum of ",
        " is too short",
        " is too long",
        " does not match '",
        " is not a '",
        " is not valid under any of the given schemas",
        " is not a multiple of ",
        " should be non-empty",
        " should not be valid under ",
        " was expected",
        " has non-unique elements",
    ];
    // Phrases no text but jsonschema's writes: a value problem counts without a name then.
    const OWN: &[&str] = &[" is not of type '", " is not one of [", " is not valid under any of the given schemas", "Failed validating '"];
    let mut out = Vec::new();
    for at in t.positions(REQUIRED) {
        let before = &text[..at];
        let Some(open) = before.rfind(['\'', '\n']) else { continue };
        let name = &before[open + 1..];
        if before[open..].starts_with('\'') && !name.is_empty() && name.len() <= 100 {
            out.push(ArgumentProblem::new(clean(name), MISSING));
        }
    }
    if let Some(at) = t.find("Additional properties are not allowed (") {
        let inside = &text[at + "Additional properties are not allowed (".len()..];
        let inside = &inside[..inside.find(')').unwrap_or(inside.len())];
        for name in inside.split(['\'', '"']).skip(1).step_by(2) {
            out.push(ArgumentProblem::new(clean(name), UNEXPECTED));
        }
    }
    // Each value problem is read where one of its phrases starts, once a line: every byte
    // is read a bounded number of times whatever the text repeats.
    let own = std::cell::OnceCell::new();
    let mut read_to = 0;
    let mut problems: Vec<(&str, &str)> = Vec::new();
    let mut starts: Vec<usize> =
        [" is ", " does not match '", " should ", " was expected", " has non-unique"].into_iter().flat_map(|p| t.positions(p)).collect();
    crate::order::sort_by_key(&mut starts, |&at| at);
    for at in starts {
        if at < read_to {
            continue;
        }
        let Some(phrase) = VALUE_PROBLEMS.iter().find(|p| text[at..].starts_with(*p)) else { continue };
        // A message runs to its line's end, or to a `; ` joining it to the next one.
        let line_start = text[..at].rfind(['\n', ';']).map_or(0, |k| k + 1);
        let line_end = text[at..].find(['\n', ';']).map_or(text.len(), |k| at + k);
        read_to = line_end;
        let instance = text[line_start..at].rsplit(": ").next().unwrap_or_default().trim();
        let what = &text[at..line_end];
        debug_assert!(what.starts_with(phrase));
        problems.push((instance, what));
    }
    // `On instance['NAME']` names the one problem of a full message, not each of several.
    let instance_named = if problems.len() == 1 { instance_path(t) } else { None };
    for (instance, what) in problems {
        let path = instance_named.clone().or_else(|| call.and_then(|c| c.argument_valued(instance)));
        if path.is_some() || *own.get_or_init(|| OWN.iter().any(|p| t.contains(p))) {
            out.push(ArgumentProblem::new(path.unwrap_or_default(), clean(&format!("{instance}{what}"))));
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The argument `On instance['NAME']` (jsonschema's full message) names.
fn instance_path(t: Text<'_>) -> Option<String> {
    let text = t.text;
    let at = t.find("On instance[")?;
    let rest = &text[at + "On instance[".len()..];
    let quote = rest.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let name = &rest[1..];
    let name = &name[..name.find(quote)?];
    is_path(name).then(|| clean(name))
}

/// ajv's `errorsText`: `data/NAME must be string`, `data must have required property
/// 'NAME'`, `/NAME must ...` (an instance path alone), ajv 6's `data.NAME should be ...`;
/// problems joined by `, `.
fn ajv(t: Text<'_>, call: Option<CallView<'_>>) -> Option<Vec<ArgumentProblem>> {
    let text = t.text;
    const REQUIRED: &str = "must have required property '";
    const OLD_REQUIRED: &str = "should have required property '";
    let mut out = Vec::new();
    for lead in [REQUIRED, OLD_REQUIRED] {
        for at in t.positions(lead) {
            let rest = around(text, at + lead.len()).1;
            let name = &rest[..rest.find('\'').unwrap_or(0)];
            let base = ajv_path(text[..at].trim_end());
            if is_path(name) {
                out.push(ArgumentProblem::new(if base.is_empty() { name.to_owned() } else { format!("{base}.{name}") }, MISSING));
            }
        }
    }
    for verb in [" must ", " should "] {
        for at in t.positions(verb) {
            let (before, after) = around(text, at);
            let rest = &after[1..];
            if rest.starts_with("must have required") || rest.starts_with("should have required") {
                continue;
            }
            // `data/` is ajv's own; a bare instance path (`/a`, `data.a`) could be any
            // path's, so it counts for a name of the call's schema only.
            let path = ajv_path(before);
            let own = before.rsplit([' ', ',']).next().is_some_and(|w| w.starts_with("data/"));
            if !path.is_empty() && (own || in_schema(call, &path)) {
                let end = rest.find(',').unwrap_or(rest.len());
                out.push(ArgumentProblem::new(path, clean(&rest[..end])));
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The argument path of ajv's instance path that ends `before` (`data/a/0`, `/a`,
/// `data.a`): dotted, with indices in brackets; empty for the data itself or no path.
fn ajv_path(before: &str) -> String {
    let word_start = before.rfind([' ', '\n', ',', '(', ':']).map_or(0, |k| k + 1);
    let word = &before[word_start..];
    let parts = if let Some(rest) = word.strip_prefix("data") {
        rest
    } else if word.starts_with('/') {
        word
    } else {
        return String::new();
    };
    let mut path = String::new();
    for part in parts.split(['/', '.']).filter(|p| !p.is_empty()) {
        if part.bytes().all(|b| b.is_ascii_digit()) {
            path.push_str(&format!("[{part}]"));
        } else if is_path(part) {
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(part);
        } else {
            return String::new();
        }
    }
    path
}

/// serde's deserialization errors, as rmcp and other Rust servers pass them: ``missing
/// field `NAME` ``, ``unknown field `NAME`, expected ...``, ``invalid type: integer `5`,
/// expected a string`` (the argument whose value it quotes). The names could be any
/// struct's (a backend's reply too), so only names of the call's schema count.
fn serde(t: Text<'_>, call: Option<CallView<'_>>) -> Option<Vec<ArgumentProblem>> {
    let text = t.text;
    let call = call?;
    let mut out = Vec::new();
    for (lead, problem) in [("missing field `", MISSING), ("unknown field `", UNEXPECTED)] {
        for at in t.positions(lead) {
            let rest = around(text, at + lead.len()).1;
            let name = &rest[..rest.find('`').unwrap_or(0)];
            let known = call.has_property(name);
            let fits = if problem == MISSING { known && call.argument(name).is_none() } else { !known && call.argument(name).is_some() };
            if fits {
                out.push(ArgumentProblem::new(name, problem));
            }
        }
    }
    for lead in ["invalid type: ", "invalid value: ", "unknown variant "] {
        for at in t.positions(lead) {
            let rest = &text[at..];
            let rest = &rest[..search::floor_boundary(rest, MAX_MESSAGE)];
            let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
            // The value, before `, expected`: `` `5` ``, `"1"` (a string), or `null`.
            let value = &line[lead.len().min(line.len())..line.find(", expected").unwrap_or(line.len())];
            let printed = match value.find(['`', '"']) {
                Some(q) if value[q..].starts_with('`') => value[q + 1..].split('`').next().unwrap_or(""),
                Some(q) => &value[q..],
                None => value.rsplit(' ').next().unwrap_or(""),
            };
            if let Some(name) = call.argument_valued(printed) {
                let end = line.find(" at line ").unwrap_or(line.len());
                out.push(ArgumentProblem::new(name, clean(&line[..end])));
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// mcp-go's argument accessors: `required argument "NAME" not found`, `argument "NAME" is
/// not a string` (and the other types, `cannot be converted to int`), `item 2 in argument
/// "NAME" is not a string`; and Go's `encoding/json` behind its typed handlers, `cannot
/// unmarshal number into Go struct field Args.NAME of type string` (for a name of the
/// call's schema).
fn mcp_go(t: Text<'_>, call: Option<CallView<'_>>) -> Option<Vec<ArgumentProblem>> {
    let text = t.text;
    let mut out = Vec::new();
    for at in t.positions(" into Go struct field ") {
        let (before, after) = around(text, at);
        let Some(clause) = search::rfind(before, "cannot unmarshal").map(|k| at - before.len() + k) else { continue };
        let line_end = at + after.find('\n').unwrap_or(after.len());
        let field =
            text[at + " into Go struct field ".len()..line_end.max(at + " into Go struct field ".len())].split(' ').next().unwrap_or("");
        let path = field.split_once('.').map_or("", |(_, p)| p);
        if is_path(path) && in_schema(call, path) {
            out.push(ArgumentProblem::new(path, clean(&text[clause..line_end])));
        }
    }
    for at in t.positions("argument \"") {
        let rest = &text[at + "argument \"".len()..];
        let Some(close) = rest[..search::floor_boundary(rest, MAX_PATH + 1)].find('"') else { continue };
        let (name, after) = (&rest[..close], around(text, at + "argument \"".len() + close + 1).1);
        let before = around(text, at).0;
        let required = before.ends_with("required ");
        if !is_path(name) {
            continue;
        }
        let item = before.rsplit_once("item ").and_then(|(_, i)| i.strip_suffix(" in ")).filter(|i| i.bytes().all(|b| b.is_ascii_digit()));
        let path = match item {
            Some(i) if !i.is_empty() => format!("{name}[{i}]"),
            _ => name.to_owned(),
        };
        if required && after.starts_with(" not found") {
            out.push(ArgumentProblem::new(path, MISSING));
        } else if let Some(problem) =
            [" is not a", " cannot be converted to"].iter().find_map(|p| after.strip_prefix(p).map(|rest| (p, rest)))
        {
            let (lead, rest) = problem;
            let end = rest.find(['\n', ',', ';']).unwrap_or(rest.len());
            out.push(ArgumentProblem::new(path, clean(&format!("{}{}", lead.trim_start(), &rest[..end]))));
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Words of a hand-written check's problem: a `NAME: PROBLEM` line counts only with one.
const PROBLEM_WORDS: &[&str] = &[
    "required",
    "missing",
    "must ",
    "should ",
    "expected ",
    "invalid",
    "not one of",
    "not allowed",
    "not a valid",
    "too long",
    "too short",
    "too many",
    "too few",
    "at least",
    "at most",
    "greater than",
    "less than",
    "exceeds",
    "above the maximum",
    "below the minimum",
    "wrong type",
    "cannot be empty",
    "can't be empty",
    "is empty",
];

/// A server's own checks, one `NAME: PROBLEM` a line (or `; `-separated, or bulleted), or
/// `NAME is required` / `NAME must ...`: read only with the call's schema, for names it
/// has, with a problem in a validator's words.
fn named_lines(t: Text<'_>, call: Option<CallView<'_>>) -> Option<Vec<ArgumentProblem>> {
    let text = t.text;
    let call = call?;
    let lower = text.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let mut out: Vec<(usize, ArgumentProblem)> = Vec::new();
    for name in call.property_names() {
        let key = name.to_ascii_lowercase();
        if key.len() < 2 {
            continue;
        }
        for at in search::positions(&lower, &key) {
            let mut start = at;
            if start > 0 && matches!(bytes[start - 1], b'\'' | b'"' | b'`') {
                start -= 1;
            }
            let mut end = at + key.len();
            if end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
                continue;
            }
            // A part of the argument (`items.0.qty: …`, `items[0].qty: …`) is about it.
            if matches!(bytes.get(end), Some(b'.' | b'[')) {
                end += bytes[end..]
                    .iter()
                    .take(MAX_PATH)
                    .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'[' | b']'))
                    .count();
            }
            if matches!(bytes.get(end), Some(b'\'' | b'"' | b'`')) {
                end += 1;
            }
            let rest = &lower[end..];
            let problem_start = if rest.starts_with(": ") {
                end + 2
            } else if rest.starts_with(" is ") || rest.starts_with(" must ") || rest.starts_with(" should ") {
                end + 1
            } else {
                continue;
            };
            // What comes before, read back at most 64 bytes (blanks and bullets only).
            let from = search::ceil_boundary(&lower, start.saturating_sub(64));
            let before = lower[from..start].trim_end_matches([' ', '\t', '-', '*', '\u{2022}']);
            let opens = (before.is_empty() && from == 0) || before.ends_with(['\n', ';', ':', ',']);
            if !opens {
                continue;
            }
            let tail = &text[problem_start..];
            let tail = &tail[..search::floor_boundary(tail, MAX_MESSAGE)];
            let problem = &tail[..tail.find(['\n', ';']).unwrap_or(tail.len())];
            let words = problem.to_ascii_lowercase();
            if PROBLEM_WORDS.iter().any(|w| search::contains(&words, w)) && out.iter().all(|(_, p)| p.path != *name) {
                out.push((start, ArgumentProblem::new(name.clone(), problem_of(problem))));
            }
        }
    }
    // In the text's order, not the schema's.
    crate::order::sort_by_key(&mut out, |(at, _)| *at);
    (!out.is_empty()).then(|| out.into_iter().map(|(_, p)| p).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validator_problems(text: &str, call: Option<CallView<'_>>) -> Option<Vec<ArgumentProblem>> {
        super::validator_problems(Text { text, pairs: &ShortPairs::of(text) }, call)
    }

    fn read(text: &str, call: Option<CallView<'_>>) -> Vec<(String, String)> {
        validator_problems(text, call).unwrap_or_else(|| panic!("not read: {text}")).into_iter().map(|p| (p.path, p.problem)).collect()
    }

    fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
        expected.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    const SCHEMA: &str = r#"{"type":"object","properties":{"path":{"type":"string"},"mode":{"enum":["r","w"]},"limit":{"type":"integer","maximum":100},"tags":{"type":"array"},"connectionId":{"type":"string"}},"required":["path"]}"#;

    fn with_call(args: &str, f: impl FnOnce(CallView<'_>)) {
        let schema = parse_json(SCHEMA).unwrap();
        let args = parse_json(args).unwrap();
        f(CallView { schema: &schema, arguments: Some(&args) });
    }

    #[test]
    fn ajv_and_pydantic_issue_objects() {
        let ajv = r##"[{"instancePath":"","schemaPath":"#/required","keyword":"required","params":{"missingProperty":"path"},"message":"must have required property 'path'"},{"instancePath":"/tags/0","schemaPath":"#/properties/tags/items/type","keyword":"type","params":{"type":"string"},"message":"must be string"},{"instancePath":"","keyword":"additionalProperties","params":{"additionalProperty":"colour"},"message":"must NOT have additional properties"}]"##;
        assert_eq!(read(ajv, None), pairs(&[("path", MISSING), ("tags[0]", "must be string"), ("colour", UNEXPECTED)]));
        let pydantic = r#"[{"type":"missing","loc":["path"],"msg":"Field required","input":{}},{"type":"int_parsing","loc":["limit"],"msg":"Input should be a valid integer","input":"ten"}]"#;
        assert_eq!(read(pydantic, None), pairs(&[("path", MISSING), ("limit", "Input should be a valid integer")]));
        // Objects of no validator's shape are not read as issues.
        assert_eq!(validator_problems(r#"[{"instancePath":"/a"},{"loc":"x"}]"#, None), None);
    }

    #[test]
    fn error_trees_of_zod_and_valibot() {
        let flatten = r#"{"formErrors":[],"fieldErrors":{"limit":["Expected number, received string"],"path":["Required"]}}"#;
        assert_eq!(read(flatten, None), pairs(&[("limit", "Expected number, received string"), ("path", MISSING)]));
        let format =
            r#"{"_errors":[],"path":{"_errors":["Required"]},"tags":{"_errors":[],"0":{"_errors":["Expected string, received number"]}}}"#;
        assert_eq!(read(format, None), pairs(&[("path", MISSING), ("tags[0]", "Expected string, received number")]));
        let tree = r#"{"errors":[],"properties":{"mode":{"errors":["Invalid option: expected one of \"r\"|\"w\""]}}}"#;
        assert_eq!(read(tree, None), pairs(&[("mode", "Invalid option: expected one of \"r\"|\"w\"")]));
        let nested = r#"{"nested":{"tags.1":["Invalid type: Expected string but received 7"]}}"#;
        assert_eq!(read(nested, None), pairs(&[("tags.1", "Invalid type: Expected string but received 7")]));
        // A JSON schema in a text is no error tree.
        assert_eq!(validator_problems(r#"{"type":"object","properties":{"path":{"type":"string"}}}"#, None), None);
    }

    #[test]
    fn valibot_key_issues_and_pydantic_lines_without_a_location() {
        assert_eq!(read("Invalid key: Expected \"path\" but received undefined", None), pairs(&[("path", MISSING)]));
        assert_eq!(read("Invalid key: Expected never but received \"colour\"", None), pairs(&[("colour", UNEXPECTED)]));
        with_call(r#"{"path":"a","limit":"ten"}"#, |call| {
            let line = "Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='ten', input_type=str]";
            assert_eq!(
                read(line, Some(call)),
                pairs(&[("limit", "Input should be a valid integer, unable to parse string as an integer")])
            );
            // A problem about an optional argument the call did not send stays (a default
            // the server refused).
            let enum_left_out =
                r#"[{"code":"invalid_value","values":["r","w"],"path":["mode"],"message":"Invalid option: expected one of \"r\"|\"w\""}]"#;
            assert_eq!(read(enum_left_out, Some(call)), pairs(&[("mode", "Invalid option: expected one of \"r\"|\"w\"")]));
            // A required one the call did not send is missing.
            let schema = parse_json(
                r#"{"type":"object","properties":{"path":{"type":"string"},"mode":{"enum":["r","w"]}},"required":["path","mode"]}"#,
            )
            .unwrap();
            let required = CallView { schema: &schema, arguments: call.arguments };
            assert_eq!(read(enum_left_out, Some(required)), pairs(&[("mode", MISSING)]));
            // jsonschema's messages joined on one line, each read.
            let joined = "'path' is a required property; 'ten' is not of type 'integer'";
            assert_eq!(read(joined, Some(call)), pairs(&[("path", MISSING), ("limit", "'ten' is not of type 'integer'")]));
        });
        with_call(r#"{"path":"a","tags":[{"name":""}]}"#, |call| {
            // A part of an argument in a server's own line.
            assert_eq!(read("tags.0.name: must not be empty", Some(call)), pairs(&[("tags", "must not be empty")]));
        });
    }

    /// Each format's examples: what it reads, and near misses it leaves.
    #[test]
    fn zod_issue_arrays_wherever_they_stand() {
        // Issues about what is not the call's arguments (a request's `params`).
        with_call("{}", |call| {
            let request = r#"[{"expected":"string","code":"invalid_type","path":["params","name"],"message":"Invalid input"}]"#;
            assert_eq!(validator_problems(request, Some(call)), None);
        });
        assert_eq!(validator_problems(r#"[{"code":"invalid_type","path":["params","name"],"message":"Required"}]"#, None), None);
        let zod3 = r#"Error: [ { "code": "invalid_type", "expected": "string", "received": "undefined", "path": ["path"], "message": "Required" }, { "code": "invalid_enum_value", "options": ["r","w"], "received": "x", "path": ["mode"], "message": "Invalid enum value. Expected 'r' | 'w', received 'x'" }, { "code": "custom", "path": [], "message": "bad" } ]"#;
        assert_eq!(read(zod3, None), pairs(&[("path", MISSING), ("mode", "Invalid enum value. Expected 'r' | 'w', received 'x'")]));
        let zod4 = "[\n  {\n    \"expected\": \"string\",\n    \"code\": \"invalid_type\",\n    \"path\": [\"a\", 0],\n    \"message\": \"Invalid input: expected string, received number\"\n  },\n  {\"code\": \"unrecognized_keys\", \"keys\": [\"x\"], \"path\": [], \"message\": \"Unrecognized key: \\\"x\\\"\"}\n]";
        assert_eq!(read(zod4, None), pairs(&[("a[0]", "Invalid input: expected string, received number"), ("x", UNEXPECTED)]));
        // An array of other objects is no validator's.
        assert_eq!(validator_problems(r#"results: [{"id": 1, "path": ["a"]}]"#, None), None);
        // Only a root issue: read, but it names nothing.
        assert_eq!(validator_problems(r#"[{"code":"custom","path":[],"message":"bad"}]"#, None), Some(vec![]));
    }

    #[test]
    fn sdk_lines_with_the_path_before_or_after() {
        let text =
            "Input validation error: Invalid arguments for tool find: connectionId: Invalid input: expected string, received undefined";
        assert_eq!(read(text, None), pairs(&[("connectionId", MISSING)]));
        let text = "Invalid arguments for tool echo: Too big: expected number to be <=10 at opts.count[0]\nInvalid input at object root";
        assert_eq!(read(text, None), pairs(&[("opts.count[0]", "Too big: expected number to be <=10")]));
    }

    #[test]
    fn pretty_printed_issues() {
        let playwright = "### Error\nInvalid arguments for tool \"browser_navigate\":\n\u{2716} Invalid input: expected string, received undefined\n  \u{2192} at url";
        assert_eq!(read(playwright, None), pairs(&[("url", MISSING)]));
        let text = "\u{2716} Invalid input: expected string, received undefined\n  \u{2192} at path\n\u{2716} Too big: expected number to be <=100\n  \u{2192} at limit";
        assert_eq!(read(text, None), pairs(&[("path", MISSING), ("limit", "Too big: expected number to be <=100")]));
    }

    #[test]
    fn jsonschema_messages_name_the_argument_by_instance_or_value() {
        assert_eq!(read("'path' is a required property", None), pairs(&[("path", MISSING)]));
        let full = "5 is not of type 'string'\n\nFailed validating 'type' in schema['properties']['path']:\n    {'type': 'string'}\n\nOn instance['path']:\n    5";
        assert_eq!(read(full, None), pairs(&[("path", "5 is not of type 'string'")]));
        with_call(r#"{"path":"a","mode":"x","limit":500}"#, |call| {
            assert_eq!(
                read("Input validation error: 'x' is not one of ['r', 'w']", Some(call)),
                pairs(&[("mode", "'x' is not one of ['r', 'w']")])
            );
            assert_eq!(
                read("500 is greater than the maximum of 100", Some(call)),
                pairs(&[("limit", "500 is greater than the maximum of 100")])
            );
        });
        assert_eq!(read("Additional properties are not allowed ('extra' was unexpected)", None), pairs(&[("extra", UNEXPECTED)]));
    }

    #[test]
    fn ajv_error_texts() {
        let text = "data must have required property 'path', data/limit must be integer, data/tags/0 must be string";
        assert_eq!(read(text, None), pairs(&[("path", MISSING), ("limit", "must be integer"), ("tags[0]", "must be string")]));
        with_call(r#"{"mode":"x","limit":500}"#, |call| {
            assert_eq!(
                read("/mode must be equal to one of the allowed values", Some(call)),
                pairs(&[("mode", "must be equal to one of the allowed values")])
            );
            assert_eq!(read("data.limit should be <= 100", Some(call)), pairs(&[("limit", "should be <= 100")]));
        });
        // A path of some other kind before "must": not an argument.
        assert_eq!(validator_problems("/srv/file must be closed first", None), None);
    }

    #[test]
    fn serde_errors_only_for_the_schemas_names() {
        with_call(r#"{"limit":"ten","extra":1}"#, |call| {
            let text = "failed to deserialize parameters: missing field `path`";
            assert_eq!(read(text, Some(call)), pairs(&[("path", MISSING)]));
            assert_eq!(read("unknown field `extra`, expected one of `path`, `mode`", Some(call)), pairs(&[("extra", UNEXPECTED)]));
            let typed = "invalid type: string \"ten\", expected i64";
            assert_eq!(read(typed, Some(call)), pairs(&[("limit", "invalid type: string \"ten\", expected i64")]));
            // A field of some other struct (a backend's reply) is no argument.
            assert_eq!(validator_problems("decoding the reply: missing field `id`", Some(call)), None);
        });
        assert_eq!(validator_problems("missing field `path`", None), None);
    }

    #[test]
    fn fastmcp_typescript_entries() {
        let text = "MCP error -32602: Tool 'greet' parameter validation failed: path: Invalid input: expected string, received undefined, limit: Too big: expected number to be <=5, mode: Invalid option: expected one of \"r\"|\"w\". Please check the parameter types and values according to the tool's schema.";
        assert_eq!(
            read(text, None),
            pairs(&[
                ("path", MISSING),
                ("limit", "Too big: expected number to be <=5"),
                ("mode", "Invalid option: expected one of \"r\"|\"w\"")
            ])
        );
    }

    #[test]
    fn root_issues_that_list_keys_name_each() {
        let zod4 = "Invalid arguments for tool t: Invalid input: expected string, received number at tags[1]\nUnrecognized key: \"extra\"";
        assert_eq!(read(zod4, None), pairs(&[("tags[1]", "Invalid input: expected string, received number"), ("extra", UNEXPECTED)]));
        let zod3 = "\u{2716} Unrecognized key(s) in object: 'a', 'b'";
        assert_eq!(read(zod3, None), pairs(&[("a", UNEXPECTED), ("b", UNEXPECTED)]));
    }

    #[test]
    fn pydantic_through_fastmcp() {
        let text = "2 validation errors for call[greet]\nname\n  Missing required argument [type=missing_argument, input_value={}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.14/v/missing_argument\nextra\n  Unexpected keyword argument [type=unexpected_keyword_argument, input_value=1, input_type=int]";
        assert_eq!(read(text, None), pairs(&[("name", MISSING), ("extra", UNEXPECTED)]));
    }

    /// A reviewer's cases: a nested ajv path, serde's unknown variant, a lead's first entry
    /// that is no path, one `On instance` among several problems, a run of bullets.
    #[test]
    fn review_findings_hold() {
        assert_eq!(read("data/opts must have required property 'x'", None), pairs(&[("opts.x", MISSING)]));
        with_call(r#"{"mode":"fast","limit":5}"#, |call| {
            assert_eq!(
                read("unknown variant `fast`, expected `r` or `w`", Some(call)),
                pairs(&[("mode", "unknown variant `fast`, expected `r` or `w`")])
            );
            let two = "'fast' is not one of ['r', 'w']\n5 is not of type 'string'\n\nOn instance['limit']:\n    5";
            assert_eq!(
                read(two, Some(call)),
                pairs(&[("mode", "'fast' is not one of ['r', 'w']"), ("limit", "5 is not of type 'string'")])
            );
            let bullets = "-".repeat(12_000);
            assert_eq!(validator_problems(&bullets, Some(call)), None);
        });
        assert_eq!(validator_problems("Tool 'x' parameter validation failed: Invalid input: expected object", None), Some(vec![]));
    }

    #[test]
    fn mcp_go_accessors() {
        assert_eq!(read("item 2 in argument \"tags\" is not a string", None), pairs(&[("tags[2]", "is not a string")]));
        assert_eq!(read("argument \"limit\" cannot be converted to int", None), pairs(&[("limit", "cannot be converted to int")]));
        with_call(r#"{"path":5}"#, |call| {
            let text = "failed to bind arguments: json: cannot unmarshal number into Go struct field Args.path of type string";
            assert_eq!(read(text, Some(call)), pairs(&[("path", "cannot unmarshal number into Go struct field Args.path of type string")]));
        });
        assert_eq!(read("required argument \"path\" not found", None), pairs(&[("path", MISSING)]));
        assert_eq!(read("argument \"limit\" is not a number", None), pairs(&[("limit", "is not a number")]));
    }

    #[test]
    fn hand_written_checks_with_the_schema() {
        with_call(r#"{"mode":"x","limit":500,"tags":[]}"#, |call| {
            let text = "Invalid arguments:\npath: required\nmode: must be one of r, w\nlimit: must be at most 100";
            assert_eq!(
                read(text, Some(call)),
                pairs(&[("path", MISSING), ("mode", "must be one of r, w"), ("limit", "must be at most 100")])
            );
            assert_eq!(read("Error: 'path' is required", Some(call)), pairs(&[("path", MISSING)]));
            assert_eq!(
                read("tags: too few items; limit: exceeds 100", Some(call)),
                pairs(&[("tags", "too few items"), ("limit", "exceeds 100")])
            );
            // Names the schema lacks, problems in no validator's words, a name inside prose.
            for prose in ["colour: must be red", "path: /srv/data/a.txt", "the path is required by law", "Error: file not readable"] {
                assert_eq!(validator_problems(prose, Some(call)), None, "{prose}");
            }
        });
        assert_eq!(validator_problems("path: required", None), None);
    }
}
