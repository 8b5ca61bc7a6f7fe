//! The gateway example is part of the test suite: it must run and hand every failed call to
//! the sandbox as a contract rejection, including the one that trips a limit.

use std::process::Command;

#[test]
fn the_gateway_rejects_every_failed_call_with_the_contract() {
    let out = Command::new(env!("CARGO_BIN_EXE_wasmtime-gateway")).output().expect("the example starts");
    assert!(out.status.success(), "exit {:?}: {}", out.status, String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let rejections: Vec<&str> = stdout.lines().filter(|l| l.contains("new Error(")).collect();
    assert!(rejections.len() >= 4, "too few rejections:\n{stdout}");
    for line in &rejections {
        assert!(line.contains(r#"\"contract_version\":1"#) || line.contains(r#""contract_version":1"#), "not a contract error: {line}");
    }
    assert!(!stdout.contains("ghp_abcdefghijklmnopqrstuvwxyz0123456789"), "a token reached the sandbox:\n{stdout}");
    let run_end = stdout.lines().find(|l| l.starts_with(r#"{"code":"#)).unwrap_or_else(|| panic!("no run error:\n{stdout}"));
    assert!(
        run_end.starts_with(r#"{"code":"internal_error","message":"an uncaught tool call failed: "#)
            && run_end.contains(r#""failurePhase":"bridge","bridgeDispatchStarted":true,"replaySafe":false,"toolError":{"contract_version":1,"kind":"rate_limited""#),
        "{run_end}"
    );
}
