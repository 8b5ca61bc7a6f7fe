//! The `codemode-errors` binary as a user runs it: real processes, real files, exit
//! statuses and the one line on standard error.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn cli() -> Command {
    // Compile the component into the shared cache once, before any process needs it, so
    // parallel tests do not each compile it.
    common::component();
    let mut c = Command::new(env!("CARGO_BIN_EXE_codemode-errors"));
    // Share the test build's compiled component, so only the first process compiles it.
    c.env("CODEMODE_ERRORS_CACHE_DIR", common::cache_dir());
    c
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = cli().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the CLI starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    input.write_all(stdin.unwrap_or_default()).expect("stdin accepts the input");
    drop(input);
    child.wait_with_output().expect("the CLI finishes")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 errors")
}

/// A failure: the status, nothing on stdout, and one line on stderr that contains `says`.
fn assert_fails(o: &Output, status: i32, says: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(status), "stderr: {err}");
    assert!(o.stdout.is_empty(), "nothing on stdout, got {:?}", stdout(o));
    assert_eq!(err.lines().count(), 1, "one line on stderr, got {err:?}");
    assert!(err.starts_with("codemode-errors: ") && err.contains(says), "{err:?} should say {says:?}");
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("scratch file");
    path
}

#[test]
fn normalize_prints_one_line_identical_on_both_engines() {
    let dir = common::scratch("cli-normalize");
    let file = write(&dir, "report.json", common::TYPICAL_REPORT);
    let file = file.to_str().unwrap();
    let component = run(&["normalize", file], None);
    assert_eq!(component.status.code(), Some(0), "{}", stderr(&component));
    let out = stdout(&component);
    assert_eq!(out.lines().count(), 1);
    assert!(out.starts_with("{\"error\":{\"contract_version\":1,\"kind\":\"rate_limited\""), "{out}");
    assert!(!out.contains("ghp_"));
    let expected = common::native().normalize_json(common::TYPICAL_REPORT).unwrap().json + "\n";
    assert_eq!(out, expected);
    assert_eq!(stdout(&run(&["--engine", "native", "normalize", file], None)), expected);
    // Standard input, by `-` or by default.
    assert_eq!(stdout(&run(&["normalize", "-"], Some(common::TYPICAL_REPORT.as_bytes()))), expected);
    assert_eq!(stdout(&run(&["normalize"], Some(common::TYPICAL_REPORT.as_bytes()))), expected);
}

#[test]
fn classify_run_prints_the_run_error_on_both_engines_and_refuses_a_bad_report() {
    let report = r#"{"bridge_dispatch_started":true,"guest_exception":{"name":"TypeError","message":"x is undefined"}}"#;
    let o = run(&["classify-run"], Some(report.as_bytes()));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let expected = common::native().classify_run(report).unwrap().json + "\n";
    assert_eq!(stdout(&o), expected);
    assert!(expected.starts_with(r#"{"code":"internal_error","message":"the code threw TypeError: x is undefined","failurePhase":"guest""#));
    assert_eq!(stdout(&run(&["--engine", "native", "classify-run", "-"], Some(report.as_bytes()))), expected);
    assert_fails(&run(&["classify-run"], Some(br#"{"aborted":{}}"#)), 2, "bridge_dispatch_started");
}

#[test]
fn pretty_indents_and_keeps_the_order() {
    let o = run(&["normalize", "--pretty"], Some(common::TYPICAL_REPORT.as_bytes()));
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.starts_with("{\n  \"error\": {\n    \"contract_version\": 1,\n    \"kind\": \"rate_limited\","), "{out}");
    let compact: String = {
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        serde_json::to_string(&v).unwrap() + "\n"
    };
    assert_eq!(compact, stdout(&run(&["normalize"], Some(common::TYPICAL_REPORT.as_bytes()))));
}

#[test]
fn redact_prints_redacted_text_or_json() {
    let o = run(&["redact"], Some(b"login with token=abc123 please\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "login with token=[REDACTED:secret_field] please\n");
    let o = run(&["redact", "--json"], Some(br#"{"password":"hunter2","note":"ok"}"#));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains("hunter2") && out.contains("\"note\":\"ok\"") && out.ends_with("}\n"), "{out}");
    assert_eq!(out, stdout(&run(&["--engine", "native", "redact", "--json"], Some(br#"{"password":"hunter2","note":"ok"}"#))));
}

#[test]
fn schema_and_version() {
    let o = run(&["schema"], None);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).trim_end(), codemode_errors::SCHEMA.trim_end());
    let o = run(&["--version"], None);
    assert_eq!(stdout(&o), format!("codemode-errors {}\n", codemode_errors::VERSION));
}

#[test]
fn a_policy_file_changes_the_caps() {
    let dir = common::scratch("cli-policy");
    let policy = write(&dir, "policy.json", r#"{"max_text_chars": 64}"#);
    let long = format!(r#"{{"tool_result":{{"isError":true,"content":[{{"type":"text","text":"{}"}}]}}}}"#, "y".repeat(500));
    let o = run(&["--policy", policy.to_str().unwrap(), "normalize"], Some(long.as_bytes()));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let capped = codemode_errors::Policy::from_json(r#"{"max_text_chars": 64}"#).unwrap();
    let expected = codemode_errors_host::NativeEngine::new(&capped, Default::default()).normalize_json(&long).unwrap().json + "\n";
    assert_eq!(stdout(&o), expected);
    assert_ne!(stdout(&o), stdout(&run(&["normalize"], Some(long.as_bytes()))));
}

#[test]
fn a_policy_file_adds_redaction_rules_on_both_engines() {
    let dir = common::scratch("cli-policy-lists");
    let lists = r#"{"secret_keys": ["acme_session"], "allow": ["pk_demo_0000"],
        "token_formats": [{"family": "acme_token", "prefix": "acme_", "alphabet": "alnum", "min_body_length": 24}]}"#;
    let policy = write(&dir, "policy.json", lists);
    let text = b"AcmeSession=s3cr3t key=pk_demo_0000 sent acme_0123456789abcdefghijklmn password=hunter2";
    let want = "AcmeSession=[REDACTED:secret_field] key=pk_demo_0000 sent [REDACTED:acme_token] password=[REDACTED:secret_field]";
    for engine in ["component", "native"] {
        let o = run(&["--engine", engine, "--policy", policy.to_str().unwrap(), "redact"], Some(text));
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stdout(&o), want, "{engine}");
    }
    let bad =
        write(&dir, "bad.json", r#"{"token_formats": [{"family": "acme", "prefix": "a", "alphabet": "alnum", "min_body_length": 24}]}"#);
    assert_fails(&run(&["--policy", bad.to_str().unwrap(), "redact"], Some(b"x")), 2, "invalid_policy: at token_formats[0].prefix");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let dir = common::scratch("cli-bad");
    let missing = dir.join("missing.json");
    assert_fails(&run(&["normalize", missing.to_str().unwrap()], None), 2, "cannot read");
    assert_fails(&run(&["normalize", missing.to_str().unwrap()], None), 2, "no such file");
    assert_fails(&run(&["normalize"], Some(b"{\"tool\":\n  ?}")), 2, "invalid_json: invalid JSON: expected value at line 2 column 3");
    assert_fails(&run(&["normalize"], Some(br#"{"frobnicate":{}}"#)), 2, "invalid_report: at frobnicate: unknown report field");
    assert_fails(&run(&["normalize"], Some(br#"{"tool":"a::b"}"#)), 2, "exactly one failure");
    assert_fails(&run(&["normalize"], Some(b"\xff\xfe")), 2, "not UTF-8");
    assert_fails(&run(&["redact", "--json"], Some(b"{")), 2, "invalid_json");
    assert_fails(&run(&["frobnicate"], None), 2, "unknown command `frobnicate`");
    assert_fails(&run(&["--engine", "jvm", "normalize"], None), 2, "--engine must be");
    let bad_policy = write(&dir, "policy.json", r#"{"max_text_chars": 1}"#);
    assert_fails(&run(&["--policy", bad_policy.to_str().unwrap(), "normalize"], Some(b"{}")), 2, "invalid_policy");
    let report = write(&dir, "report.json", "[]");
    assert_fails(&run(&["normalize", report.to_str().unwrap()], None), 2, "report.json: invalid_report");
}

#[test]
fn a_tripped_limit_exits_3_with_one_line() {
    let report = common::TYPICAL_REPORT.as_bytes();
    // A report the engine could not normalize still gets a contract error on stdout.
    for (args, says, kind) in [
        (&["--max-input-bytes", "10", "normalize"][..], "input_too_large", r#""kind":"artifact_too_large""#),
        (&["--engine", "native", "--max-input-bytes", "10", "normalize"][..], "input_too_large", r#""kind":"artifact_too_large""#),
        (&["--deadline-ms", "0", "normalize"][..], "execution limit exceeded", r#""kind":"internal_error""#),
    ] {
        let o = run(args, Some(report));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(3), "stderr: {err}");
        assert!(err.lines().count() == 1 && err.contains(says), "{err:?}");
        let out = stdout(&o);
        assert!(out.starts_with(r#"{"error":{"contract_version":1,"#) && out.contains(kind) && out.ends_with("}\n"), "{out}");
    }
    let big = "z".repeat(3 << 20);
    assert_fails(&run(&["--max-memory-bytes", "2000000", "redact"], Some(big.as_bytes())), 3, "memory limit exceeded");
}

#[test]
fn a_run_report_the_engine_could_not_classify_still_gets_a_run_error_with_exit_3() {
    let report = br#"{"bridge_dispatch_started":false,"restart_safe":true,"aborted":{}}"#;
    let too_large = r#"{"code":"internal_error","message":"the run report is 66 bytes, over the host's input bound of 10 bytes, and was not read; whether any tool call was dispatched is unknown, so check before running the code again","failurePhase":"host","bridgeDispatchStarted":true,"replaySafe":false}"#;
    for engine in ["component", "native"] {
        let o = run(&["--engine", engine, "--max-input-bytes", "10", "classify-run"], Some(report));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(3), "stderr: {err}");
        assert_eq!(err, "codemode-errors: standard input: input_too_large: input is 66 bytes; the input bound is 10 bytes\n");
        assert_eq!(stdout(&o), format!("{too_large}\n"), "{engine}");
    }
    // The component stopped: by its deadline, or at its memory bound by a 3 MiB report.
    let big = format!(r#"{{"bridge_dispatch_started":false,"internal":{{"message":"{}"}}}}"#, "z".repeat(3 << 20));
    for (args, input, cause) in [
        (&["--deadline-ms", "0", "classify-run"][..], &report[..], "execution limit exceeded: the error normalizer ran past its deadline"),
        (&["--max-memory-bytes", "2000000", "classify-run"][..], big.as_bytes(), "memory limit exceeded: the error normalizer was stopped"),
    ] {
        let o = run(args, Some(input));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(3), "stderr: {err}");
        assert!(err.lines().count() == 1 && err.contains(cause), "{err:?}");
        let out = stdout(&o);
        let end: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out:?}"));
        let message = end["message"].as_str().unwrap();
        assert!(message.starts_with(&format!("the run report could not be classified: {cause} (")), "{message}");
        assert!(
            message.ends_with("; whether any tool call was dispatched is unknown, so check before running the code again"),
            "{message}"
        );
        let facts = (&end["code"], &end["failurePhase"], &end["bridgeDispatchStarted"], &end["replaySafe"]);
        assert_eq!(facts, (&"internal_error".into(), &"host".into(), &true.into(), &false.into()), "{out}");
        assert_eq!(end.as_object().unwrap().len(), 5, "{out}");
        assert_eq!(out.lines().count(), 1);
    }
    // A report the core refused is bad input, not a limit: nothing to end a run with.
    assert_fails(&run(&["classify-run"], Some(br#"{"bridge_dispatch_started":1,"aborted":{}}"#)), 2, "bridge_dispatch_started");
    // --pretty indents it like any output.
    let o = run(&["--max-input-bytes", "10", "classify-run", "--pretty"], Some(report));
    assert!(stdout(&o).starts_with("{\n  \"code\": \"internal_error\",\n"), "{}", stdout(&o));
}

/// The peak resident set of the largest child process waited for so far, in bytes.
fn children_peak_rss() -> u64 {
    // SAFETY: `getrusage` only writes the `rusage` it is handed, which outlives the call.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) }, 0, "getrusage");
    u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024
}

/// Load: processes one after another, each with its own input, mixing every outcome the
/// CLI has (an answer, a refusal of bad input, a tripped bound with the contract error or
/// run error on stdout); every status and every byte of stdout must be what the library
/// gives for that input, and no process may leave anything in the shared component cache.
/// 50 processes by default, the issue's 1000 with `CODEMODE_LOAD=full` (docs/RELIABILITY.md,
/// "Load", records the figures).
#[test]
fn sequential_processes_each_give_the_answer_for_their_input() {
    let processes = if std::env::var("CODEMODE_LOAD").is_ok_and(|v| v == "full") { 1000 } else { 50 };
    let native = common::native();
    let bounded =
        codemode_errors_host::NativeEngine::new(&Default::default(), codemode_errors_host::Limits::default().with_max_input_bytes(10));
    let starved = common::component().with_limits(codemode_errors_host::Limits::default().with_deadline(std::time::Duration::ZERO));
    let cache_before: Vec<_> = std::fs::read_dir(common::cache_dir()).unwrap().map(|e| e.unwrap().file_name()).collect();
    let start = std::time::Instant::now();
    for p in 0..processes {
        let report = common::TYPICAL_REPORT.replace("Retry-After: 20", &format!("Retry-After: {}", p + 1));
        let run_report =
            format!(r#"{{"bridge_dispatch_started":{},"guest_exception":{{"name":"Error","message":"step {p} failed"}}}}"#, p % 3 == 0);
        let text = format!("process {p}: password=hunter{p}\n");
        let (args, input, status, expected): (&[&str], &str, i32, String) = match p % 8 {
            0 => (&["normalize"], &report, 0, native.normalize_json(&report).unwrap().json + "\n"),
            1 => (&["classify-run"], &run_report, 0, native.classify_run(&run_report).unwrap().json + "\n"),
            2 => (
                &["--max-input-bytes", "10", "normalize"],
                &report,
                3,
                bounded.normalize_json(&report).unwrap_err().to_outcome(None).json + "\n",
            ),
            3 => (
                &["--max-input-bytes", "10", "classify-run"],
                &run_report,
                3,
                bounded.classify_run(&run_report).unwrap_err().to_run_error().json + "\n",
            ),
            4 => (
                &["--deadline-ms", "0", "normalize"],
                &report,
                3,
                starved.normalize_json(&report).unwrap_err().to_outcome(None).json + "\n",
            ),
            5 => (&["normalize"], r#"{"frobnicate":{}}"#, 2, String::new()),
            6 => (&["redact"], &text, 0, native.redact_text(&text).unwrap()),
            _ => (&["--engine", "native", "classify-run"], &run_report, 0, native.classify_run(&run_report).unwrap().json + "\n"),
        };
        let o = run(args, Some(input.as_bytes()));
        assert_eq!(o.status.code(), Some(status), "process {p} ({args:?}): {}", stderr(&o));
        assert_eq!(stdout(&o), expected, "process {p} ({args:?})");
        assert_eq!(stderr(&o).lines().count(), usize::from(status != 0), "process {p}: {}", stderr(&o));
    }
    let elapsed = start.elapsed();
    let cache_after: Vec<_> = std::fs::read_dir(common::cache_dir()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(cache_after, cache_before, "the component cache changed");
    println!(
        "load: {processes} sequential processes in {:.1} s = {:.1} processes/s; largest peak RSS of a child {:.1} MiB",
        elapsed.as_secs_f64(),
        processes as f64 / elapsed.as_secs_f64(),
        children_peak_rss() as f64 / f64::from(1 << 20)
    );
}
