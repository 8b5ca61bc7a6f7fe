//! codemode-gateway: a code-mode MCP gateway in Rust.
//!
//! Model code runs in a JavaScript engine compiled into a WASI component ([`runner`]),
//! hosted by wasmtime with a fresh store per run, a deadline and a memory limit; its only
//! way out is `codemode.<namespace>.<tool>(args)`, a host import. Tools are the MCP servers
//! a config file names ([`config`]), reached through rmcp ([`upstream`]). Every failure is
//! normalized by the codemode-errors WASI component (`codemode-errors-host`), and a run ends
//! by the core's run rules ([`execute`]). [`server`] exposes it all as an MCP server.

pub mod config;
pub mod runner;
pub mod upstream;
pub mod execute;
pub mod server;
