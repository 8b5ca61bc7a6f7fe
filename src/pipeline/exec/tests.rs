use super::*;

fn refused_message(request: &str) -> String {
    match ExecRequest::from_json(request) {
        Err(RunFailure::InvalidRequest { message }) => message,
        other => panic!("{request}: {other:?}"),
    }
}

#[test]
fn exec_requests_name_the_field_they_refuse() {
    assert_eq!(ExecRequest::from_json(r#""return 1""#).unwrap(), ExecRequest { code: "return 1".into(), restart_safe: false });
    assert!(ExecRequest::from_json(r#"{"code":"x","restartSafe":true}"#).unwrap().restart_safe);
    for (request, names) in [
        (r#"{"code":"x","language":"typescript"}"#, "`language` is retired"),
        (r#"{"code":"x","typecheck":true}"#, "`typecheck` is retired"),
        (r#"{"code":"x","runtime":"deno"}"#, "unknown field `runtime`"),
        (r#"{"code":42}"#, "`code` must be a string"),
        (r#"{"code":"x","restartSafe":"yes"}"#, "`restartSafe` must be true or false"),
        (r#"{"restartSafe":true}"#, "no `code`"),
        ("[1]", "must be an object"),
        ("{", "not valid JSON"),
    ] {
        let message = refused_message(request);
        assert!(message.contains(names), "{request}: {message}");
    }
    let long = format!(r#"{{"code":"{}"}}"#, "x".repeat(MAX_SOURCE_UNITS + 1));
    assert!(refused_message(&long).contains("more than the 131072"), "the source cap");
    let huge_key = format!(r#"{{"code":"x","{}":1}}"#, "k".repeat(10_000));
    assert!(refused_message(&huge_key).len() < 200);
}

#[test]
fn module_access_is_found_in_code_only() {
    for (source, at) in [
        ("const fs = require('fs')", ("require", 1, 12)),
        ("await  import('node:fs')", ("import", 1, 8)),
        ("const a = 1;\n  x = require ('child_process')", ("require", 2, 7)),
        ("const t = `${require('os')}`", ("require", 1, 14)),
        ("const r = /['\"]/; require('x')", ("require", 1, 19)),
        // Whatever stands between the word and its `(`: spaces, line breaks, comments.
        ("await import /**/ ('fs')", ("import", 1, 7)),
        ("await import\n('fs')", ("import", 1, 7)),
        ("await import // x\n  ('fs')", ("import", 1, 7)),
        ("x;\nrequire /* a */ /* b */\r\n('fs')", ("require", 2, 1)),
    ] {
        assert_eq!(find_module_access(source), Some(at), "{source}");
    }
    for source in [
        "const s = 'require(x)'",
        "// import('y')\nreturn 1",
        "/* require('z') */ return 2",
        "const t = `import(${1})`",
        "return obj.require('x') + loader.import('y')",
        "const n = 4 / 2; const m = 'require(';",
        "const requireX = 1; importer(2)",
        "const s = 'require' /* ( */; x",
    ] {
        assert_eq!(find_module_access(source), None, "{source}");
    }
    let failure = module_access("require('fs')").unwrap();
    assert!(
        matches!(failure, RunFailure::InvalidRequest { ref message } if message.contains("`require` at line 1, column 1")),
        "{failure:?}"
    );
}

#[test]
fn syntax_errors_are_placed_in_the_submitted_source() {
    let wrapping = Wrapping::new("agent:user.js", 1, 0);
    // V8: the file and line, then a caret line.
    let v8 = "agent:user.js:3\n  const x = ;\n            ^\n\nSyntaxError: Unexpected token ';'";
    let source = "const a = 1\nconst x = ;";
    assert_eq!(
        syntax_failure(Engine::V8, "Unexpected token ';'", v8, None, &wrapping, source),
        RunFailure::SyntaxError { message: "Unexpected token ';'".into(), line: 2, column: 13 }
    );
    // QuickJS: `at file:line:column`.
    let quickjs = "    at agent:user.js:2:11\n";
    assert_eq!(
        syntax_failure(
            Engine::QuickJs,
            "unexpected token in expression: ';'",
            quickjs,
            None,
            &Wrapping::new("agent:user.js", 1, 0),
            source
        ),
        RunFailure::SyntaxError { message: "unexpected token in expression: ';'".into(), line: 1, column: 11 }
    );
    // SpiderMonkey's own numbers; a column on the first line loses the wrapper's columns.
    let first_line = Wrapping::new("agent:user.js", 0, 15);
    assert!(matches!(
        syntax_failure(Engine::SpiderMonkey, "unexpected token", "", Some((1, 20)), &first_line, source),
        RunFailure::SyntaxError { line: 1, column: 5, .. }
    ));
    // A position in the wrapper after the source (an unexpected end) is the source's end.
    let end = "agent:user.js:4\n})()\n^\n\nSyntaxError: Unexpected end of input";
    assert!(matches!(
        syntax_failure(Engine::V8, "Unexpected end of input", end, None, &wrapping, "if (x) {\n  y()"),
        RunFailure::SyntaxError { line: 2, column: 6, .. }
    ));
    // No position at all: the end of the source, still one-based.
    assert!(matches!(syntax_failure(Engine::V8, "?", "", None, &wrapping, ""), RunFailure::SyntaxError { line: 1, column: 1, .. }));
}

#[test]
fn stacks_keep_only_the_submitted_source_frames() {
    let wrapping = Wrapping::new("agent:user.js", 1, 0);
    let v8 = "TypeError: Cannot read properties of undefined (reading 'x')\n    at check (agent:user.js:5:11)\n    at async agent:user.js:9:3\n    at Script.runInContext (node:vm:149:12)\n    at execute (/srv/app/node_modules/codemode-errors/dist/esm/execute.js:120:20)";
    let out = user_stack(Engine::V8, "TypeError", "Cannot read properties of undefined (reading 'x')", v8, &wrapping, "agent");
    assert_eq!(
        out.as_str(),
        "TypeError: Cannot read properties of undefined (reading 'x')\n    at check (agent:user.js:4:11)\n    at agent:user.js:8:3"
    );
    let spidermonkey = "check@agent:user.js:5:11\n@agent:user.js:9:3\nexecute@resource://x.js:1:1";
    let out = user_stack(Engine::SpiderMonkey, "TypeError", "x is undefined", spidermonkey, &wrapping, "agent");
    assert_eq!(out.as_str(), "TypeError: x is undefined\n    at check (agent:user.js:4:11)\n    at agent:user.js:8:3");
    // Frames are bounded, and names and messages are cleaned like evidence.
    let many: String = (0..50).map(|i| format!("    at f{i} (agent:user.js:{}:1)\n", i + 2)).collect();
    let out = user_stack(Engine::V8, "Error\u{202E}", "token=ghp_abcdefghijklmnopqrstuvwxyz0123456789", &many, &wrapping, "agent");
    assert_eq!(out.matches("\n    at ").count(), MAX_FRAMES);
    assert!(!out.contains("ghp_") && !out.contains('\u{202E}'), "{out}");
    // The wrapper's own lines, before and after the source, are no frames of the source.
    assert_eq!(user_stack(Engine::V8, "Error", "m", "    at agent:user.js:1:1", &wrapping, "agent").as_str(), "Error: m");
    let quickjs = "    at f (agent:user.js:2:26)\n    at <anonymous> (agent:user.js:3:9)\n    at <eval> (agent:user.js:4:3)\n";
    let out = user_stack(Engine::QuickJs, "TypeError", "m", quickjs, &Wrapping::new("agent:user.js", 1, 0).with_source_lines(2), "agent");
    assert_eq!(out.as_str(), "TypeError: m\n    at f (agent:user.js:1:26)\n    at agent:user.js:2:9");
}

#[test]
fn output_and_value_share_one_budget() {
    let p = project_completed("hello\n", r#"{"n":1}"#, 1024).unwrap();
    assert_eq!((p.output.as_str(), p.value.as_str(), p.truncated), ("hello\n", r#"{"n":1}"#, false));
    // The value comes first; the output gets what is left.
    let p = project_completed(&"log line\n".repeat(100), r#"{"n":1}"#, 200).unwrap();
    assert!(p.truncated && p.output.ends_with("…[output truncated]"), "{}", p.output);
    assert!(p.output.len() + p.value.len() <= 200, "{} + {}", p.output.len(), p.value.len());
    // A value over the budget by itself is shrunk, and the run stays completed.
    let big = format!("[{}]", (0..500).map(|i| format!(r#""item {i}""#)).collect::<Vec<_>>().join(","));
    let p = project_completed("", &big, 512).unwrap();
    assert!(p.truncated && p.value.len() <= 512 && p.value.contains("TRUNCATED"), "{}", p.value);
    assert!(parse_json(&p.value).is_ok());
    // Secrets in the value and the output are redacted; a value that is not JSON data fails.
    let p = project_completed("token=ghp_abcdefghijklmnopqrstuvwxyz0123456789", r#"{"password":"hunter2"}"#, 4096).unwrap();
    assert!(!p.output.contains("ghp_") && !p.value.contains("hunter2"), "{p:?}");
    assert!(matches!(project_completed("", "\"\\ud800\"", 100), Err(RunFailure::OutputUnserializable { .. })));
}

/// The budget holds for the value and output as they are written: redaction lengthens a
/// short secret (`token=a` → `token=[REDACTED:secret_field]`), so a value that fitted
/// before redaction may not after it (found by an independent red team).
#[test]
fn the_budget_holds_after_redaction() {
    for (output, value, budget) in [
        ("", r#"{"a":"token=a"}"#, 20),
        ("", r#""token=a token=a token=a token=a token=a token=a token=a token=a token=a token=a ""#, 90),
        ("token=a ".repeat(60).as_str(), r#""password=b password=b password=b password=b password=b password=b""#, 300),
        ("token=a ".repeat(60).as_str(), &format!("\"{}\"", "password=b ".repeat(25)), 300),
        ("some output", &format!("\"{}\"", "x".repeat(290)), 300),
        ("", r#"["password=hunter22","password=hunter33"]"#, 64),
    ] {
        let p = project_completed(output, value, budget).unwrap();
        let room = budget.max(MIN_VALUE_BYTES);
        assert!(p.value.len() <= room, "value of {} bytes for a budget of {budget}: {}", p.value.len(), p.value);
        let marker = "…[output truncated]".len();
        assert!(p.value.len() + p.output.len() <= room + marker, "{} + {} bytes for {budget}: {p:?}", p.value.len(), p.output.len());
        assert!(parse_json(&p.value).is_ok(), "{}", p.value);
        if p.value.len() + p.output.len() > budget {
            assert!(p.truncated && budget < MIN_VALUE_BYTES + marker, "over a budget of {budget} without its floor: {p:?}");
        }
        assert!(p.value.len() + p.output.len() <= budget.max(MIN_VALUE_BYTES + marker), "{p:?}");
    }
}
