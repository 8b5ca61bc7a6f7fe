//! The per-call store state: a WASI context that grants nothing and the memory limiter.

use wasmtime::component::ResourceTable;
use wasmtime::{ResourceLimiter, StoreLimits, StoreLimitsBuilder};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use crate::limits::Limits;

/// Most table elements a call may hold (the guest needs a few hundred).
const MAX_TABLE_ELEMENTS: usize = 100_000;

/// What one store holds.
pub struct CallState {
    wasi: WasiCtx,
    table: ResourceTable,
    limiter: CallLimiter,
}

impl CallState {
    /// A state for one call under `limits`: no environment, no arguments, no files, no
    /// sockets, empty standard streams.
    pub fn new(limits: &Limits) -> Self {
        CallState { wasi: WasiCtx::builder().build(), table: ResourceTable::new(), limiter: CallLimiter::for_call(limits) }
    }

    /// Whether the memory bound refused a growth during this store's life.
    pub fn memory_refused(&self) -> bool {
        self.limiter.memory_refused()
    }
}

impl WasiView for CallState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

/// For `Store::limiter`.
pub fn limits_of(state: &mut CallState) -> &mut dyn ResourceLimiter {
    &mut state.limiter
}

/// Wasmtime's store limits, remembering a refused memory growth, so the trap it causes is
/// reported as the memory bound rather than a crash. The normalizer's stores use it, and
/// any other store whose state holds one (the gateway's JavaScript runner).
///
/// ```
/// use codemode_errors_host::CallLimiter;
/// use wasmtime::ResourceLimiter;
/// let mut limiter = CallLimiter::new(wasmtime::StoreLimitsBuilder::new().memory_size(1 << 16).build());
/// assert!(limiter.memory_growing(0, 1 << 16, None)?);
/// assert!(!limiter.memory_refused());
/// assert!(!limiter.memory_growing(1 << 16, 1 << 17, None)?);
/// assert!(limiter.memory_refused());
/// # Ok::<(), wasmtime::Error>(())
/// ```
pub struct CallLimiter {
    inner: StoreLimits,
    memory_refused: bool,
}

impl CallLimiter {
    /// A limiter enforcing `inner`, with no growth refused yet.
    pub fn new(inner: StoreLimits) -> Self {
        CallLimiter { inner, memory_refused: false }
    }

    /// The normalizer's limits: the memory bound of `limits` and a table bound, trapping
    /// on a refused growth.
    fn for_call(limits: &Limits) -> Self {
        let inner = StoreLimitsBuilder::new()
            .memory_size(limits.max_memory_bytes)
            .table_elements(MAX_TABLE_ELEMENTS)
            .trap_on_grow_failure(true)
            .build();
        CallLimiter::new(inner)
    }

    /// Whether a memory growth was refused.
    pub fn memory_refused(&self) -> bool {
        self.memory_refused
    }
}

impl ResourceLimiter for CallLimiter {
    fn memory_growing(&mut self, current: usize, desired: usize, maximum: Option<usize>) -> wasmtime::Result<bool> {
        let allowed = self.inner.memory_growing(current, desired, maximum);
        if !matches!(allowed, Ok(true)) {
            self.memory_refused = true;
        }
        allowed
    }

    fn table_growing(&mut self, current: usize, desired: usize, maximum: Option<usize>) -> wasmtime::Result<bool> {
        self.inner.table_growing(current, desired, maximum)
    }

    fn instances(&self) -> usize {
        self.inner.instances()
    }

    fn tables(&self) -> usize {
        self.inner.tables()
    }

    fn memories(&self) -> usize {
        self.inner.memories()
    }
}
