//! The runner API through the real component: a fake bridge answers from a map.

use std::collections::{HashMap, VecDeque};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use codemode_gateway::runner::{Bridge, Ending, Findings, RunInput, RunLimits, Runner, RunnerError};

fn runner() -> &'static Runner {
    static RUNNER: OnceLock<Runner> = OnceLock::new();
    RUNNER.get_or_init(|| {
        let t = Instant::now();
        let r = Runner::new(RunLimits::default()).expect("the runner starts");
        eprintln!("Runner::new: {:?}", t.elapsed());
        r
    })
}

/// Answers `ns.tool` from a map: `Ok` results and `Err` contract texts; unknown names get
/// an unknown_tool contract.
#[derive(Default)]
struct FakeBridge {
    answers: HashMap<String, Result<String, String>>,
    started: Vec<(String, String, String)>,
    queue: VecDeque<(u32, Result<String, String>)>,
    events: Vec<String>,
    lines: Vec<String>,
    cut: bool,
}

impl FakeBridge {
    fn with(answers: &[(&str, Result<&str, &str>)]) -> FakeBridge {
        let answers = answers.iter().map(|(k, v)| (k.to_string(), v.map(str::to_string).map_err(str::to_string))).collect();
        FakeBridge { answers, ..Default::default() }
    }
}

impl Bridge for FakeBridge {
    fn start(&mut self, namespace: &str, tool: &str, args_json: &str) -> u32 {
        let id = self.started.len() as u32 + 1;
        self.started.push((namespace.into(), tool.into(), args_json.into()));
        self.events.push(format!("start {id}"));
        let answer =
            self.answers.get(&format!("{namespace}.{tool}")).cloned().unwrap_or_else(|| Err(r#"{"kind":"unknown_tool"}"#.to_string()));
        self.queue.push_back((id, answer));
        id
    }

    fn wait(&mut self, deadline: Instant) -> Option<(u32, Result<String, String>)> {
        self.events.push("wait".into());
        match self.queue.pop_front() {
            Some(a) => Some(a),
            None => {
                std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
                None
            }
        }
    }

    fn log(&mut self, line: &str) {
        self.lines.push(line.into());
    }

    fn log_cut(&mut self) {
        self.cut = true;
    }
}

fn run_with(code: &str, bridge: &mut FakeBridge, deadline: Duration) -> Ending {
    let namespaces = vec![("t".to_string(), vec!["echo".to_string(), "fail".to_string()])];
    let input = RunInput {
        code,
        file: "codemode:user.js",
        namespaces: &namespaces,
        deadline: Instant::now() + deadline,
        max_log_units: 1000,
        stop: None,
    };
    runner().run(&input, bridge)
}

fn run(code: &str) -> Ending {
    run_with(code, &mut FakeBridge::default(), Duration::from_secs(10))
}

fn completed(json: &str) -> Ending {
    Ending::Completed { value_json: Some(json.into()) }
}

const CONTRACT: &str = r#"{"kind":"tool_error","message":"boom"}"#;

fn tools() -> FakeBridge {
    FakeBridge::with(&[("t.echo", Ok(r#"{"echo":true}"#)), ("t.fail", Err(CONTRACT))])
}

#[test]
fn values() {
    assert_eq!(run("return 1"), completed("1"));
    assert_eq!(run("return undefined"), Ending::Completed { value_json: None });
    assert_eq!(run("const x = 2"), Ending::Completed { value_json: None });
    assert_eq!(run(r#"return {a:[1,"x"]}"#), completed(r#"{"a":[1,"x"]}"#));
    assert_eq!(run("return await 5"), completed("5"));
    assert_eq!(run("return '\\ud800x'"), completed("\"\\ud800x\""));
    assert!(matches!(run("return () => 1"), Ending::Unserializable { message } if message.contains("function")));
    assert!(matches!(run("return Symbol()"), Ending::Unserializable { message } if message.contains("symbol")));
    assert!(matches!(run("const a = {}; a.a = a; return a"), Ending::Unserializable { .. }));
    assert!(matches!(run("return 1n"), Ending::Unserializable { .. }));
    assert!(matches!(run("return {toJSON(){ throw new Error('no') }}"), Ending::Unserializable { message } if message.contains("no")));
    // What JSON has no such value for fails, as on the npm executors, instead of becoming
    // something else quietly.
    for (code, what) in [
        ("return NaN", "NaN"),
        ("return [1, Infinity]", "Infinity at the key \"1\""),
        ("return new Map([[1, 2]])", "a Map"),
        ("return {a: [undefined]}", "undefined in an array"),
        ("class P {}; return {p: new P()}", "not plain data"),
    ] {
        assert!(matches!(run(code), Ending::Unserializable { message } if message.contains(what)), "{code}");
    }
    assert_eq!(run("return {a: undefined, b: Object.create(null)}"), completed(r#"{"b":{}}"#));
}

#[test]
fn console() {
    let mut bridge = FakeBridge::default();
    let code = "console.log('a', 1, {b:[2]}, null, undefined, new Error('e'), Symbol('s')); console.error('x'); \
                const c = {}; c.c = c; console.info(c, 2n, () => 1); return 0";
    assert_eq!(run_with(code, &mut bridge, Duration::from_secs(10)), completed("0"));
    assert_eq!(bridge.lines[0], r#"a 1 {"b":[2]} null undefined Error: e Symbol(s)"#);
    assert_eq!(bridge.lines[1], "x");
    assert_eq!(bridge.lines[2], "[object Object] 2 () => 1");
    assert!(!bridge.cut);
    let mut bridge = FakeBridge::default();
    let code = "for (let i = 0; i < 100; i++) console.log('x'.repeat(50)); return 1";
    assert_eq!(run_with(code, &mut bridge, Duration::from_secs(10)), completed("1"));
    assert_eq!(bridge.lines.len(), 19); // 51 units each within 1000
    assert!(bridge.cut);
}

#[test]
fn calls() {
    let mut bridge = tools();
    assert_eq!(run_with("return await codemode.t.echo({a: 1})", &mut bridge, Duration::from_secs(10)), completed(r#"{"echo":true}"#));
    assert_eq!(bridge.started, vec![("t".into(), "echo".into(), r#"{"a":1}"#.into())]);

    let mut bridge = tools();
    let code = "const [a, b] = await Promise.all([codemode.t.echo(), codemode.t.echo({x: [1]})]); return [a, b]";
    assert_eq!(run_with(code, &mut bridge, Duration::from_secs(10)), completed(r#"[{"echo":true},{"echo":true}]"#));
    assert_eq!(bridge.events[..3], ["start 1", "start 2", "wait"]);
    assert_eq!(bridge.started[0].2, "{}");

    let mut bridge = tools();
    let code = "try { await codemode.t.fail({}) } catch (e) { return [e instanceof Error, JSON.parse(e.message)] }";
    assert_eq!(run_with(code, &mut bridge, Duration::from_secs(10)), completed(&format!("[true,{CONTRACT}]")));

    // Names the catalog lacks still go to the bridge.
    let mut bridge = tools();
    assert_eq!(run_with("await codemode.nope.missing()", &mut bridge, Duration::from_secs(10)), Ending::BridgeCall { id: 1 });
    assert_eq!(bridge.started[0].0, "nope");

    // The catalog, and no thenable.
    let code = "return [Object.keys(codemode), Object.keys(codemode.t), 't' in codemode, codemode.then === undefined, codemode.t.then === undefined, \
                typeof codemode.t.echo, (await codemode.t) === codemode.t || 'proxy']";
    assert_eq!(run(code), completed(r#"[["t"],["echo","fail"],true,true,true,"function","proxy"]"#));
}

#[test]
fn rejections_and_throws() {
    let mut bridge = tools();
    assert_eq!(run_with("await codemode.t.fail({})", &mut bridge, Duration::from_secs(10)), Ending::BridgeCall { id: 1 });
    let mut bridge = tools();
    let code = "await codemode.t.echo(); try { await codemode.t.fail() } catch (e) { e.message = 'changed'; e.extra = 1; throw e }";
    assert_eq!(run_with(code, &mut bridge, Duration::from_secs(10)), Ending::BridgeCall { id: 2 });
    let mut bridge = tools();
    let code = "await Promise.all([codemode.t.echo(), codemode.t.fail()])";
    assert_eq!(run_with(code, &mut bridge, Duration::from_secs(10)), Ending::BridgeCall { id: 2 });
    let mut bridge = tools();
    let code = "try { await codemode.t.fail() } catch (e) { throw new Error(e.message) }";
    match run_with(code, &mut bridge, Duration::from_secs(10)) {
        Ending::Guest { name, message, stack } => {
            assert_eq!((name.as_str(), message.as_str()), ("Error", CONTRACT));
            eprintln!("guest stack: {stack:?}");
            assert!(stack.contains("codemode:user.js:2:"), "{stack}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(run("throw {code: 'x'}"), Ending::Guest { name: "Error".into(), message: r#"{"code":"x"}"#.into(), stack: String::new() });
    assert_eq!(run("throw 'plain'"), Ending::Guest { name: "Error".into(), message: "plain".into(), stack: String::new() });
    match run("function inner() { null.x }\nfunction outer() { inner() }\nouter()") {
        Ending::Guest { name, message, stack } => {
            eprintln!("TypeError: {message:?} stack: {stack:?}");
            assert_eq!(name, "TypeError");
            assert!(stack.contains("inner (codemode:user.js:2:"), "{stack}");
            assert!(stack.contains("outer (codemode:user.js:3:"), "{stack}");
        }
        other => panic!("{other:?}"),
    }

    // Arguments that cannot become JSON: a guest TypeError, no start.
    let mut bridge = tools();
    let code = "const a = {}; a.a = a; await codemode.t.echo(a)";
    match run_with(code, &mut bridge, Duration::from_secs(10)) {
        Ending::Guest { name, message, .. } => assert_eq!(name, "TypeError", "{message}"),
        other => panic!("{other:?}"),
    }
    assert!(bridge.started.is_empty());
    let mut bridge = tools();
    assert!(
        matches!(run_with("await codemode.t.echo({n: 1n})", &mut bridge, Duration::from_secs(10)), Ending::Guest { name, .. } if name == "TypeError")
    );
    assert!(bridge.started.is_empty());
    // What the guest's own toJSON throws rejects the call as it was thrown.
    let mut bridge = tools();
    let code = "try { await codemode.t.echo({toJSON() { throw new Error('boom') }}) } catch (e) { return e.message }";
    assert_eq!(run_with(code, &mut bridge, Duration::from_secs(10)), completed(r#""boom""#));
    assert!(bridge.started.is_empty());
}

#[test]
fn timeouts() {
    for code in ["for(;;){}", "await null; for(;;){}", "while(true){try{for(;;){}}catch(e){}}"] {
        let t = Instant::now();
        assert_eq!(run_with(code, &mut FakeBridge::default(), Duration::from_millis(200)), Ending::Timeout, "{code}");
        let took = t.elapsed();
        assert!(took < Duration::from_millis(300), "{code}: {took:?}");
    }
    // A call that never settles: the bridge's wait gives up at the deadline.
    let mut bridge = FakeBridge::default();
    bridge.answers.insert("t.echo".into(), Ok("1".into()));
    struct Never(FakeBridge);
    impl Bridge for Never {
        fn start(&mut self, n: &str, t: &str, a: &str) -> u32 {
            self.0.start(n, t, a)
        }
        fn wait(&mut self, deadline: Instant) -> Option<(u32, Result<String, String>)> {
            std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
            None
        }
        fn log(&mut self, _: &str) {}
    }
    let namespaces = vec![];
    let input = RunInput {
        code: "await codemode.t.echo()",
        file: "f.js",
        namespaces: &namespaces,
        deadline: Instant::now() + Duration::from_millis(100),
        max_log_units: 10,
        stop: None,
    };
    assert_eq!(runner().run(&input, &mut Never(bridge)), Ending::Timeout);
    assert_eq!(run("return 1"), completed("1"));
}

#[test]
fn memory_and_limits() {
    assert_eq!(run("new ArrayBuffer(1e9)"), Ending::OutOfMemory);
    assert_eq!(run("return 1"), completed("1"));
    let recursion = run("(function f(){f()})()");
    eprintln!("recursion: {recursion:?}");
    assert!(matches!(recursion, Ending::Exhausted { .. }), "{recursion:?}");
    assert!(matches!(run("await null; (function f(){f()})()"), Ending::Exhausted { .. }));
    assert_eq!(run("return 1"), completed("1"));

    let nested = format!("return {}1{}", "(".repeat(5000), ")".repeat(5000));
    let findings = runner().findings(&nested);
    let ending = run(&nested);
    eprintln!("5000 parens: findings {findings:?}, run {ending:?}");
    assert!(matches!(&findings, Ok(Findings { syntax_error: Some(_), .. }) | Err(RunnerError::Exhausted(_))), "{findings:?}");
    assert!(matches!(ending, Ending::Exhausted { .. } | Ending::SyntaxError { .. }), "{ending:?}");
    assert_eq!(run("return 1"), completed("1"));
    let nested = format!("return {}1{}", "[".repeat(100_000), "]".repeat(100_000));
    let ending = run(&nested);
    eprintln!("100000 brackets: run {ending:?}");
    assert!(matches!(ending, Ending::Exhausted { .. } | Ending::SyntaxError { .. }), "{ending:?}");
    assert_eq!(run("return 1"), completed("1"));
}

#[test]
fn syntax_errors_in_runs() {
    // Early errors boa's function-body parse leaves to evaluation.
    let ending = run("let a = 1;\nlet a = 2;");
    eprintln!("redeclaration: {ending:?}, findings {:?}", runner().findings("let a = 1;\nlet a = 2;"));
    assert!(matches!(ending, Ending::SyntaxError { .. } | Ending::Completed { .. }));
    match run("return 1 +* 2") {
        Ending::SyntaxError { line, column, message } => assert_eq!((line, column), (1, 11), "{message}"),
        other => panic!("{other:?}"),
    }
    match run("const a = 1;\nreturn 1 +* 2") {
        Ending::SyntaxError { line, column, .. } => assert_eq!((line, column), (2, 11)),
        other => panic!("{other:?}"),
    }
}

fn uses(code: &str) -> Vec<(String, usize)> {
    let f = runner().findings(code).unwrap();
    assert_eq!(f.syntax_error, None, "{code}");
    f.uses
}

fn u(kind: &str, offset: usize) -> (String, usize) {
    (kind.to_string(), offset)
}

#[test]
fn findings() {
    assert_eq!(uses("return 1"), vec![]);
    assert_eq!(uses("const fs = require('fs')"), vec![u("require_call", 11)]);
    assert_eq!(uses("await import('fs')"), vec![u("dynamic_import", 6)]);
    assert_eq!(uses("import /**/ ('fs')"), vec![u("dynamic_import", 0)]);
    assert_eq!(uses("import\n('fs')"), vec![u("dynamic_import", 0)]);
    assert_eq!(uses("import fs from 'fs'"), vec![u("import_declaration", 0)]);
    assert_eq!(uses("return import.meta"), vec![u("import_meta", 7)]);
    assert_eq!(uses("let s = 1;\u{2028}require('a')"), vec![u("require_call", 11)]);
    assert_eq!(uses("'\u{1F600}';\r\nrequire('a')"), vec![u("require_call", 7)]);
    let f = runner().findings("import fs from 'fs'\nconst x = ;").unwrap();
    assert_eq!(f.uses, vec![u("import_declaration", 0)]);
    assert_eq!(f.syntax_error.map(|e| e.1), Some(30));
    let f = runner().findings("return 1 +* 2").unwrap();
    eprintln!("syntax error message: {:?}", f.syntax_error);
    assert_eq!(f.syntax_error.map(|e| e.1), Some(10));
    let f = runner().findings("export const a = 1").unwrap();
    assert_eq!(f.syntax_error, Some(("Unexpected token 'export'".into(), 0)));
    let f = runner().findings("return 1").unwrap();
    assert_eq!(f, Findings::default());
}

#[test]
fn timings() {
    let r = runner();
    let t = Instant::now();
    let cold = RunLimits { cache: codemode_errors_host::CompileCache::Disabled, ..RunLimits::default() };
    let _cold = Runner::new(cold).unwrap();
    eprintln!("Runner::new cold (compiling, no cache): {:?}", t.elapsed());
    let t = Instant::now();
    let _again = Runner::new(RunLimits::default()).unwrap();
    eprintln!("Runner::new with the cache: {:?}", t.elapsed());
    let mut samples: Vec<Duration> = (0..30)
        .map(|_| {
            let t = Instant::now();
            assert_eq!(run("return 1"), completed("1"));
            t.elapsed()
        })
        .collect();
    samples.sort();
    eprintln!("run(\"return 1\") median: {:?}", samples[15]);
    let namespaces = vec![];
    let input = |code| RunInput {
        code,
        file: "f.js",
        namespaces: &namespaces,
        deadline: Instant::now() + Duration::from_secs(30),
        max_log_units: 10,
        stop: None,
    };
    let mut bridge = tools();
    let t = Instant::now();
    assert_eq!(r.run(&input("for (let i = 0; i < 1000; i++) await codemode.t.echo({i}); return 1"), &mut bridge), completed("1"));
    let with_calls = t.elapsed();
    let t = Instant::now();
    assert_eq!(
        r.run(&input("for (let i = 0; i < 1000; i++) await JSON.parse(JSON.stringify({i})); return 1"), &mut bridge),
        completed("1")
    );
    let without = t.elapsed();
    eprintln!(
        "1000 awaited calls: {with_calls:?}; the same without calls {without:?}; per call {:?}",
        (with_calls.saturating_sub(without)) / 1000
    );
}

#[test]
fn code_cannot_close_the_wrapper() {
    const STRAY: &str = "Unexpected token '}'";
    let stray = |code: &str| runner().findings(code).unwrap().syntax_error;
    let at = |offset: usize| Some((STRAY.to_string(), offset));
    let escapes = [
        "return 1 }); throw new Error('gateway internal failure'); (function(){",
        "return 1 }); require('fs'); (async function(){ return 2",
        "return 1 }); (async function () {",
        "return 1 })",
        "return 1 } //",
    ];
    for code in escapes {
        assert_eq!(stray(code), at(9), "{code}");
        match run(code) {
            Ending::SyntaxError { message, line, column } => assert_eq!((message.as_str(), line, column), (STRAY, 1, 10), "{code}"),
            other => panic!("{code}: {other:?}"),
        }
    }
    // The unterminated comment makes the wrapped text fail to parse; the `}` is still what
    // findings reports.
    assert_eq!(stray("return 1 } /*"), at(9));
    assert!(matches!(run("return 1 } /*"), Ending::SyntaxError { .. }));
    assert_eq!(stray("}"), at(0));
    assert_eq!(run("}"), Ending::SyntaxError { message: STRAY.into(), line: 1, column: 1 });
    // Line 2 after a U+2028, past an astral char: the offset counts UTF-16 units.
    let code = "let a = '\u{1F600}';\u{2028}  } x";
    assert_eq!(stray(code), at(16));
    assert_eq!(run(code), Ending::SyntaxError { message: STRAY.into(), line: 2, column: 3 });
    // A `}` in a string, template, regex or comment is fine.
    for (code, value) in [
        ("return '})'", "\"})\""),
        ("return `}${'}'}}`", "\"}}}\""),
        ("return /}/.test('}')", "true"),
        ("// })\nreturn 1", "1"),
        ("/* }) */ return 1", "1"),
        ("return { a: {} }", "{\"a\":{}}"),
        ("return 1\r", "1"),
    ] {
        assert_eq!(stray(code), None, "{code}");
        assert_eq!(run(code), completed(value), "{code}");
    }
}

#[test]
fn many_imports_are_not_quadratic() {
    let code = format!("{}return 1", "import.meta;\n".repeat(2000));
    let t = Instant::now();
    let f = runner().findings(&code).unwrap();
    let took = t.elapsed();
    eprintln!("2000 import.meta: findings in {took:?}");
    assert_eq!(f.syntax_error, None);
    // 16 found one parse at a time, then the one the parse stopped at past the cap.
    assert_eq!(f.uses.len(), 17);
    assert_eq!(f.uses[16], u("import_meta", 13 * 16));
    assert!(took < Duration::from_secs(4), "{took:?}");
    // A syntax error past the cap still wins over module access.
    let code = format!("{}return 1 +* 2", "import fs from 'fs';\n".repeat(100));
    let f = runner().findings(&code).unwrap();
    assert_eq!(f.syntax_error.map(|e| e.1), Some(21 * 100 + 10));
}
