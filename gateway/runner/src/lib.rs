//! The gateway's JavaScript runner component: boa in a WASI component (world `runner` in
//! gateway/wit/runner.wit). The host makes a fresh instance per run; model code reaches
//! the outside only through `codemode.<namespace>.<tool>(args)` (the `start-call` and
//! `wait-call` imports) and `console` (the `log` import).

pub mod findings;

#[cfg(target_arch = "wasm32")]
mod guest;
