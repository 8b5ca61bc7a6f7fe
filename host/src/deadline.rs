//! The execution bound: an epoch deadline.
//!
//! One ticker thread per engine advances wasmtime's epoch every [`TICK`]; each call arms
//! its store with a deadline a number of ticks ahead, and compiled code checks the epoch
//! at function entries and loop heads, trapping once the deadline has passed. This costs
//! far less than fuel, which counts every basic block (measured in
//! docs/PERFORMANCE-component.md); the price is that the bound is wall-clock time, not a
//! deterministic instruction count. A zero deadline trips at the first check, whatever
//! the input: that is how the tests trip it deterministically.

use std::time::Duration;

use wasmtime::{Engine, Store};

/// How often the epoch advances: the resolution of every deadline.
pub const TICK: Duration = Duration::from_millis(10);

/// Start the thread that advances `engine`'s epoch. It ends by itself a tick after the
/// last handle to the engine is dropped.
pub(crate) fn start_ticker(engine: &Engine) -> std::io::Result<()> {
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

/// Ticks a deadline spans, rounded up: a call gets at least the time it was granted.
pub fn ticks(deadline: Duration) -> u64 {
    u64::try_from(deadline.as_nanos().div_ceil(TICK.as_nanos())).unwrap_or(u64::MAX)
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
    fn deadlines_round_up_to_whole_ticks() {
        assert_eq!(ticks(Duration::ZERO), 0);
        assert_eq!(ticks(Duration::from_nanos(1)), 1);
        assert_eq!(ticks(TICK), 1);
        assert_eq!(ticks(TICK + Duration::from_nanos(1)), 2);
        assert_eq!(ticks(Duration::from_secs(1)), 100);
        assert_eq!(ticks(Duration::MAX), u64::MAX);
    }
}
