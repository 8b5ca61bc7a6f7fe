//! An `exec` vector's step as the arguments of its own entry point (the WIT functions,
//! the host's typed methods, the npm package's functions), for the `exec-call` form, and
//! the answers those entry points give written back as the step's JSON answer.
//!
//! The reading follows the step reader of the core (`run::ExecStep`): the same members,
//! booleans defaulting to `false`. A step the core refuses has no call to make
//! ([`ExecCall::from_step`] is `None`), so only the `exec` form runs it.

use serde_json::{Map, Value};

/// How the executor wrapped the source, as the typed entry points take it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecWrapping {
    /// The file name the wrapped source was compiled under.
    pub file: String,
    /// Lines before the source.
    pub lines_before: u32,
    /// Columns before the source on its first line.
    pub columns_before: u32,
    /// The source's line count, when given.
    pub source_lines: Option<u32>,
}

/// One step's call.
#[derive(Clone, Debug, PartialEq)]
pub enum ExecCall {
    /// `request`: the exec tool's arguments as the model sent them.
    Request {
        /// Their compact JSON text.
        json: String,
        /// The value itself.
        value: Value,
    },
    /// `module_access`.
    ModuleAccess {
        /// The source.
        code: String,
        /// `restart_safe`.
        restart_safe: bool,
    },
    /// `syntax_error`.
    SyntaxError {
        /// `v8`, `quickjs` or `spidermonkey`.
        engine: String,
        /// The engine's message.
        message: String,
        /// The engine's stack.
        stack: String,
        /// The engine's own position.
        position: Option<(u32, u32)>,
        /// The wrapping.
        wrapping: ExecWrapping,
        /// The source.
        source: String,
        /// `restart_safe`.
        restart_safe: bool,
    },
    /// `user_stack`.
    UserStack {
        /// The engine.
        engine: String,
        /// The error's name.
        name: String,
        /// The error's message.
        message: String,
        /// The engine's stack.
        stack: String,
        /// The wrapping.
        wrapping: ExecWrapping,
        /// The frame label.
        label: String,
    },
    /// `project_completed`.
    ProjectCompleted {
        /// The console output.
        output: String,
        /// The final value as JSON text.
        value: String,
        /// The budget.
        max_bytes: u32,
        /// `dispatched`.
        dispatched: bool,
        /// `restart_safe`.
        restart_safe: bool,
    },
    /// `fit_output`.
    FitOutput {
        /// The console output.
        output: String,
        /// The budget.
        budget: u32,
    },
}

const ENGINES: &[&str] = &["v8", "quickjs", "spidermonkey"];

impl ExecCall {
    /// The call a step makes, when the step is well formed.
    pub fn from_step(step: &Value) -> Option<ExecCall> {
        let m = step.as_object()?;
        let allowed: &[&str] = match m.get("step")?.as_str()? {
            "request" => &["request"],
            "module_access" => &["code", "restart_safe"],
            "syntax_error" => &["engine", "message", "stack", "position", "wrapping", "source", "restart_safe"],
            "user_stack" => &["engine", "name", "message", "stack", "wrapping", "label"],
            "project_completed" => &["output", "value", "max_bytes", "dispatched", "restart_safe"],
            "fit_output" => &["output", "budget"],
            _ => return None,
        };
        if m.keys().any(|k| k != "step" && !allowed.contains(&k.as_str())) {
            return None;
        }
        let text = |k: &str| m.get(k)?.as_str().map(str::to_owned);
        let flag = |k: &str| match m.get(k) {
            None => Some(false),
            Some(v) => v.as_bool(),
        };
        let count = |k: &str| m.get(k)?.as_u64().and_then(|n| u32::try_from(n).ok());
        let engine = || text("engine").filter(|e| ENGINES.contains(&e.as_str()));
        Some(match m["step"].as_str()? {
            "request" => {
                let value = m.get("request")?.clone();
                ExecCall::Request { json: serde_json::to_string(&value).ok()?, value }
            }
            "module_access" => ExecCall::ModuleAccess { code: text("code")?, restart_safe: flag("restart_safe")? },
            "syntax_error" => ExecCall::SyntaxError {
                engine: engine()?,
                message: text("message")?,
                stack: text("stack")?,
                position: match m.get("position") {
                    None | Some(Value::Null) => None,
                    Some(Value::Array(pair)) if pair.len() == 2 => {
                        let one = |v: &Value| v.as_u64().and_then(|n| u32::try_from(n).ok()).filter(|&n| n >= 1);
                        Some((one(&pair[0])?, one(&pair[1])?))
                    }
                    Some(_) => return None,
                },
                wrapping: wrapping(m.get("wrapping")?)?,
                source: text("source")?,
                restart_safe: flag("restart_safe")?,
            },
            "user_stack" => ExecCall::UserStack {
                engine: engine()?,
                name: text("name")?,
                message: text("message")?,
                stack: text("stack")?,
                wrapping: wrapping(m.get("wrapping")?)?,
                label: text("label")?,
            },
            "project_completed" => ExecCall::ProjectCompleted {
                output: text("output")?,
                value: text("value")?,
                max_bytes: count("max_bytes")?,
                dispatched: flag("dispatched")?,
                restart_safe: flag("restart_safe")?,
            },
            "fit_output" => ExecCall::FitOutput { output: text("output")?, budget: count("budget")? },
            _ => return None,
        })
    }
}

fn wrapping(value: &Value) -> Option<ExecWrapping> {
    let m: &Map<String, Value> = value.as_object()?;
    if m.keys().any(|k| !["file", "lines_before", "columns_before", "source_lines"].contains(&k.as_str())) {
        return None;
    }
    let count = |k: &str| m.get(k)?.as_u64().and_then(|n| u32::try_from(n).ok());
    Some(ExecWrapping {
        file: m.get("file")?.as_str()?.to_owned(),
        lines_before: count("lines_before")?,
        columns_before: count("columns_before")?,
        source_lines: match m.get("source_lines") {
            None | Some(Value::Null) => None,
            Some(_) => Some(count("source_lines")?),
        },
    })
}

/// The answers of the typed entry points, written as the step's JSON answer.
pub mod answer {
    fn string(s: &str) -> String {
        serde_json::to_string(s).expect("a string serializes")
    }

    /// A run that ends at the step, from the run error's exact JSON.
    pub fn failed(run_error_json: &str) -> String {
        format!("{{\"failed\":{run_error_json}}}")
    }

    /// A valid request.
    pub fn request(code: &str, restart_safe: bool) -> String {
        format!("{{\"code\":{},\"restartSafe\":{restart_safe}}}", string(code))
    }

    /// No module access.
    pub fn allowed() -> String {
        "null".to_owned()
    }

    /// A stack.
    pub fn stack(stack: &str) -> String {
        string(stack)
    }

    /// A completed run's projection (the value as raw JSON text).
    pub fn projected(output: &str, value: &str, truncated: bool) -> String {
        format!("{{\"output\":{},\"value\":{value},\"truncated\":{truncated}}}", string(output))
    }

    /// Output fitted to a budget.
    pub fn fitted(output: &str, truncated: bool) -> String {
        format!("{{\"output\":{},\"truncated\":{truncated}}}", string(output))
    }
}
