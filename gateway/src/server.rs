//! The gateway as an MCP server (rmcp): two tools, `search` and `execute`.
//!
//! `search` lists the upstream tools a model can call from its code, with their input
//! schemas and annotations; `execute` runs the model's code and answers with the run's
//! object: a completed run as the result's JSON text and structured content, a failed run
//! the same with `isError: true`.

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Implementation, JsonObject, ServerCapabilities, ServerConfig};
use rmcp::{schemars, tool, tool_handler, tool_router, ErrorData, ServerHandler};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

use crate::execute::Gateway;

/// The arguments of `search`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    /// Words to look for in tool names and descriptions (every word must occur); empty or
    /// left out lists every tool.
    #[serde(default)]
    pub query: Option<String>,
}

/// The arguments of `execute` (their schema; the core's `request` step reads them).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExecuteArgs {
    /// JavaScript: the body of an async function. Call tools as
    /// `await codemode.<namespace>.<tool>(args)`; `return` the result.
    pub code: String,
    /// Whether running this code again from the start after a failure is safe.
    #[serde(default, rename = "restartSafe")]
    pub restart_safe: Option<bool>,
}

const EXECUTE: &str = "Run JavaScript (the body of an async function) that calls tools as `await codemode.<namespace>.<tool>(args)`; `return` what you want back. A failed call rejects with an Error whose message is a JSON contract object (`JSON.parse(e.message)`: kind, origin, recovery, evidence, never a secret). The answer is the run's object: status completed (value, output) or failed (code, message, failurePhase, toolError, ...).";

const SEARCH: &str = "Find the tools `execute` can call: each with its call path (`codemode.<namespace>.<tool>`), description, input schema and annotations.";

/// The MCP server: `search` and `execute` over a [`Gateway`].
#[derive(Clone)]
pub struct GatewayServer {
    gateway: Gateway,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl GatewayServer {
    /// A server over `gateway`.
    pub fn new(gateway: Gateway) -> Self {
        GatewayServer { gateway, tool_router: Self::tool_router() }
    }

    #[tool(description = SEARCH, annotations(read_only_hint = true, open_world_hint = false))]
    async fn search(&self, Parameters(args): Parameters<SearchArgs>) -> Result<CallToolResult, ErrorData> {
        Ok(CallToolResult::structured(search(&self.gateway, args.query.as_deref().unwrap_or(""))))
    }

    // The arguments go to the core as sent (its `request` step reads and checks them: an
    // unknown member or a wrong type is the run's `invalid_input`, as on every surface);
    // `ExecuteArgs` only describes them.
    #[tool(description = EXECUTE, input_schema = rmcp::handler::server::common::schema_for_type::<ExecuteArgs>())]
    async fn execute(&self, arguments: JsonObject, cancel: CancellationToken) -> Result<CallToolResult, ErrorData> {
        let result = self.gateway.execute(Value::Object(arguments), Some(cancel)).await;
        Ok(if result.get("status").and_then(Value::as_str) == Some("completed") {
            CallToolResult::structured(result)
        } else {
            CallToolResult::structured_error(result)
        })
    }
}

/// The tools whose name or description holds every word of `query` (ASCII case folded).
///
/// ```no_run
/// # async fn f(gateway: codemode_gateway::execute::Gateway) {
/// let found = codemode_gateway::server::search(&gateway, "read file");
/// assert!(found["tools"].as_array().is_some());
/// # }
/// ```
pub fn search(gateway: &Gateway, query: &str) -> Value {
    let words: Vec<String> = query.split_whitespace().map(str::to_ascii_lowercase).collect();
    let tools: Vec<Value> = gateway
        .tools()
        .iter()
        .filter(|t| {
            let haystack = format!("{} {} {}", t.namespace, t.name, t.description.as_deref().unwrap_or("")).to_ascii_lowercase();
            words.iter().all(|w| haystack.contains(w.as_str()))
        })
        .map(|t| {
            let mut entry = json!({
                "call": format!("codemode.{}.{}", t.namespace, t.name),
                "namespace": t.namespace,
                "name": t.name,
                "inputSchema": t.input_schema,
            });
            if let Some(d) = &t.description {
                entry["description"] = Value::String(d.clone());
            }
            if let Some(a) = &t.annotations {
                entry["annotations"] = a.clone();
            }
            entry
        })
        .collect();
    let unavailable: Vec<Value> =
        gateway.unavailable().into_iter().map(|(namespace, why)| json!({"namespace": namespace, "why": why})).collect();
    json!({"tools": tools, "unavailable": unavailable})
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for GatewayServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("codemode-gateway", env!("CARGO_PKG_VERSION")))
            .with_instructions("Code mode: find tools with `search`, then call them from JavaScript with `execute`.")
    }
}
