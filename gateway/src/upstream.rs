//! The upstream MCP servers, reached through rmcp.
//!
//! [`Upstreams::start`] spawns every configured stdio server (concurrently), initializes
//! it and lists its tools (all pages). A server that cannot start is kept as unavailable,
//! with why; the others serve. [`Upstreams::call`] forwards one `tools/call` with a
//! deadline and answers [`Called`]: the server's `CallToolResult` as JSON, or the failure
//! member of a codemode-errors failure report.
//!
//! ## Failure mapping (from rmcp's error values, never from their text)
//!
//! | rmcp | failure member | dispatched |
//! |---|---|---|
//! | `ServiceError::McpError(ErrorData)` | `jsonrpc_error` {code, message, data?} | true |
//! | `ServiceError::Timeout` | `transport` `timeout` (rmcp sends `notifications/cancelled`) | true |
//! | `ServiceError::TransportClosed` before the request was queued | `transport` `connection_closed` | false |
//! | `ServiceError::TransportClosed` while awaiting the answer (the child exited) | `transport` `connection_closed` | true |
//! | `ServiceError::TransportSend` (writing the request failed) | `transport` `connection_closed` | false |
//! | `ServiceError::Cancelled` | `transport` `cancelled` | true |
//! | `ServiceError::UnexpectedResponse`, or a non-`CallToolResult` answer | `transport` `malformed_response` | true |
//! | any other `ServiceError` | `transport` `other` | true |
//! | namespace whose server never started, or is gone (restart failed) | `transport` `connection_refused` | false |
//! | namespace not configured | `code_mode` `unknown_tool` | false |
//! | arguments not a JSON object (nor null) | `validation` {message} | false |
//!
//! ## Crash and restart
//!
//! When a call finds the server's connection closed (the child exited), the server is
//! marked crashed. The next call to that namespace restarts it once (fresh child,
//! initialize, re-list the tools) and then makes the call. If that restart fails, the
//! server is gone for good: every later call fails at once with a transport failure
//! saying why, and [`Upstreams::unavailable`] lists it. A restarted server that crashes
//! again gets one restart again (each crash is followed by at most one restart, and
//! only when a call asks for the server).

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{CallToolRequest, CallToolRequestParams, CancelledNotificationParam, ClientRequest, RequestId, ServerResult};
use rmcp::service::{PeerRequestOptions, RunningService, ServiceError};
use rmcp::transport::TokioChildProcess;
use rmcp::{Peer, RoleClient, ServiceExt};
use serde_json::{json, Value};
use tokio::io::AsyncBufReadExt;

use crate::config::{Config, ServerConfig};

/// How many bytes of a server's stderr are kept to explain why it failed.
const STDERR_TAIL: usize = 2000;

/// How long [`Upstreams::shutdown`] waits for each child to be reaped.
const REAP_WAIT: Duration = Duration::from_secs(5);

/// One upstream tool, namespaced by its server's name.
#[derive(Clone, Debug, PartialEq)]
pub struct Tool {
    /// The server's name in the config.
    pub namespace: String,
    /// The tool's name on its server.
    pub name: String,
    /// Its description.
    pub description: Option<String>,
    /// Its `inputSchema` (a JSON Schema object).
    pub input_schema: Value,
    /// Its MCP `ToolAnnotations` as JSON (`{"readOnlyHint":true}`), when it has any.
    pub annotations: Option<Value>,
}

/// What a call came to.
#[derive(Clone, Debug, PartialEq)]
pub enum Called {
    /// The server answered with a CallToolResult (isError or not): its JSON as received
    /// (MCP shape: content, structuredContent, isError, _meta), re-serialized from rmcp's
    /// typed value.
    Result(Value),
    /// No result: the failure member of a failure report as JSON, e.g.
    /// `{"jsonrpc_error":{"code":-32602,"message":"...","data":...}}` or
    /// `{"transport":{"kind":"...","message":"..."}}`, and whether the request was
    /// dispatched to the server (handed to its stdin writer) or not.
    Failed {
        /// The failure member: `{"<tag>": {...}}`.
        failure: Value,
        /// Whether the request reached the server's connection.
        dispatched: bool,
    },
}

/// The running upstream servers. `Send + Sync`; share it behind an `Arc`.
pub struct Upstreams {
    servers: Vec<Arc<Server>>,
    by_namespace: HashMap<String, usize>,
}

/// One configured server and its state.
struct Server {
    config: ServerConfig,
    state: Mutex<State>,
    /// Held while the server restarts, so concurrent calls restart it once.
    restarting: tokio::sync::Mutex<()>,
}

enum State {
    /// Running.
    Up(Box<Live>),
    /// Its process died; the next call restarts it. The tools are the last listed.
    Crashed { why: String, tools: Vec<Tool> },
    /// It never started.
    Unavailable { why: String },
    /// It crashed and could not be restarted.
    Gone { why: String },
    /// [`Upstreams::shutdown`] stopped it.
    Stopped,
}

/// A running server.
struct Live {
    service: RunningService<RoleClient, ()>,
    peer: Peer<RoleClient>,
    tools: Vec<Tool>,
    pid: Option<u32>,
    stderr: Arc<Mutex<String>>,
    /// Counts starts, so a late failure of an old process cannot mark a new one crashed.
    generation: u64,
}

impl Upstreams {
    /// Start every configured server (concurrently), initialize, list tools (all pages).
    /// A server that cannot start (command missing, exits, never answers initialize
    /// within its `startupTimeoutMs`) does not stop the others: it is kept as unavailable
    /// with why.
    pub async fn start(config: &Config) -> Upstreams {
        let launches = config.servers.iter().map(|c| launch(c, 1));
        let results = futures::future::join_all(launches).await;
        let mut servers = Vec::new();
        let mut by_namespace = HashMap::new();
        for (config, result) in config.servers.iter().zip(results) {
            let state = match result {
                Ok(live) => State::Up(Box::new(live)),
                Err(why) => State::Unavailable { why },
            };
            by_namespace.insert(config.namespace.clone(), servers.len());
            servers.push(Arc::new(Server { config: config.clone(), state: Mutex::new(state), restarting: tokio::sync::Mutex::new(()) }));
        }
        Upstreams { servers, by_namespace }
    }

    /// Every available server's tools, namespaced, in config order then the server's order.
    /// A crashed server awaiting its restart keeps its last listed tools.
    pub fn tools(&self) -> Vec<Tool> {
        let mut out = Vec::new();
        for server in &self.servers {
            match &*server.state.lock().unwrap() {
                State::Up(live) => out.extend(live.tools.iter().cloned()),
                State::Crashed { tools, .. } => out.extend(tools.iter().cloned()),
                State::Unavailable { .. } | State::Gone { .. } | State::Stopped => {}
            }
        }
        out
    }

    /// The servers that are not available (never started, or gone after a failed restart),
    /// with why, in config order.
    pub fn unavailable(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for server in &self.servers {
            match &*server.state.lock().unwrap() {
                State::Unavailable { why } | State::Gone { why } => out.push((server.config.namespace.clone(), why.clone())),
                State::Stopped => out.push((server.config.namespace.clone(), "the gateway stopped it".to_owned())),
                State::Up(_) | State::Crashed { .. } => {}
            }
        }
        out
    }

    /// The configured call deadline (`timeoutMs`) of `namespace`'s server, if it has one.
    pub fn call_timeout(&self, namespace: &str) -> Option<Duration> {
        self.by_namespace.get(namespace).and_then(|&i| self.servers[i].config.call_timeout)
    }

    /// The process id of `namespace`'s running server (tests and diagnostics).
    pub fn pid(&self, namespace: &str) -> Option<u32> {
        let server = &self.servers[*self.by_namespace.get(namespace)?];
        match &*server.state.lock().unwrap() {
            State::Up(live) => live.pid,
            _ => None,
        }
    }

    /// Call `tool` on `namespace`'s server with `arguments` (a JSON object, or null for
    /// none) and a deadline: `timeout`, or the server's `timeoutMs` when that is shorter.
    /// The deadline covers the call itself, not a restart that precedes it (that has the
    /// server's `startupTimeoutMs`). Dropping the future cancels the call: the server is sent
    /// `notifications/cancelled`. A tool the server did not list is still forwarded.
    pub async fn call(&self, namespace: &str, tool: &str, arguments: Value, timeout: Duration) -> Called {
        let Some(&index) = self.by_namespace.get(namespace) else {
            let message = format!("no upstream server is configured for the namespace {namespace:?}");
            return failed(json!({"code_mode": {"kind": "unknown_tool", "message": message}}), false);
        };
        let arguments = match arguments {
            Value::Object(map) => Some(map),
            Value::Null => None,
            other => {
                let message = format!("the arguments of {namespace}::{tool} must be a JSON object, got {}", json_type(&other));
                return failed(json!({"validation": {"message": message}}), false);
            }
        };
        let server = &self.servers[index];
        // The server's own deadline (`timeoutMs`) caps the caller's.
        let timeout = server.config.call_timeout.map_or(timeout, |own| own.min(timeout));
        let (peer, generation) = match server.ready().await {
            Ok(ready) => ready,
            Err(called) => return called,
        };
        let mut params = CallToolRequestParams::new(tool.to_owned());
        if let Some(arguments) = arguments {
            params = params.with_arguments(arguments);
        }
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let what = format!("tools/call {tool:?} on the upstream server {namespace:?}");
        // Queue the request. A full queue waits, within the call's deadline.
        let handle =
            match tokio::time::timeout(timeout, peer.send_request_with_option(request, PeerRequestOptions::with_timeout(timeout))).await {
                Err(_) => return transport("timeout", format!("{what}: could not be sent within {} ms", timeout.as_millis()), false),
                Ok(Err(error)) => return server.failure(error, &what, generation, false),
                Ok(Ok(handle)) => handle,
            };
        // From here on the request is the service's: if this future is dropped, tell the
        // server (rmcp itself only does so on its own timeout).
        let mut guard = CancelOnDrop { peer: Some(peer.clone()), id: handle.id.clone() };
        let answer = handle.await_response().await;
        guard.peer = None;
        match answer {
            Ok(ServerResult::CallToolResult(result)) => match serde_json::to_value(&result) {
                Ok(value) => Called::Result(value),
                Err(e) => transport("malformed_response", format!("{what}: the result could not be serialized: {e}"), true),
            },
            Ok(other) => transport(
                "malformed_response",
                format!("{what}: the server answered with {} instead of a CallToolResult", server_result_name(&other)),
                true,
            ),
            Err(error) => server.failure(error, &what, generation, true),
        }
    }

    /// Stop every server: close its connection, kill its process and reap it (no zombies).
    /// Later calls fail as unavailable.
    pub async fn shutdown(&self) {
        let mut stopping = Vec::new();
        for server in &self.servers {
            let old = std::mem::replace(&mut *server.state.lock().unwrap(), State::Stopped);
            if let State::Up(live) = old {
                stopping.push(*live);
            }
        }
        futures::future::join_all(stopping.into_iter().map(stop)).await;
    }
}

impl Server {
    /// A peer to call, restarting the server first if it crashed.
    async fn ready(&self) -> Result<(Peer<RoleClient>, u64), Called> {
        if let Some(ready) = self.peer_if_up() {
            return Ok(ready);
        }
        let _restarting = self.restarting.lock().await;
        // Another call may have restarted it (or found it gone) meanwhile.
        if let Some(ready) = self.peer_if_up() {
            return Ok(ready);
        }
        let crash = {
            let state = self.state.lock().unwrap();
            match &*state {
                State::Crashed { why, .. } => why.clone(),
                State::Unavailable { why } => return Err(self.unreachable(format!("is unavailable: it did not start: {why}"))),
                State::Gone { why } => return Err(self.unreachable(format!("is gone: {why}"))),
                State::Stopped => return Err(self.unreachable("is stopped: the gateway is shutting down".to_owned())),
                State::Up(_) => unreachable!("peer_if_up handles a running server"),
            }
        };
        let next = self.next_generation();
        match launch(&self.config, next).await {
            Ok(live) => {
                let ready = (live.peer.clone(), live.generation);
                let mut state = self.state.lock().unwrap();
                if matches!(*state, State::Stopped) {
                    drop(state);
                    tokio::spawn(stop(live));
                    return Err(self.unreachable("is stopped: the gateway is shutting down".to_owned()));
                }
                *state = State::Up(Box::new(live));
                Ok(ready)
            }
            Err(why) => {
                let why = format!("its process exited ({crash}) and the restart failed: {why}");
                let mut state = self.state.lock().unwrap();
                if !matches!(*state, State::Stopped) {
                    *state = State::Gone { why: why.clone() };
                }
                Err(self.unreachable(format!("is gone: {why}")))
            }
        }
    }

    /// The running server's peer, or `None` (after marking it crashed if its connection
    /// closed since the last call).
    fn peer_if_up(&self) -> Option<(Peer<RoleClient>, u64)> {
        let mut state = self.state.lock().unwrap();
        let State::Up(live) = &*state else { return None };
        if !live.peer.is_transport_closed() {
            return Some((live.peer.clone(), live.generation));
        }
        let why = format!("the connection closed between calls{}", stderr_note(&live.stderr));
        mark_crashed(&mut state, why);
        None
    }

    fn next_generation(&self) -> u64 {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(2);
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }

    /// A failure for a server that cannot be reached: not dispatched.
    fn unreachable(&self, what: String) -> Called {
        transport("connection_refused", format!("the upstream server {:?} {what}", self.config.namespace), false)
    }

    /// The failure for an rmcp error; a closed connection marks the server crashed.
    fn failure(&self, error: ServiceError, what: &str, generation: u64, sent: bool) -> Called {
        match error {
            ServiceError::McpError(data) => {
                let mut member = serde_json::Map::new();
                member.insert("code".into(), json!(data.code.0));
                member.insert("message".into(), json!(data.message));
                if let Some(d) = data.data {
                    member.insert("data".into(), d);
                }
                failed(json!({"jsonrpc_error": member}), true)
            }
            ServiceError::Timeout { timeout } => transport(
                "timeout",
                format!("{what}: no result within {} ms; the gateway sent notifications/cancelled", timeout.as_millis()),
                true,
            ),
            ServiceError::TransportClosed => {
                let note = self.crashed(generation);
                let message = if sent {
                    format!("{what}: the connection closed before the result arrived (the server's process exited){note}")
                } else {
                    format!("{what}: the connection was already closed; nothing was sent{note}")
                };
                transport("connection_closed", message, sent)
            }
            ServiceError::TransportSend(e) => {
                let note = self.crashed(generation);
                transport("connection_closed", format!("{what}: writing the request to the server failed: {e}{note}"), false)
            }
            ServiceError::Cancelled { reason } => {
                transport("cancelled", format!("{what}: cancelled ({})", reason.as_deref().unwrap_or("no reason given")), true)
            }
            ServiceError::UnexpectedResponse => {
                transport("malformed_response", format!("{what}: the server's answer is not a tools/call result"), true)
            }
            other => transport("other", format!("{what}: {other}"), true),
        }
    }

    /// Mark the server of `generation` crashed (its next call restarts it); a note for the
    /// message with the end of its stderr.
    fn crashed(&self, generation: u64) -> String {
        let mut state = self.state.lock().unwrap();
        let State::Up(live) = &*state else { return String::new() };
        if live.generation != generation {
            return String::new();
        }
        let note = stderr_note(&live.stderr);
        mark_crashed(&mut state, format!("the connection closed during a call{note}"));
        format!("{note}; the next call restarts it")
    }
}

/// Replace a running state by `Crashed`, keeping its tools; the old service is dropped,
/// which kills and reaps its process in the background.
fn mark_crashed(state: &mut State, why: String) {
    if let State::Up(live) = std::mem::replace(state, State::Stopped) {
        let tools = live.tools.clone();
        *state = State::Crashed { why, tools };
        tokio::spawn(stop(*live));
    }
}

/// Sends `notifications/cancelled` for a request whose caller stopped waiting.
struct CancelOnDrop {
    peer: Option<Peer<RoleClient>>,
    id: RequestId,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some(peer) = self.peer.take() else { return };
        let id = self.id.clone();
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = peer.notify_cancelled(CancelledNotificationParam::new(Some(id), Some("the caller stopped waiting".into()))).await;
            });
        }
    }
}

/// Spawn, initialize and list the tools of one server within its startup deadline.
async fn launch(config: &ServerConfig, generation: u64) -> Result<Live, String> {
    let mut command = tokio::process::Command::new(&config.command);
    command.args(&config.args).envs(config.env.iter().map(|(k, v)| (k, v))).kill_on_drop(true);
    if let Some(cwd) = &config.cwd {
        command.current_dir(cwd);
    }
    let (transport, stderr_pipe) = TokioChildProcess::builder(command).stderr(Stdio::piped()).spawn().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("cannot start {:?}: the command was not found ({e})", config.command),
        _ => format!("cannot start {:?}: {e}", config.command),
    })?;
    let pid = transport.id();
    let stderr = Arc::new(Mutex::new(String::new()));
    if let Some(pipe) = stderr_pipe {
        tokio::spawn(collect_stderr(pipe, config.namespace.clone(), stderr.clone()));
    }
    let deadline = config.startup_timeout;
    let started = tokio::time::timeout(deadline, async {
        let service = ().serve(transport).await.map_err(|e| initialize_error(&e))?;
        let has_tools = service.peer_info().map(|info| info.capabilities.tools.is_some()).unwrap_or(true);
        let tools = if has_tools { service.list_all_tools().await.map_err(|e| format!("tools/list failed: {e}"))? } else { Vec::new() };
        Ok::<_, String>((service, tools))
    })
    .await;
    let (service, tools) = match started {
        Ok(Ok(started)) => started,
        Ok(Err(why)) => {
            // Let the reader catch the last lines the process wrote before it went.
            tokio::time::sleep(Duration::from_millis(50)).await;
            return Err(format!("{why}{}", stderr_note(&stderr)));
        }
        Err(_) => {
            return Err(format!(
                "it did not answer initialize and tools/list within {} ms (startupTimeoutMs){}",
                deadline.as_millis(),
                stderr_note(&stderr)
            ))
        }
    };
    let tools = tools
        .into_iter()
        .map(|t| Tool {
            namespace: config.namespace.clone(),
            name: t.name.to_string(),
            description: t.description.map(|d| d.to_string()),
            input_schema: Value::Object((*t.input_schema).clone()),
            annotations: t.annotations.and_then(|a| serde_json::to_value(a).ok()),
        })
        .collect();
    let peer = service.peer().clone();
    Ok(Live { service, peer, tools, pid, stderr, generation })
}

/// Why initialize failed, from rmcp's error value.
fn initialize_error(error: &rmcp::service::ClientInitializeError) -> String {
    use rmcp::service::ClientInitializeError as E;
    match error {
        E::ConnectionClosed(_) => "the process exited (or closed its stdout) before answering initialize".to_owned(),
        E::JsonRpcError(data) => format!("initialize was answered with JSON-RPC error {}: {}", data.code.0, data.message),
        other => format!("initialize failed: {other}"),
    }
}

/// Close one server's connection and wait until its process is gone.
async fn stop(live: Live) {
    let Live { service, pid, .. } = live;
    // Cancelling the service drops the transport, which kills the child (rmcp) and
    // reaps it in a task; wait for that so no zombie outlives the gateway.
    let _ = tokio::time::timeout(REAP_WAIT, service.cancel()).await;
    if let Some(pid) = pid {
        let deadline = tokio::time::Instant::now() + REAP_WAIT;
        while process_exists(pid) && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// Whether process `pid` still exists (running or an unreaped zombie).
fn process_exists(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        std::path::Path::new(&format!("/proc/{pid}")).exists()
    } else {
        false
    }
}

/// Forward a server's stderr to the gateway's stderr, line by line with its namespace,
/// and keep its last [`STDERR_TAIL`] bytes.
async fn collect_stderr(pipe: tokio::process::ChildStderr, namespace: String, tail: Arc<Mutex<String>>) {
    let mut lines = tokio::io::BufReader::new(pipe).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        eprintln!("[{namespace}] {line}");
        let mut tail = tail.lock().unwrap();
        tail.push_str(&line);
        tail.push('\n');
        if tail.len() > STDERR_TAIL {
            let mut cut = tail.len() - STDERR_TAIL;
            while !tail.is_char_boundary(cut) {
                cut += 1;
            }
            tail.drain(..cut);
        }
    }
}

/// `; its stderr ended with: "..."`, or nothing when it wrote nothing.
fn stderr_note(tail: &Mutex<String>) -> String {
    let tail = tail.lock().unwrap();
    let text = tail.trim();
    if text.is_empty() {
        return String::new();
    }
    // The last 500 characters, on whole lines where possible.
    let chars: Vec<char> = text.chars().collect();
    let start = chars.len().saturating_sub(500);
    let shown: String = chars[start..].iter().collect();
    format!("; its stderr ended with: {shown:?}")
}

fn failed(failure: Value, dispatched: bool) -> Called {
    Called::Failed { failure, dispatched }
}

fn transport(kind: &str, message: String, dispatched: bool) -> Called {
    failed(json!({"transport": {"kind": kind, "message": message}}), dispatched)
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The MCP result type of an unexpected answer, for the message.
fn server_result_name(result: &ServerResult) -> String {
    let debug = format!("{result:?}");
    debug.split(['(', ' ', '{']).next().unwrap_or("another result").to_owned()
}
