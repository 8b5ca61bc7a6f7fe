//! Source preparation from what a JavaScript parser found: the syntax error where the
//! parser stopped, and the uses of the module system in the syntax tree. The parser runs
//! on the executor's side (the npm package uses acorn); which uses are refused, in what
//! order the checks apply and where a position is in the submitted source are decided
//! here, so every executor that has a parser reports the same failure.
//!
//! Positions cross as offsets in UTF-16 code units from the start of the submitted source
//! (what a JavaScript string index is) and are placed here: lines end at each JavaScript
//! line terminator (LF, CR, CR LF as one, U+2028, U+2029), and columns count characters
//! (Unicode scalar values), one-based.

use crate::input::RunFailure;

wire_enum! {
    /// A use of the module system a parser found in a source's syntax tree.
    ///
    /// ```
    /// use codemode_errors::run::{check_source, ModuleUse, ModuleUseKind, RunFailure};
    /// let kind = ModuleUseKind::from_wire("require_call").unwrap();
    /// let refused = check_source("const fs = require('fs')", None, &[ModuleUse { kind, offset: 11 }]).unwrap();
    /// assert!(matches!(refused, RunFailure::InvalidRequest { message } if message.contains("`require` at line 1, column 12")));
    /// ```
    pub ModuleUseKind {
        /// A static `import … from '…'` declaration.
        ImportDeclaration = "import_declaration",
        /// A dynamic `import(…)`, whatever the spacing, line breaks or comments around it.
        DynamicImport = "dynamic_import",
        /// The `import.meta` meta-property.
        ImportMeta = "import_meta",
        /// A call (or tagged template) whose callee is the identifier `require`.
        RequireCall = "require_call",
    }
}

/// One use of the module system: its kind and where it starts.
///
/// ```
/// use codemode_errors::run::{check_source, ModuleUse, ModuleUseKind, RunFailure};
/// let source = "const a = 1;\nconst m = await import('x');";
/// let uses = [ModuleUse { kind: ModuleUseKind::DynamicImport, offset: 23 }];
/// let refused = check_source(source, None, &uses).unwrap();
/// assert!(matches!(refused, RunFailure::InvalidRequest { message } if message.contains("line 2, column 11")));
/// assert_eq!(check_source("return 1", None, &[]), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModuleUse {
    /// What the parser found.
    pub kind: ModuleUseKind,
    /// Where it starts, in UTF-16 code units from the start of the submitted source.
    pub offset: usize,
}

impl ModuleUseKind {
    /// How a refusal names the use.
    fn spelled(self) -> &'static str {
        match self {
            ModuleUseKind::ImportDeclaration => "`import` declaration",
            ModuleUseKind::DynamicImport => "`import`",
            ModuleUseKind::ImportMeta => "`import.meta`",
            ModuleUseKind::RequireCall => "`require`",
        }
    }
}

/// A parser's verdict on a source, checked in the contract's order: a syntax error (where
/// the parser stopped, with its message) is reported before module access; then the first
/// use of the module system, by position, refuses the source. `None` when the source may
/// run. Every kind of [`ModuleUseKind`] is refused: code mode reaches tools through
/// `codemode` only.
///
/// ```
/// use codemode_errors::run::{check_source, ModuleUse, ModuleUseKind, RunFailure};
/// let source = "import fs from 'node:fs';\nconst x = ;";
/// let uses = [ModuleUse { kind: ModuleUseKind::ImportDeclaration, offset: 0 }];
/// let failure = check_source(source, Some(("Unexpected token", 36)), &uses).unwrap();
/// assert_eq!(failure, RunFailure::SyntaxError { message: "Unexpected token".into(), line: 2, column: 11 });
/// assert!(matches!(check_source(source, None, &uses), Some(RunFailure::InvalidRequest { .. })));
/// ```
pub fn check_source(source: &str, syntax_error: Option<(&str, usize)>, uses: &[ModuleUse]) -> Option<RunFailure> {
    if let Some((message, offset)) = syntax_error {
        let (line, column) = source_position(source, offset);
        return Some(RunFailure::SyntaxError { message: message.to_owned(), line, column });
    }
    let first = uses.iter().min_by_key(|u| u.offset)?;
    let (line, column) = source_position(source, first.offset);
    Some(RunFailure::InvalidRequest {
        message: format!(
            "module access is not available in code mode: {} at line {line}, column {column}; call tools through `codemode` instead",
            first.kind.spelled()
        ),
    })
}

/// The one-based line and column of the UTF-16 offset `offset` in `source`; an offset past
/// the end is the end (after the last character).
///
/// ```
/// use codemode_errors::run::source_position;
/// assert_eq!(source_position("a;\u{2028}b = ;", 7), (2, 5));
/// assert_eq!(source_position("a;\r\nb", 4), (2, 1));
/// assert_eq!(source_position("😀x", 2), (1, 2));
/// ```
pub fn source_position(source: &str, offset: usize) -> (u32, u32) {
    let (mut line, mut column, mut units) = (1u32, 1u32, 0usize);
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        if units >= offset {
            break;
        }
        units += c.len_utf16();
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                    units += 1;
                }
                line = line.saturating_add(1);
                column = 1;
            }
            '\n' | '\u{2028}' | '\u{2029}' => {
                line = line.saturating_add(1);
                column = 1;
            }
            _ => column = column.saturating_add(1),
        }
    }
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_follow_javascript_line_terminators_and_count_characters() {
        let long = format!("const x = \"{}\" + ;", "a".repeat(985));
        // The `;` is the 1001st character of the line.
        assert_eq!(source_position(&long, long.len() - 1), (1, 1001));
        for (source, at) in
            [("a=1;\u{2028}b = ;", 10), ("a=1;\u{2029}b = ;", 10), ("a=1;\rb = ;", 10), ("a=1;\r\nb = ;", 11), ("a=1;\nb = ;", 10)]
        {
            assert_eq!(source_position(source, at), (2, 6), "{source:?}");
        }
        // An astral character is two UTF-16 units and one column.
        assert_eq!(source_position("'😀'; x", 5), (1, 5));
        assert_eq!(source_position("ab\ncd", 99), (2, 3));
        assert_eq!(source_position("", 0), (1, 1));
    }

    #[test]
    fn a_syntax_error_comes_before_module_access_and_the_first_use_is_named() {
        let uses =
            [ModuleUse { kind: ModuleUseKind::RequireCall, offset: 30 }, ModuleUse { kind: ModuleUseKind::DynamicImport, offset: 12 }];
        let source = "await null;\nimport /**/ ('fs');\nrequire('x')";
        match check_source(source, None, &uses) {
            Some(RunFailure::InvalidRequest { message }) => assert!(message.contains("`import` at line 2, column 1"), "{message}"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            check_source(source, Some(("Unexpected token", 3)), &uses),
            Some(RunFailure::SyntaxError { line: 1, column: 4, .. })
        ));
        assert_eq!(check_source("return 1", None, &[]), None);
        for (kind, named) in [
            (ModuleUseKind::ImportDeclaration, "`import` declaration at"),
            (ModuleUseKind::ImportMeta, "`import.meta` at"),
            (ModuleUseKind::RequireCall, "`require` at"),
        ] {
            let failure = check_source("x", None, &[ModuleUse { kind, offset: 0 }]);
            assert!(matches!(failure, Some(RunFailure::InvalidRequest { ref message }) if message.contains(named)), "{failure:?}");
        }
    }
}
