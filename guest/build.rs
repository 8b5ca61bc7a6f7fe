//! Link settings of the guest component.
//!
//! The linear memory starts at 2 MiB: the 1 MiB stack, the data, and room for a typical
//! call's heap. With the default start (just past the data), the first call on a fresh
//! instance grew the memory, which the host's pooling allocator pays for with two
//! `mprotect` calls (grow, then reset) and the TLB shootdowns they cause: about 14 µs of a
//! 85 µs fresh-store call (docs/PERFORMANCE-component.md). Pages are only touched when
//! used, and the host keeps the first 4 MiB of a pool slot resident, so the larger start
//! costs nothing else.

/// The initial linear memory, in bytes (a multiple of the 64 KiB WebAssembly page).
const INITIAL_MEMORY: u32 = 2 << 20;

fn main() {
    println!("cargo:rustc-link-arg-cdylib=--initial-memory={INITIAL_MEMORY}");
}
