//! The model-readable texts of an error: the standalone message, the short cause and
//! argument problems, each one line of sanitized, redacted, capped text.

use crate::rules::arguments::{ArgumentProblem, MAX_ARGUMENT_TEXT};
use crate::rules::kinds::Kind;
use crate::text::{capped_str, one_line, CustomRules, Redactions, SafeText, SafeTextBuilder};
use crate::wire::{InvalidArgument, Origin, Recovery, SideEffects};

/// Longest `cause`, in UTF-16 code units.
pub(crate) const MAX_CAUSE: usize = 300;

/// An argument problem as one sanitized, redacted line each for path and problem. Cleaning
/// is idempotent, so problems cleaned twice come out the same.
pub(crate) fn clean_problem(p: &ArgumentProblem, custom: &CustomRules, counts: &mut Redactions) -> InvalidArgument {
    let problem = short_text(&p.problem, MAX_ARGUMENT_TEXT, custom, counts);
    InvalidArgument::new(short_text(&p.path, MAX_ARGUMENT_TEXT, custom, counts), problem)
}

/// One line of sanitized, redacted text, capped at `cap` units with an ellipsis.
pub(crate) fn short_text(text: &str, cap: usize, custom: &CustomRules, counts: &mut Redactions) -> SafeText {
    // Twice the cap leaves room for whitespace that collapses; `capped_text` reads a
    // redaction margin past that (more when redaction shrinks what it read), so a secret
    // straddling the cut is still seen whole.
    let (kept, truncated) = capped_str(text, cap * 2, custom, counts);
    one_line(&kept, cap, truncated, custom)
}

pub(crate) fn short_cause(text: &str, custom: &CustomRules, counts: &mut Redactions) -> Option<SafeText> {
    let s = short_text(text, MAX_CAUSE, custom, counts);
    (!s.is_empty()).then_some(s)
}

/// The standalone message: the tool, what happened, the guidance, the side-effect caveat
/// and a short cause. Built only from capped parts, so it stays small.
pub(crate) fn compose_message(
    tool: Option<&SafeText>,
    origin: Origin,
    kind: &SafeText,
    recovery: &Recovery,
    effects: SideEffects,
    cause: Option<&SafeText>,
    custom: &CustomRules,
) -> SafeText {
    // Built by appending, not with `format!`: every first call runs this, and the
    // formatting machinery is code V8 would compile for it (docs/PERFORMANCE-js.md).
    let mut message = SafeTextBuilder::with_capacity(512);
    match tool {
        Some(t) => message.literal("The call to ").safe(t),
        None => message.literal("The tool call"),
    };
    let what = match origin {
        Origin::UpstreamTransport if *kind == Kind::DecodeError.as_str() => {
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
    message.literal(" ").literal(what).literal(" (kind: ").safe(kind).literal("). ").safe(&recovery.guidance).literal(" ").literal(effects);
    if let Some(c) = cause {
        message.literal(" Cause: ").safe(c);
    }
    let message = message.finish();
    // A tool is cleaned a part at a time, so that no redaction swallows its `::`; in the
    // sentence the parts meet again, and a secret's name at the end of the first can take
    // the second for its value (`…"refreshToken": ::create_issue`), which a second reading
    // of the message would redact. A tool of a name's characters cannot; any other makes
    // the sentence cleaned again.
    // A `-` after anything but a letter or digit may start a flag (`--api-key`) that would
    // take the next word for its value.
    let plain = |t: &SafeText| {
        let bytes = t.as_bytes();
        bytes.iter().enumerate().all(|(i, &b)| {
            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':') || (b == b'-' && i > 0 && bytes[i - 1].is_ascii_alphanumeric())
        })
    };
    if tool.is_some_and(|t| !plain(t)) {
        crate::text::clean_whole(&message, custom, &mut Redactions::default())
    } else {
        message
    }
}
