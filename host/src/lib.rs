//! # codemode-errors-host
//!
//! Runs the codemode-errors core as a WASI component under wasmtime, with a memory bound,
//! an execution bound and an input bound on every call, or natively, behind one API:
//!
//! ```
//! use codemode_errors_host::{ComponentEngine, Engine, Limits};
//!
//! let policy = codemode_errors::Policy::default();
//! let engine = Engine::Component(ComponentEngine::new(&policy, Limits::default())?);
//! // Engine::Native(NativeEngine::new(&policy, Limits::default())) answers byte for byte the same.
//! let report = r#"{"tool":"fs::read_file","tool_result":{"content":[{"type":"text","text":"ENOENT"}],"isError":true}}"#;
//! match engine.normalize_json(report) {
//!     Ok(outcome) => println!("reject with new Error({})", outcome.error.map(|e| e.json).unwrap_or_default()),
//!     Err(e) => println!("reject with new Error({})", e.to_outcome(Some("fs::read_file")).json),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! No rule lives here: the host converts values and enforces limits; the core decides.

#![deny(missing_docs)]

mod bindings;
pub mod cache;
mod component;
pub mod deadline;
mod engine;
mod error;
mod exec;
pub mod limits;
mod native;
pub mod pretty;
mod session;
mod store;

// The conversions between core values and WIT values, the same ones the guest makes on
// its side of the component boundary, expanded over this crate's generated types.
codemode_errors_wit_convert::conversions!(crate::bindings::exports::codemode::errors::api);

use codemode_errors as core;

pub use cache::{CacheEvent, CompileCache};
pub use component::{ComponentEngine, KEEP_RESIDENT_BYTES, MAX_CONCURRENT_CALLS};
pub use engine::Engine;
pub use error::{code_name, core_code, AbortCause, Aborted, HostError, SetupError};
pub use exec::{CompletedRun, GuestStack, SyntaxReport};
pub use limits::Limits;
pub use native::NativeEngine;
pub use session::Session;
pub use store::CallLimiter;

/// The types of the `codemode:errors/api` WIT interface, as both engines return them.
pub mod wit {
    pub use crate::bindings::exports::codemode::errors::api::{
        Blocked, Breaker, CallContext, CallError, ErrorCode, Evidence, ExecRequest, Failure, FailurePhase, InputError, InvalidArgument,
        JsEngine, JsonrpcError, KindSource, Origin, Outcome, Policy, Projection, Recovery, RecoveryAction, RedactionCount, RunError,
        RunErrorCode, SameArguments, SideEffects, TokenAlphabet, TokenFormat, ToolAnnotations, TransportFailure, TransportKind,
        ValidationFailure, Wrapping,
    };
}

/// The guest component (`codemode-errors-guest` built for `wasm32-wasip2`), embedded.
///
/// ```
/// use codemode_errors_host::{CompileCache, ComponentEngine, Limits, GUEST_COMPONENT};
/// assert_eq!(&GUEST_COMPONENT[..4], b"\0asm");
/// let engine = ComponentEngine::with_component(GUEST_COMPONENT, &CompileCache::from_env(), &Default::default(), Limits::default())?;
/// assert_eq!(engine.schema()?, codemode_errors::SCHEMA);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const GUEST_COMPONENT: &[u8] = include_bytes!(env!("CODEMODE_ERRORS_GUEST_WASM"));

/// The bytes of text a typed report carries, for the input bound.
fn typed_input_len(context: &wit::CallContext, failure: &wit::Failure) -> usize {
    let opt = |s: &Option<String>| s.as_ref().map_or(0, String::len);
    let failure_len = match failure {
        wit::Failure::ToolResult(json) => json.len(),
        wit::Failure::JsonrpcError(e) => e.message.len() + opt(&e.data),
        wit::Failure::Transport(t) => t.message.len(),
        wit::Failure::Validation(v) => {
            opt(&v.arguments)
                + opt(&v.input_schema)
                + opt(&v.message)
                + v.problems.iter().map(|p| p.path.len() + p.problem.len()).sum::<usize>()
        }
        wit::Failure::Policy(b) | wit::Failure::Budget(b) | wit::Failure::CodeMode(b) => b.kind.len() + b.message.len(),
    };
    opt(&context.tool) + opt(&context.input_schema) + opt(&context.arguments) + failure_len
}

// The README's Rust examples, run as doctests here, where both the core and this crate are
// dependencies (js-package/test/docs.test.mjs runs the other blocks).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
mod readme_examples {}
