//! Every limit trips with an input made to trip it; a trap is a clean error value, the
//! poisoned store is gone and the next call works. Nothing here measures time.

mod common;

use std::time::Duration;

use codemode_errors_host::wit::{Breaker, ErrorCode, FailurePhase, Origin, RunErrorCode};
use codemode_errors_host::{deadline, AbortCause, CacheEvent, CompileCache, ComponentEngine, Engine, HostError, Limits, GUEST_COMPONENT};

fn aborted(result: Result<impl std::fmt::Debug, HostError>) -> codemode_errors_host::Aborted {
    match result {
        Err(HostError::Aborted(a)) => a,
        other => panic!("expected an aborted call, got {other:?}"),
    }
}

#[test]
fn the_input_bound_refuses_a_larger_input_on_both_engines() {
    let limits = Limits::default().with_max_input_bytes(64);
    let component = Engine::Component(common::component().with_limits(limits));
    let native = Engine::Native(codemode_errors_host::NativeEngine::new(&Default::default(), limits));
    for engine in [component, native] {
        let err = engine.normalize_json(common::TYPICAL_REPORT).unwrap_err();
        assert!(err.is_limit());
        match &err {
            HostError::InputTooLarge { bytes, bound } => assert!(bytes > bound),
            other => panic!("expected input_too_large, got {other:?}"),
        }
        assert!(err.to_string().contains("input bound is 64 bytes"), "{err}");
        assert!(engine.redact_text(&"x".repeat(65)).unwrap_err().is_limit());
        assert_eq!(engine.redact_text(&"x".repeat(64)).unwrap(), "x".repeat(64));
    }
}

#[test]
fn the_execution_bound_stops_a_call_and_the_next_call_works() {
    // A zero deadline has passed before the guest's first check: every call trips it.
    let starved = common::component().with_limits(Limits::default().with_deadline(Duration::ZERO));
    let a = aborted(starved.normalize_json(common::TYPICAL_REPORT));
    assert_eq!(a.cause(), AbortCause::Execution);
    assert!(a.to_string().starts_with("execution limit exceeded"), "{a}");
    assert_eq!(aborted(starved.version()).cause(), AbortCause::Execution);
    // Same engine, same compiled component: a fresh store, a working call.
    let outcome = common::component().normalize_json(common::TYPICAL_REPORT).unwrap();
    assert_eq!(outcome.error.unwrap().kind, "rate_limited");
}

#[test]
fn a_long_running_input_trips_a_short_deadline_mid_call() {
    // Redacting 8 MiB of secret-dense text runs far longer than one tick, so the deadline
    // passes while the guest is working, not before it starts.
    let text = "password=hunter2 Authorization: Bearer abc.def token=ghp_abcdefghijklmnopqrstuvwxyz0123456789\n".repeat(80_000);
    let engine = common::component().with_limits(Limits::default().with_deadline(deadline::TICK));
    let a = aborted(engine.redact_text(&text));
    assert_eq!(a.cause(), AbortCause::Execution, "{a}");
    // The same compiled component answers the next call (under the default deadline: one
    // tick is too short for any call on a loaded machine).
    assert!(engine.with_limits(Limits::default()).redact_text("token=abc123").unwrap().contains("[REDACTED"));
}

#[test]
fn a_session_drops_a_tripped_instance_and_its_next_call_works() {
    let tight = common::component().with_limits(Limits::default().with_max_memory_bytes(2_560 << 10));
    let mut session = tight.session();
    assert!(session.redact_text("token=abc123").unwrap().contains("[REDACTED"));
    let big = "secret token=abc ".repeat(2 << 20 >> 4);
    assert_eq!(aborted(session.redact_text(&big)).cause(), AbortCause::Memory);
    let outcome = session.normalize_json(common::TYPICAL_REPORT).unwrap();
    assert_eq!(outcome, common::component().normalize_json(common::TYPICAL_REPORT).unwrap());
    // The input bound is checked before the session's instance is touched.
    let small = common::component().with_limits(Limits::default().with_max_input_bytes(8)).session();
    let mut small = small;
    assert!(small.redact_text("0123456789").unwrap_err().is_limit());
    assert_eq!(small.version().unwrap(), codemode_errors::VERSION);
}

#[test]
fn the_memory_bound_stops_a_call_and_the_next_call_works() {
    // 2 MiB of text must be copied into the component; 2.5 MiB of memory (2 MiB of it the
    // guest's initial memory) cannot hold it.
    let tight = common::component().with_limits(Limits::default().with_max_memory_bytes(2_560 << 10));
    let big = "secret token=abc ".repeat(2 << 20 >> 4);
    let a = aborted(tight.redact_text(&big));
    assert_eq!(a.cause(), AbortCause::Memory);
    assert!(a.to_string().starts_with("memory limit exceeded"), "{a}");
    assert!(tight.redact_text("token=abc123").unwrap().contains("[REDACTED"));
}

#[test]
fn an_aborted_call_becomes_a_code_mode_failure_for_the_sandbox() {
    let starved = common::component().with_limits(Limits::default().with_deadline(Duration::ZERO));
    let err = starved.normalize_json(common::TYPICAL_REPORT).unwrap_err();
    let outcome = err.to_outcome(Some("github::create_issue"));
    let error = outcome.error.unwrap();
    assert_eq!((error.kind.as_str(), error.origin, outcome.breaker), ("internal_error", Origin::CodeMode, Breaker::None));
    assert_eq!(error.tool.as_deref(), Some("github::create_issue"));
    assert!(error.cause.unwrap().contains("execution limit exceeded"));
    // A tool name the core refuses is left out rather than failing the conversion.
    let outcome = err.to_outcome(Some("not qualified"));
    assert_eq!(outcome.error.unwrap().tool, None);
}

#[test]
fn a_run_report_that_could_not_be_classified_still_ends_the_run() {
    let report = r#"{"bridge_dispatch_started":false,"restart_safe":true,"timeout":{}}"#;
    let bound = Limits::default().with_max_input_bytes(16);
    let native = codemode_errors_host::NativeEngine::new(&Default::default(), bound);
    for engine in [Engine::Component(common::component().with_limits(bound)), Engine::Native(native)] {
        let end = engine.classify_run(report).unwrap_err().to_run_error();
        assert_eq!(
            end.json,
            r#"{"code":"internal_error","message":"the run report is 66 bytes, over the host's input bound of 16 bytes, and was not read; whether any tool call was dispatched is unknown, so check before running the code again","failurePhase":"host","bridgeDispatchStarted":true,"replaySafe":false}"#
        );
        assert_eq!(
            (end.code, end.failure_phase, end.bridge_dispatch_started, end.replay_safe),
            (RunErrorCode::InternalError, Some(FailurePhase::Host), true, false)
        );
    }
    // The component stopped by its deadline, and at its memory bound by a report it cannot hold.
    let starved = common::component().with_limits(Limits::default().with_deadline(Duration::ZERO));
    let tight = common::component().with_limits(Limits::default().with_max_memory_bytes(2_560 << 10));
    let big = format!(r#"{{"bridge_dispatch_started":false,"internal":{{"message":"{}"}}}}"#, "z".repeat(2 << 20));
    for (engine, input, cause) in [(starved, report, AbortCause::Execution), (tight, big.as_str(), AbortCause::Memory)] {
        let err = engine.classify_run(input).unwrap_err();
        assert!(matches!(&err, HostError::Aborted(a) if a.cause() == cause), "{err:?}");
        let end = err.to_run_error();
        let expected = format!(
            r#"{{"code":"internal_error","message":"the run report could not be classified: {err}; whether any tool call was dispatched is unknown, so check before running the code again","failurePhase":"host","bridgeDispatchStarted":true,"replaySafe":false}}"#
        );
        assert_eq!(end.json, expected);
        // The next call on the same engine classifies as if nothing had happened.
        let small = r#"{"bridge_dispatch_started":false,"restart_safe":true,"aborted":{}}"#;
        assert_eq!(common::component().classify_run(small).unwrap(), common::native().classify_run(small).unwrap());
    }
}

#[test]
fn bad_input_is_an_error_value_not_a_trap() {
    let engine = common::component();
    for (input, code, path) in [
        ("{\"tool_result\":", ErrorCode::InvalidJson, ""),
        ("{\"frob\":1}", ErrorCode::InvalidReport, "frob"),
        (&format!("{}1{}", "[".repeat(200), "]".repeat(200)), ErrorCode::TooDeep, ""),
    ] {
        match engine.normalize_json(input) {
            Err(HostError::Input(e)) => assert_eq!((e.code, e.path.as_str()), (code, path), "{input}"),
            other => panic!("{input}: expected an input error, got {other:?}"),
        }
    }
    let err = engine.parse_call_error("{\"contract_version\":2,\"kind\":\"x\",\"message\":\"m\"}").unwrap_err();
    assert!(matches!(err, HostError::Input(ref e) if e.code == ErrorCode::UnsupportedVersion), "{err:?}");
}

#[test]
fn the_component_imports_only_what_the_host_grants() {
    // The host links WASI preview 2 with a context that grants nothing; the guest may only
    // import interfaces of these packages (a std Rust guest imports a few it never calls).
    const GRANTED: &[&str] = &[
        "wasi:cli/environment@",
        "wasi:cli/exit@",
        "wasi:cli/stdin@",
        "wasi:cli/stdout@",
        "wasi:cli/stderr@",
        "wasi:cli/terminal-input@",
        "wasi:cli/terminal-output@",
        "wasi:cli/terminal-stdin@",
        "wasi:cli/terminal-stdout@",
        "wasi:cli/terminal-stderr@",
        "wasi:io/error@",
        "wasi:io/streams@",
        "wasi:io/poll@",
        "wasi:clocks/wall-clock@",
        "wasi:clocks/monotonic-clock@",
        "wasi:random/random@",
        "wasi:filesystem/types@",
        "wasi:filesystem/preopens@",
    ];
    let imports = common::component().imports();
    let ungranted: Vec<&String> = imports.iter().filter(|i| !GRANTED.iter().any(|g| i.starts_with(g))).collect();
    assert!(ungranted.is_empty(), "imports the host does not grant: {ungranted:?} (all: {imports:?})");
    assert!(!imports.iter().any(|i| i.starts_with("wasi:sockets") || i.starts_with("wasi:http")));
}

#[test]
fn one_engine_serves_many_threads() {
    let engine = common::component().clone();
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let engine = engine.clone();
            std::thread::spawn(move || {
                let report = format!("{{\"tool\":\"t::n{i}\",\"transport\":{{\"kind\":\"dns\",\"message\":\"no host {i}\"}}}}");
                engine.normalize_json(&report).map(|o| o.json)
            })
        })
        .collect();
    for (i, h) in handles.into_iter().enumerate() {
        let json = h.join().unwrap().unwrap();
        assert!(json.contains(&format!("no host {i}")), "{json}");
    }
}

#[test]
fn an_async_gateway_calls_it_without_blocking_the_runtime() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).build().unwrap();
    let engine = common::component().clone();
    let answers = runtime.block_on(async move {
        let calls = (0..3).map(|i| {
            let engine = engine.clone();
            let report = format!("{{\"policy\":{{\"kind\":\"forbidden\",\"message\":\"denied {i}\"}}}}");
            // Component calls are synchronous CPU work: run them on the blocking pool.
            tokio::task::spawn_blocking(move || engine.normalize_json(&report))
        });
        let mut out = Vec::new();
        for call in calls.collect::<Vec<_>>() {
            out.push(call.await.unwrap().unwrap());
        }
        out
    });
    assert_eq!(answers.len(), 3);
    assert!(answers.iter().all(|o| o.breaker == Breaker::None));
}

#[test]
fn the_compiled_component_is_cached_by_hash() {
    let dir = common::scratch("cache");
    let cache = CompileCache::Directory(dir.clone());
    let policy = codemode_errors::Policy::default();
    let first = ComponentEngine::with_component(GUEST_COMPONENT, &cache, &policy, Limits::default()).unwrap();
    assert_eq!(first.cache_event(), CacheEvent::Stored);
    let second = ComponentEngine::with_component(GUEST_COMPONENT, &cache, &policy, Limits::default()).unwrap();
    assert_eq!(second.cache_event(), CacheEvent::Hit);
    assert_eq!(second.normalize_json(common::TYPICAL_REPORT).unwrap(), first.normalize_json(common::TYPICAL_REPORT).unwrap());
    // A damaged entry is not trusted: it is recompiled and replaced.
    let entries: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    std::fs::write(&entries[0], b"not a compiled component").unwrap();
    let third = ComponentEngine::with_component(GUEST_COMPONENT, &cache, &policy, Limits::default()).unwrap();
    assert_eq!(third.cache_event(), CacheEvent::Stored);
    assert!(third.normalize_json(common::TYPICAL_REPORT).is_ok());
}

/// The report shapes that amplify memory the most: lists of lists of 256 items each, up to
/// the default input bound. The component accepts what the native core accepts (its
/// memory bound is not reached), and both give the same bytes.
#[test]
fn hostile_nesting_within_the_input_bound_runs_on_both_engines_alike() {
    let row = format!("[{}]", vec!["0"; 256].join(","));
    let plane = format!("[{}]", vec![row.as_str(); 256].join(","));
    let zeros = format!("[{}]", vec![plane.as_str(); 63].join(","));
    let inner = format!("[{}]", vec![r#""""#; 256].join(","));
    let middle = format!("[{}]", vec![inner.as_str(); 256].join(","));
    let strings = format!("[{}]", vec![middle.as_str(); 20].join(","));
    for value in [zeros, strings] {
        let report = format!(
            r#"{{"tool":"a::b","tool_result":{{"resultType":"complete","isError":true,"content":[{{"type":"text","text":"x"}}],"structuredContent":{{"v":{value}}}}}}}"#
        );
        assert!(report.len() <= codemode_errors_host::limits::DEFAULT_MAX_INPUT_BYTES, "{} bytes", report.len());
        let native = Engine::Native(codemode_errors_host::NativeEngine::new(&Default::default(), Limits::default()));
        let component = Engine::Component(common::component().clone());
        let expected = native.normalize_json(&report).unwrap().json;
        assert_eq!(component.normalize_json(&report).unwrap().json, expected, "the engines differ");
    }
}
