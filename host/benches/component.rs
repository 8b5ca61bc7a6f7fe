//! Native core vs WASI component: per-call latency and throughput for a small, a typical
//! and a large report, each call in a fresh store (the engine's methods) and in a session
//! that keeps one instance; the cost of a fresh store; and cold start of the CLI process with
//! and without the precompiled-component cache. `cargo xtask bench` runs it; the figures
//! are recorded in docs/PERFORMANCE-component.md. With `CODEMODE_ERRORS_BENCH_BEST_OF=1` it
//! prints the typical report's best-of figures and where a fresh store's time goes instead
//! (see `best_of`).

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use codemode_errors_host::{CompileCache, ComponentEngine, Limits, NativeEngine, GUEST_COMPONENT};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput};

/// A transport failure: the smallest kind of report.
const SMALL: &str = r#"{"tool":"fs::read_file","dispatched":false,"transport":{"kind":"timeout","message":"no answer in 30s"}}"#;

/// A tool result with an HTTP status line, a secret, a JSON error object and structured content.
fn typical() -> String {
    r#"{"tool":"github::create_issue","annotations":{"readOnlyHint":false,"idempotentHint":false},"dispatched":true,"tool_result":{"isError":true,"content":[{"type":"text","text":"HTTP/1.1 429 Too Many Requests; Retry-After: 20 (token=ghp_abcdefghijklmnopqrstuvwxyz0123456789)"},{"type":"text","text":"{\"kind\":\"rate_limited\",\"message\":\"secondary rate limit for user octocat; retry after 20s\",\"retry_after_ms\":20000}"}],"structuredContent":{"error":{"kind":"rate_limited","message":"secondary rate limit","documentation_url":"https://docs.github.com/rest/overview/rate-limits","request_id":"C0DE:1234:5678:9ABC"},"headers":{"x-ratelimit-remaining":"0","x-ratelimit-reset":"1767225600","authorization":"Bearer abcdefghijklmnopqrstuvwxyz012345"}}}}"#.to_owned()
}

/// 40 content blocks of 8 KiB of log text each, with secrets, plus a large structuredContent.
fn large() -> String {
    let line = "2026-01-01T00:00:00Z ERROR worker-7 request failed: password=hunter2 upstream=10.0.0.7:5432 retrying\\n";
    let text = line.repeat(8192 / line.len());
    let blocks: Vec<String> = (0..40).map(|_| format!(r#"{{"type":"text","text":"{text}"}}"#)).collect();
    let rows: Vec<String> = (0..500).map(|i| format!(r#"{{"id":{i},"name":"row {i}","api_key":"sk-live-{i:032}"}}"#)).collect();
    format!(
        r#"{{"tool":"db::bulk_insert","dispatched":true,"tool_result":{{"isError":true,"content":[{}],"structuredContent":{{"rows":[{}]}}}}}}"#,
        blocks.join(","),
        rows.join(",")
    )
}

fn engines() -> (NativeEngine, ComponentEngine) {
    let cache = CompileCache::Directory(cache_dir());
    let component =
        ComponentEngine::with_component(GUEST_COMPONENT, &cache, &Default::default(), Limits::default()).expect("the component compiles");
    (NativeEngine::new(&Default::default(), Limits::default()), component)
}

fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-component-cache")
}

/// `CODEMODE_ERRORS_BENCH_BEST_OF=1`: instead of criterion, the typical report's figures as
/// the best of 15 rounds of 200 calls each, steadier than criterion's estimates on a busy
/// machine, and where a fresh store's time goes: instantiation (`version` in a fresh store,
/// against a session), the normalizer resource (`redact_text("x")` in a fresh store), and a
/// second call on a fresh instance.
fn best_of() {
    use std::time::Instant;
    let (native, component) = engines();
    let report = typical();
    let best = |f: &mut dyn FnMut()| {
        (0..15)
            .map(|_| {
                let t = Instant::now();
                for _ in 0..200 {
                    f();
                }
                t.elapsed().as_secs_f64() * 1e6 / 200.0
            })
            .fold(f64::MAX, f64::min)
    };
    let mut session = component.session();
    let native_t = best(&mut || drop(native.normalize_json(&report).unwrap()));
    let fresh = best(&mut || drop(component.normalize_json(&report).unwrap()));
    let in_session = best(&mut || drop(session.normalize_json(&report).unwrap()));
    let fresh_version = best(&mut || drop(component.version().unwrap()));
    let session_version = best(&mut || drop(session.version().unwrap()));
    let fresh_redact = best(&mut || drop(component.redact_text("x").unwrap()));
    let session_redact = best(&mut || drop(session.redact_text("x").unwrap()));
    let two_calls = best(&mut || {
        let mut s = component.session();
        drop(s.normalize_json(&report).unwrap());
        drop(s.normalize_json(&report).unwrap());
    });
    println!("typical report, µs per call, best of 15 rounds of 200:");
    println!("  native                         {native_t:7.1}");
    println!("  component, fresh store         {fresh:7.1}  {:.2}x native", fresh / native_t);
    println!("  component, session             {in_session:7.1}  {:.2}x native", in_session / native_t);
    println!("  fresh store, 2 calls           {two_calls:7.1}  (the second call: {:.1})", two_calls - fresh);
    println!("  version, fresh store / session {fresh_version:7.1} / {session_version:.2}");
    println!("  redact_text(\"x\"), fresh / session {fresh_redact:7.1} / {session_redact:.2}");
}

fn normalize(c: &mut Criterion) {
    if std::env::var_os("CODEMODE_ERRORS_BENCH_BEST_OF").is_some() {
        best_of();
        std::process::exit(0);
    }
    let (native, component) = engines();
    let mut group = c.benchmark_group("normalize");
    for (name, report) in [("small", SMALL.to_owned()), ("typical", typical()), ("large", large())] {
        assert_eq!(native.normalize_json(&report).unwrap().json, component.normalize_json(&report).unwrap().json);
        group.throughput(Throughput::Bytes(report.len() as u64));
        group.bench_with_input(BenchmarkId::new("native", name), &report, |b, r| b.iter(|| native.normalize_json(r).unwrap()));
        group.bench_with_input(BenchmarkId::new("component", name), &report, |b, r| b.iter(|| component.normalize_json(r).unwrap()));
        // One instance for the whole batch: the call itself, without a fresh store.
        let mut session = component.session();
        group.bench_with_input(BenchmarkId::new("component_session", name), &report, |b, r| b.iter(|| session.normalize_json(r).unwrap()));
    }
    group.finish();
}

fn fresh_store(c: &mut Criterion) {
    let (_, component) = engines();
    // A fresh store, an instantiation and the smallest call there is.
    c.bench_function("fresh_store/instantiate_and_call_version", |b| b.iter(|| component.version().unwrap()));
}

fn cold_start(c: &mut Criterion) {
    let cli = env!("CARGO_BIN_EXE_codemode-errors");
    let report = std::env::temp_dir().join(format!("codemode-errors-bench-{}.json", std::process::id()));
    std::fs::write(&report, typical()).expect("scratch report");
    let warm = cache_dir();
    let start = |engine: &str, cache: &std::ffi::OsStr| {
        let out = Command::new(cli).args(["--engine", engine, "normalize"]).arg(&report).env("CODEMODE_ERRORS_CACHE_DIR", cache).output();
        assert!(out.expect("the CLI starts").status.success());
    };
    start("component", warm.as_os_str()); // fills the cache
    let mut group = c.benchmark_group("cold_start");
    group.sampling_mode(SamplingMode::Flat).sample_size(10);
    group.bench_function("cli_native", |b| b.iter(|| start("native", warm.as_os_str())));
    group.bench_function("cli_component_cached", |b| b.iter(|| start("component", warm.as_os_str())));
    group.measurement_time(Duration::from_secs(30));
    group.bench_function("cli_component_uncached", |b| b.iter(|| start("component", std::ffi::OsStr::new(""))));
    group.finish();
    let _ = std::fs::remove_file(&report);
}

criterion_group!(benches, normalize, fresh_store, cold_start);
criterion_main!(benches);
