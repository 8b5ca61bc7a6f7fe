//! One executor step as data: which rule of [`exec`](super::exec) to apply and its
//! arguments, read from JSON, and what the rule answers, written as JSON. Every surface
//! (the CLI's `exec-step`, the host's engines, the component, the npm package) hands a
//! step to the same reader and prints the same answer, so the shared vectors check the
//! executor rules byte for byte everywhere.
//!
//! The step forms, each an object with a `step` member (booleans default to `false`,
//! `position` and `source_lines` may be left out):
//!
//! | `step` | members | answer |
//! | --- | --- | --- |
//! | `request` | `request` (the exec tool's arguments as sent) | `{"code","restartSafe"}`, or `{"failed": <run error>}` |
//! | `module_access` | `code`, `restart_safe` | `null`, or `{"failed": <run error>}` |
//! | `syntax_error` | `engine`, `message`, `stack`, `position` (`[line, column]`), `wrapping`, `source`, `restart_safe` | `{"failed": <run error>}` |
//! | `user_stack` | `engine`, `name`, `message`, `stack`, `wrapping`, `label` | the stack as a JSON string |
//! | `project_completed` | `output`, `value` (JSON text), `max_bytes`, `dispatched`, `restart_safe` | `{"output","value","truncated"}`, or `{"failed": <run error>}` |
//! | `fit_output` | `output`, `budget` | `{"output","truncated"}` |
//! | `source_check` | `source`, `syntax_error` (`{"message","offset"}` or `null`), `uses` (`[{"kind","offset"}]`), `restart_safe` | `null`, or `{"failed": <run error>}` |
//! | `failed_run` | `error` (a run error), `stack`, `output`, `max_bytes` | the failed run: `{"status":"failed", <run error>, "stack"?, "output", "truncated"?}` |
//!
//! A `wrapping` is `{"file", "lines_before", "columns_before", "source_lines"?}` (see
//! [`Wrapping`]). Offsets are UTF-16 code units from the start of the submitted source
//! (see [`check_source`]); a use's `kind` is a [`ModuleUseKind`].

use crate::error::{ErrorCode, ReportError};
use crate::input::RunFailure;
use crate::json::{exact_integer, parse_json, write_string, Json, JsonList};
use crate::pipeline::exec::{
    check_source, fit_failed, fit_output, module_access, project_completed, syntax_failure, user_stack, Engine, ExecRequest, FailedRun,
    ModuleUse, ModuleUseKind, Projection, Wrapping,
};
use crate::pipeline::run::end_at_step;
use crate::text::refusal;
use crate::text::SafeText;
use crate::text::{clean_whole, CustomRules, Redactions};
use crate::wire::RunError;
use crate::wire::{FailurePhase, RunErrorCode};

/// Largest byte budget a step may name (4 GiB).
const MAX_BUDGET: i64 = 1 << 32;

/// One executor step: a rule of the run layer and its arguments.
///
/// ```
/// use codemode_errors::run::ExecStep;
/// let step = ExecStep::from_json(r#"{"step":"module_access","code":"return require('fs')"}"#).unwrap();
/// assert!(step.answer().to_json().starts_with(r#"{"failed":{"code":"invalid_input""#));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ExecStep {
    /// Read the exec tool's arguments ([`ExecRequest::from_value`]).
    Request {
        /// The arguments as the model sent them.
        request: Json,
    },
    /// Refuse module access in a source ([`module_access`]).
    ModuleAccess {
        /// The submitted source.
        code: String,
        /// The request's `restartSafe`.
        restart_safe: bool,
    },
    /// Place an engine's syntax error in the submitted source ([`syntax_failure`]).
    SyntaxError {
        /// The engine that compiled the wrapped source.
        engine: Engine,
        /// The engine's message.
        message: String,
        /// The engine's stack text.
        stack: String,
        /// The engine's own one-based line and column, when it gives them.
        position: Option<(u32, u32)>,
        /// How the source was wrapped.
        wrapping: Wrapping,
        /// The submitted source.
        source: String,
        /// The request's `restartSafe`.
        restart_safe: bool,
    },
    /// A guest error's stack as the model reads it ([`user_stack`]).
    UserStack {
        /// The engine the guest ran in.
        engine: Engine,
        /// The error's name.
        name: String,
        /// The error's message.
        message: String,
        /// The engine's stack text.
        stack: String,
        /// How the source was wrapped.
        wrapping: Wrapping,
        /// The frame label.
        label: String,
    },
    /// Fit a completed run's output and value to one budget ([`project_completed`]).
    ProjectCompleted {
        /// The console output.
        output: String,
        /// The final value as JSON text.
        value: String,
        /// The output budget in bytes.
        max_bytes: usize,
        /// Whether a nested call was dispatched (the executor's record).
        dispatched: bool,
        /// The request's `restartSafe`.
        restart_safe: bool,
    },
    /// Cut console output to a budget ([`fit_output`]).
    FitOutput {
        /// The console output.
        output: String,
        /// The budget in bytes.
        budget: usize,
    },
    /// Check a source by what a parser found ([`check_source`]).
    SourceCheck {
        /// The submitted source.
        source: String,
        /// The parser's syntax error: its message and UTF-16 offset.
        syntax_error: Option<(String, usize)>,
        /// The uses of the module system in the syntax tree.
        uses: Vec<ModuleUse>,
        /// The request's `restartSafe`.
        restart_safe: bool,
    },
    /// Fit a failed run to its output budget ([`fit_failed`]).
    FailedRun {
        /// The run error (boxed: it is far larger than the other steps).
        error: Box<RunError>,
        /// The guest error's stack (empty when there is none).
        stack: String,
        /// The console output.
        output: String,
        /// The output budget in bytes.
        max_bytes: usize,
    },
}

/// What a step's rule answered.
///
/// ```
/// use codemode_errors::run::{ExecStep, StepAnswer};
/// let step = ExecStep::from_json(r#"{"step":"request","request":{"code":"return 1"}}"#).unwrap();
/// assert!(matches!(step.answer(), StepAnswer::Request(request) if request.code == "return 1"));
/// let step = ExecStep::from_json(r#"{"step":"module_access","code":"return 1"}"#).unwrap();
/// assert_eq!(step.answer(), StepAnswer::Allowed);
/// ```
// An answer lives for one call and is written out at once; boxing the run error would buy
// nothing but an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum StepAnswer {
    /// The request is valid.
    Request(ExecRequest),
    /// The run ends here, with this run error.
    Failed(RunError),
    /// The source does not reach for modules.
    Allowed,
    /// A guest error's stack.
    Stack(SafeText),
    /// A completed run's output and value.
    Projected(Projection),
    /// Console output cut to its budget, and whether it was cut.
    Fitted(SafeText, bool),
    /// A failed run fitted to its budget.
    FailedRun(FailedRun),
}

impl StepAnswer {
    /// The answer as compact JSON text (the forms in the module table).
    ///
    /// ```
    /// use codemode_errors::run::ExecStep;
    /// let step = ExecStep::from_json(r#"{"step":"fit_output","output":"hello","budget":100}"#).unwrap();
    /// assert_eq!(step.answer().to_json(), r#"{"output":"hello","truncated":false}"#);
    /// ```
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(128);
        match self {
            StepAnswer::Request(request) => {
                out.push_str("{\"code\":");
                write_string(&mut out, &request.code);
                out.push_str(if request.restart_safe { ",\"restartSafe\":true}" } else { ",\"restartSafe\":false}" });
            }
            StepAnswer::Failed(end) => {
                out.push_str("{\"failed\":");
                out.push_str(&end.to_json());
                out.push('}');
            }
            StepAnswer::Allowed => out.push_str("null"),
            StepAnswer::Stack(stack) => write_string(&mut out, stack),
            StepAnswer::Projected(p) => {
                out.push_str("{\"output\":");
                write_string(&mut out, &p.output);
                out.push_str(",\"value\":");
                out.push_str(&p.value);
                out.push_str(if p.truncated { ",\"truncated\":true}" } else { ",\"truncated\":false}" });
            }
            StepAnswer::Fitted(text, cut) => {
                out.push_str("{\"output\":");
                write_string(&mut out, text);
                out.push_str(if *cut { ",\"truncated\":true}" } else { ",\"truncated\":false}" });
            }
            StepAnswer::FailedRun(run) => out.push_str(&run.to_json()),
        }
        out
    }
}

/// The answer of a step at which the run ends.
fn ends(failure: RunFailure, dispatched: bool, restart_safe: bool) -> StepAnswer {
    StepAnswer::Failed(end_at_step(failure, dispatched, restart_safe))
}

impl ExecStep {
    /// Read a step from JSON text (the forms in the module table).
    ///
    /// ```
    /// use codemode_errors::run::ExecStep;
    /// let step = ExecStep::from_json(r#"{"step":"fit_output","output":"hi","budget":16}"#).unwrap();
    /// assert_eq!(step, ExecStep::FitOutput { output: "hi".into(), budget: 16 });
    /// assert_eq!(ExecStep::from_json(r#"{"step":"teleport"}"#).unwrap_err().path(), "step");
    /// ```
    pub fn from_json(text: &str) -> Result<ExecStep, ReportError> {
        Self::from_value(&parse_json(text)?)
    }

    /// Read a step from a bounded JSON value.
    ///
    /// ```
    /// use codemode_errors::{parse_json, run::ExecStep};
    /// let value = parse_json(r#"{"step":"module_access","code":"return 1","extra":true}"#).unwrap();
    /// assert_eq!(ExecStep::from_value(&value).unwrap_err().path(), "extra"); // unknown members are refused
    /// ```
    pub fn from_value(value: &Json) -> Result<ExecStep, ReportError> {
        let members = value.as_object().ok_or_else(|| invalid("", format!("an exec step is a JSON object, not {}", value.type_name())))?;
        let fields = Fields { members };
        let step = fields.string("step")?;
        let (read, allowed): (ExecStep, &[&str]) = match step.as_str() {
            "request" => {
                let request = fields.get("request").cloned().ok_or_else(|| invalid("request", "is required"))?;
                (ExecStep::Request { request }, &["request"])
            }
            "module_access" => (
                ExecStep::ModuleAccess { code: fields.string("code")?, restart_safe: fields.flag("restart_safe")? },
                &["code", "restart_safe"],
            ),
            "syntax_error" => (
                ExecStep::SyntaxError {
                    engine: fields.engine()?,
                    message: fields.string("message")?,
                    stack: fields.string("stack")?,
                    position: fields.position()?,
                    wrapping: fields.wrapping()?,
                    source: fields.string("source")?,
                    restart_safe: fields.flag("restart_safe")?,
                },
                &["engine", "message", "stack", "position", "wrapping", "source", "restart_safe"],
            ),
            "user_stack" => (
                ExecStep::UserStack {
                    engine: fields.engine()?,
                    name: fields.string("name")?,
                    message: fields.string("message")?,
                    stack: fields.string("stack")?,
                    wrapping: fields.wrapping()?,
                    label: fields.string("label")?,
                },
                &["engine", "name", "message", "stack", "wrapping", "label"],
            ),
            "project_completed" => (
                ExecStep::ProjectCompleted {
                    output: fields.string("output")?,
                    value: fields.string("value")?,
                    max_bytes: fields.bytes("max_bytes")?,
                    dispatched: fields.flag("dispatched")?,
                    restart_safe: fields.flag("restart_safe")?,
                },
                &["output", "value", "max_bytes", "dispatched", "restart_safe"],
            ),
            "fit_output" => {
                (ExecStep::FitOutput { output: fields.string("output")?, budget: fields.bytes("budget")? }, &["output", "budget"])
            }
            "source_check" => (
                ExecStep::SourceCheck {
                    source: fields.string("source")?,
                    syntax_error: fields.parser_error()?,
                    uses: fields.uses()?,
                    restart_safe: fields.flag("restart_safe")?,
                },
                &["source", "syntax_error", "uses", "restart_safe"],
            ),
            "failed_run" => (
                ExecStep::FailedRun {
                    error: Box::new(fields.run_error()?),
                    stack: if fields.get("stack").is_some() { fields.string("stack")? } else { String::new() },
                    output: fields.string("output")?,
                    max_bytes: fields.bytes("max_bytes")?,
                },
                &["error", "stack", "output", "max_bytes"],
            ),
            other => {
                return Err(invalid(
                    "step",
                    format!(
                        "unknown step {:?}: request, module_access, syntax_error, user_stack, project_completed, fit_output, source_check or failed_run",
                        crate::json::utf16_prefix(other, 64)
                    ),
                ))
            }
        };
        fields.only(allowed)?;
        Ok(read)
    }

    /// Apply the step's rule.
    ///
    /// ```
    /// use codemode_errors::run::{ExecStep, StepAnswer};
    /// let step = ExecStep::FitOutput { output: "x".repeat(100), budget: 40 };
    /// assert!(matches!(step.answer(), StepAnswer::Fitted(text, true) if text.ends_with("[output truncated]")));
    /// ```
    pub fn answer(&self) -> StepAnswer {
        match self {
            ExecStep::Request { request } => match ExecRequest::from_value(request) {
                Ok(request) => StepAnswer::Request(request),
                Err(failure) => ends(failure, false, false),
            },
            ExecStep::ModuleAccess { code, restart_safe } => match module_access(code) {
                Some(failure) => ends(failure, false, *restart_safe),
                None => StepAnswer::Allowed,
            },
            ExecStep::SyntaxError { engine, message, stack, position, wrapping, source, restart_safe } => {
                ends(syntax_failure(*engine, message, stack, *position, wrapping, source), false, *restart_safe)
            }
            ExecStep::UserStack { engine, name, message, stack, wrapping, label } => {
                StepAnswer::Stack(user_stack(*engine, name, message, stack, wrapping, label))
            }
            ExecStep::ProjectCompleted { output, value, max_bytes, dispatched, restart_safe } => {
                match project_completed(output, value, *max_bytes) {
                    Ok(projection) => StepAnswer::Projected(projection),
                    Err(failure) => ends(failure, *dispatched, *restart_safe),
                }
            }
            ExecStep::FitOutput { output, budget } => {
                let (text, cut) = fit_output(output, *budget);
                StepAnswer::Fitted(text, cut)
            }
            ExecStep::SourceCheck { source, syntax_error, uses, restart_safe } => {
                match check_source(source, syntax_error.as_ref().map(|(m, at)| (m.as_str(), *at)), uses) {
                    Some(failure) => ends(failure, false, *restart_safe),
                    None => StepAnswer::Allowed,
                }
            }
            ExecStep::FailedRun { error, stack, output, max_bytes } => {
                StepAnswer::FailedRun(fit_failed(RunError::clone(error), stack, output, *max_bytes))
            }
        }
    }
}

/// Read a step from JSON text and answer it, as compact JSON text.
///
/// ```
/// let answer = codemode_errors::run::exec_step_json(r#"{"step":"fit_output","output":"hello world","budget":100}"#).unwrap();
/// assert_eq!(answer, r#"{"output":"hello world","truncated":false}"#);
/// ```
pub fn exec_step_json(text: &str) -> Result<String, ReportError> {
    Ok(ExecStep::from_json(text)?.answer().to_json())
}

fn invalid(path: &str, message: impl Into<String>) -> ReportError {
    refusal(ErrorCode::InvalidReport, path, message)
}

/// A step's members, read by name.
pub(crate) struct Fields<'a> {
    members: &'a JsonList<(String, Json)>,
}

impl Fields<'_> {
    fn get(&self, key: &str) -> Option<&Json> {
        self.members.items().iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Refuse members the step does not take, and members past the kept ones.
    fn only(&self, allowed: &[&str]) -> Result<(), ReportError> {
        if self.members.dropped() > 0 {
            return Err(invalid("", "an exec step has too many members"));
        }
        match self.members.items().iter().find(|(k, _)| k != "step" && !allowed.contains(&k.as_str())) {
            Some((key, _)) => {
                Err(invalid(crate::json::utf16_prefix(key, 64), format!("is not a member of this step; it takes {}", allowed.join(", "))))
            }
            None => Ok(()),
        }
    }

    /// A required string, all of it.
    fn string(&self, key: &str) -> Result<String, ReportError> {
        match self.get(key) {
            Some(Json::String(text)) if text.is_complete() => Ok(text.head().to_owned()),
            Some(Json::String(text)) => {
                Err(invalid(key, format!("is {} UTF-16 units long, more than a step may hold", text.total_utf16())))
            }
            Some(other) => Err(invalid(key, format!("must be a string, not {}", other.type_name()))),
            None => Err(invalid(key, "is required")),
        }
    }

    /// A boolean, `false` when left out.
    fn flag(&self, key: &str) -> Result<bool, ReportError> {
        match self.get(key) {
            None => Ok(false),
            Some(v) => v.as_bool().ok_or_else(|| invalid(key, format!("must be true or false, not {}", v.type_name()))),
        }
    }

    /// A whole number from 0 to [`MAX_BUDGET`] at `key`, if there is one.
    fn whole_in_budget(&self, key: &str) -> Option<usize> {
        self.get(key)
            .and_then(Json::as_f64)
            .and_then(exact_integer)
            .filter(|n| (0..=MAX_BUDGET).contains(n))
            .and_then(|n| usize::try_from(n).ok())
    }

    /// A required byte count.
    fn bytes(&self, key: &str) -> Result<usize, ReportError> {
        self.whole_in_budget(key).ok_or_else(|| invalid(key, "must be a whole number of bytes from 0 to 2^32"))
    }

    fn engine(&self) -> Result<Engine, ReportError> {
        let name = self.string("engine")?;
        Engine::from_wire(&name).ok_or_else(|| invalid("engine", "must be v8, quickjs or spidermonkey"))
    }

    /// `[line, column]`, one-based, or left out.
    fn position(&self) -> Result<Option<(u32, u32)>, ReportError> {
        let pair = match self.get("position") {
            None | Some(Json::Null) => return Ok(None),
            Some(Json::Array(pair)) if pair.total() == 2 => pair.items(),
            Some(_) => return Err(invalid("position", "must be [line, column], one-based")),
        };
        match (one_based(&pair[0]), one_based(&pair[1])) {
            (Some(line), Some(column)) => Ok(Some((line, column))),
            _ => Err(invalid("position", "must be [line, column], one-based")),
        }
    }

    fn wrapping(&self) -> Result<Wrapping, ReportError> {
        let members = match self.get("wrapping") {
            Some(Json::Object(members)) => members,
            Some(other) => return Err(invalid("wrapping", format!("must be an object, not {}", other.type_name()))),
            None => return Err(invalid("wrapping", "is required")),
        };
        let inner = Fields { members };
        let count = |key: &str| -> Result<u32, ReportError> {
            inner
                .get(key)
                .and_then(Json::as_f64)
                .and_then(exact_integer)
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| invalid(&format!("wrapping.{key}"), "must be a whole number from 0"))
        };
        let file = inner.string("file").map_err(|e| e.within("wrapping"))?;
        let mut wrapping = Wrapping::new(&file, count("lines_before")?, count("columns_before")?);
        if inner.get("source_lines").is_some_and(|v| !matches!(v, Json::Null)) {
            wrapping = wrapping.with_source_lines(count("source_lines")?);
        }
        inner.only(&["file", "lines_before", "columns_before", "source_lines"]).map_err(|e| e.within("wrapping"))?;
        Ok(wrapping)
    }
}

impl Fields<'_> {
    /// A whole number of UTF-16 units, an offset into the source.
    fn offset_in(&self, key: &str, path: &str) -> Result<usize, ReportError> {
        self.whole_in_budget(key).ok_or_else(|| invalid(path, "must be a whole number of UTF-16 units from 0"))
    }

    /// `{"message", "offset"}`, or `null` / left out.
    fn parser_error(&self) -> Result<Option<(String, usize)>, ReportError> {
        let members = match self.get("syntax_error") {
            None | Some(Json::Null) => return Ok(None),
            Some(Json::Object(members)) => members,
            Some(other) => return Err(invalid("syntax_error", format!("must be an object or null, not {}", other.type_name()))),
        };
        let inner = Fields { members };
        let message = inner.string("message").map_err(|e| e.within("syntax_error"))?;
        let offset = inner.offset_in("offset", "syntax_error.offset")?;
        inner.only(&["message", "offset"]).map_err(|e| e.within("syntax_error"))?;
        Ok(Some((message, offset)))
    }

    /// `[{"kind", "offset"}, ...]`.
    fn uses(&self) -> Result<Vec<ModuleUse>, ReportError> {
        let items = match self.get("uses") {
            Some(Json::Array(items)) if items.dropped() == 0 => items.items(),
            Some(Json::Array(_)) => return Err(invalid("uses", "has more items than a step may hold")),
            Some(other) => return Err(invalid("uses", format!("must be an array, not {}", other.type_name()))),
            None => return Err(invalid("uses", "is required")),
        };
        items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let path = format!("uses[{i}]");
                let members = item.as_object().ok_or_else(|| invalid(&path, "must be an object {kind, offset}"))?;
                let inner = Fields { members };
                let kind = inner.string("kind").map_err(|e| e.within(&path))?;
                let kind = ModuleUseKind::from_wire(&kind).ok_or_else(|| {
                    invalid(&format!("{path}.kind"), "must be import_declaration, dynamic_import, import_meta or require_call")
                })?;
                let offset = inner.offset_in("offset", &format!("{path}.offset"))?;
                inner.only(&["kind", "offset"]).map_err(|e| e.within(&path))?;
                Ok(ModuleUse { kind, offset })
            })
            .collect()
    }

    /// A run error in its wire form, read back: its message cleaned again and its
    /// `toolError` read by the tolerant reader (neither changes what the core wrote).
    fn run_error(&self) -> Result<RunError, ReportError> {
        let members = match self.get("error") {
            Some(Json::Object(members)) => members,
            Some(other) => return Err(invalid("error", format!("must be a run error object, not {}", other.type_name()))),
            None => return Err(invalid("error", "is required")),
        };
        read_run_error(&Fields { members }).map_err(|e| e.within("error"))
    }
}

/// A run error from its wire form (see [`RunError::to_json`]).
pub(crate) fn read_run_error(fields: &Fields<'_>) -> Result<RunError, ReportError> {
    let code = fields.string("code")?;
    let code = RunErrorCode::from_wire(&code).ok_or_else(|| invalid("code", "is not a run error code"))?;
    let message = clean_whole(&fields.string("message")?, CustomRules::none(), &mut Redactions::default());
    let failure_phase = match fields.get("failurePhase") {
        None | Some(Json::Null) => None,
        Some(_) => Some(FailurePhase::from_wire(&fields.string("failurePhase")?).ok_or_else(|| invalid("failurePhase", "is not a phase"))?),
    };
    let bool_of = |key: &str| fields.get(key).and_then(Json::as_bool).ok_or_else(|| invalid(key, "must be true or false"));
    let location = match (fields.get("line"), fields.get("column")) {
        (None, None) => None,
        (Some(line), Some(column)) => match (one_based(line), one_based(column)) {
            (Some(line), Some(column)) => Some((line, column)),
            _ => return Err(invalid("line", "line and column must be one-based whole numbers")),
        },
        _ => return Err(invalid("line", "line and column come together")),
    };
    let tool_error = match fields.get("toolError") {
        None | Some(Json::Null) => None,
        Some(value) => Some(crate::input::call_error_from_value(value).map_err(|e| e.within("toolError"))?),
    };
    fields.only(&["code", "message", "failurePhase", "bridgeDispatchStarted", "replaySafe", "line", "column", "toolError"])?;
    Ok(RunError {
        code,
        message,
        failure_phase,
        bridge_dispatch_started: bool_of("bridgeDispatchStarted")?,
        replay_safe: bool_of("replaySafe")?,
        location,
        tool_error,
    })
}

/// Read a run error from its JSON text (the wire form [`RunError::to_json`] writes).
///
/// ```
/// use codemode_errors::run::{classify_run_json, run_error_from_json};
/// let end = classify_run_json(r#"{"bridge_dispatch_started":true,"timeout":{"deadline_ms":5000}}"#).unwrap();
/// assert_eq!(run_error_from_json(&end.to_json()).unwrap(), end); // a round trip
/// assert!(run_error_from_json(r#"{"code":"timeout"}"#).is_err());
/// ```
pub fn run_error_from_json(text: &str) -> Result<RunError, ReportError> {
    let value = parse_json(text)?;
    let members = value.as_object().ok_or_else(|| invalid("", format!("a run error is a JSON object, not {}", value.type_name())))?;
    read_run_error(&Fields { members })
}

fn one_based(value: &Json) -> Option<u32> {
    value.as_f64().and_then(exact_integer).and_then(|n| u32::try_from(n).ok()).filter(|&n| n >= 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(step: &str) -> String {
        exec_step_json(step).unwrap_or_else(|e| panic!("{step}: {e}"))
    }

    fn refusal(step: &str) -> String {
        let e = exec_step_json(step).expect_err(step);
        assert_eq!(e.code(), ErrorCode::InvalidReport, "{step}");
        e.to_string()
    }

    #[test]
    fn each_step_answers_with_its_rule() {
        assert_eq!(answer(r#"{"step":"request","request":"return 1"}"#), r#"{"code":"return 1","restartSafe":false}"#);
        assert!(answer(r#"{"step":"request","request":{"code":"x","language":"ts"}}"#).contains(r#""failurePhase":"input""#));
        assert_eq!(answer(r#"{"step":"module_access","code":"return 1"}"#), "null");
        let refused = answer(r#"{"step":"module_access","code":"require('fs')","restart_safe":true}"#);
        assert!(refused.contains(r#""replaySafe":true"#) && refused.contains("module access"), "{refused}");
        let syntax = answer(
            r#"{"step":"syntax_error","engine":"quickjs","message":"unexpected token","stack":"    at agent:user.js:3:5","wrapping":{"file":"agent:user.js","lines_before":1,"columns_before":0},"source":"a\nb\nc"}"#,
        );
        assert!(syntax.contains(r#""line":2,"column":5"#), "{syntax}");
        let stack = answer(
            r#"{"step":"user_stack","engine":"v8","name":"TypeError","message":"no","stack":"TypeError: no\n    at f (agent:user.js:2:3)","wrapping":{"file":"agent:user.js","lines_before":1,"columns_before":0,"source_lines":5},"label":"agent"}"#,
        );
        assert_eq!(stack, r#""TypeError: no\n    at f (agent:user.js:1:3)""#);
        assert_eq!(
            answer(r#"{"step":"project_completed","output":"hi\n","value":"{\"a\":1}","max_bytes":100}"#),
            r#"{"output":"hi\n","value":{"a":1},"truncated":false}"#
        );
        let unserializable = answer(r#"{"step":"project_completed","output":"","value":"{","max_bytes":100,"dispatched":true}"#);
        assert!(unserializable.contains(r#""code":"output_limit_exceeded""#) && unserializable.contains(r#""bridgeDispatchStarted":true"#));
        assert_eq!(answer(r#"{"step":"fit_output","output":"abcdef","budget":100}"#), r#"{"output":"abcdef","truncated":false}"#);
    }

    #[test]
    fn a_parser_s_findings_and_a_failed_run_are_steps_too() {
        let check = |rest: &str| answer(&format!(r#"{{"step":"source_check","source":"import fs from 'fs';\nconst x = ;"{rest}}}"#));
        let syntax =
            check(r#","syntax_error":{"message":"Unexpected token","offset":31},"uses":[{"kind":"import_declaration","offset":0}]"#);
        assert!(syntax.contains(r#""line":2,"column":11"#), "{syntax}");
        let access = check(r#","syntax_error":null,"uses":[{"kind":"import_declaration","offset":0}],"restart_safe":true"#);
        assert!(access.contains("`import` declaration at line 1, column 1") && access.contains(r#""replaySafe":true"#), "{access}");
        assert_eq!(check(r#","uses":[]"#), "null");
        assert!(refusal(r#"{"step":"source_check","source":"","uses":[{"kind":"eval","offset":0}]}"#).contains("uses[0].kind"));
        assert!(refusal(r#"{"step":"source_check","source":"","uses":[],"syntax_error":{"message":"m","offset":-1}}"#)
            .contains("syntax_error.offset"));

        let error = answer(r#"{"step":"request","request":{"code":"x","language":"ts"}}"#);
        let error = &error[r#"{"failed":"#.len()..error.len() - 1];
        let fitted = answer(&format!(r#"{{"step":"failed_run","error":{error},"output":"{}","max_bytes":300}}"#, "x".repeat(1000)));
        assert!(fitted.starts_with(r#"{"status":"failed","code":"invalid_input""#) && fitted.len() <= 300, "{fitted}");
        assert!(fitted.ends_with(r#","truncated":true}"#), "{fitted}");
        assert_eq!(run_error_from_json(error).unwrap().to_json(), error, "a run error reads back as it was written");
        assert!(refusal(r#"{"step":"failed_run","error":{"code":"nope"},"output":"","max_bytes":1}"#).contains("error.code"));
    }

    #[test]
    fn malformed_steps_are_refused_naming_the_member() {
        assert!(refusal("[]").contains("is a JSON object"));
        assert!(refusal(r#"{"step":"run"}"#).contains("unknown step"));
        assert!(refusal(r#"{"code":"x"}"#).contains("at step: is required"));
        assert!(refusal(r#"{"step":"module_access"}"#).contains("code"));
        assert!(refusal(r#"{"step":"module_access","code":"x","restartSafe":true}"#).contains("restartSafe"));
        assert!(refusal(r#"{"step":"fit_output","output":"x","budget":-1}"#).contains("budget"));
        assert!(refusal(r#"{"step":"fit_output","output":"x","budget":1.5}"#).contains("budget"));
        let wrap =
            |w: &str| format!(r#"{{"step":"user_stack","engine":"v8","name":"","message":"","stack":"","wrapping":{w},"label":""}}"#);
        assert!(refusal(&wrap(r#"{"file":"f","lines_before":1}"#)).contains("columns_before"));
        assert!(refusal(&wrap(r#"{"file":"f","lines_before":1,"columns_before":0,"x":1}"#)).contains("wrapping"));
        assert!(refusal(&wrap("[]")).contains("wrapping"));
        let position = |p: &str| {
            format!(
                r#"{{"step":"syntax_error","engine":"v8","message":"","stack":"","position":{p},"wrapping":{{"file":"f","lines_before":0,"columns_before":0}},"source":""}}"#
            )
        };
        assert!(refusal(&position("[0,1]")).contains("position"));
        assert!(refusal(&position("[1]")).contains("position"));
        assert!(exec_step_json(&position("[1,1]")).is_ok());
        assert!(refusal(r#"{"step":"user_stack","engine":"jsc","name":"","message":"","stack":"","wrapping":{},"label":""}"#)
            .contains("engine"));
    }
}
