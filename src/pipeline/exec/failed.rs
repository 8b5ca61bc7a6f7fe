//! A failed run as the exec surface shows it, fitted to the run's one output budget: the
//! run error, the guest error's stack and the console output together, so that a small
//! budget bounds what a failed run hands the model as it bounds a completed one.

use crate::json::write_string;
use crate::text::{clean_whole, cut_safe, CustomRules, Redactions, SafeText, SafeTextBuilder};
use crate::wire::RunError;

use super::fit_output;

/// The shortest message a fitted run error keeps, in UTF-16 units, however small the
/// budget: the error's fixed members and this much of its message are its floor.
///
/// ```
/// use codemode_errors::run::{classify_run, fit_failed, RunFailure, RunReport, MIN_MESSAGE_UNITS};
/// let failure = RunFailure::Internal { message: "z".repeat(2000) };
/// let fitted = fit_failed(classify_run(&RunReport::new(failure, false)), "", "", 1); // no room at all
/// assert!(fitted.error.message.chars().count() >= MIN_MESSAGE_UNITS);
/// ```
pub const MIN_MESSAGE_UNITS: usize = 24;

/// What a cut message ends with.
const CUT: &str = "…";

/// A failed run fitted to its output budget: the run error, the stack of a guest error
/// and the console output, and whether any of them was cut.
///
/// ```
/// use codemode_errors::run::{classify_run, fit_failed, RunFailure, RunReport};
/// let error = classify_run(&RunReport::new(RunFailure::GuestException { name: "Error".into(), message: "boom".into() }, false));
/// let run = fit_failed(error, "", "step 1\n", 4096);
/// assert_eq!((run.output.as_str(), run.stack, run.truncated), ("step 1\n", None, false));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct FailedRun {
    /// The run error; its message may be cut and its `toolError` left out to fit.
    pub error: RunError,
    /// The guest error's frames in the submitted source, when there are any and they fit.
    pub stack: Option<SafeText>,
    /// The console output, sanitized, redacted and cut to what the rest leaves.
    pub output: SafeText,
    /// Whether anything was cut or left out.
    pub truncated: bool,
}

impl FailedRun {
    /// The failed run as compact JSON: `{"status":"failed", <the run error's members>,
    /// "stack"?, "output", "truncated"?}`.
    ///
    /// ```
    /// use codemode_errors::run::{classify_run, fit_failed, RunFailure, RunReport};
    /// let error = classify_run(&RunReport::new(RunFailure::Aborted, false));
    /// let json = fit_failed(error, "", "", 4096).to_json();
    /// assert!(json.starts_with(r#"{"status":"failed","code":"aborted","#) && json.ends_with(r#""output":""}"#));
    /// ```
    pub fn to_json(&self) -> String {
        failed_json(&self.error, self.stack.as_deref(), &self.output, self.truncated)
    }
}

fn failed_json(error: &RunError, stack: Option<&str>, output: &str, truncated: bool) -> String {
    let members = error.to_json();
    let mut out = String::with_capacity(members.len() + output.len() + 64);
    out.push_str("{\"status\":\"failed\",");
    out.push_str(&members[1..members.len() - 1]);
    if let Some(stack) = stack {
        out.push_str(",\"stack\":");
        write_string(&mut out, stack);
    }
    out.push_str(",\"output\":");
    write_string(&mut out, output);
    if truncated {
        out.push_str(",\"truncated\":true");
    }
    out.push('}');
    out
}

/// The length of `text` as a JSON string, quotes included.
fn json_len(text: &str) -> usize {
    let mut out = String::with_capacity(text.len() + 2);
    write_string(&mut out, text);
    out.len()
}

/// The longest cut of `text` (by `cut`, given a budget in units) whose JSON string takes
/// at most `room` bytes, or `None` when not even an empty one fits.
fn longest_within(room: usize, mut cut: impl FnMut(usize) -> SafeText) -> Option<SafeText> {
    let mut units = room;
    for _ in 0..16 {
        let text = cut(units);
        let len = json_len(&text);
        if len <= room {
            return Some(text);
        }
        if units == 0 {
            return None;
        }
        units = units.saturating_sub((len - room).max(1));
    }
    let text = cut(0);
    (json_len(&text) <= room).then_some(text)
}

/// Fit a failed run to `max_bytes`, counted as [`FailedRun::to_json`] writes it. What
/// matters most is kept first: the error's fixed members (code, phase, the dispatch and
/// replay facts, a syntax error's position), then its message (cut, ending in `…`, never
/// below [`MIN_MESSAGE_UNITS`]), then the uncaught tool error (whole, or left out), then the
/// stack (whole lines), and the output gets what is left (cut, ending in
/// `…[output truncated]`). The stack and output are cleaned like evidence.
///
/// ```
/// use codemode_errors::run::{classify_run, fit_failed, RunFailure, RunReport};
/// let failure = RunFailure::GuestException { name: "Error".into(), message: "y".repeat(5000) };
/// let error = classify_run(&RunReport::new(failure, false));
/// let fitted = fit_failed(error, "Error: yyy\n    at agent:user.js:2:7", &"x".repeat(1000), 300);
/// assert!(fitted.to_json().len() <= 300 && fitted.truncated);
/// ```
pub fn fit_failed(error: RunError, stack: &str, output: &str, max_bytes: usize) -> FailedRun {
    let mut counts = Redactions::default();
    let stack = (!stack.is_empty()).then(|| clean_whole(stack, CustomRules::none(), &mut counts));
    let output_clean = clean_whole(output, CustomRules::none(), &mut counts);
    let whole = failed_json(&error, stack.as_deref(), &output_clean, false);
    if whole.len() <= max_bytes {
        return FailedRun { error, stack, output: output_clean, truncated: false };
    }

    let mut error = error;
    let message = std::mem::take(&mut error.message);
    let tool_error = error.tool_error.take();
    // The floor: every fixed member, an empty message and output, and the truncated flag.
    let floor = failed_json(&error, None, "", true).len();
    let mut room = max_bytes.saturating_sub(floor);

    let message_len = json_len(&message) - 2;
    error.message = if message_len <= room {
        message
    } else {
        let cut = |units: usize| {
            let mut b = SafeTextBuilder::with_capacity(units + CUT.len());
            b.safe(&cut_safe(&message, units.max(MIN_MESSAGE_UNITS), CustomRules::none())).literal(CUT);
            b.finish()
        };
        // Two quotes are already in the floor.
        longest_within(room + 2, |units| cut(units.saturating_sub(CUT.len()))).unwrap_or_else(|| cut(MIN_MESSAGE_UNITS))
    };
    room = room.saturating_sub(json_len(&error.message) - 2);

    if let Some(tool_error) = tool_error {
        let len = ",\"toolError\":".len() + tool_error.to_json().len();
        if len <= room {
            room -= len;
            error.tool_error = Some(tool_error);
        }
    }

    let stack = stack.and_then(|stack| {
        let key = ",\"stack\":".len();
        let mut kept = String::new();
        for line in stack.split('\n') {
            let next = if kept.is_empty() { line.to_owned() } else { format!("{kept}\n{line}") };
            if key + json_len(&next) > room {
                break;
            }
            kept = next;
        }
        if kept.is_empty() {
            return None;
        }
        room -= key + json_len(&kept);
        // Whole lines of a text the pipeline made: cutting at a line boundary keeps it safe.
        Some(cut_safe(&stack, kept.encode_utf16().count(), CustomRules::none()))
    });

    // The output's two quotes are already in the floor.
    let output = longest_within(room + 2, |budget| fit_output(&output_clean, budget).0).unwrap_or_default();
    FailedRun { error, stack, output, truncated: true }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{RunFailure, RunReport};
    use crate::pipeline::run::classify_run;

    fn guest(message: &str) -> RunError {
        classify_run(&RunReport::new(RunFailure::GuestException { name: "Error".into(), message: message.into() }, true))
    }

    #[test]
    fn a_failed_run_fits_its_budget_with_the_message_first() {
        let stack = "Error: yyy\n    at deep (agent:user.js:2:9)\n    at deep (agent:user.js:3:10)";
        let whole = fit_failed(guest(&"y".repeat(5000)), stack, &"x".repeat(1000), usize::MAX).to_json().len();
        for budget in [200, 300, 400, 1000, 3000] {
            let fitted = fit_failed(guest(&"y".repeat(5000)), stack, &"x".repeat(1000), budget);
            let json = fitted.to_json();
            assert!(json.len() <= budget, "{budget}: {} bytes: {json}", json.len());
            assert_eq!(fitted.truncated, whole > budget, "{budget}");
            assert!(fitted.error.message.starts_with("the code threw Error: yyy"), "{json}");
            assert!(crate::json::parse_json(&json).is_ok(), "{json}");
        }
        // What fits is left alone.
        let fitted = fit_failed(guest("boom"), stack, "hello\n", 4096);
        assert_eq!((fitted.truncated, fitted.output.as_str(), fitted.stack.as_deref()), (false, "hello\n", Some(stack)));
        // Below the floor, the fixed members and a short message are still there.
        let fitted = fit_failed(guest(&"y".repeat(500)), "", "out", 10);
        assert!(fitted.error.message.chars().count() >= MIN_MESSAGE_UNITS && fitted.output.is_empty(), "{:?}", fitted);
    }

    #[test]
    fn the_output_is_cleaned_and_counted_as_json() {
        let fitted = fit_failed(guest("m"), "", &"\"\n".repeat(400), 300);
        assert!(fitted.to_json().len() <= 300 && fitted.output.ends_with("…[output truncated]"), "{}", fitted.to_json());
        let fitted = fit_failed(guest("m"), "", "token=ghp_abcdefghijklmnopqrstuvwxyz0123456789", 4096);
        assert!(!fitted.output.contains("ghp_"), "{}", fitted.output);
    }
}
