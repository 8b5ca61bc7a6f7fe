//! The executor's side of a run, as rules an executor in any language calls: reading the
//! exec request, checking the source from what a parser found in it (a syntax error, then
//! module access; [`check_source`]) or by a scan of its text ([`module_access`]), placing
//! a JavaScript engine's syntax error and stack frames in the submitted source (the
//! executor wraps the source before compiling it), and fitting console output and the final
//! value, or a failed run's error, stack and output ([`fit_failed`]), to one output budget.
//!
//! The executor keeps what only it can know (whether a nested call was dispatched, which
//! rejections its bridge delivered); everything it reports passes through here and
//! [`classify_run`](crate::run::classify_run).

use crate::evidence::{render_json, JsonCaps};
use crate::input::RunFailure;
use crate::json::{parse_json, Json, JsonList, JsonText};
use crate::pipeline::message::short_text;
use crate::text::{clean_whole, cut_safe, CustomRules, Redactions, SafeText, SafeTextBuilder};

mod failed;
mod source;

pub use failed::{fit_failed, FailedRun, MIN_MESSAGE_UNITS};
pub use source::{check_source, source_position, ModuleUse, ModuleUseKind};

/// Longest source an exec request may submit, in UTF-16 code units (the bounded JSON
/// reader's longest string, 128 Ki units).
///
/// ```
/// use codemode_errors::run::{ExecRequest, RunFailure, MAX_SOURCE_UNITS};
/// let code = "x".repeat(MAX_SOURCE_UNITS + 1);
/// let refused = ExecRequest::from_value(&codemode_errors::json::JsonBuilder::string(&code, code.len())).unwrap_err();
/// assert!(matches!(refused, RunFailure::InvalidRequest { message } if message.contains("131072")));
/// ```
pub const MAX_SOURCE_UNITS: usize = crate::json::INPUT_LIMITS.string_head;

/// The output budget when the caller names none, in bytes: console output plus the final
/// value or error.
///
/// ```
/// use codemode_errors::run::{project_completed, DEFAULT_MAX_OUTPUT_BYTES};
/// let projected = project_completed(&"log line\n".repeat(10_000), "42", DEFAULT_MAX_OUTPUT_BYTES).unwrap();
/// assert!(projected.truncated && projected.output.len() + projected.value.len() <= 64 * 1024);
/// ```
pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 64 * 1024;

/// Most stack frames kept in a guest error's stack.
const MAX_FRAMES: usize = 10;

/// Longest function name kept in a frame, in UTF-16 code units.
const MAX_FRAME_NAME: usize = 80;

/// Longest field name quoted in a request error.
const MAX_FIELD_NAME: usize = 64;

/// The exec tool's arguments, as the model sent them, once they are known to be valid.
///
/// ```
/// use codemode_errors::run::ExecRequest;
/// let request = ExecRequest::from_json(r#""return await codemode.kv.get({key: 'a'})""#).unwrap(); // the shorthand
/// assert_eq!((request.code.as_str(), request.restart_safe), ("return await codemode.kv.get({key: 'a'})", false));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExecRequest {
    /// The JavaScript source: the body of an async function.
    pub code: String,
    /// The caller's declaration that running the code again is safe (`restartSafe`).
    pub restart_safe: bool,
}

/// Fields of older exec surfaces that are refused by name: code mode takes JavaScript
/// source only, with no type checking.
const RETIRED_FIELDS: &[(&str, &str)] = &[
    ("language", "code mode runs JavaScript only"),
    ("typecheck", "code mode does not type-check; submit JavaScript"),
    ("typescript", "code mode does not accept TypeScript; submit JavaScript"),
];

impl ExecRequest {
    /// Read the exec tool's arguments from JSON text: `{"code": "...", "restartSafe"?:
    /// bool}`, or a JSON string as shorthand for `{"code": ...}`. Anything else is an
    /// [`RunFailure::InvalidRequest`] naming the field, before anything runs.
    ///
    /// ```
    /// use codemode_errors::run::{ExecRequest, RunFailure};
    /// let request = ExecRequest::from_json(r#"{"code":"return 1","restartSafe":true}"#).unwrap();
    /// assert!(request.restart_safe);
    /// let refused = ExecRequest::from_json(r#"{"code":"return 1","language":"python"}"#).unwrap_err();
    /// assert!(matches!(refused, RunFailure::InvalidRequest { message } if message.contains("language")));
    /// ```
    pub fn from_json(text: &str) -> Result<ExecRequest, RunFailure> {
        // A source at its longest, every unit escaped as `\uXXXX`, and room for the rest.
        let bound = MAX_SOURCE_UNITS * 6 + 4096;
        if text.len() > bound {
            return Err(refused(format!("the exec request is {} bytes, more than the {bound} a request may have", text.len())));
        }
        let value = parse_json(text).map_err(|e| refused(format!("the exec request is not valid JSON: {}", e.message())))?;
        Self::from_value(&value)
    }

    /// Read the exec tool's arguments from a bounded JSON value (see
    /// [`ExecRequest::from_json`]).
    ///
    /// ```
    /// use codemode_errors::{parse_json, run::{ExecRequest, RunFailure}};
    /// let request = ExecRequest::from_value(&parse_json(r#"{"code":"return 1"}"#)?).unwrap();
    /// assert_eq!(request.code, "return 1");
    /// let refused = ExecRequest::from_value(&parse_json(r#"{"code":42}"#)?).unwrap_err();
    /// assert!(matches!(refused, RunFailure::InvalidRequest { message } if message.contains("`code` must be a string")));
    /// # Ok::<(), codemode_errors::ReportError>(())
    /// ```
    pub fn from_value(value: &Json) -> Result<ExecRequest, RunFailure> {
        match value {
            Json::String(code) => Ok(ExecRequest { code: whole_source(code)?, restart_safe: false }),
            Json::Object(members) => read_members(members),
            _ => Err(refused("the exec request must be an object with a `code` string (or the code as a string)".to_owned())),
        }
    }
}

fn read_members(members: &JsonList<(String, Json)>) -> Result<ExecRequest, RunFailure> {
    let mut code = None;
    let mut restart_safe = false;
    for (key, value) in members.items() {
        match key.as_str() {
            "code" => match value {
                Json::String(text) => code = Some(whole_source(text)?),
                _ => return Err(refused("`code` must be a string of JavaScript".to_owned())),
            },
            "restartSafe" => match value {
                Json::Bool(b) => restart_safe = *b,
                _ => return Err(refused("`restartSafe` must be true or false".to_owned())),
            },
            other => {
                let name = field_name(other);
                return Err(refused(match RETIRED_FIELDS.iter().find(|(f, _)| *f == other) {
                    Some((_, why)) => format!("the field `{name}` is retired: {why}"),
                    None => format!("unknown field `{name}`: the exec request takes `code` and `restartSafe`"),
                }));
            }
        }
    }
    if members.total() > members.items().len() {
        return Err(refused("the exec request has too many fields: it takes `code` and `restartSafe`".to_owned()));
    }
    match code {
        Some(code) => Ok(ExecRequest { code, restart_safe }),
        None => Err(refused("the exec request has no `code`: give the JavaScript to run".to_owned())),
    }
}

/// The source, when the reader kept all of it.
fn whole_source(text: &JsonText) -> Result<String, RunFailure> {
    if text.is_complete() && text.total_utf16() <= MAX_SOURCE_UNITS {
        Ok(text.head().to_owned())
    } else {
        Err(refused(format!("`code` is {} UTF-16 units long, more than the {MAX_SOURCE_UNITS} a source may have", text.total_utf16())))
    }
}

fn refused(message: String) -> RunFailure {
    RunFailure::InvalidRequest { message }
}

/// A field name as quoted in a request error: at most [`MAX_FIELD_NAME`] characters (the
/// message is cleaned again when the run is classified).
fn field_name(name: &str) -> String {
    let mut out: String = name.chars().take(MAX_FIELD_NAME).collect();
    if out.len() < name.len() {
        out.push('…');
    }
    out
}

/// Refuse module access in a source, by a scan of its text: a call of `require(...)` or a
/// dynamic `import(...)` (with any whitespace, line breaks or comments before the `(`)
/// outside strings, comments and regular expressions. Static `import` declarations are
/// not valid in the body of a function, so they are syntax errors, which an executor
/// reports first. This is the entry for an executor without a JavaScript parser (the
/// component's); an executor that parses the source hands its findings to
/// [`check_source`] instead, which reads the syntax tree's uses and cannot be spelled
/// around.
///
/// ```
/// use codemode_errors::run::module_access;
/// assert!(module_access("const fs = require('fs')").is_some());
/// assert!(module_access("const s = 'require(x)'; // import('y')\nreturn s").is_none());
/// ```
pub fn module_access(source: &str) -> Option<RunFailure> {
    let (what, line, column) = find_module_access(source)?;
    Some(refused(format!(
        "module access is not available in code mode: `{what}` at line {line}, column {column}; call tools through `codemode` instead"
    )))
}

/// The first `require(` or `import(` in code, with its one-based line and column.
fn find_module_access(source: &str) -> Option<(&'static str, u32, u32)> {
    let bytes = source.as_bytes();
    let (mut i, mut line, mut line_start) = (0usize, 1u32, 0usize);
    // What the last significant token allows next: a regular expression may start where
    // an operand is expected.
    let mut operand_expected = true;
    // Open template literals, each with the brace depth at which its `${` opened.
    let mut templates: Vec<u32> = Vec::new();
    let mut braces = 0u32;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' => {
                line += 1;
                line_start = i + 1;
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    if bytes[i] == b'\n' {
                        line += 1;
                        line_start = i + 1;
                    }
                    i += 1;
                }
                i += 2;
            }
            b'/' if operand_expected => {
                // A regular expression literal, with its classes.
                let mut in_class = false;
                i += 1;
                while i < bytes.len() && bytes[i] != b'\n' {
                    match bytes[i] {
                        b'\\' => i += 1,
                        b'[' => in_class = true,
                        b']' => in_class = false,
                        b'/' if !in_class => break,
                        _ => {}
                    }
                    i += 1;
                }
                i += 1;
                operand_expected = false;
            }
            b'"' | b'\'' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                operand_expected = false;
            }
            b'`' => {
                i = skip_template(bytes, i + 1, &mut line, &mut line_start, &mut templates, braces);
                operand_expected = false;
            }
            b'}' if templates.last() == Some(&braces) => {
                // The end of a `${...}` substitution: the template goes on.
                templates.pop();
                i = skip_template(bytes, i + 1, &mut line, &mut line_start, &mut templates, braces);
                operand_expected = false;
            }
            b'{' => {
                braces += 1;
                operand_expected = true;
                i += 1;
            }
            b'}' => {
                braces = braces.saturating_sub(1);
                operand_expected = true;
                i += 1;
            }
            b if b.is_ascii_alphabetic() || b == b'_' || b == b'$' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$') {
                    i += 1;
                }
                let word = &source[start..i];
                let member = start > 0 && bytes[start - 1] == b'.' && !(start > 2 && &bytes[start - 3..start] == b"...");
                let next = skip_blank(bytes, i);
                if !member && bytes.get(next) == Some(&b'(') {
                    if let Some(what) = ["require", "import"].into_iter().find(|w| *w == word) {
                        let column = source[line_start..start].chars().count() as u32 + 1;
                        return Some((if what == "require" { "require" } else { "import" }, line, column));
                    }
                }
                operand_expected = matches!(
                    word,
                    "return" | "typeof" | "case" | "do" | "else" | "in" | "of" | "new" | "delete" | "void" | "throw" | "await" | "yield"
                );
            }
            b if b.is_ascii_whitespace() => i += 1,
            b')' | b']' => {
                operand_expected = false;
                i += 1;
            }
            b if b.is_ascii_digit() => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.' || bytes[i] == b'_') {
                    i += 1;
                }
                operand_expected = false;
            }
            _ => {
                operand_expected = true;
                i += 1;
            }
        }
    }
    None
}

/// The index of the first byte at or after `i` that is neither whitespace (line breaks
/// included) nor inside a comment: what may stand between `import` and its `(`.
fn skip_blank(bytes: &[u8], mut i: usize) -> usize {
    loop {
        match bytes.get(i) {
            Some(b) if b.is_ascii_whitespace() => i += 1,
            // U+2028 and U+2029 (E2 80 A8/A9) and U+00A0 (C2 A0), U+FEFF (EF BB BF).
            Some(0xE2) if bytes.get(i + 1) == Some(&0x80) && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9)) => i += 3,
            Some(0xC2) if bytes.get(i + 1) == Some(&0xA0) => i += 2,
            Some(0xEF) if bytes.get(i + 1) == Some(&0xBB) && bytes.get(i + 2) == Some(&0xBF) => i += 3,
            Some(b'/') if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            Some(b'/') if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
            }
            _ => return i,
        }
    }
}

/// Skip a template literal's text from `i` (after the backtick or a substitution's `}`)
/// to its closing backtick, or into a `${` substitution (recorded in `templates`).
fn skip_template(bytes: &[u8], mut i: usize, line: &mut u32, line_start: &mut usize, templates: &mut Vec<u32>, braces: u32) -> usize {
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'`' => return i + 1,
            b'$' if bytes.get(i + 1) == Some(&b'{') => {
                templates.push(braces);
                return i + 2;
            }
            b'\n' => {
                *line += 1;
                *line_start = i + 1;
                i += 1;
            }
            _ => i += 1,
        }
    }
    i
}

wire_enum! {
    /// The JavaScript engine an executor compiles the source with: each writes its syntax
    /// errors and stack frames in its own way.
    ///
    /// ```
    /// use codemode_errors::run::{syntax_failure, Engine, RunFailure, Wrapping};
    /// assert_eq!(Engine::from_wire("quickjs"), Some(Engine::QuickJs));
    /// let stack = "SyntaxError: unexpected token in expression: ')'\n    at agent:user.js:3:9";
    /// let failure = syntax_failure(Engine::QuickJs, "unexpected token in expression: ')'", stack, None, &Wrapping::new("agent:user.js", 1, 0), "a\nb(\nc)");
    /// assert!(matches!(failure, RunFailure::SyntaxError { line: 2, column: 9, .. }));
    /// ```
    pub Engine {
        /// V8 (Node's `vm`, Deno, Chromium, isolated-vm).
        V8 = "v8",
        /// QuickJS (quickjs-emscripten, `run`).
        QuickJs = "quickjs",
        /// SpiderMonkey (Firefox).
        SpiderMonkey = "spidermonkey",
    }
}

/// How an executor wrapped the submitted source before compiling it: the file name it
/// compiled under, and how many lines (and, on the source's first line, columns) of its
/// own came before the source.
///
/// ```
/// use codemode_errors::run::Wrapping;
/// // `(async () => {\n` + source + `\n})()` compiled as `agent:user.js`
/// let wrapping = Wrapping::new("agent:user.js", 1, 0);
/// assert_eq!(wrapping.source_position("agent:user.js:4:7"), Some((3, 7)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wrapping {
    file: String,
    lines_before: u32,
    columns_before: u32,
    /// The source's line count, when known: a position after it is the wrapper's.
    source_lines: Option<u32>,
}

impl Wrapping {
    /// A wrapping under `file` with `lines_before` lines before the source and
    /// `columns_before` columns before it on its first line.
    ///
    /// ```
    /// use codemode_errors::run::Wrapping;
    /// // `(async () => { ` + source + ` })()` on one line: 15 columns before the source
    /// let wrapping = Wrapping::new("vm:user.js", 0, 15);
    /// assert_eq!(wrapping.source_position("at vm:user.js:1:20"), Some((1, 5)));
    /// ```
    pub fn new(file: &str, lines_before: u32, columns_before: u32) -> Self {
        Wrapping { file: file.to_owned(), lines_before, columns_before, source_lines: None }
    }

    /// This wrapping of a source of `lines` lines: a frame after them is the wrapper's.
    ///
    /// ```
    /// use codemode_errors::run::Wrapping;
    /// let wrapping = Wrapping::new("agent:user.js", 1, 0).with_source_lines(2);
    /// assert_eq!(wrapping.source_position("agent:user.js:4:1"), None); // the wrapper's closing line
    /// assert_eq!(wrapping.source_position("agent:user.js:4:1 agent:user.js:3:2"), Some((2, 2)));
    /// ```
    pub fn with_source_lines(mut self, lines: u32) -> Self {
        self.source_lines = Some(lines);
        self
    }

    /// The position in the submitted source of the first `file:LINE[:COLUMN]` in `text`
    /// that falls inside the source (a wrapper line is not the source's).
    ///
    /// ```
    /// use codemode_errors::run::Wrapping;
    /// let wrapping = Wrapping::new("agent:user.js", 1, 0);
    /// assert_eq!(wrapping.source_position("at f (agent:user.js:5:3)"), Some((4, 3)));
    /// assert_eq!(wrapping.source_position("at agent:user.js:1:1"), None); // the wrapper's line
    /// assert_eq!(wrapping.source_position("at other.js:5:3"), None);
    /// ```
    pub fn source_position(&self, text: &str) -> Option<(u32, u32)> {
        locations(text, &self.file).find_map(|(line, column)| self.map(line, column.unwrap_or(1)))
    }

    /// A compiled position in the submitted source, when it is inside it.
    fn map(&self, line: u32, column: u32) -> Option<(u32, u32)> {
        let line = line.checked_sub(self.lines_before).filter(|&l| l >= 1 && self.source_lines.is_none_or(|n| l <= n))?;
        let column = if line == 1 { column.saturating_sub(self.columns_before).max(1) } else { column.max(1) };
        Some((line, column))
    }
}

/// Every `file:LINE` or `file:LINE:COLUMN` in `text`, in order.
fn locations<'a>(text: &'a str, file: &'a str) -> impl Iterator<Item = (u32, Option<u32>)> + 'a {
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(at) = (!file.is_empty()).then(|| crate::search::find_from(text, file, from)).flatten() {
            from = at + file.len();
            let rest = &text[from..];
            let Some(after) = rest.strip_prefix(':') else { continue };
            let (line, after) = leading_number(after);
            let Some(line) = line else { continue };
            let column = after.strip_prefix(':').and_then(|c| leading_number(c).0);
            return Some((line, column));
        }
        None
    })
}

fn leading_number(text: &str) -> (Option<u32>, &str) {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    (text[..digits.min(9)].parse().ok(), &text[digits..])
}

/// The syntax error an engine reported while compiling the wrapped source, placed in the
/// submitted source: a one-based line and column and the engine's message.
///
/// The position comes from the engine's own line and column when it gives them
/// (SpiderMonkey's `lineNumber`/`columnNumber`, one-based), else from its text: V8 writes
/// `file:LINE` and a caret line under the offending code, QuickJS `at file:LINE:COLUMN`.
/// A position inside the wrapper (an unexpected end of input, say) is placed at the end
/// of the source.
///
/// ```
/// use codemode_errors::run::{syntax_failure, Engine, RunFailure, Wrapping};
/// let stack = "agent:user.js:3\n  return a +* 2\n            ^\n\nSyntaxError: Unexpected token '*'";
/// let failure = syntax_failure(Engine::V8, "Unexpected token '*'", stack, None, &Wrapping::new("agent:user.js", 1, 0), "x\ny\n  return a +* 2");
/// assert_eq!(failure, RunFailure::SyntaxError { message: "Unexpected token '*'".into(), line: 2, column: 13 });
/// ```
pub fn syntax_failure(
    engine: Engine,
    message: &str,
    stack: &str,
    position: Option<(u32, u32)>,
    wrapping: &Wrapping,
    source: &str,
) -> RunFailure {
    let compiled = position.map(|(l, c)| (l, Some(c))).or_else(|| match engine {
        Engine::V8 => v8_position(stack, &wrapping.file),
        Engine::QuickJs | Engine::SpiderMonkey => locations(stack, &wrapping.file).next(),
    });
    // The end of the source, its lines ended by JavaScript's line terminators.
    let last = source_position(source, usize::MAX);
    let (line, column) = compiled.and_then(|(l, c)| wrapping.map(l, c.unwrap_or(1))).filter(|(l, _)| *l <= last.0).unwrap_or(last);
    RunFailure::SyntaxError { message: message.to_owned(), line, column }
}

/// V8's position: `file:LINE` on the first line, and the column of the first `^` on the
/// caret line under the quoted source line.
fn v8_position(stack: &str, file: &str) -> Option<(u32, Option<u32>)> {
    let (line, column) = locations(stack, file).next()?;
    let caret = stack.lines().take(4).find(|l| l.contains('^') && l.chars().all(|c| c == ' ' || c == '\t' || c == '^'));
    Some((line, column.or_else(|| caret.map(|l| l.chars().take_while(|&c| c != '^').count() as u32 + 1))))
}

/// A guest error's stack as the model should read it: `Name: message`, then at most
/// 10 frames of the submitted source as `at NAME (<label>:user.js:LINE:COL)`,
/// with the wrapper's, the executor's and the host's frames dropped. Every piece is
/// cleaned like evidence.
///
/// ```
/// use codemode_errors::run::{user_stack, Engine, Wrapping};
/// let stack = "TypeError: x is undefined\n    at run (agent:user.js:3:9)\n    at /srv/gateway/executor.js:88:12";
/// let out = user_stack(Engine::V8, "TypeError", "x is undefined", stack, &Wrapping::new("agent:user.js", 1, 0), "agent");
/// assert_eq!(out.as_str(), "TypeError: x is undefined\n    at run (agent:user.js:2:9)");
/// ```
pub fn user_stack(engine: Engine, name: &str, message: &str, stack: &str, wrapping: &Wrapping, label: &str) -> SafeText {
    let mut counts = Redactions::default();
    let mut out = SafeTextBuilder::with_capacity(256);
    let name = short_text(name, MAX_FRAME_NAME, CustomRules::none(), &mut counts);
    out.safe(&if name.is_empty() { SafeText::literal("Error") } else { name });
    let message = short_text(message, 500, CustomRules::none(), &mut counts);
    if !message.is_empty() {
        out.literal(": ").safe(&message);
    }
    let label = short_text(label, MAX_FRAME_NAME, CustomRules::none(), &mut counts);
    let mut kept = 0;
    for frame in stack.lines().take(256) {
        let Some((function, location)) = frame_parts(engine, frame.trim()) else { continue };
        let Some((line, column)) = locations(location, &wrapping.file).next().and_then(|(l, c)| wrapping.map(l, c.unwrap_or(1))) else {
            continue;
        };
        out.literal("\n    at ");
        let function = short_text(function, MAX_FRAME_NAME, CustomRules::none(), &mut counts);
        if !function.is_empty() {
            out.safe(&function).literal(" (");
        }
        out.safe(&label).literal(":user.js:").number(u64::from(line)).literal(":").number(u64::from(column));
        if !function.is_empty() {
            out.literal(")");
        }
        kept += 1;
        if kept == MAX_FRAMES {
            break;
        }
    }
    out.finish()
}

/// A frame's function name and location: V8 and QuickJS write `at NAME (LOCATION)` or
/// `at LOCATION`; SpiderMonkey `NAME@LOCATION`.
fn frame_parts(engine: Engine, frame: &str) -> Option<(&str, &str)> {
    match engine {
        Engine::V8 | Engine::QuickJs => {
            let rest = frame.strip_prefix("at ")?;
            match rest.strip_suffix(')').and_then(|r| r.rsplit_once(" (")) {
                // QuickJS names the wrapper and top-level code `<anonymous>` and `<eval>`.
                Some((function, location)) => {
                    let function = function.trim_start_matches("async ").trim();
                    Some((if function.starts_with('<') && function.ends_with('>') { "" } else { function }, location))
                }
                None => Some(("", rest.trim_start_matches("async "))),
            }
        }
        Engine::SpiderMonkey => frame.rsplit_once('@'),
    }
}

/// Console output and the final value fitted to one output budget.
///
/// ```
/// use codemode_errors::run::project_completed;
/// let projection = project_completed("fetched 3 items\n", r#"{"items":[1,2,3]}"#, 1024).unwrap();
/// assert_eq!((projection.output.as_str(), projection.value.as_str()), ("fetched 3 items\n", r#"{"items":[1,2,3]}"#));
/// assert!(!projection.truncated);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Projection {
    /// The console output, sanitized, redacted and cut to what the budget leaves.
    pub output: SafeText,
    /// The final value as compact JSON, shrunk (with `[TRUNCATED…]` markers) when it
    /// alone is over the budget; `null` when there was none.
    pub value: String,
    /// Whether anything was cut.
    pub truncated: bool,
}

/// Fit a completed run's console output and final value (JSON text) to `max_bytes`. The
/// value comes first: what the budget leaves after it goes to the output, which is cut
/// at a character boundary and ends in a marker. A value over the budget by itself is
/// shrunk (long strings cut, long lists and objects ended with a count), and the run
/// stays completed. `Err` when the value is not JSON data the bounded reader accepts
/// (the run then fails as `output_limit_exceeded`).
///
/// ```
/// use codemode_errors::run::project_completed;
/// let p = project_completed("line one\npassword=hunter2\n", r#"{"ok":true}"#, 1024).unwrap();
/// assert_eq!(p.output.as_str(), "line one\npassword=[REDACTED:secret_field]\n");
/// assert!(!p.truncated);
/// // The budget holds for the value as written, after redaction made it longer.
/// let p = project_completed("", r#"["password=hunter22","password=hunter33"]"#, 64).unwrap();
/// assert!(p.value.len() <= 64 && p.truncated, "{}", p.value);
/// ```
pub fn project_completed(output: &str, value_json: &str, max_bytes: usize) -> Result<Projection, RunFailure> {
    let value = parse_json(value_json).map_err(|e| RunFailure::OutputUnserializable { message: e.message().to_owned() })?;
    let mut counts = Redactions::default();
    // The value reaches the model like evidence: its strings are redacted, its
    // secret-named members masked; when it is over the budget as it will be written
    // (redaction may lengthen it: `token=a` becomes `token=[REDACTED:secret_field]`), it
    // is also shrunk, never below `MIN_VALUE_BYTES`.
    let caps = |bytes| JsonCaps {
        depth: crate::json::INPUT_LIMITS.max_depth,
        items: crate::json::INPUT_LIMITS.array_items,
        string_chars: MAX_SOURCE_UNITS,
        bytes,
    };
    let whole = is_whole(&value);
    let mut rendered = None;
    if whole && value_json.len() <= max_bytes {
        let redacted = render_json(&value, caps(usize::MAX), CustomRules::none(), &mut counts).to_json();
        if redacted.len() <= max_bytes {
            rendered = Some(redacted);
        }
    }
    let fits = rendered.is_some();
    let shrunk =
        |room: usize, counts: &mut Redactions| render_json(&value, caps(room.max(MIN_VALUE_BYTES)), CustomRules::none(), counts).to_json();
    let mut value_json = match rendered {
        Some(value) => value,
        None => shrunk(max_bytes, &mut counts),
    };
    let mut room = max_bytes.saturating_sub(value_json.len());
    let (mut output_text, output_cut) = fit_output(output, room);
    // Output cut to less than its marker would end past the budget: the value gives up the
    // marker's room (down to its own floor).
    if output_cut && room < OUTPUT_CUT.len() {
        value_json = shrunk(max_bytes.saturating_sub(OUTPUT_CUT.len()), &mut counts);
        room = max_bytes.saturating_sub(value_json.len());
        (output_text, _) = fit_output(output, room);
        return Ok(Projection { output: output_text, value: value_json, truncated: true });
    }
    Ok(Projection { output: output_text, value: value_json, truncated: !fits || output_cut })
}

/// How cut console output ends.
const OUTPUT_CUT: &str = "…[output truncated]";

/// The least room a completed run's value is shrunk to, in bytes, whatever the budget: a
/// smaller budget still leaves the value this much (with its markers).
///
/// ```
/// use codemode_errors::run::{project_completed, MIN_VALUE_BYTES};
/// let value = format!("\"{}\"", "v".repeat(1000));
/// let projection = project_completed("", &value, 10).unwrap(); // a budget far below the floor
/// assert!(projection.truncated && projection.value.len() <= MIN_VALUE_BYTES && projection.value.len() > 10);
/// ```
pub const MIN_VALUE_BYTES: usize = 64;

/// Whether the reader kept all of a value (no string cut, no item counted only).
fn is_whole(value: &Json) -> bool {
    match value {
        Json::String(text) => text.is_complete(),
        Json::Array(items) => items.total() == items.items().len() && items.items().iter().all(is_whole),
        Json::Object(members) => members.total() == members.items().len() && members.items().iter().all(|(_, v)| is_whole(v)),
        _ => true,
    }
}

/// Console output cleaned and cut to `budget` bytes, ending in a marker when cut. The
/// marker may take the output past a budget smaller than itself.
///
/// ```
/// use codemode_errors::run::fit_output;
/// let (text, cut) = fit_output("token=abc\nsecond line\n", 1024);
/// assert_eq!((text.as_str(), cut), ("token=[REDACTED:secret_field]\nsecond line\n", false));
/// let (text, cut) = fit_output(&"x".repeat(100), 40);
/// assert!(cut && text.ends_with("…[output truncated]") && text.len() <= 40);
/// ```
pub fn fit_output(output: &str, budget: usize) -> (SafeText, bool) {
    let clean = clean_whole(output, CustomRules::none(), &mut Redactions::default());
    if clean.len() <= budget {
        return (clean, false);
    }
    let marker = OUTPUT_CUT;
    let keep = cut_safe(&clean, utf16_units_within(&clean, budget.saturating_sub(marker.len())), CustomRules::none());
    let mut out = SafeTextBuilder::with_capacity(keep.len() + marker.len());
    out.safe(&keep).literal(marker);
    (out.finish(), true)
}

/// How many UTF-16 units of `text` fit in `bytes` bytes of UTF-8.
fn utf16_units_within(text: &str, bytes: usize) -> usize {
    let mut used = 0;
    let mut units = 0;
    for c in text.chars() {
        if used + c.len_utf8() > bytes {
            break;
        }
        used += c.len_utf8();
        units += c.len_utf16();
    }
    units
}

#[cfg(test)]
mod tests;
