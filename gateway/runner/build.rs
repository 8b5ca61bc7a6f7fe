//! Link settings of the runner component.
//!
//! Boa's parser and bytecompiler recurse per nesting level, on the shadow stack in linear
//! memory (Rust's wasm targets put it first, so an overflow faults below address 0 instead
//! of corrupting the heap). The default 1 MiB ran out on deeply nested sources before the
//! host's wasm stack limit did; a larger stack gives boa's own limits room to speak first.
//! The linear memory starts just above the stack plus room for a small run's heap, so a
//! typical run does not grow the memory (pages are only touched when used).

/// The shadow stack, in bytes.
const STACK: u32 = 4 << 20;
/// The initial linear memory, in bytes (a multiple of the 64 KiB WebAssembly page).
const INITIAL_MEMORY: u32 = STACK + (4 << 20);

fn main() {
    println!("cargo:rustc-link-arg-cdylib=-zstack-size={STACK}");
    println!("cargo:rustc-link-arg-cdylib=--initial-memory={INITIAL_MEMORY}");
}
