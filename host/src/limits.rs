//! The limits every component call runs under, with documented defaults a gateway can
//! change. Each one trips with a clean error value, never a crash of the host.

use std::time::Duration;

/// Default bound on one call's input (report, text or JSON value): 8 MiB.
///
/// ```
/// use codemode_errors_host::{limits::DEFAULT_MAX_INPUT_BYTES, Limits};
/// assert_eq!(Limits::default().max_input_bytes, DEFAULT_MAX_INPUT_BYTES);
/// assert_eq!(DEFAULT_MAX_INPUT_BYTES, 8 * 1024 * 1024);
/// ```
pub const DEFAULT_MAX_INPUT_BYTES: usize = 8 << 20;

/// Default bound on the component's linear memory: 128 MiB. The largest default input,
/// redacted as text, needs about four copies of itself; the rest is the core's bounded
/// tree and output.
///
/// ```
/// use codemode_errors_host::{limits::DEFAULT_MAX_MEMORY_BYTES, Limits};
/// assert_eq!(Limits::default().max_memory_bytes, DEFAULT_MAX_MEMORY_BYTES);
/// assert_eq!(DEFAULT_MAX_MEMORY_BYTES, 128 * 1024 * 1024);
/// ```
pub const DEFAULT_MAX_MEMORY_BYTES: usize = 128 << 20;

/// Default execution bound: one second of wall-clock time per call, about ten times what
/// redacting the largest default input takes and thousands of typical reports. Enforced
/// with an epoch deadline of [`crate::deadline::TICK`] resolution (see [`crate::deadline`]).
///
/// ```
/// use std::time::Duration;
/// use codemode_errors_host::{limits::DEFAULT_DEADLINE, Limits};
/// assert_eq!(Limits::default().deadline, DEFAULT_DEADLINE);
/// assert_eq!(DEFAULT_DEADLINE, Duration::from_secs(1));
/// ```
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(1);

/// Bounds on one call. The native engine applies the input bound; the component engine
/// applies all three.
///
/// ```
/// use std::time::Duration;
/// let limits = codemode_errors_host::Limits::default().with_max_input_bytes(1 << 20).with_deadline(Duration::from_millis(200));
/// assert_eq!(limits.max_input_bytes, 1 << 20);
/// assert_eq!(limits.max_memory_bytes, codemode_errors_host::limits::DEFAULT_MAX_MEMORY_BYTES);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Largest input accepted, in bytes; larger inputs are refused before the call with
    /// an `input-too-large` error.
    pub max_input_bytes: usize,
    /// Largest linear memory the component may grow to, in bytes. The guest starts with
    /// 2 MiB (its stack, data and the heap of a typical call, see `guest/build.rs`), so a
    /// bound below that stops every call with a memory abort.
    pub max_memory_bytes: usize,
    /// Wall-clock time each call may run inside the component (rounded up to whole
    /// [`crate::deadline::TICK`]s; zero stops every call at once).
    pub deadline: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_input_bytes: DEFAULT_MAX_INPUT_BYTES, max_memory_bytes: DEFAULT_MAX_MEMORY_BYTES, deadline: DEFAULT_DEADLINE }
    }
}

impl Limits {
    /// These limits with another input bound.
    ///
    /// ```
    /// use codemode_errors_host::{HostError, Limits, NativeEngine};
    /// let engine = NativeEngine::new(&Default::default(), Limits::default().with_max_input_bytes(8));
    /// assert_eq!(engine.redact_text("0123456789"), Err(HostError::InputTooLarge { bytes: 10, bound: 8 }));
    /// ```
    pub fn with_max_input_bytes(mut self, bytes: usize) -> Self {
        self.max_input_bytes = bytes;
        self
    }

    /// These limits with another memory bound.
    ///
    /// ```
    /// use codemode_errors_host::Limits;
    /// let limits = Limits::default().with_max_memory_bytes(32 << 20);
    /// assert_eq!(limits.max_memory_bytes, 32 << 20);
    /// ```
    pub fn with_max_memory_bytes(mut self, bytes: usize) -> Self {
        self.max_memory_bytes = bytes;
        self
    }

    /// These limits with another execution bound.
    ///
    /// ```
    /// use std::time::Duration;
    /// use codemode_errors_host::Limits;
    /// assert_eq!(Limits::default().with_deadline(Duration::from_millis(250)).deadline, Duration::from_millis(250));
    /// ```
    pub fn with_deadline(mut self, deadline: Duration) -> Self {
        self.deadline = deadline;
        self
    }
}
