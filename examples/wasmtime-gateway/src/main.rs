//! A code-mode gateway embedding codemode-errors as a WASI component.
//!
//! The gateway builds one `ComponentEngine` at start (wasmtime engine, compiled component,
//! linked instance: shared by every task), then normalizes each failed tool call in a
//! fresh store under its limits, on tokio's blocking pool so the async runtime never
//! stalls. Whatever happens, the sandbox gets one thing to reject with:
//! `new Error(<contract JSON>)`. When the model's code lets a rejection escape, the run
//! ends, and the gateway reports how with the run-level layer (`classify_run`), in a
//! session that keeps one instance for the run's remaining calls. Run it with
//! `cargo run -p wasmtime-gateway`.

use std::time::Duration;

use codemode_errors_host::{ComponentEngine, Limits};

/// Failed tool calls as the gateway saw them: the tool and the report it assembled.
const FAILED_CALLS: &[(&str, &str)] = &[
    (
        "github::create_issue",
        r#"{"tool":"github::create_issue","annotations":{"readOnlyHint":false},"dispatched":true,"tool_result":{"isError":true,"content":[{"type":"text","text":"HTTP/1.1 429 Too Many Requests; Retry-After: 20 (token=ghp_abcdefghijklmnopqrstuvwxyz0123456789)"}]}}"#,
    ),
    (
        "fs::read_file",
        r#"{"tool":"fs::read_file","dispatched":false,"transport":{"kind":"connection_refused","message":"connect ECONNREFUSED 127.0.0.1:7001"}}"#,
    ),
    ("db::query", r#"{"tool":"db::query","budget":{"kind":"budget_exceeded","message":"more than 50 calls in one snippet"}}"#),
    // A gateway bug: not a report at all. The sandbox still gets a contract error.
    ("db::query", r#"{"tool":"db::query","oops":true}"#),
];

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Limits a gateway would tune: 1 MiB reports, 64 MiB of guest memory, 250 ms per call.
    let limits = Limits::default().with_max_input_bytes(1 << 20).with_max_memory_bytes(64 << 20).with_deadline(Duration::from_millis(250));
    let policy = codemode_errors::Policy::default();
    // Built once; the compiled component is cached on disk, so the next start skips compiling.
    let engine = tokio::task::spawn_blocking(move || ComponentEngine::new(&policy, limits)).await??;
    println!("engine ready (compiled component: {:?})", engine.cache_event());

    let mut tasks = Vec::new();
    for (tool, report) in FAILED_CALLS {
        let engine = engine.clone();
        tasks.push(tokio::task::spawn_blocking(move || rejection(&engine, tool, report)));
    }
    // A starved engine (no time at all) shows a tripped limit becoming a clean error value.
    let starved = engine.with_limits(limits.with_deadline(Duration::ZERO));
    tasks.push(tokio::task::spawn_blocking(move || rejection(&starved, FAILED_CALLS[0].0, FAILED_CALLS[0].1)));

    for task in tasks {
        println!("{}", task.await?);
    }

    // The snippet did not catch the first rejection: the run ends with it (rule 6: the same
    // object), after a dispatched call, so replaying the run is not safe.
    let run_end = tokio::task::spawn_blocking(move || -> Result<String, codemode_errors_host::HostError> {
        let mut session = engine.session();
        let error = session.normalize_json(FAILED_CALLS[0].1)?.error.map(|e| e.json).unwrap_or_default();
        let report = format!(r#"{{"bridge_dispatch_started":true,"uncaught_tool_error":{error}}}"#);
        Ok(session.classify_run(&report)?.json)
    })
    .await??;
    println!("// the run ended:\n{run_end}");
    Ok(())
}

/// What the sandbox's promise rejects with for one failed call.
fn rejection(engine: &ComponentEngine, tool: &str, report: &str) -> String {
    let outcome = match engine.normalize_json(report) {
        Ok(outcome) => outcome,
        // The call was refused or stopped: hand the sandbox a code_mode failure instead.
        Err(err) => {
            let kind = if err.is_limit() { "limit" } else { "input" };
            eprintln!("[gateway] {tool}: {kind} error: {err}");
            err.to_outcome(Some(tool))
        }
    };
    match (outcome.error, outcome.breaker) {
        (Some(error), breaker) => format!("// {tool} (breaker: {breaker:?})\nreject(new Error({}));", js_string(&error.json)),
        (None, _) => format!("// {tool}: not a failure"),
    }
}

/// `json` as a JavaScript string literal (JSON strings are valid JavaScript strings).
fn js_string(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 16);
    codemode_errors::json::write_string(&mut out, json);
    out
}
