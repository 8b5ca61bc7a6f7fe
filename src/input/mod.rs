//! The inputs: failure reports (one JSON shape for every surface, or built with typed
//! constructors), run reports, exceptions thrown by MCP clients, and contract objects read
//! back from `Error.message` by a tolerant reader.

pub(crate) mod call_error;
pub(crate) mod failure_report;
pub(crate) mod run_report;
pub(crate) mod thrown;

pub use call_error::{call_error_from_value, parse_call_error};
pub use failure_report::{CallArguments, CallHeader, Failure, FailureReport, ToolName, ValidationFailure};
pub use run_report::{RunFailure, RunReport};
