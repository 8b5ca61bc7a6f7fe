//! What the parser finds in submitted code, without running it: the first syntax error and
//! every use of the module system, with UTF-16 offsets into the submitted code.
//!
//! The code is parsed as the body of an async function (boa's `parse_function_body` with
//! `await` allowed), so top-level `return` and `await` need no wrapper and boa's positions
//! are already in the submitted code's coordinates. Boa counts lines at `\n`, `\r\n`, `\r`,
//! U+2028 and U+2029 and columns in code points (1-based); [`LineMap`] turns those into
//! UTF-16 offsets.
//!
//! A script has no import declarations and no `import.meta`: boa refuses both. Like the
//! acorn parse of the npm package (`allowImportExportEverywhere`), they are reported as
//! module access instead: when the parse stops at such a use, it is recorded, neutralized
//! in a copy of the source (same line and column layout), and the copy is parsed again.

use std::ops::ControlFlow;

use boa_engine::ast::expression::{Call, Expression, ImportCall, ImportMeta, TaggedTemplate};
use boa_engine::ast::visitor::{VisitWith, Visitor};
use boa_engine::ast::{Position, Spanned};
use boa_engine::interner::Interner;
use boa_engine::parser::{Error as ParseError, Parser, Source};

/// The parse's verdict.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Findings {
    /// The first syntax error: message (no position suffix) and UTF-16 offset.
    pub syntax_error: Option<(String, usize)>,
    /// Module-system uses: kind wire name and UTF-16 offset, in source order.
    pub uses: Vec<(&'static str, usize)>,
}

/// Boa's (line, column) positions to UTF-16 offsets.
pub struct LineMap {
    /// Per line: the char index where it starts (into `chars`).
    starts: Vec<usize>,
    /// UTF-16 offset of every char, plus one past the end.
    utf16: Vec<usize>,
}

impl LineMap {
    pub fn new(code: &str) -> LineMap {
        let chars: Vec<char> = code.chars().collect();
        let mut utf16 = Vec::with_capacity(chars.len() + 1);
        let mut starts = vec![0];
        let mut unit = 0;
        let mut i = 0;
        while i < chars.len() {
            utf16.push(unit);
            unit += chars[i].len_utf16();
            match chars[i] {
                '\r' if chars.get(i + 1) == Some(&'\n') => {
                    utf16.push(unit);
                    unit += 1;
                    i += 1;
                    starts.push(i + 1);
                }
                '\r' | '\n' | '\u{2028}' | '\u{2029}' => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        utf16.push(unit);
        LineMap { starts, utf16 }
    }

    /// The char index of a 1-based (line, column-in-code-points) position, clamped.
    pub fn char_index(&self, line: u32, column: u32) -> usize {
        let line = (line.max(1) as usize - 1).min(self.starts.len() - 1);
        let index = self.starts[line] + (column.max(1) as usize - 1);
        index.min(self.utf16.len() - 1)
    }

    /// The UTF-16 offset of a 1-based (line, column-in-code-points) position, clamped.
    pub fn offset(&self, position: Position) -> usize {
        self.utf16[self.char_index(position.line_number(), position.column_number())]
    }

    /// How many lines the code has, as boa counts them.
    pub fn lines(&self) -> usize {
        self.starts.len()
    }

    /// The UTF-16 offset in the code of a position in the wrapped text
    /// (`WRAP_BEFORE + code + WRAP_AFTER`), clamped to the code.
    pub fn wrapped_offset(&self, position: Position) -> usize {
        match position.line_number() {
            0 | 1 => 0,
            line if line as usize - 1 > self.lines() => self.end(),
            line => self.utf16[self.char_index(line - 1, position.column_number())],
        }
    }

    /// The UTF-16 length of the code.
    pub fn end(&self) -> usize {
        *self.utf16.last().unwrap_or(&0)
    }
}

/// A parse error's message without boa's " at line L, col C" suffix, and where it is.
pub fn describe(error: &ParseError) -> (String, Option<Position>) {
    match error {
        ParseError::Expected { expected, found, span, context } => {
            let wanted = match &expected[..] {
                [one] => format!("'{one}'"),
                many => many.iter().map(|t| format!("'{t}'")).collect::<Vec<_>>().join(", "),
            };
            let message = if found.as_ref() == "export" {
                "Unexpected token 'export'".to_string()
            } else {
                format!("expected {wanted}, got '{found}' in {context}")
            };
            (message, Some(span.start()))
        }
        ParseError::Unexpected { message, found, span } => {
            let message = if found.as_ref() == "export" {
                "Unexpected token 'export'".to_string()
            } else if message.is_empty() {
                format!("unexpected token '{found}'")
            } else {
                format!("unexpected token '{found}', {message}")
            };
            (message, Some(span.start()))
        }
        ParseError::AbruptEnd => ("unexpected end of input".into(), None),
        ParseError::Lex { err: boa_engine::parser::lexer::Error::Syntax(message, position) } => (message.to_string(), Some(*position)),
        ParseError::Lex { err } => (err.to_string(), None),
        ParseError::ScopeAnalysis { err } => ((*err).to_string(), None),
        ParseError::General { message, position } => (message.to_string(), Some(*position)),
    }
}

/// The run evaluates the code inside this wrapper (a script); the code starts on line 2,
/// column 1.
pub const WRAP_BEFORE: &str = "(async function () {\n";
pub const WRAP_AFTER: &str = "\n})";

/// The message for a `}` that closes the function the code runs in.
pub const STRAY_CLOSE: &str = "Unexpected token '}'";

/// At most this many `import` uses are neutralized one by one (one parse each); past it, the
/// rest are neutralized in one go and parsed once more (see [`findings`]).
pub const MAX_IMPORT_PASSES: usize = 16;

/// How the wrapped code parses as a script.
#[derive(Debug)]
pub enum Wrapped {
    /// One statement, the wrapper's async function expression, whose body ends at the
    /// wrapper's own `}`: the code cannot reach outside the function.
    Sound,
    /// The script does not parse (positions are in the wrapped text).
    Broken(ParseError),
    /// It parses, but as something else: the code closed the wrapper's function.
    Escapes,
}

/// Parse `WRAP_BEFORE + code + WRAP_AFTER` as a script and check its shape. The run
/// evaluates that text only after this says [`Wrapped::Sound`].
pub fn wrapped(code: &str) -> Wrapped {
    use boa_engine::ast::scope::Scope;
    use boa_engine::ast::{Statement, StatementListItem};
    let text = format!("{WRAP_BEFORE}{code}{WRAP_AFTER}");
    let mut interner = Interner::default();
    let mut parser = Parser::new(Source::from_bytes(text.as_str()));
    let script = match parser.parse_script(&Scope::new_global(), &mut interner) {
        Ok(script) => script,
        Err(error) => return Wrapped::Broken(error),
    };
    // The wrapper's final `}` starts the text's last line (as boa counts lines).
    let last_line = u32::try_from(LineMap::new(&text).lines()).unwrap_or(u32::MAX);
    let sound = match script.statements().statements() {
        [StatementListItem::Statement(statement)] => match statement.as_ref() {
            Statement::Expression(Expression::Parenthesized(p)) => match p.expression() {
                Expression::AsyncFunctionExpression(f) => f.body().span().end() == Position::new(last_line, 2),
                _ => false,
            },
            _ => false,
        },
        _ => false,
    };
    if sound {
        Wrapped::Sound
    } else {
        Wrapped::Escapes
    }
}

/// Where a function-body parse of `code` stopped at an unmatched `}` (boa's
/// `parse_function_body` stops there without an error and ignores the rest), as a boa
/// position in the code.
pub fn stray_close(code: &str) -> Option<Position> {
    let mut interner = Interner::default();
    let mut parser = Parser::new(Source::from_bytes(code));
    let body = parser.parse_function_body(&mut interner, false, true).ok()?;
    let map = LineMap::new(code);
    let chars: Vec<char> = code.chars().collect();
    let end = body.span().end();
    close_before(&map, &chars, end)?;
    Some(Position::new(end.line_number(), end.column_number() - 1))
}

/// The char index of the `}` a body parse stopped at: boa's body span ends after the token
/// that stopped the statement list (a `}`), or after the first token of the last statement
/// at the end of the input (which never ends in `}`).
fn close_before(map: &LineMap, chars: &[char], end: Position) -> Option<usize> {
    let index = map.char_index(end.line_number(), end.column_number());
    let at = index.checked_sub(1)?;
    (end.column_number() > 1 && chars.get(at) == Some(&'}')).then_some(at)
}

/// Parse `code` as an async function body and report what it holds.
///
/// A body that parses is also checked as the run will use it ([`wrapped`]): a `}` that
/// closes the wrapper is a syntax error at that `}`.
///
/// Import declarations and `import.meta` are neutralized one parse at a time, at most
/// [`MAX_IMPORT_PASSES`] times. Past that cap, every remaining `import` that looks like one
/// of them is neutralized textually in one go (uses found that way are not reported: the
/// ones found so far already refuse the code) and the copy is parsed once more, so a
/// syntax error after the cap is still found and still wins over module access. If that
/// last parse stops at yet another import use, it is recorded and no syntax error is
/// reported (module access is then the verdict).
pub fn findings(code: &str) -> Findings {
    let map = LineMap::new(code);
    let mut chars: Vec<char> = code.chars().collect();
    let mut uses = Vec::new();
    let mut passes = 0;
    let mut capped = false;
    loop {
        let text: String = chars.iter().collect();
        let mut interner = Interner::default();
        let mut parser = Parser::new(Source::from_bytes(text.as_str()));
        match parser.parse_function_body(&mut interner, false, true) {
            Ok(body) => {
                let require = interner.get("require");
                let mut walker = Walker { map: &map, require, uses: Vec::new() };
                let _ = body.visit_with(&mut walker);
                uses.extend(walker.uses);
                uses.sort_by_key(|u| u.1);
                let syntax_error = match wrapped(&text) {
                    Wrapped::Sound => None,
                    problem => Some(match close_before(&map, &chars, body.span().end()) {
                        Some(at) => (STRAY_CLOSE.to_string(), map.utf16[at]),
                        None => match problem {
                            Wrapped::Broken(error) => {
                                let (message, position) = describe(&error);
                                (message, position.map_or(map.end(), |p| map.wrapped_offset(p)))
                            }
                            _ => (STRAY_CLOSE.to_string(), map.end()),
                        },
                    }),
                };
                return Findings { syntax_error, uses };
            }
            Err(error) => {
                let (message, position) = describe(&error);
                if let Some(position) = position {
                    let at = map.char_index(position.line_number(), position.column_number());
                    if let Some((kind, start)) = neutralize_import(&mut chars, at) {
                        uses.push((kind, map.utf16[start]));
                        if passes < MAX_IMPORT_PASSES {
                            passes += 1;
                            continue;
                        }
                        if !capped {
                            capped = true;
                            neutralize_all_imports(&mut chars);
                            continue;
                        }
                        uses.sort_by_key(|u| u.1);
                        return Findings { syntax_error: None, uses };
                    }
                }
                let offset = position.map_or(map.end(), |p| map.offset(p));
                uses.sort_by_key(|u| u.1);
                return Findings { syntax_error: Some((message, offset)), uses };
            }
        }
    }
}

/// Neutralize, textually, every `import` keyword that reads as an import declaration or
/// `import.meta` (strings and comments are not told apart: blanking inside them keeps
/// them what they were).
fn neutralize_all_imports(chars: &mut [char]) {
    let mut i = 0;
    while i + 6 <= chars.len() {
        if chars[i] == 'i'
            && chars[i..i + 6].iter().copied().eq("import".chars())
            && (i == 0 || !(is_id_char(chars[i - 1]) || chars[i - 1] == '.'))
            && chars.get(i + 6).is_none_or(|c| !is_id_char(*c))
        {
            let _ = neutralize_import(chars, i);
        }
        i += 1;
    }
}

/// Records `import(...)`, `require(...)`, ``require`...` `` and `import.meta` (the last only
/// if a parse ever accepts it).
struct Walker<'a> {
    map: &'a LineMap,
    require: Option<boa_engine::interner::Sym>,
    uses: Vec<(&'static str, usize)>,
}

impl Walker<'_> {
    /// Where the callee `require` starts, if it is that identifier (a call's own span
    /// starts at its arguments in boa).
    fn require_at(&self, callee: &Expression) -> Option<usize> {
        match callee {
            Expression::Identifier(id) if Some(id.sym()) == self.require => Some(self.map.offset(id.span().start())),
            _ => None,
        }
    }
}

impl<'ast> Visitor<'ast> for Walker<'_> {
    type BreakTy = ();

    fn visit_import_call(&mut self, node: &'ast ImportCall) -> ControlFlow<()> {
        self.uses.push(("dynamic_import", self.map.offset(node.span().start())));
        node.visit_with(self)
    }

    fn visit_import_meta(&mut self, node: &'ast ImportMeta) -> ControlFlow<()> {
        self.uses.push(("import_meta", self.map.offset(node.span().start())));
        node.visit_with(self)
    }

    fn visit_call(&mut self, node: &'ast Call) -> ControlFlow<()> {
        if let Some(at) = self.require_at(node.function()) {
            self.uses.push(("require_call", at));
        }
        node.visit_with(self)
    }

    fn visit_tagged_template(&mut self, node: &'ast TaggedTemplate) -> ControlFlow<()> {
        if let Some(at) = self.require_at(node.tag()) {
            self.uses.push(("require_call", at));
        }
        node.visit_with(self)
    }
}

// ---- neutralizing import declarations and import.meta ------------------------------

fn is_id_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$' || c == '\u{200c}' || c == '\u{200d}'
}

/// Skip whitespace, line terminators and comments from `i`.
fn skip_trivia(chars: &[char], mut i: usize) -> usize {
    loop {
        match chars.get(i) {
            Some(c) if c.is_whitespace() || *c == '\u{feff}' => i += 1,
            Some('/') if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && !matches!(chars[i], '\n' | '\r' | '\u{2028}' | '\u{2029}') {
                    i += 1;
                }
            }
            Some('/') if chars.get(i + 1) == Some(&'*') => {
                i += 2;
                while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                    i += 1;
                }
                i = (i + 2).min(chars.len());
            }
            _ => return i,
        }
    }
}

/// Skip whitespace and comments backwards from just before `i`; returns the index one past
/// the previous significant char. Line comments cannot be recognized backwards: a `//` on
/// the way makes this give up (`None`).
fn skip_trivia_back(chars: &[char], mut i: usize) -> Option<usize> {
    loop {
        if i == 0 {
            return Some(0);
        }
        let c = chars[i - 1];
        if c.is_whitespace() || c == '\u{feff}' {
            i -= 1;
        } else if c == '/' && i >= 2 && chars[i - 2] == '*' {
            let mut j = i - 2;
            loop {
                if j < 2 {
                    return None;
                }
                if chars[j - 2] == '/' && chars[j - 1] == '*' {
                    break;
                }
                j -= 1;
            }
            i = j - 2;
        } else {
            return Some(i);
        }
    }
}

/// Is there an `import` keyword ending at `end` (exclusive)?
fn import_keyword_before(chars: &[char], end: usize) -> Option<usize> {
    let start = end.checked_sub(6)?;
    let word: String = chars[start..end].iter().collect();
    if word != "import" || (start > 0 && (is_id_char(chars[start - 1]) || chars[start - 1] == '.')) {
        return None;
    }
    Some(start)
}

/// Read one token of an import clause at `i` (after trivia): its kind and end.
fn clause_token(chars: &[char], i: usize) -> Option<(char, usize, String)> {
    let c = *chars.get(i)?;
    if c == '\'' || c == '"' {
        let mut j = i + 1;
        while j < chars.len() && chars[j] != c {
            if matches!(chars[j], '\n' | '\r') {
                return None;
            }
            j += if chars[j] == '\\' { 2 } else { 1 };
        }
        return (j < chars.len()).then(|| ('s', j + 1, String::new()));
    }
    if is_id_char(c) || c == '\\' {
        let mut j = i;
        while j < chars.len() && (is_id_char(chars[j]) || chars[j] == '\\') {
            j += 1;
        }
        return Some(('w', j, chars[i..j].iter().collect()));
    }
    matches!(c, '{' | '}' | ',' | '*' | ';' | ':').then(|| (c, i + 1, String::new()))
}

/// If the parse stopped at (or right after) an `import` that starts an import declaration
/// or `import.meta`, neutralize it in `chars` and say what it was and where it starts (char
/// index). Positions of everything else stay as they were.
fn neutralize_import(chars: &mut [char], at: usize) -> Option<(&'static str, usize)> {
    // The parse stops at `import` itself (import.meta outside a module) or at the token
    // after it (an import declaration read as the start of `import(` / `import.`).
    let start = import_keyword_before(chars, (at + 6).min(chars.len()))
        .filter(|s| *s == at)
        .or_else(|| import_keyword_before(chars, skip_trivia_back(chars, at)?))?;
    let after = skip_trivia(chars, start + 6);
    match chars.get(after) {
        Some('.') => {
            // `import.meta`: keep the member expression, make `import` an identifier.
            chars[start] = '$';
            Some(("import_meta", start))
        }
        Some('(') | None => None,
        Some(_) => {
            let end = declaration_end(chars, after)?;
            for c in &mut chars[start..end] {
                if !matches!(*c, '\n' | '\r' | '\u{2028}' | '\u{2029}') {
                    *c = ' ';
                }
            }
            Some(("import_declaration", start))
        }
    }
}

/// The end of an import declaration whose clause starts at `i`: after the module
/// specifier, an optional `with { ... }` / `assert { ... }`, and an optional `;`.
fn declaration_end(chars: &[char], mut i: usize) -> Option<usize> {
    let mut previous_from = true; // the specifier may follow `import` directly
    let mut end;
    loop {
        let (kind, next, word) = clause_token(chars, i)?;
        if kind == 's' && previous_from {
            end = next;
            break;
        }
        previous_from = kind == 'w' && word == "from";
        i = skip_trivia(chars, next);
    }
    let j = skip_trivia(chars, end);
    if let Some(('w', next, word)) = clause_token(chars, j) {
        if word == "with" || word == "assert" {
            let k = skip_trivia(chars, next);
            if chars.get(k) == Some(&'{') {
                let close = (k..chars.len()).find(|&m| chars[m] == '}')?;
                end = close + 1;
            }
        }
    }
    let j = skip_trivia(chars, end);
    if chars.get(j) == Some(&';') {
        end = j + 1;
    }
    Some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses(code: &str) -> Vec<(&'static str, usize)> {
        let f = findings(code);
        assert_eq!(f.syntax_error, None, "{code}");
        f.uses
    }

    #[test]
    fn module_uses() {
        assert_eq!(uses("return 1"), vec![]);
        assert_eq!(uses("const fs = require('fs')"), vec![("require_call", 11)]);
        assert_eq!(uses("await import('fs')"), vec![("dynamic_import", 6)]);
        assert_eq!(uses("import /**/ ('fs')"), vec![("dynamic_import", 0)]);
        assert_eq!(uses("import\n('fs')"), vec![("dynamic_import", 0)]);
        assert_eq!(uses("import fs from 'fs'\nreturn fs"), vec![("import_declaration", 0)]);
        assert_eq!(uses("x;\nimport {a, b as c} from \"m\" with {type: 'json'};\nreturn a"), vec![("import_declaration", 3)]);
        assert_eq!(uses("import * as m from 'm'; import 'side'; return 1"), vec![("import_declaration", 0), ("import_declaration", 24)]);
        assert_eq!(uses("return import.meta.url"), vec![("import_meta", 7)]);
        assert_eq!(uses("if (x) { import d, {e} from 'f' }"), vec![("import_declaration", 9)]);
        assert_eq!(uses("require`x`; a.require('b')"), vec![("require_call", 0)]);
        assert_eq!(uses("let s = 'x';\u{2028}require('a')"), vec![("require_call", 13)]);
        assert_eq!(uses("'\u{1F600}'; require('a')"), vec![("require_call", 6)]);
        assert_eq!(uses("a;\r\nb;\rrequire('a')"), vec![("require_call", 7)]);
        let long = format!("'{}'; require('a')", "x".repeat(1000));
        assert_eq!(uses(&long), vec![("require_call", 1004)]);
    }

    #[test]
    fn syntax_errors() {
        let f = findings("import fs from 'fs'\nconst x = ;");
        assert_eq!(f.uses, vec![("import_declaration", 0)]);
        assert_eq!(f.syntax_error.as_ref().map(|e| e.1), Some(30));
        let f = findings("return 1 +* 2");
        assert_eq!(f.syntax_error.as_ref().map(|e| e.1), Some(10), "{f:?}");
        let f = findings("let a = 1;\u{2028}\u{1F600}; let = ;");
        assert!(f.syntax_error.is_some());
        let f = findings("export const a = 1");
        assert_eq!(f.syntax_error, Some(("Unexpected token 'export'".into(), 0)));
        let f = findings("return (");
        assert_eq!(f.syntax_error.map(|e| e.1), Some(8));
    }

    fn stray(code: &str) -> Option<(String, usize)> {
        findings(code).syntax_error
    }

    #[test]
    fn closing_the_wrapper() {
        let close = |offset| Some((STRAY_CLOSE.to_string(), offset));
        assert_eq!(stray("return 1 }); throw new Error('gateway internal failure'); (function(){"), close(9));
        let f = findings("return 1 }); require('fs'); (async function(){ return 2");
        assert_eq!(f.syntax_error, close(9));
        assert_eq!(stray("}"), close(0));
        assert_eq!(stray("return 1 } //"), close(9));
        assert_eq!(stray("return 1 } /*"), close(9));
        assert_eq!(stray("return 1 })"), close(9));
        assert_eq!(stray("if (a) { b }\n}"), close(13));
        assert_eq!(stray("let a = 1;\u{2028}  }"), close(13));
        assert_eq!(stray("let a = '\u{1F600}';\u{2028}  } x"), close(16));
        assert_eq!(stray("import fs from 'fs'; }"), close(21));
        for fine in [
            "return '}'",
            "return \"})\"",
            "return `}${'}'}}`",
            "return /}/.test('}')",
            "// }\nreturn 1",
            "/* }) */ return 1",
            "return { a: {} }",
            "{}",
            "",
            "return 1 //",
            "return 1\r",
            "return 1\r\n",
            "return 1\u{2028}",
            "\u{2029}",
        ] {
            assert_eq!(findings(fine), Findings::default(), "{fine}");
            assert!(matches!(wrapped(fine), Wrapped::Sound), "{fine}");
        }
        assert!(matches!(wrapped("return 1 }); (async function () {"), Wrapped::Escapes));
        assert!(matches!(wrapped("return 1 } /*"), Wrapped::Broken(_)));
        assert_eq!(stray_close("x;\n  }"), Some(Position::new(2, 3)));
        assert_eq!(stray_close("return 1"), None);
        assert_eq!(stray_close("return '}'"), None);
        // A syntax error before the `}` is the one reported.
        assert_eq!(stray("return 1 +* 2 }); (function(){").map(|e| e.1), Some(10));
    }

    #[test]
    fn many_imports() {
        let code = format!("{}return 1", "import.meta;\n".repeat(2000));
        let t = std::time::Instant::now();
        let f = findings(&code);
        let took = t.elapsed();
        assert_eq!(f.syntax_error, None);
        assert_eq!(f.uses.len(), MAX_IMPORT_PASSES + 1, "{:?}", f.uses);
        assert_eq!(f.uses[0], ("import_meta", 0));
        assert_eq!(f.uses[MAX_IMPORT_PASSES], ("import_meta", 13 * MAX_IMPORT_PASSES));
        assert!(took < std::time::Duration::from_secs(3), "{took:?}");
        // A syntax error after the cap still wins.
        let code = format!("{}return 1 +* 2", "import fs from 'fs';\n".repeat(100));
        let f = findings(&code);
        assert_eq!(f.syntax_error.as_ref().map(|e| e.1), Some(21 * 100 + 10), "{f:?}");
        assert_eq!(f.uses.len(), MAX_IMPORT_PASSES + 1);
        let code = format!("{}}}", "import.meta;\n".repeat(100));
        assert_eq!(findings(&code).syntax_error, Some((STRAY_CLOSE.to_string(), 1300)));
        // Uses after the cap the parse never stopped at are not reported.
        let code = format!("{}return require('x')", "import 'm'\n".repeat(40));
        let f = findings(&code);
        assert_eq!(f.syntax_error, None);
        assert_eq!(f.uses.len(), MAX_IMPORT_PASSES + 2);
        assert_eq!(f.uses.last(), Some(&("require_call", 11 * 40 + 7)));
    }
}
