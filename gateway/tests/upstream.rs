//! Upstreams against real stdio MCP servers: the npm reference servers (filesystem,
//! everything; Node.js 20+ and `npm ci` in examples/node-sandbox) and a Python server on
//! the official `mcp` SDK (gateway/tests/servers/py_server.py; a Python with `mcp` 2.x at
//! target/py/gateway/bin/python, or CODEMODE_GATEWAY_PYTHON). Missing tools fail the tests with
//! a message saying what to install: they do not skip.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use codemode_gateway::config::{Config, ServerConfig};
use codemode_gateway::upstream::{Called, Upstreams};
use serde_json::{json, Value};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_owned()
}

fn node() -> String {
    let ok = std::process::Command::new("node").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    assert!(ok, "these tests need `node` (Node.js 20+) on PATH to run the npm reference MCP servers");
    "node".to_owned()
}

fn npm_server(package: &str) -> String {
    let path = repo().join("examples/node-sandbox/node_modules/@modelcontextprotocol").join(package).join("dist/index.js");
    assert!(
        path.exists(),
        "{} is missing: run `npm ci` in examples/node-sandbox (it installs @modelcontextprotocol/{package})",
        path.display()
    );
    path.to_string_lossy().into_owned()
}

fn python() -> String {
    let python = std::env::var("CODEMODE_GATEWAY_PYTHON")
        .unwrap_or_else(|_| repo().join("target/py/gateway/bin/python").to_string_lossy().into_owned());
    let ok = std::process::Command::new(&python)
        .args(["-c", "import mcp.server.mcpserver"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    assert!(
        ok,
        "these tests need a Python 3.10+ with the official MCP SDK 2.x (`pip install 'mcp>=2,<3'`) at {python} \
         (or set CODEMODE_GATEWAY_PYTHON to one)"
    );
    python
}

fn py_server(namespace: &str) -> ServerConfig {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/servers/py_server.py");
    let mut server = ServerConfig::new(namespace, &python(), [script.to_string_lossy().into_owned()]);
    server.startup_timeout = Duration::from_secs(20);
    server
}

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-gateway-upstream-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.canonicalize().unwrap()
}

fn result(called: &Called) -> &Value {
    match called {
        Called::Result(v) => v,
        other => panic!("expected a CallToolResult, got {other:?}"),
    }
}

fn failure(called: &Called) -> (&Value, bool) {
    match called {
        Called::Failed { failure, dispatched } => (failure, *dispatched),
        other => panic!("expected a failure, got {other:?}"),
    }
}

fn text(result: &Value) -> String {
    result["content"].as_array().unwrap().iter().filter_map(|c| c["text"].as_str()).collect::<Vec<_>>().join("\n")
}

/// The failure report for `called` on `tool`, normalized by the core: (kind, origin).
fn normalized(tool: &str, called: &Called) -> (String, String) {
    let mut report = serde_json::Map::new();
    report.insert("tool".into(), json!(tool));
    match called {
        Called::Result(result) => {
            report.insert("dispatched".into(), json!(true));
            report.insert("tool_result".into(), result.clone());
        }
        Called::Failed { failure, dispatched } => {
            report.insert("dispatched".into(), json!(dispatched));
            for (k, v) in failure.as_object().expect("a failure member is an object") {
                report.insert(k.clone(), v.clone());
            }
        }
    }
    let text = Value::Object(report).to_string();
    codemode_errors::parse_json(&text).expect("the report is JSON the core reads");
    let outcome = codemode_errors::Normalizer::default().normalize_json(&text).unwrap_or_else(|e| panic!("the core refused {text}: {e}"));
    let error = outcome.error.unwrap_or_else(|| panic!("the core found no failure in {text}"));
    let error_json: Value = serde_json::from_str(&error.to_json()).unwrap();
    assert_eq!(error_json["dispatched"], report_dispatched(&text), "dispatched is carried into the error: {error_json}");
    (error.kind.as_str().to_owned(), error.origin.as_str().to_owned())
}

fn report_dispatched(report: &str) -> Value {
    serde_json::from_str::<Value>(report).unwrap()["dispatched"].clone()
}

fn transport_kind(called: &Called) -> &str {
    failure(called).0["transport"]["kind"].as_str().unwrap_or_else(|| panic!("not a transport failure: {called:?}"))
}

fn transport_message(called: &Called) -> &str {
    failure(called).0["transport"]["message"].as_str().unwrap()
}

const LONG: Duration = Duration::from_secs(20);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn npm_reference_servers() {
    let node = node();
    let fs_js = npm_server("server-filesystem");
    let everything_js = npm_server("server-everything");
    let allowed = temp_dir("fs");
    std::fs::write(allowed.join("hello.txt"), "hello from the allowed dir").unwrap();
    let mut config = Config::default();
    config.servers.push(ServerConfig::new("fs", &node, [fs_js, allowed.to_string_lossy().into_owned()]));
    config.servers.push(ServerConfig::new("everything", &node, [everything_js, "stdio".to_owned()]));
    config.servers.push(ServerConfig::new("missing", "codemode-no-such-command-xyz", ["--flag"]));

    let t = Instant::now();
    let upstreams = Upstreams::start(&config).await;
    eprintln!("timing: start fs + everything + missing (concurrently): {:?}", t.elapsed());

    // The missing command is unavailable, with why; the others serve.
    let unavailable = upstreams.unavailable();
    assert_eq!(unavailable.len(), 1, "{unavailable:?}");
    assert_eq!(unavailable[0].0, "missing");
    assert!(unavailable[0].1.contains("\"codemode-no-such-command-xyz\": the command was not found"), "{}", unavailable[0].1);
    let called = upstreams.call("missing", "anything", json!({}), LONG).await;
    assert_eq!((transport_kind(&called), failure(&called).1), ("connection_refused", false));
    assert!(transport_message(&called).contains("\"missing\" is unavailable: it did not start: cannot start"), "{called:?}");
    assert_eq!(normalized("missing::anything", &called), ("network_error".into(), "upstream_transport".into()));

    // Tools, namespaced, with schemas and annotations.
    let tools = upstreams.tools();
    let read = tools.iter().find(|t| t.namespace == "fs" && t.name == "read_text_file").expect("fs::read_text_file listed");
    assert_eq!(read.input_schema["type"], "object");
    assert!(read.input_schema["properties"]["path"].is_object(), "{}", read.input_schema);
    assert_eq!(read.annotations.as_ref().unwrap()["readOnlyHint"], true);
    assert!(read.description.as_deref().unwrap_or("").len() > 10);
    let write = tools.iter().find(|t| t.namespace == "fs" && t.name == "write_file").unwrap();
    assert_eq!(write.annotations.as_ref().unwrap()["readOnlyHint"], false);
    assert!(tools.iter().any(|t| t.namespace == "everything" && t.name == "echo"));
    assert!(tools.iter().all(|t| t.namespace != "missing"));
    eprintln!(
        "fs tools: {}, everything tools: {}",
        tools.iter().filter(|t| t.namespace == "fs").count(),
        tools.iter().filter(|t| t.namespace == "everything").count()
    );

    // A good call.
    let path = allowed.join("hello.txt").to_string_lossy().into_owned();
    let t = Instant::now();
    let called = upstreams.call("fs", "read_text_file", json!({"path": path}), LONG).await;
    eprintln!("timing: first fs call round trip: {:?}", t.elapsed());
    let r = result(&called);
    assert_ne!(r["isError"], true, "{r}");
    assert_eq!(text(r), "hello from the allowed dir");
    let mut times = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let called = upstreams.call("fs", "read_text_file", json!({"path": path}), LONG).await;
        times.push(t.elapsed());
        assert_eq!(text(result(&called)), "hello from the allowed dir");
    }
    times.sort();
    eprintln!("timing: fs call round trip median of 20: {:?}", times[10]);

    // A failing call: a path outside the allowed dir is an isError result.
    let called = upstreams.call("fs", "read_text_file", json!({"path": "/etc/hostname"}), LONG).await;
    let r = result(&called);
    assert_eq!(r["isError"], true, "{r}");
    assert!(text(r).contains("Access denied"), "{r}");
    let (kind, origin) = normalized("fs::read_text_file", &called);
    assert_eq!((kind.as_str(), origin.as_str()), ("path_traversal", "tool_execution"), "{r}");

    // Invalid arguments and an unknown tool: the TypeScript SDK answers both with an
    // isError result quoting the JSON-RPC error, not a JSON-RPC error.
    let called = upstreams.call("fs", "read_text_file", json!({"path": 5}), LONG).await;
    let r = result(&called);
    assert_eq!(r["isError"], true, "{r}");
    assert!(text(r).contains("-32602"), "{r}");
    let called = upstreams.call("fs", "no_such_tool", json!({}), LONG).await;
    let r = result(&called);
    assert_eq!(r["isError"], true, "{r}");
    assert!(text(r).contains("no_such_tool"), "{r}");
    eprintln!("unknown tool on fs: {r}");

    // Arguments that are not an object are refused before anything is sent.
    let called = upstreams.call("fs", "read_text_file", json!("a string"), LONG).await;
    let (f, dispatched) = failure(&called);
    assert!(!dispatched);
    assert!(f["validation"]["message"].as_str().unwrap().contains("must be a JSON object, got a string"), "{f}");
    assert_eq!(normalized("fs::read_text_file", &called).1, "validation");
    // A namespace nobody configured.
    let called = upstreams.call("nope", "t", json!({}), LONG).await;
    assert_eq!(
        failure(&called),
        (&json!({"code_mode": {"kind": "unknown_tool", "message": "no upstream server is configured for the namespace \"nope\""}}), false)
    );
    assert_eq!(normalized("nope::t", &called), ("unknown_tool".into(), "code_mode".into()));

    // A call over its deadline: a transport timeout, and the session still works.
    let t = Instant::now();
    let called = upstreams
        .call("everything", "trigger-long-running-operation", json!({"duration": 5, "steps": 5}), Duration::from_millis(500))
        .await;
    let elapsed = t.elapsed();
    assert_eq!((transport_kind(&called), failure(&called).1), ("timeout", true), "{called:?}");
    assert!(elapsed >= Duration::from_millis(500) && elapsed < Duration::from_millis(2000), "{elapsed:?}");
    assert!(transport_message(&called).contains("no result within 500 ms"), "{called:?}");
    assert_eq!(normalized("everything::trigger-long-running-operation", &called), ("timeout".into(), "upstream_transport".into()));
    let called = upstreams.call("everything", "echo", json!({"message": "still here"}), LONG).await;
    assert!(text(result(&called)).contains("still here"), "{called:?}");

    // Shutdown kills and reaps every child.
    let pids: Vec<u32> = ["fs", "everything"].iter().map(|ns| upstreams.pid(ns).expect("running")).collect();
    upstreams.shutdown().await;
    for pid in pids {
        assert!(!Path::new(&format!("/proc/{pid}")).exists(), "process {pid} outlived shutdown");
    }
    let called = upstreams.call("fs", "read_text_file", json!({"path": path}), LONG).await;
    assert_eq!((transport_kind(&called), failure(&called).1), ("connection_refused", false));
    std::fs::remove_dir_all(&allowed).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_server_results_errors_and_timeouts() {
    let dir = temp_dir("py");
    let mut config = Config::default();
    config.servers.push(py_server("py"));
    let t = Instant::now();
    let upstreams = Upstreams::start(&config).await;
    eprintln!("timing: start the Python server: {:?}", t.elapsed());
    assert_eq!(upstreams.unavailable(), []);

    let tools = upstreams.tools();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    for name in ["echo", "pid", "fail", "rpc_error", "crash", "slow"] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    let echo = tools.iter().find(|t| t.name == "echo").unwrap();
    assert_eq!(echo.namespace, "py");
    assert_eq!(echo.annotations, Some(json!({"readOnlyHint": true})));
    assert_eq!(echo.input_schema["required"], json!(["text"]));
    assert_eq!(echo.description.as_deref(), Some("Return the text unchanged."));

    let t = Instant::now();
    let called = upstreams.call("py", "echo", json!({"text": "hi"}), LONG).await;
    eprintln!("timing: first Python call round trip: {:?}", t.elapsed());
    let r = result(&called);
    assert_eq!(text(r), "hi");
    assert_eq!(r["structuredContent"], json!({"result": "hi"}));
    assert_ne!(r["isError"], true);

    // A raising tool: an isError result.
    let called = upstreams.call("py", "fail", json!({"message": "the disk is on fire"}), LONG).await;
    let r = result(&called);
    assert_eq!(r["isError"], true, "{r}");
    assert!(text(r).contains("the disk is on fire"), "{r}");
    assert_eq!(normalized("py::fail", &called).1, "tool_execution");

    // A real JSON-RPC error, with its data.
    let called = upstreams.call("py", "rpc_error", json!({"message": "bad message"}), LONG).await;
    assert_eq!(
        failure(&called),
        (&json!({"jsonrpc_error": {"code": -32602, "message": "bad message", "data": {"field": "message"}}}), true)
    );
    assert_eq!(normalized("py::rpc_error", &called), ("invalid_param".into(), "validation".into()));

    // Over its deadline: rmcp's timeout sends notifications/cancelled, which the server's
    // handler sees as a cancellation.
    let marker = dir.join("cancel-timeout");
    let t = Instant::now();
    let called = upstreams.call("py", "slow", json!({"seconds": 5, "marker": marker}), Duration::from_millis(300)).await;
    let elapsed = t.elapsed();
    assert_eq!((transport_kind(&called), failure(&called).1), ("timeout", true), "{called:?}");
    assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
    assert_eq!(normalized("py::slow", &called), ("timeout".into(), "upstream_transport".into()));
    wait_for_file(&marker, "cancelled").await;

    // Dropping the call's future cancels it too.
    let marker = dir.join("cancel-drop");
    let dropped =
        tokio::time::timeout(Duration::from_millis(300), upstreams.call("py", "slow", json!({"seconds": 5, "marker": marker}), LONG)).await;
    assert!(dropped.is_err(), "the slow call finished early: {dropped:?}");
    wait_for_file(&marker, "cancelled").await;

    // Calls run concurrently on one server: two 1.5 s calls end well before 3 s (the
    // margin is for a loaded machine).
    let t = Instant::now();
    let (a, b) = tokio::join!(
        upstreams.call("py", "slow", json!({"seconds": 1.5}), LONG),
        upstreams.call("py", "slow", json!({"seconds": 1.5}), LONG)
    );
    assert_eq!((text(result(&a)), text(result(&b))), ("slept".into(), "slept".into()));
    assert!(t.elapsed() < Duration::from_millis(2_700), "two 1.5 s calls took {:?}", t.elapsed());
    let called = upstreams.call("py", "echo", json!({"text": "after"}), LONG).await;
    assert_eq!(text(result(&called)), "after");
    upstreams.shutdown().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

async fn wait_for_file(path: &Path, content: &str) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if std::fs::read_to_string(path).map(|s| s.contains(content)).unwrap_or(false) {
            return;
        }
        assert!(Instant::now() < deadline, "{} never said {content:?}: the server did not see notifications/cancelled", path.display());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_server_crash_restarts_once() {
    let dir = temp_dir("crash");
    let starts = dir.join("starts");
    let mut server = py_server("py");
    server.env.push(("START_MARKER".into(), starts.to_string_lossy().into_owned()));
    let config = Config { servers: vec![server] };
    let upstreams = Upstreams::start(&config).await;
    assert_eq!(upstreams.unavailable(), []);
    let first_pid = upstreams.pid("py").unwrap();
    let called = upstreams.call("py", "pid", json!({}), LONG).await;
    assert_eq!(text(result(&called)), first_pid.to_string());

    // The process exits mid-call: connection closed, dispatched.
    let called = upstreams.call("py", "crash", json!({}), LONG).await;
    assert_eq!((transport_kind(&called), failure(&called).1), ("connection_closed", true), "{called:?}");
    let message = transport_message(&called);
    assert!(message.contains("the connection closed before the result arrived"), "{message}");
    assert_eq!(normalized("py::crash", &called), ("network_error".into(), "upstream_transport".into()));
    // The catalog keeps the crashed server's tools until it restarts.
    assert!(upstreams.tools().iter().any(|t| t.name == "echo"));
    assert_eq!(upstreams.unavailable(), []);

    // The next call restarts it (a fresh process) and succeeds.
    let t = Instant::now();
    let called = upstreams.call("py", "pid", json!({}), LONG).await;
    eprintln!("timing: restart + call: {:?}", t.elapsed());
    let second_pid: u32 = text(result(&called)).parse().unwrap();
    assert_ne!(second_pid, first_pid);
    assert_eq!(upstreams.pid("py"), Some(second_pid));
    assert_eq!(std::fs::read_to_string(&starts).unwrap().lines().count(), 2);
    assert!(!Path::new(&format!("/proc/{first_pid}")).exists(), "the crashed process {first_pid} was not reaped");
    let called = upstreams.call("py", "echo", json!({"text": "back"}), LONG).await;
    assert_eq!(text(result(&called)), "back");
    assert_eq!(std::fs::read_to_string(&starts).unwrap().lines().count(), 2, "no restart without a crash");
    upstreams.shutdown().await;
    assert!(!Path::new(&format!("/proc/{second_pid}")).exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_server_failed_restart_is_gone() {
    let dir = temp_dir("gone");
    let starts = dir.join("starts");
    let poison = dir.join("poison");
    let mut server = py_server("py");
    server.env.push(("START_MARKER".into(), starts.to_string_lossy().into_owned()));
    server.env.push(("CRASH_ON_START_IF_EXISTS".into(), poison.to_string_lossy().into_owned()));
    let upstreams = Upstreams::start(&Config { servers: vec![server] }).await;
    assert_eq!(upstreams.unavailable(), []);
    std::fs::write(&poison, "").unwrap();
    let called = upstreams.call("py", "crash", json!({}), LONG).await;
    assert_eq!(transport_kind(&called), "connection_closed");

    // The restart fails: the call fails, not dispatched, saying the server is gone and why.
    let called = upstreams.call("py", "echo", json!({"text": "x"}), LONG).await;
    assert_eq!((transport_kind(&called), failure(&called).1), ("connection_refused", false), "{called:?}");
    let message = transport_message(&called);
    assert!(message.contains("\"py\" is gone: its process exited"), "{message}");
    assert!(message.contains("the restart failed: the process exited (or closed its stdout) before answering initialize"), "{message}");
    assert!(message.contains("CRASH_ON_START is set"), "the stderr tail explains it: {message}");
    assert_eq!(normalized("py::echo", &called), ("network_error".into(), "upstream_transport".into()));
    let unavailable = upstreams.unavailable();
    assert_eq!(unavailable.len(), 1);
    assert!(unavailable[0].1.contains("the restart failed"), "{unavailable:?}");
    assert!(upstreams.tools().is_empty());
    // Gone for good: no further restart attempts.
    let called = upstreams.call("py", "echo", json!({"text": "x"}), LONG).await;
    assert_eq!(transport_kind(&called), "connection_refused");
    assert_eq!(std::fs::read_to_string(&starts).unwrap().lines().count(), 2);
    upstreams.shutdown().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_that_cannot_start() {
    let mut exits = py_server("exits");
    exits.env.push(("CRASH_ON_START".into(), "1".into()));
    let mut silent = ServerConfig::new("silent", "sleep", ["30"]);
    silent.startup_timeout = Duration::from_millis(300);
    let mut bad_cwd = py_server("badcwd");
    bad_cwd.cwd = Some(PathBuf::from("/nonexistent/codemode-gateway"));
    // A working server with a call deadline of its own.
    let mut ok = py_server("ok");
    ok.call_timeout = Some(Duration::from_millis(400));
    let config = Config { servers: vec![exits, silent, bad_cwd, ok] };
    let t = Instant::now();
    let upstreams = Upstreams::start(&config).await;
    assert!(t.elapsed() < Duration::from_secs(15), "start took {:?}", t.elapsed());
    let unavailable = upstreams.unavailable();
    let why = |ns: &str| {
        unavailable.iter().find(|(n, _)| n == ns).map(|(_, w)| w.clone()).unwrap_or_else(|| panic!("{ns} not unavailable: {unavailable:?}"))
    };
    assert!(why("exits").starts_with("the process exited (or closed its stdout) before answering initialize"), "{}", why("exits"));
    assert!(why("exits").contains("CRASH_ON_START is set"), "{}", why("exits"));
    assert_eq!(why("silent"), "it did not answer initialize and tools/list within 300 ms (startupTimeoutMs)");
    assert!(why("badcwd").starts_with("cannot start"), "{}", why("badcwd"));
    assert_eq!(unavailable.len(), 3, "{unavailable:?}");
    assert!(upstreams.tools().iter().all(|t| t.namespace == "ok") && !upstreams.tools().is_empty());
    let called = upstreams.call("ok", "echo", json!({"text": "fine"}), LONG).await;
    assert_eq!(text(result(&called)), "fine");
    // Its timeoutMs caps the caller's longer deadline.
    let t = Instant::now();
    let called = upstreams.call("ok", "slow", json!({"seconds": 5}), LONG).await;
    assert_eq!((transport_kind(&called), failure(&called).1), ("timeout", true), "{called:?}");
    assert!(transport_message(&called).contains("no result within 400 ms"), "{called:?}");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert_eq!(upstreams.call_timeout("ok"), Some(Duration::from_millis(400)));
    let called = upstreams.call("silent", "x", Value::Null, LONG).await;
    assert_eq!((transport_kind(&called), failure(&called).1), ("connection_refused", false));
    assert!(transport_message(&called).contains("within 300 ms"));
    upstreams.shutdown().await;
}

#[test]
fn upstreams_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Upstreams>();
    check::<std::sync::Arc<Upstreams>>();
}
