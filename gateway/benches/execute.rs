//! The gateway's executor against npm `execute` on QuickJS: a warm `return 1`, and the
//! bridge overhead of one awaited tool call beyond the upstream itself.
//!
//! In-process through `codemode_gateway::execute::Gateway`, its one upstream the stdio MCP
//! server `benches/echo_server.mjs` (one tool, `echo`, on the TypeScript SDK in
//! examples/node-sandbox): criterion measures `execute` of `return 1`, of a run making one
//! awaited `codemode.echo.echo()` call, and the same tool called directly through
//! `Upstreams::call` (a second `Upstreams` on the same config). Then, in the same run, a
//! summary measures the gateway's three the way `benches/npm_execute.mjs` measures npm
//! `execute` on its QuickJS executor (median of sequential runs after a warm-up), runs that
//! script, and prints both side by side with the bridge overhead:
//! `one call − return 1 − the upstream called directly`.
//!
//! ```text
//! cargo bench -p codemode-gateway --bench execute -- --warm-up-time 2 --measurement-time 5
//! ```
//!
//! The figures are recorded in docs/PERFORMANCE-gateway.md. Needs `node` on the PATH,
//! `npm ci` in examples/node-sandbox and a built js-package/dist (`cargo xtask build-js`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use codemode_gateway::config::{Config, ServerConfig};
use codemode_gateway::execute::{Gateway, Options};
use codemode_gateway::upstream::{Called, Upstreams};
use criterion::Criterion;
use serde_json::{json, Value};
use tokio::runtime::Runtime;

const RETURN_1: &str = "return 1";
const ONE_CALL: &str = "const r = await codemode.echo.echo({ text: \"hi\" });\nreturn r.content[0].text;";

/// Rounds of the summary's own measurement (and of the npm script's).
const ROUNDS: usize = 300;

fn benches_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches")
}

/// A file the benchmark needs, or a clear failure naming what provides it.
fn required(path: PathBuf, provides: &str) -> PathBuf {
    assert!(path.exists(), "{} is missing: {provides}", path.display());
    path
}

struct Setup {
    runtime: Runtime,
    gateway: Gateway,
    upstreams: Upstreams,
}

impl Setup {
    fn new() -> Setup {
        required(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/node-sandbox/node_modules/@modelcontextprotocol/sdk/package.json"),
            "run `npm ci` in examples/node-sandbox (`cargo xtask test` does)",
        );
        let server = ServerConfig::new("echo", "node", [benches_dir().join("echo_server.mjs").to_string_lossy().into_owned()]);
        let config = Config { servers: vec![server] };
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime");
        let (gateway, upstreams) = runtime.block_on(async {
            let gateway = Gateway::start(&config, Options::default()).await.expect("the gateway starts");
            let upstreams = Upstreams::start(&config).await;
            (gateway, upstreams)
        });
        assert!(gateway.unavailable().is_empty(), "{:?}", gateway.unavailable());
        assert!(upstreams.unavailable().is_empty(), "{:?}", upstreams.unavailable());
        let setup = Setup { runtime, gateway, upstreams };
        setup.check(RETURN_1, json!(1));
        setup.check(ONE_CALL, json!("hi"));
        match setup.direct() {
            Called::Result(result) => assert_eq!(result["content"][0]["text"], "hi", "{result}"),
            failed => panic!("the direct call failed: {failed:?}"),
        }
        setup
    }

    fn execute(&self, code: &str) -> Value {
        self.runtime.block_on(self.gateway.execute(json!({ "code": code }), None))
    }

    fn check(&self, code: &str, value: Value) {
        let run = self.execute(code);
        assert!(run["status"] == "completed" && run["value"] == value, "{code}: {run}");
    }

    /// The tool called directly, as the gateway's bridge calls it.
    fn direct(&self) -> Called {
        self.runtime.block_on(self.upstreams.call("echo", "echo", json!({ "text": "hi" }), Duration::from_secs(60)))
    }
}

fn execute(c: &mut Criterion, setup: &Setup) {
    let mut group = c.benchmark_group("gateway");
    group.bench_function("execute_return_1", |b| b.iter(|| setup.execute(RETURN_1)));
    group.bench_function("execute_one_call", |b| b.iter(|| setup.execute(ONE_CALL)));
    group.bench_function("upstream_call_direct", |b| b.iter(|| setup.direct()));
    group.finish();
}

/// Median of `ROUNDS` sequential timings of `f` after a warm-up, in µs: the npm script's
/// method.
fn median_us(mut f: impl FnMut()) -> f64 {
    for _ in 0..50 {
        f();
    }
    let mut times: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// The npm script's figures, or why there are none.
fn npm() -> Result<Value, String> {
    let script = benches_dir().join("npm_execute.mjs");
    required(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../js-package/dist/cjs/index.js"),
        "build the npm package with `cargo xtask build-js`",
    );
    let out = Command::new("node").arg(&script).arg(ROUNDS.to_string()).output().map_err(|e| format!("node: {e}"))?;
    if !out.status.success() {
        return Err(format!("{} failed: {}", script.display(), String::from_utf8_lossy(&out.stderr)));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("{}: no JSON on stdout: {e}", script.display()))
}

fn summary(setup: &Setup) {
    let return_1 = median_us(|| {
        setup.execute(RETURN_1);
    });
    let one_call = median_us(|| {
        setup.execute(ONE_CALL);
    });
    let direct = median_us(|| {
        setup.direct();
    });
    println!("\nsummary: median of {ROUNDS} sequential runs after 50 warm-up runs, µs");
    println!("{:<40} {:>12} {:>12}", "", "gateway", "npm quickjs");
    let npm = npm();
    let n = |key: &str| npm.as_ref().ok().and_then(|v| v[key]["median_us"].as_f64());
    let cell = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"));
    println!("{:<40} {:>12.1} {:>12}", "execute `return 1`", return_1, cell(n("return_1")));
    println!("{:<40} {:>12.1} {:>12}", "execute, one awaited call", one_call, cell(n("one_call")));
    println!("{:<40} {:>12.1} {:>12}", "the tool (dispatch) called directly", direct, cell(n("dispatch_direct")));
    let bridge = |call: f64, ret: f64, tool: f64| call - ret - tool;
    let npm_bridge = match (n("one_call"), n("return_1"), n("dispatch_direct")) {
        (Some(c), Some(r), Some(t)) => Some(bridge(c, r, t)),
        _ => None,
    };
    println!("{:<40} {:>12.1} {:>12}", "bridge: one call − return 1 − the tool", bridge(one_call, return_1, direct), cell(npm_bridge));
    println!("{:<40} {:>12.1} {:>12}", "one call − the tool", one_call - direct, cell(npm_bridge.zip(n("return_1")).map(|(b, r)| b + r)));
    match npm {
        Ok(v) => println!("npm: {v}"),
        Err(e) => println!("npm: not measured: {e}"),
    }
}

fn main() {
    let setup = Setup::new();
    let mut c = Criterion::default().configure_from_args();
    execute(&mut c, &setup);
    c.final_summary();
    summary(&setup);
    setup.runtime.block_on(async {
        setup.gateway.shutdown().await;
        setup.upstreams.shutdown().await;
    });
}
