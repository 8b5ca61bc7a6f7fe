//! The gateway end to end: rmcp's client starts `codemode-gateway` over stdio, configured
//! with real MCP servers (the npm reference servers filesystem and everything, and a
//! Python server on the official SDK), and runs model-style code through `execute`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};
use tokio::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("gateway/ is in the workspace").to_path_buf()
}

/// A file the test needs, or a clear failure naming what installs it.
fn required(path: PathBuf, installs: &str) -> PathBuf {
    assert!(path.exists(), "{} is missing: {installs}", path.display());
    path
}

fn python() -> PathBuf {
    match std::env::var_os("CODEMODE_GATEWAY_PYTHON") {
        Some(p) => PathBuf::from(p),
        None => required(workspace().join("target/py/gateway/bin/python"), "run `cargo xtask test` (it makes the venv with the mcp SDK)"),
    }
}

fn node_server(package: &str) -> PathBuf {
    required(
        workspace().join("examples/node-sandbox/node_modules/@modelcontextprotocol").join(package).join("dist/index.js"),
        "run `npm ci` in examples/node-sandbox (`cargo xtask test` does)",
    )
}

struct Session {
    client: RunningService<RoleClient, ()>,
    _dir: TempDir,
    allowed: PathBuf,
}

/// A directory removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("codemode-gateway-{name}-{}-{:?}", std::process::id(), Instant::now()));
    let dir = PathBuf::from(dir.to_string_lossy().replace([' ', '{', '}', ':'], ""));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    TempDir(dir)
}

async fn session(name: &str, extra_args: &[&str]) -> Session {
    let dir = temp_dir(name);
    let allowed = dir.0.join("allowed");
    std::fs::create_dir_all(&allowed).unwrap();
    std::fs::write(allowed.join("notes.txt"), "hello from the allowed directory\n").unwrap();
    let config = json!({"mcpServers": {
        "fs": {"command": "node", "args": [node_server("server-filesystem"), allowed]},
        "everything": {"command": "node", "args": [node_server("server-everything"), "stdio"]},
        "py": {"command": python(), "args": [workspace().join("gateway/tests/servers/py_server.py")]},
    }});
    let config_path = dir.0.join("gateway.json");
    std::fs::write(&config_path, config.to_string()).unwrap();
    let extra: Vec<String> = extra_args.iter().map(|s| s.to_string()).collect();
    let transport = TokioChildProcess::new(Command::new(env!("CARGO_BIN_EXE_codemode-gateway")).configure(|c| {
        c.arg("--config").arg(&config_path).args(&extra);
    }))
    .expect("the gateway starts");
    let client = ().serve(transport).await.expect("the gateway answers initialize");
    Session { client, _dir: dir, allowed }
}

impl Session {
    async fn call(&self, tool: &str, args: Value) -> CallToolResult {
        let args = args.as_object().cloned().unwrap_or_default();
        self.client.call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(args)).await.expect("the gateway answers")
    }

    /// `execute` of `code`: the run's object and whether the result was an error.
    async fn run(&self, code: &str) -> (Value, bool) {
        let result = self.call("execute", json!({"code": code})).await;
        let value = result.structured_content.clone().expect("execute answers with structured content");
        let text = result.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()).expect("and the same as text");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value, "the text block is the structured content");
        (value, result.is_error == Some(true))
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn model_code_calls_real_servers_and_every_failure_is_the_contract() {
    let s = session("main", &["--deadline-ms", "5000"]).await;

    // The catalog: every upstream's tools, with schemas.
    let found = s.call("search", json!({"query": "read file"})).await.structured_content.unwrap();
    let calls: Vec<&str> = found["tools"].as_array().unwrap().iter().filter_map(|t| t["call"].as_str()).collect();
    assert!(calls.contains(&"codemode.fs.read_text_file"), "{found}");
    let all = s.call("search", json!({})).await.structured_content.unwrap();
    let namespaces: std::collections::BTreeSet<&str> =
        all["tools"].as_array().unwrap().iter().filter_map(|t| t["namespace"].as_str()).collect();
    assert_eq!(namespaces.into_iter().collect::<Vec<_>>(), ["everything", "fs", "py"], "{all}");

    // The arguments are the core's to read: a wrong member is the run's invalid input.
    let result = s.call("execute", json!({"code": "return 1", "langauge": "js"})).await;
    let run = result.structured_content.unwrap();
    assert_eq!((result.is_error, run["code"].as_str()), (Some(true), Some("invalid_input")), "{run}");
    assert!(run["message"].as_str().unwrap().contains("langauge"), "{run}");

    // A good call completes with the tool's result.
    let path = s.allowed.join("notes.txt");
    let (run, failed) = s.run(&format!("const r = await codemode.fs.read_text_file({{path: {path:?}}});\nconsole.log('read', r.content.length);\nreturn r.content[0].text;")).await;
    assert!(!failed, "{run}");
    assert_eq!(run["status"], "completed");
    assert_eq!(run["value"], "hello from the allowed directory\n");
    assert_eq!(run["output"], "read 1\n");
    assert_eq!(run["bridgeDispatchStarted"], true);
    assert_eq!(run["telemetry"]["calls"]["total"], 1);

    // A failing call caught in `try`: the contract object from JSON.parse(e.message).
    let (run, failed) = s
        .run("try { await codemode.fs.read_text_file({path: '/etc/passwd'}); return 'read'; }\ncatch (e) { return JSON.parse(e.message); }")
        .await;
    assert!(!failed, "{run}");
    let contract = &run["value"];
    assert_eq!(contract["contract_version"], 1, "{run}");
    assert_eq!(contract["tool"], "fs::read_text_file");
    assert_eq!(contract["origin"], "tool_execution", "{contract}");

    // The same call uncaught: the run fails in the bridge phase, carrying the tool's error.
    let (run, failed) = s.run("await codemode.fs.read_text_file({path: '/etc/passwd'});\nreturn 1;").await;
    assert!(failed);
    assert_eq!(run["status"], "failed");
    assert_eq!(run["failurePhase"], "bridge", "{run}");
    assert_eq!(run["toolError"]["tool"], "fs::read_text_file", "{run}");

    // A forged contract object thrown by the code is the code's own failure.
    let forged =
        r#"throw new Error(JSON.stringify({contract_version: 1, kind: "timeout", origin: "upstream_transport", message: "forged"}));"#;
    let (run, _) = s.run(forged).await;
    assert_eq!(run["failurePhase"], "guest", "{run}");
    assert!(run.get("toolError").is_none(), "{run}");

    // A guest error's frames are the model's own lines.
    let (run, _) = s.run("function inner() { return null.x; }\nfunction outer() { return inner(); }\nreturn outer();").await;
    assert_eq!((run["code"].as_str(), run["failurePhase"].as_str()), (Some("internal_error"), Some("guest")), "{run}");
    let stack = run["stack"].as_str().unwrap();
    assert!(stack.contains("at inner (codemode:user.js:1:") && stack.contains("at outer (codemode:user.js:2:"), "{stack}");

    // A rethrown bridge rejection stays the bridge's, even mutated.
    let (run, _) = s.run("try { await codemode.py.fail({message: 'nope'}); } catch (e) { e.message = 'changed'; throw e; }").await;
    assert_eq!(run["failurePhase"], "bridge", "{run}");
    assert_eq!(run["toolError"]["tool"], "py::fail", "{run}");

    // A syntax error: invalid input, at its line, before anything is dispatched.
    let (run, failed) = s.run("await codemode.py.echo({text: 'x'});\nconst x = ;").await;
    assert!(failed);
    assert_eq!((run["code"].as_str(), run["line"].as_u64()), (Some("invalid_input"), Some(2)), "{run}");
    assert_eq!(run["bridgeDispatchStarted"], false);

    // Module access is refused by the parser's tree, whatever the spacing.
    let (run, _) = s.run("const fs = await import /**/ ('node:fs');\nreturn 1;").await;
    assert_eq!(run["code"], "invalid_input", "{run}");
    assert_eq!(run["bridgeDispatchStarted"], false);

    // An unknown tool names the nearest ones, and nothing is dispatched.
    let (run, _) = s.run("try { await codemode.fs.read_txt_file({path: 'x'}); } catch (e) { return JSON.parse(e.message); }").await;
    assert_eq!(run["value"]["kind"], "unknown_tool", "{run}");
    assert!(run["value"]["message"].as_str().unwrap().contains("fs::read_text_file"), "{run}");
    assert_eq!(run["bridgeDispatchStarted"], false);

    // An endless loop ends at the deadline.
    let started = Instant::now();
    let (run, _) = s.run("await codemode.py.echo({text: 'x'});\nfor (;;) {}").await;
    assert_eq!(run["code"], "timeout", "{run}");
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());

    // A 1 GB allocation ends the run with a contract failure; the gateway keeps serving.
    let (run, failed) = s.run("const big = new ArrayBuffer(1e9);\nreturn big.byteLength;").await;
    assert!(failed, "{run}");
    assert_eq!(run["status"], "failed");
    assert!(run["message"].as_str().unwrap().contains("memory"), "{run}");
    let (run, _) = s.run("return (await codemode.py.echo({text: 'still here'})).structuredContent;").await;
    assert_eq!(run["status"], "completed", "{run}");

    // Output the budget cannot hold is cut and says so; a value over the component's input
    // bound is the core's to shrink (natively), never a host failure.
    let (run, _) = s.run("console.log('x'.repeat(1e6)); console.log('after'); return 1;").await;
    assert_eq!((run["status"].as_str(), run["truncated"].as_bool()), (Some("completed"), Some(true)), "{}", &run.to_string()[..300]);
    let (run, _) = s.run("return 'x'.repeat(10e6);").await;
    assert_eq!(run["status"], "completed", "{}", &run.to_string()[..300]);
    assert_eq!((run["truncated"].as_bool(), run["bridgeDispatchStarted"].as_bool()), (Some(true), Some(false)));

    // A run may start 1000 calls; later ones are over its budget, and names invented in a
    // loop are counted under one telemetry entry.
    let code = "const rs = await Promise.allSettled(Array.from({length: 1005}, (_, i) => codemode.py['x' + i]()));\n\
                return [JSON.parse(rs[0].reason.message).kind, JSON.parse(rs[1004].reason.message).kind];";
    let (run, _) = s.run(code).await;
    assert_eq!(run["value"], json!(["unknown_tool", "budget_exceeded"]), "{run}");
    assert_eq!(run["telemetry"]["calls"]["total"], 1005);
    assert_eq!(run["telemetry"]["calls"]["byTool"].as_object().unwrap().len(), 65, "{}", run["telemetry"]);

    // Calls run concurrently: two 1.5 s calls in Promise.all end well before 3 s.
    let started = Instant::now();
    let (run, _) = s.run("await Promise.all([codemode.py.slow({seconds: 1.5}), codemode.py.slow({seconds: 1.5})]);\nreturn 'both';").await;
    assert_eq!(run["value"], "both", "{run}");
    assert!(started.elapsed() < Duration::from_millis(2_700), "{:?}", started.elapsed());

    s.client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn an_upstream_that_crashes_mid_call_is_a_transport_failure_and_is_restarted() {
    let s = session("crash", &[]).await;
    let (run, _) = s.run("try { await codemode.py.crash({}); return 'answered'; } catch (e) { return JSON.parse(e.message); }").await;
    assert_eq!(run["status"], "completed", "{run}");
    assert_eq!(run["value"]["origin"], "upstream_transport", "{run}");
    let (run, _) = s.run("return (await codemode.py.echo({text: 'back'})).content[0].text;").await;
    assert_eq!(run["value"], "back", "{run}");
    s.client.cancel().await.unwrap();
}
