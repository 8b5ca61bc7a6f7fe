//! The executor steps' arguments, borrowed, so that each engine method takes one value
//! instead of seven: what an executor knows when a compile fails, when guest code throws,
//! and when a run completes.

use crate::core;
use crate::from_core;
use crate::wit::{JsEngine, RunError, Wrapping};

/// A syntax error an engine reported while compiling the wrapped source.
///
/// ```
/// use codemode_errors_host::{wit, Limits, NativeEngine, SyntaxReport};
/// let wrapping = wit::Wrapping { file: "agent:user.js".into(), lines_before: 1, columns_before: 0, source_lines: None };
/// let report = SyntaxReport {
///     engine: wit::JsEngine::Quickjs,
///     message: "unexpected token",
///     stack: "    at agent:user.js:3:5",
///     position: None,
///     wrapping: &wrapping,
///     source: "a\nb\nc",
///     restart_safe: false,
/// };
/// let end = NativeEngine::new(&codemode_errors::Policy::default(), Limits::default()).syntax_error(&report).unwrap();
/// assert_eq!(end.location, Some((2, 5)));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SyntaxReport<'a> {
    /// The engine that compiled the wrapped source.
    pub engine: JsEngine,
    /// The engine's message.
    pub message: &'a str,
    /// The engine's stack text.
    pub stack: &'a str,
    /// The engine's own one-based line and column, when it gives them.
    pub position: Option<(u32, u32)>,
    /// How the source was wrapped.
    pub wrapping: &'a Wrapping,
    /// The submitted source.
    pub source: &'a str,
    /// The request's `restartSafe`.
    pub restart_safe: bool,
}

impl SyntaxReport<'_> {
    /// The bytes of text it carries, for the input bound.
    pub(crate) fn len(&self) -> usize {
        self.message.len() + self.stack.len() + self.wrapping.file.len() + self.source.len()
    }
}

/// An error guest code threw, as the engine described it.
///
/// ```
/// use codemode_errors_host::{wit, GuestStack, Limits, NativeEngine};
/// let wrapping = wit::Wrapping { file: "agent:user.js".into(), lines_before: 1, columns_before: 0, source_lines: None };
/// let stack = "Error: boom\n    at agent:user.js:2:3";
/// let error = GuestStack { engine: wit::JsEngine::V8, name: "Error", message: "boom", stack, wrapping: &wrapping, label: "codemode" };
/// let engine = NativeEngine::new(&Default::default(), Limits::default());
/// assert_eq!(engine.user_stack(&error).unwrap(), "Error: boom\n    at codemode:user.js:1:3");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct GuestStack<'a> {
    /// The engine the guest ran in.
    pub engine: JsEngine,
    /// The error's name (`TypeError`, say).
    pub name: &'a str,
    /// The error's message.
    pub message: &'a str,
    /// The engine's stack text.
    pub stack: &'a str,
    /// How the source was wrapped.
    pub wrapping: &'a Wrapping,
    /// The frame label (`<label>:user.js`).
    pub label: &'a str,
}

impl GuestStack<'_> {
    /// The bytes of text it carries, for the input bound.
    pub(crate) fn len(&self) -> usize {
        self.name.len() + self.message.len() + self.stack.len() + self.wrapping.file.len() + self.label.len()
    }
}

/// A run that completed: its console output and final value.
///
/// ```
/// use codemode_errors_host::{wit, CompletedRun, Limits, NativeEngine};
/// let engine = NativeEngine::new(&Default::default(), Limits::default());
/// let run = CompletedRun { output: "", value: "not json", max_bytes: 1024, dispatched: true, restart_safe: false };
/// let end = engine.project_completed(&run).unwrap().unwrap_err(); // the value is no JSON data
/// assert_eq!(end.code, wit::RunErrorCode::OutputLimitExceeded);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct CompletedRun<'a> {
    /// The console output.
    pub output: &'a str,
    /// The final value as JSON text.
    pub value: &'a str,
    /// The output budget in bytes.
    pub max_bytes: u32,
    /// Whether a nested call was dispatched (the executor's record).
    pub dispatched: bool,
    /// The request's `restartSafe`.
    pub restart_safe: bool,
}

/// The run error of a run that ends at an executor step (the core's `run::end_at_step`).
pub(crate) fn ends(failure: core::run::RunFailure, dispatched: bool, restart_safe: bool) -> RunError {
    from_core::run_error(&core::run::end_at_step(failure, dispatched, restart_safe))
}
