//! The limits every component call runs under, with documented defaults a gateway can
//! change. Each one trips with a clean error value, never a crash of the host.

/// Default bound on one call's input (report, text or JSON value): 8 MiB.
pub const DEFAULT_MAX_INPUT_BYTES: usize = 8 << 20;

/// Default bound on the component's linear memory: 128 MiB. The largest default input,
/// redacted as text, needs about four copies of itself; the rest is the core's bounded
/// tree and output.
pub const DEFAULT_MAX_MEMORY_BYTES: usize = 128 << 20;

/// Default execution bound, in wasmtime fuel units (about one per WebAssembly
/// instruction): 4 billion, roughly ten times what redacting the largest default input
/// costs, and tens of thousands of typical reports. Fuel is deterministic, unlike a
/// wall-clock deadline, so the same input trips it on every machine.
pub const DEFAULT_FUEL: u64 = 4_000_000_000;

/// Bounds on one call. The native engine applies the input bound; the component engine
/// applies all three.
///
/// ```
/// let limits = codemode_errors_host::Limits::default().with_max_input_bytes(1 << 20).with_fuel(100_000_000);
/// assert_eq!(limits.max_input_bytes, 1 << 20);
/// assert_eq!(limits.max_memory_bytes, codemode_errors_host::limits::DEFAULT_MAX_MEMORY_BYTES);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Largest input accepted, in bytes; larger inputs are refused before the call with
    /// an `input-too-large` error.
    pub max_input_bytes: usize,
    /// Largest linear memory the component may grow to, in bytes.
    pub max_memory_bytes: usize,
    /// Fuel given to each call.
    pub fuel: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_input_bytes: DEFAULT_MAX_INPUT_BYTES, max_memory_bytes: DEFAULT_MAX_MEMORY_BYTES, fuel: DEFAULT_FUEL }
    }
}

impl Limits {
    /// These limits with another input bound.
    pub fn with_max_input_bytes(mut self, bytes: usize) -> Self {
        self.max_input_bytes = bytes;
        self
    }

    /// These limits with another memory bound.
    pub fn with_max_memory_bytes(mut self, bytes: usize) -> Self {
        self.max_memory_bytes = bytes;
        self
    }

    /// These limits with another execution bound.
    pub fn with_fuel(mut self, fuel: u64) -> Self {
        self.fuel = fuel;
        self
    }
}
