//! The execution bound: an epoch deadline.
//!
//! One ticker thread per engine advances wasmtime's epoch every [`TICK`]; each call arms
//! its store with a deadline a number of ticks ahead, and compiled code checks the epoch
//! at function entries and loop heads, trapping once the deadline has passed. This costs
//! far less than fuel, which counts every basic block (measured in
//! docs/PERFORMANCE-component.md); the price is that the bound is wall-clock time, not a
//! deterministic instruction count. A zero deadline trips at the first check, whatever
//! the input: that is how the tests trip it deterministically. A non-zero deadline is
//! armed one tick long, so a call always gets at least the time it was granted.

use std::time::Duration;

use wasmtime::{Engine, Store};

/// How often the epoch advances: the resolution of every deadline.
///
/// ```
/// use std::time::Duration;
/// use codemode_errors_host::deadline::{ticks, TICK};
/// assert_eq!(TICK, Duration::from_millis(10));
/// assert_eq!(ticks(TICK * 3), 4); // three whole ticks, and one for the tick under way
/// ```
pub const TICK: Duration = Duration::from_millis(10);

/// Start the thread that advances `engine`'s epoch every [`TICK`]. It ends by itself a
/// tick after the last handle to the engine is dropped. Any engine made with
/// `epoch_interruption(true)` can use it (the gateway's JavaScript runner does).
///
/// ```
/// use codemode_errors_host::deadline::start_ticker;
/// let mut config = wasmtime::Config::new();
/// config.epoch_interruption(true);
/// let engine = wasmtime::Engine::new(&config)?;
/// start_ticker(&engine)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn start_ticker(engine: &Engine) -> std::io::Result<()> {
    let weak = engine.weak();
    std::thread::Builder::new().name("codemode-errors-epoch".into()).spawn(move || loop {
        std::thread::sleep(TICK);
        match weak.upgrade() {
            Some(engine) => engine.increment_epoch(),
            None => break,
        }
    })?;
    Ok(())
}

/// The most ticks a deadline is armed with: far beyond any real budget (about 29 million
/// years of ticks), and small enough that adding the current epoch cannot overflow.
const MAX_TICKS: u64 = u64::MAX / 2;

/// Ticks to arm for a deadline: zero stays zero (the call stops at its first check);
/// otherwise the deadline rounded up to whole ticks, plus one, because the next tick may
/// come at any moment. A call then gets at least the time it was granted and at most one
/// tick more.
///
/// ```
/// use std::time::Duration;
/// use codemode_errors_host::deadline::ticks;
/// assert_eq!(ticks(Duration::ZERO), 0); // stops at the first check
/// assert_eq!(ticks(Duration::from_millis(15)), 3); // rounded up to 2 ticks, plus one
/// assert_eq!(ticks(Duration::from_secs(1)), 101);
/// ```
pub fn ticks(deadline: Duration) -> u64 {
    if deadline.is_zero() {
        return 0;
    }
    let whole = u64::try_from(deadline.as_nanos().div_ceil(TICK.as_nanos())).unwrap_or(MAX_TICKS);
    whole.saturating_add(1).min(MAX_TICKS)
}

/// Arm `store` so that the guest traps once `deadline` has passed from now.
pub(crate) fn arm<T>(store: &mut Store<T>, deadline: Duration) {
    store.set_epoch_deadline(ticks(deadline));
    store.epoch_deadline_trap();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_round_up_to_whole_ticks_and_one_more() {
        assert_eq!(ticks(Duration::ZERO), 0);
        assert_eq!(ticks(Duration::from_nanos(1)), 2);
        assert_eq!(ticks(TICK), 2);
        assert_eq!(ticks(TICK + Duration::from_nanos(1)), 3);
        assert_eq!(ticks(Duration::from_secs(1)), 101);
        // "No limit" cannot overflow wasmtime's epoch arithmetic.
        assert_eq!(ticks(Duration::MAX), MAX_TICKS);
        assert!(ticks(Duration::MAX).checked_add(u64::from(u32::MAX)).is_some());
    }
}
