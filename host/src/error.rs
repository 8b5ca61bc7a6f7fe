//! What a call can fail with: input the core refused, or a call the host abandoned.

use std::fmt;

use crate::core;
use crate::from_core;
use crate::wit::{ErrorCode, InputError, Outcome, RunError};

/// Why a call produced no answer.
///
/// ```
/// use codemode_errors_host::{HostError, Limits, NativeEngine};
/// let engine = NativeEngine::new(&Default::default(), Limits::default());
/// match engine.normalize_json("{not json") {
///     Err(HostError::Input(e)) => assert_eq!(codemode_errors_host::code_name(e.code), "invalid_json"),
///     other => panic!("{other:?}"),
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostError {
    /// The core refused the input (not JSON, not a report, ...). Nothing ran that could be
    /// retried unchanged.
    Input(InputError),
    /// The input exceeded the input bound ([`crate::Limits::max_input_bytes`]); nothing of
    /// it was read.
    InputTooLarge {
        /// The input's size in bytes.
        bytes: usize,
        /// The bound.
        bound: usize,
    },
    /// The component call was stopped: a limit tripped or the guest trapped. Its store was
    /// dropped; the next call gets a fresh one and works.
    Aborted(Aborted),
}

/// Which bound stopped a call.
///
/// ```
/// use std::time::Duration;
/// use codemode_errors_host::{AbortCause, ComponentEngine, HostError, Limits};
/// let engine = ComponentEngine::new(&Default::default(), Limits::default().with_deadline(Duration::ZERO))?;
/// match engine.redact_text("password=hunter2") {
///     Err(HostError::Aborted(a)) => assert_eq!(a.cause(), AbortCause::Execution),
///     other => panic!("{other:?}"),
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbortCause {
    /// The component tried to grow its memory past [`crate::Limits::max_memory_bytes`].
    Memory,
    /// The call ran past its deadline ([`crate::Limits::deadline`]).
    Execution,
    /// The guest trapped for another reason (a bug in the component).
    Trap,
}

/// A stopped component call: the cause and wasmtime's account of it.
///
/// ```
/// use codemode_errors_host::{ComponentEngine, HostError, Limits};
/// let engine = ComponentEngine::new(&Default::default(), Limits::default().with_max_memory_bytes(64 << 10))?;
/// let Err(HostError::Aborted(aborted)) = engine.redact_text("password=hunter2") else { panic!("the memory bound did not trip") };
/// assert!(aborted.to_string().starts_with("memory limit exceeded"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Aborted {
    cause: AbortCause,
    detail: String,
}

impl Aborted {
    /// A call stopped by `cause`; `detail` is the runtime's description.
    pub(crate) fn new(cause: AbortCause, detail: impl Into<String>) -> Self {
        Aborted { cause, detail: detail.into() }
    }

    /// What stopped the call.
    ///
    /// ```
    /// use std::time::Duration;
    /// use codemode_errors_host::{AbortCause, ComponentEngine, HostError, Limits};
    /// let engine = ComponentEngine::new(&Default::default(), Limits::default().with_deadline(Duration::ZERO))?;
    /// let Err(HostError::Aborted(aborted)) = engine.version() else { panic!("the deadline did not trip") };
    /// assert_eq!(aborted.cause(), AbortCause::Execution);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cause(&self) -> AbortCause {
        self.cause
    }

    /// The runtime's description.
    ///
    /// ```
    /// use std::time::Duration;
    /// use codemode_errors_host::{ComponentEngine, HostError, Limits};
    /// let engine = ComponentEngine::new(&Default::default(), Limits::default().with_deadline(Duration::ZERO))?;
    /// let Err(HostError::Aborted(aborted)) = engine.version() else { panic!("the deadline did not trip") };
    /// assert!(!aborted.detail().is_empty()); // wasmtime's account, for logs
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn detail(&self) -> &str {
        &self.detail
    }
}

impl fmt::Display for Aborted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.cause {
            AbortCause::Memory => write!(f, "memory limit exceeded: the error normalizer was stopped ({})", self.detail),
            AbortCause::Execution => write!(f, "execution limit exceeded: the error normalizer ran past its deadline ({})", self.detail),
            AbortCause::Trap => write!(f, "the error normalizer component trapped ({})", self.detail),
        }
    }
}

impl HostError {
    /// Whether a limit tripped: the input bound, the memory bound or the execution bound.
    ///
    /// ```
    /// use codemode_errors_host::{Limits, NativeEngine};
    /// let engine = NativeEngine::new(&Default::default(), Limits::default().with_max_input_bytes(16));
    /// assert!(engine.redact_text(&"x".repeat(100)).unwrap_err().is_limit());
    /// assert!(!engine.normalize_json("[]").unwrap_err().is_limit()); // refused, not limited
    /// ```
    pub fn is_limit(&self) -> bool {
        match self {
            HostError::Input(e) => e.code == ErrorCode::InputTooLarge,
            HostError::InputTooLarge { .. } => true,
            HostError::Aborted(a) => a.cause != AbortCause::Trap,
        }
    }

    /// The contract error the gateway hands to the sandbox in place of the outcome it
    /// could not compute, so the sandbox always has something to reject with: for an input
    /// over the input bound, the core's
    /// [`Failure::input_too_large`](core::Failure::input_too_large) (`budget` /
    /// `artifact_too_large`); for anything else (a refused input, a trap, a tripped memory
    /// or execution bound), [`Failure::internal`](core::Failure::internal) (`code_mode` /
    /// `internal_error`) with this error as its cause. For `tool` when the core accepts the
    /// name (`namespace::name`), else without one.
    ///
    /// ```
    /// use codemode_errors_host::{HostError, Limits, NativeEngine};
    /// let engine = NativeEngine::new(&Default::default(), Limits::default().with_max_input_bytes(4));
    /// let err = engine.normalize_json("{\"transport\":{\"kind\":\"dns\"}}").unwrap_err();
    /// let outcome = err.to_outcome(Some("github::create_issue"));
    /// assert!(outcome.json.contains("\"kind\":\"artifact_too_large\""));
    /// ```
    pub fn to_outcome(&self, tool: Option<&str>) -> Outcome {
        let tool = tool.and_then(|t| core::ToolName::new(t).ok());
        let failure = match self {
            HostError::InputTooLarge { bytes, bound } => core::Failure::input_too_large(*bytes, *bound),
            _ => core::Failure::internal(&self.to_string()),
        };
        let report = core::FailureReport::new(failure).with_tool(tool);
        from_core::outcome(&core::Normalizer::default().normalize(&report))
    }

    /// The terminal run error the executor ends a run with when this error stopped
    /// [`classify_run`](crate::Engine::classify_run), so a run report the host could not
    /// classify still gets an answer: for a report over the input bound, the core's
    /// [`RunError::report_too_large`](core::run::RunError::report_too_large); for anything
    /// else (a refused report, a trap, a tripped memory or execution bound),
    /// [`RunError::unclassified`](core::run::RunError::unclassified) with this error as its
    /// cause. Both are `internal_error` from the `host` phase, with a call taken as
    /// dispatched and the run as not replay-safe, since the report saying otherwise was not
    /// read.
    ///
    /// ```
    /// use codemode_errors_host::{HostError, Limits, NativeEngine};
    /// let engine = NativeEngine::new(&Default::default(), Limits::default().with_max_input_bytes(8));
    /// let err = engine.classify_run(r#"{"bridge_dispatch_started":false,"aborted":{}}"#).unwrap_err();
    /// let end = err.to_run_error();
    /// assert!(end.json.starts_with(r#"{"code":"internal_error","message":"the run report is 46 bytes"#));
    /// assert!(end.bridge_dispatch_started && !end.replay_safe);
    /// ```
    pub fn to_run_error(&self) -> RunError {
        let end = match self {
            HostError::InputTooLarge { bytes, bound } => core::run::RunError::report_too_large(*bytes, *bound),
            _ => core::run::RunError::unclassified(&self.to_string()),
        };
        from_core::run_error(&end)
    }
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostError::Input(e) if e.path.is_empty() => write!(f, "{}: {}", code_name(e.code), e.message),
            HostError::Input(e) => write!(f, "{}: at {}: {}", code_name(e.code), e.path, e.message),
            HostError::InputTooLarge { bytes, bound } => {
                write!(f, "{}: input is {bytes} bytes; the input bound is {bound} bytes", code_name(ErrorCode::InputTooLarge))
            }
            HostError::Aborted(a) => a.fmt(f),
        }
    }
}

impl std::error::Error for HostError {}

/// The core's snake_case name for an input error code (`invalid_json`, ...).
///
/// ```
/// use codemode_errors_host::{code_name, wit::ErrorCode};
/// assert_eq!(code_name(ErrorCode::TooDeep), "too_deep");
/// ```
pub fn code_name(code: ErrorCode) -> &'static str {
    core_code(code).as_str()
}

/// The core's error code for a WIT error code.
///
/// ```
/// use codemode_errors_host::{core_code, wit::ErrorCode};
/// assert_eq!(core_code(ErrorCode::InputTooLarge), codemode_errors::ErrorCode::InputTooLarge);
/// ```
pub fn core_code(code: ErrorCode) -> core::ErrorCode {
    use core::ErrorCode as C;
    match code {
        ErrorCode::InvalidJson => C::InvalidJson,
        ErrorCode::TooDeep => C::TooDeep,
        ErrorCode::InvalidReport => C::InvalidReport,
        ErrorCode::InvalidPolicy => C::InvalidPolicy,
        ErrorCode::InvalidCallError => C::InvalidCallError,
        ErrorCode::UnsupportedVersion => C::UnsupportedVersion,
        ErrorCode::InputTooLarge => C::InputTooLarge,
    }
}

/// The engine could not be set up (the component did not compile or link).
///
/// ```
/// use codemode_errors_host::{CompileCache, ComponentEngine, Limits};
/// let not_wasm = b"definitely not a component";
/// let err = ComponentEngine::with_component(not_wasm, &CompileCache::Disabled, &Default::default(), Limits::default()).err().unwrap();
/// assert!(err.to_string().starts_with("could not set up the component engine"));
/// ```
#[derive(Debug)]
pub struct SetupError(pub(crate) wasmtime::Error);

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "could not set up the component engine: {:#}", self.0)
    }
}

impl std::error::Error for SetupError {}
