//! The model-readable texts of an error: the standalone message, the short cause and
//! argument problems, each one line of sanitized, redacted, capped text.

use crate::json::{utf16_len, utf16_prefix, JsonText};
use crate::rules::arguments::MAX_ARGUMENT_TEXT;
use crate::rules::kinds::Kind;
use crate::text::{capped_text, without_open_marker, Redactions, REDACTION_MARGIN};
use crate::wire::{InvalidArgument, Origin, Recovery, SideEffects};

/// Longest `cause`, in UTF-16 code units.
pub(crate) const MAX_CAUSE: usize = 300;

/// The problem text used when sanitizing leaves nothing.
pub(crate) const PLACEHOLDER_PROBLEM: &str = "invalid value";

/// An argument problem as one sanitized, redacted line each for path and problem. Cleaning
/// is idempotent, so problems cleaned twice come out the same.
pub(crate) fn clean_problem(p: &InvalidArgument, counts: &mut Redactions) -> InvalidArgument {
    let problem = short_text(&p.problem, MAX_ARGUMENT_TEXT, counts);
    InvalidArgument::new(
        short_text(&p.path, MAX_ARGUMENT_TEXT, counts),
        if problem.is_empty() { PLACEHOLDER_PROBLEM.to_owned() } else { problem },
    )
}

/// One line of sanitized, redacted text, capped at `cap` units with an ellipsis.
pub(crate) fn short_text(text: &str, cap: usize, counts: &mut Redactions) -> String {
    // Twice the cap leaves room for whitespace that collapses; `capped_text` reads a
    // redaction margin past that, so a secret straddling the cut is still seen whole.
    let window = JsonText::from_head(utf16_prefix(text, cap * 2 + REDACTION_MARGIN), utf16_len(text));
    let c = capped_text(&window, cap * 2, counts);
    one_line(&c.text, cap, c.truncated)
}

/// Collapse whitespace to single spaces and cap at `cap` units, ending in `…` when cut.
/// Reads only as far as the cap.
pub(crate) fn one_line(text: &str, cap: usize, truncated: bool) -> String {
    let mut out = String::with_capacity(cap.min(text.len()) + 4);
    let mut units = 0;
    let mut pending_space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            pending_space = !out.is_empty();
            continue;
        }
        let needed = c.len_utf16() + usize::from(pending_space);
        if units + needed > cap.saturating_sub(1) {
            let cut = without_open_marker(&out).len();
            out.truncate(cut);
            out.push('…');
            return out;
        }
        if pending_space {
            out.push(' ');
            pending_space = false;
        }
        out.push(c);
        units += needed;
    }
    if truncated {
        out.push('…');
    }
    out
}

pub(crate) fn short_cause(text: &str, counts: &mut Redactions) -> Option<String> {
    let s = short_text(text, MAX_CAUSE, counts);
    (!s.is_empty()).then_some(s)
}

/// The standalone message: the tool, what happened, the guidance, the side-effect caveat
/// and a short cause. Built only from capped parts, so it stays small.
pub(crate) fn compose_message(
    tool: Option<&str>,
    origin: Origin,
    kind: &str,
    recovery: &Recovery,
    effects: SideEffects,
    cause: Option<&str>,
) -> String {
    // Built with `push_str`, not `format!`: every first call runs this, and the formatting
    // machinery is code V8 would compile for it (docs/PERFORMANCE-js.md).
    let mut message = String::with_capacity(512);
    match tool {
        Some(t) => {
            message.push_str("The call to ");
            message.push_str(t);
        }
        None => message.push_str("The tool call"),
    }
    let what = match origin {
        Origin::UpstreamTransport if kind == Kind::DecodeError.as_str() => {
            "did not complete: the upstream server's response could not be read as a valid result (a transport failure, not a tool error)"
        }
        Origin::ToolExecution => "reached the tool, which reported a failure (a tool execution error, not a transport failure)",
        Origin::UpstreamTransport => "did not complete: no result arrived from the upstream server (a transport failure, not a tool error)",
        Origin::Validation => "was rejected because its arguments are invalid; the tool did not run",
        Origin::Policy => "was blocked by gateway policy before it ran",
        Origin::Budget => "was blocked by a code-mode budget or size limit before it ran",
        Origin::CodeMode => "failed in the code-mode sandbox or broker",
    };
    let effects = match effects {
        SideEffects::NoneExpected => "No side effects are expected.",
        SideEffects::Possible => "It may have partially completed: check its effects before repeating anything that changes state.",
        SideEffects::Unknown => "Whether it changed anything is unknown: check before repeating anything that changes state.",
    };
    for part in [" ", what, " (kind: ", kind, "). ", &recovery.guidance, " ", effects] {
        message.push_str(part);
    }
    if let Some(c) = cause {
        message.push_str(" Cause: ");
        message.push_str(c);
    }
    message
}
