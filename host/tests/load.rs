//! Load: one component engine shared by 8 threads, each making a long run of calls with
//! tripped limits and traps mixed in (an input over the bound, a zero deadline, a memory
//! bound a large text cannot fit in, one-shot and through a session). Every answer must be
//! the native engine's answer for the same input, or the typed error the case trips;
//! memory must stay flat once the engine is warm.
//!
//! The default size (8 threads x 500 calls) runs with the other host tests; set
//! `CODEMODE_LOAD=full` for the issue's 8 x 10 000 (docs/RELIABILITY.md, "Load", records
//! the figures). The only test in this binary, so nothing else moves its memory.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode_errors_host::wit::{CallError, Outcome, RunError};
use codemode_errors_host::{AbortCause, ComponentEngine, HostError, Limits, NativeEngine, Session};

const THREADS: usize = 8;

/// Distinct inputs of the normal kinds; calls cycle through them in an order that differs
/// per thread, so neighbouring calls (on a thread, in a session, in a pool slot) never
/// share an input and an answer left over from another call would not match.
const VARIANTS: usize = 97;

/// The input bound of the engine that refuses over-bound inputs.
const SMALL_BOUND: usize = 512;

/// The memory bound of the tight engine: 2 MiB of it is the guest's initial memory, so a
/// 2 MiB text can never be copied in, while every normal input fits.
const TIGHT_MEMORY: usize = 2_560 << 10;

/// How far the resident set may grow between the end of the warm-up and the end of the
/// run: four pool slots' worth of kept-resident linear memory. A leak of one small
/// allocation per call would pass 16 MiB within the default run's 4000 calls only if it
/// were over 4 KiB; the full run's 80 000 calls catch one of 200 bytes.
const MAX_GROWTH_BYTES: u64 = 4 * codemode_errors_host::KEEP_RESIDENT_BYTES as u64;

fn full() -> bool {
    std::env::var("CODEMODE_LOAD").is_ok_and(|v| v == "full")
}

/// One call's input.
#[derive(Clone, Debug)]
enum Input {
    Normalize(String),
    Classify(String),
    Redact(String),
    RedactJson(String),
    Parse(String),
}

/// One call's answer, whichever method made it.
#[derive(Clone, Debug, PartialEq)]
enum Answer {
    Outcome(Outcome),
    Run(RunError),
    Text(String),
    CallError(CallError),
}

/// The methods the load calls, on the native engine, the component engine and a session.
trait Api {
    fn normalize_json(&mut self, report: &str) -> Result<Outcome, HostError>;
    fn classify_run(&mut self, report: &str) -> Result<RunError, HostError>;
    fn redact_text(&mut self, text: &str) -> Result<String, HostError>;
    fn redact_json(&mut self, value: &str) -> Result<String, HostError>;
    fn parse_call_error(&mut self, message: &str) -> Result<CallError, HostError>;
}

macro_rules! api {
    ($ty:ty) => {
        impl Api for $ty {
            fn normalize_json(&mut self, report: &str) -> Result<Outcome, HostError> {
                (**self).normalize_json(report)
            }
            fn classify_run(&mut self, report: &str) -> Result<RunError, HostError> {
                (**self).classify_run(report)
            }
            fn redact_text(&mut self, text: &str) -> Result<String, HostError> {
                (**self).redact_text(text)
            }
            fn redact_json(&mut self, value: &str) -> Result<String, HostError> {
                (**self).redact_json(value)
            }
            fn parse_call_error(&mut self, message: &str) -> Result<CallError, HostError> {
                (**self).parse_call_error(message)
            }
        }
    };
}
api!(&NativeEngine);
api!(&ComponentEngine);
api!(&mut Session);

fn answer(api: &mut impl Api, input: &Input) -> Result<Answer, HostError> {
    Ok(match input {
        Input::Normalize(r) => Answer::Outcome(api.normalize_json(r)?),
        Input::Classify(r) => Answer::Run(api.classify_run(r)?),
        Input::Redact(t) => Answer::Text(api.redact_text(t)?),
        Input::RedactJson(v) => Answer::Text(api.redact_json(v)?),
        Input::Parse(m) => Answer::CallError(api.parse_call_error(m)?),
    })
}

/// Variant `v` of the normal inputs: every method, several report shapes, secrets to redact.
fn input(v: usize) -> Input {
    let secret = format!("ghp_{v:04}abcdefghijklmnopqrstuvwxyz012345");
    match v % 8 {
        0 => Input::Normalize(common::TYPICAL_REPORT.replace("Retry-After: 20", &format!("Retry-After: {}", v + 1))),
        1 => Input::Normalize(format!(
            r#"{{"tool":"net::fetch_{v}","dispatched":true,"transport":{{"kind":"timeout","message":"no answer from 10.0.0.{v} in 30 s; token={secret}"}}}}"#
        )),
        2 => Input::Normalize(format!(
            r#"{{"tool":"gh::create_issue","dispatched":false,"validation":{{"arguments":{{"title":{v}}},"input_schema":{{"type":"object","required":["title","body"],"properties":{{"title":{{"type":"string"}}}}}}}}}}"#
        )),
        3 => {
            Input::Normalize(format!(r#"{{"tool":"db::query","jsonrpc_error":{{"code":-32602,"message":"row {v}: password=hunter{v}"}}}}"#))
        }
        4 => Input::Classify(format!(
            r#"{{"bridge_dispatch_started":{},"guest_exception":{{"name":"TypeError","message":"x{v} is undefined; token={secret}"}}}}"#,
            v.is_multiple_of(3)
        )),
        5 => Input::Classify(format!(
            r#"{{"bridge_dispatch_started":true,"restart_safe":{},"uncaught_tool_error":"{{\"kind\":\"rate_limited\",\"message\":\"slow down {v}\"}}"}}"#,
            v.is_multiple_of(2)
        )),
        6 => Input::Redact(format!("call {v}: password=hunter{v} Authorization: Bearer {secret} done\n")),
        _ if v % 16 == 7 => Input::RedactJson(format!(r#"{{"password":"p{v}","note":"n{v}","list":[{v},"{secret}",null]}}"#)),
        _ => {
            let report =
                format!(r#"{{"tool":"fs::read_{v}","policy":{{"kind":"forbidden","message":"path /home/u{v} is outside the sandbox"}}}}"#);
            let error = common::native().normalize_json(&report).unwrap().error.unwrap();
            Input::Parse(error.json)
        }
    }
}

/// The engines one load runs on; all of them share one compiled component and one pool.
struct Engines {
    plain: ComponentEngine,
    bounded: ComponentEngine,
    starved: ComponentEngine,
    tight: ComponentEngine,
    /// Normal inputs with the native engine's answer to each.
    expected: Vec<(Input, Answer)>,
    /// An input over the small bound, and the native engine's refusal of it.
    over_bound: (String, HostError),
    /// A text the tight engine's memory cannot hold.
    big: String,
}

impl Engines {
    fn new() -> Self {
        let plain = common::component().clone();
        let native = common::native();
        let expected = (0..VARIANTS).map(input).map(|i| (i.clone(), answer(&mut &native, &i).unwrap())).collect();
        let over = format!(r#"{{"policy":{{"kind":"forbidden","message":"{}"}}}}"#, "x".repeat(SMALL_BOUND));
        let refusal = NativeEngine::new(&Default::default(), Limits::default().with_max_input_bytes(SMALL_BOUND)).normalize_json(&over);
        Engines {
            bounded: plain.with_limits(Limits::default().with_max_input_bytes(SMALL_BOUND)),
            starved: plain.with_limits(Limits::default().with_deadline(Duration::ZERO)),
            tight: plain.with_limits(Limits::default().with_max_memory_bytes(TIGHT_MEMORY)),
            plain,
            expected,
            over_bound: (over, refusal.unwrap_err()),
            big: "secret token=abc ".repeat((2 << 20) / 17 + 1),
        }
    }
}

fn expect_abort<T: std::fmt::Debug>(result: Result<T, HostError>, cause: AbortCause, what: &str) {
    match result {
        Err(HostError::Aborted(a)) if a.cause() == cause => {}
        other => panic!("{what}: expected a {cause:?} abort, got {other:?}"),
    }
}

/// Call `i` of thread `t`: about one in eight trips a limit; the rest are normal inputs
/// through the shared engine, the tight engine or the thread's session.
fn one_call(e: &Engines, session: &mut Session, t: usize, i: usize) {
    let slot = (i + t * 3) % 32;
    let (input, expected) = &e.expected[(t * 7919 + i * 31) % VARIANTS];
    let check = |got: Result<Answer, HostError>, via: &str| {
        assert_eq!(got.as_ref(), Ok(expected), "thread {t}, call {i}, {via}: {input:?}");
    };
    match slot {
        0 => assert_eq!(e.bounded.normalize_json(&e.over_bound.0), Err(e.over_bound.1.clone()), "thread {t}, call {i}"),
        8 => expect_abort(e.starved.classify_run(r#"{"bridge_dispatch_started":false,"aborted":{}}"#), AbortCause::Execution, "deadline"),
        16 => expect_abort(e.tight.redact_text(&e.big), AbortCause::Memory, "memory"),
        24 => expect_abort(session.redact_text(&e.big), AbortCause::Memory, "memory in a session"),
        s if s % 2 == 1 => check(answer(&mut &mut *session, input), "session"),
        s if s % 4 == 2 => check(answer(&mut &e.tight, input), "tight engine"),
        _ => check(answer(&mut &e.plain, input), "engine"),
    }
}

/// `calls` calls on each of the threads; the elapsed time.
fn run(engines: &Arc<Engines>, calls: usize, offset: usize) -> Duration {
    let start = Instant::now();
    let threads: Vec<_> = (0..THREADS)
        .map(|t| {
            let e = Arc::clone(engines);
            std::thread::spawn(move || {
                let mut session = e.tight.session();
                for i in offset..offset + calls {
                    one_call(&e, &mut session, t, i);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a load thread failed");
    }
    start.elapsed()
}

/// `VmRSS` and `VmHWM` of this process, in bytes.
fn memory() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let field = |name: &str| {
        let line = status.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no {name}"));
        let kib: u64 = line[name.len()..].trim().trim_end_matches("kB").trim().parse().expect("a size in kB");
        kib * 1024
    };
    (field("VmRSS:"), field("VmHWM:"))
}

#[test]
fn eight_threads_share_one_engine_with_limits_tripping_and_memory_stays_flat() {
    let calls = if full() { 10_000 } else { 500 };
    let warm_up = (calls / 10).max(64);
    let engines = Arc::new(Engines::new());
    let (before, _) = memory();
    run(&engines, warm_up, 0);
    let (warm, _) = memory();
    let elapsed = run(&engines, calls, warm_up);
    let (end, peak) = memory();
    let total = THREADS * calls;
    let mib = |b: u64| b as f64 / f64::from(1 << 20);
    println!(
        "load: {THREADS} threads x {calls} calls in {:.2} s = {:.0} calls/s; RSS before {:.1} MiB, after the warm-up ({warm_up} calls a thread) {:.1} MiB, after the run {:.1} MiB, peak {:.1} MiB",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64(),
        mib(before),
        mib(warm),
        mib(end),
        mib(peak)
    );
    assert!(
        end <= warm + MAX_GROWTH_BYTES,
        "the resident set grew by {:.1} MiB over {total} calls after the warm-up (at most {:.0} MiB)",
        mib(end.saturating_sub(warm)),
        mib(MAX_GROWTH_BYTES)
    );
}
