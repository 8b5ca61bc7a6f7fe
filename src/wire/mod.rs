//! The wire types: what the core emits. The call error of contract version 1 and the
//! outcome around it, the terminal error of a run, and the MCP envelope of an uncaught
//! failure. Serialization is hand-written so the bytes are fixed.

pub(crate) mod call_error;
pub(crate) mod envelope;
pub(crate) mod run_error;
pub(crate) mod transport;

pub use call_error::{
    Breaker, CodeModeCallError, ContentDescriptor, Evidence, InvalidArgument, KindSource, Origin, Outcome, Recovery, RecoveryAction,
    ResourceBody, Safety, SameArguments, ShownText, SideEffects, CONTRACT_VERSION,
};
pub use run_error::{FailurePhase, RunError, RunErrorCode};
pub use transport::TransportKind;
