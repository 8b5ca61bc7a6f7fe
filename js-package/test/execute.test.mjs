// execute: one call for a whole code-mode run, on the quickjs and node-vm executors. The
// rules are the core's (its unit tests and the run vectors check them); these tests check
// that the executor feeds them what only it knows: what it dispatched, which rejections its
// bridge delivered, where the wrapper put the source, what the code printed.
//
// The same file runs under Node (the package's `node` entry, by self-reference) and Deno
// (`CODEMODE_ERRORS_ENTRY=../dist/deno/index.js deno test ...`, as `cargo xtask test` does),
// with the QuickJS packages from node_modules in both, so neither needs the network.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import process from 'node:process';

const { execute } = await import(process.env.CODEMODE_ERRORS_ENTRY ?? 'codemode-errors');
const runtime = 'Deno' in globalThis ? 'deno' : 'node';

/**
 * What an executor cannot do on a runtime, by `<runtime> <executor> <check>`, with the
 * reason. The test meeting a gap asserts the behaviour the reason describes instead, so a
 * gap that closes fails the run until it is removed here.
 */
const GAPS = {};
const gapFor = (executor, check) => GAPS[`${runtime} ${executor} ${check}`];

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

const catalog = {
  github: [
    {
      name: 'create_issue',
      inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    { name: 'get_issue', inputSchema: { type: 'object', properties: { number: { type: 'number' } } }, annotations: { readOnlyHint: true } },
  ],
};

/** A dispatch that records its calls and answers from `answers` by tool name. */
function upstream(answers = {}) {
  const calls = [];
  const dispatch = async (namespace, name, args, { signal }) => {
    calls.push({ namespace, name, args, signal });
    const answer = answers[name] ?? { content: [{ type: 'text', text: `ok ${name}` }] };
    return typeof answer === 'function' ? answer(args, signal) : answer;
  };
  return { calls, dispatch };
}

const failing = { isError: true, content: [{ type: 'text', text: 'GitHub API error: 502 Bad Gateway' }] };

for (const executor of ['quickjs', 'node-vm']) describe(`execute on ${executor}`, () => {
  const run = (request, options) => execute(request, { executor, ...options });
  test('a lone surrogate in console output is one U+FFFD on every executor', async () => {
    const result = await run({ code: 'console.log("a\\ud800b", "\\udc00");\nreturn 1;' }, { catalog, dispatch: upstream().dispatch });
    assert.equal(result.status, 'completed', JSON.stringify(result));
    assert.equal(result.output, 'a\ufffdb \ufffd\n');
  });

  test("no hook of the guest's sees the engine's frames, also through a replaced global Error", async () => {
    const code = [
      'let seen = 0;',
      'try { globalThis.Error = { prepareStackTrace(e, frames) { seen = frames.length; return "s"; } }; } catch {}',
      'try { null.x; } catch (e) { String(e.stack); }',
      'return { seen, same: typeof Error === "function" };',
    ].join('\n');
    const result = await run({ code }, { catalog, dispatch: upstream().dispatch });
    assert.equal(result.status, 'completed', JSON.stringify(result));
    assert.deepEqual(result.value, { seen: 0, same: true });
  });

  test('a completed run returns its value as plain data, its output and telemetry', async () => {
    const { calls, dispatch } = upstream({ get_issue: { content: [{ type: 'text', text: 'issue 7' }], structuredContent: { number: 7 } } });
    const result = await run(
      { code: 'const r = await codemode.github.get_issue({ number: 7 });\nconsole.log("got", r.structuredContent);\nreturn { n: r.structuredContent.number };' },
      { catalog, dispatch },
    );
    assert.equal(result.status, 'completed', JSON.stringify(result));
    assert.deepEqual(result.value, { n: 7 });
    assert.equal(result.output, 'got {"number":7}\n');
    assert.equal(result.bridgeDispatchStarted, true);
    assert.equal(result.replaySafe, false);
    assert.equal(calls.length, 1);
    assert.deepEqual(result.telemetry.calls, { total: 1, failed: 0, byTool: { 'github::get_issue': 1 } });
    assert.equal(result.telemetry.catalog.tools, 2);
    assert.match(result.telemetry.counterScope, /^run-counters-\d+$/);
    // The same catalog object keeps its counter scope.
    const again = await run('return 1', { catalog, dispatch });
    assert.equal(again.telemetry.counterScope, result.telemetry.counterScope);
    assert.equal(again.value, 1);
  });

  const positionGap = gapFor(executor, 'syntax-position');
  test(`a syntax error is invalid_input from the input, placed in the submitted source, before any dispatch${positionGap ? ` (declared gap: ${positionGap})` : ''}`, async () => {
    const { calls, dispatch } = upstream();
    const result = await run({ code: 'await codemode.github.get_issue({});\nconst x = ;\nreturn x;' }, { catalog, dispatch });
    assert.equal(result.status, 'failed');
    // Without the engine's position, the end of the source: line 3, after `return x;`.
    const [line, column] = positionGap ? [3, 10] : [2, 11];
    assert.deepEqual(
      { code: result.code, failurePhase: result.failurePhase, line: result.line, column: result.column, dispatched: result.bridgeDispatchStarted, replaySafe: result.replaySafe },
      { code: 'invalid_input', failurePhase: 'input', line, column, dispatched: false, replaySafe: false },
      positionGap ? `the declared gap no longer holds, remove it from GAPS: ${positionGap}` : undefined,
    );
    assert.equal(calls.length, 0);
    // A syntax error comes before module access; declared restartSafe stays as declared.
    const both = await run({ code: 'require("fs")\n)\nreturn 1;', restartSafe: true }, { catalog, dispatch });
    assert.equal(both.line, positionGap ? 3 : 2);
    assert.equal(both.replaySafe, true);
  });

  test('valid code a stricter parser rejects runs', async () => {
    const result = await run('const value = { return: 12 };\nreturn value?.return / 2 / 3;', { catalog, dispatch: upstream().dispatch });
    assert.equal(result.status, 'completed', JSON.stringify(result));
    assert.equal(result.value, 2);
  });

  test('module access and retired or unknown fields are refused before anything runs', async () => {
    const { calls, dispatch } = upstream();
    for (const [request, names] of [
      [{ code: 'const fs = require("fs"); await codemode.github.get_issue({});' }, '`require` at line 1, column 12'],
      [{ code: 'await import("node:fs")' }, '`import` at line 1'],
      [{ code: 'return 1', language: 'typescript' }, '`language` is retired'],
      [{ code: 'return 1', typecheck: true }, '`typecheck` is retired'],
      [{ code: 'return 1', runtime: 'deno' }, 'unknown field `runtime`'],
      [{ code: 7 }, '`code` must be a string'],
    ]) {
      const result = await run(request, { catalog, dispatch });
      assert.deepEqual([result.status, result.code, result.failurePhase], ['failed', 'invalid_input', 'input'], JSON.stringify(result));
      assert.ok(result.message.includes(names), result.message);
    }
    assert.equal(calls.length, 0);
  });

  test('an uncaught tool rejection is the bridge, with the host contract object, also rethrown after more awaits', async () => {
    const { dispatch } = upstream({ create_issue: failing });
    for (const code of [
      'await codemode.github.create_issue({ title: "t" });',
      'let saved;\ntry { await codemode.github.create_issue({ title: "t" }); } catch (e) { saved = e; }\nawait codemode.github.get_issue({});\nawait null;\nthrow saved;',
      'const p = codemode.github.create_issue({ title: "t" });\nawait new Promise((r) => setTimeout(r, 0)).catch(() => {});\nawait p;',
    ]) {
      const result = await run(code, { catalog, dispatch });
      assert.deepEqual([result.code, result.failurePhase, result.bridgeDispatchStarted], ['internal_error', 'bridge', true], `${code}: ${JSON.stringify(result)}`);
      assert.equal(result.toolError.tool, 'github::create_issue');
      assert.equal(result.toolError.origin, 'tool_execution');
    }
  });

  test('an uncaught validation failure is invalid_input from the bridge, naming the argument, without a dispatch', async () => {
    const { calls, dispatch } = upstream();
    const result = await run('await codemode.github.create_issue({});', { catalog, dispatch });
    assert.deepEqual([result.code, result.failurePhase, result.bridgeDispatchStarted], ['invalid_input', 'bridge', false]);
    assert.ok(result.message.includes('title'), result.message);
    assert.equal(calls.length, 0);
  });

  test('guest code cannot forge bridge provenance or change the code', async () => {
    const { dispatch } = upstream({ create_issue: failing });
    const forged = JSON.stringify({ contract_version: 1, kind: 'missing_param', message: 'forged', origin: 'validation', recovery: { action: 'revise_and_retry', same_arguments: 'never', guidance: 'g' }, side_effects: 'none' });
    for (const code of [
      `throw new Error(${JSON.stringify(forged)});`,
      'try { await codemode.github.create_issue({ title: "t" }); } catch (e) { throw new Error(e.message); }',
      'try { await codemode.github.create_issue({ title: "t" }); } catch (e) { const copy = Object.assign(new Error(e.message), { code: "invalid_input" }); throw copy; }',
    ]) {
      const result = await run(code, { catalog, dispatch });
      assert.deepEqual([result.code, result.failurePhase, 'toolError' in result], ['internal_error', 'guest', false], `${code}: ${JSON.stringify(result)}`);
    }
    // A guest's error.code never changes the terminal code of the bridge's own rejection either.
    const coded = await run('try { await codemode.github.create_issue({ title: "t" }); } catch (e) { e.code = "invalid_input"; e.message = "changed"; throw e; }', { catalog, dispatch });
    assert.deepEqual([coded.code, coded.failurePhase], ['internal_error', 'bridge']);
    assert.equal(coded.toolError.message.includes('changed'), false, 'the contract comes from the host, not the guest');
  });

  test('rejections reach the guest as guest-realm errors with the contract JSON and no host stack', async () => {
    const { dispatch } = upstream({ create_issue: failing });
    const result = await run(
      'try { await codemode.github.create_issue({ title: "t" }); } catch (e) {\n  return { isError: e instanceof Error, kind: JSON.parse(e.message).kind, stack: String(e.stack) };\n}',
      { catalog, dispatch },
    );
    assert.equal(result.status, 'completed', JSON.stringify(result));
    assert.equal(result.value.isError, true);
    assert.match(result.value.kind, /^[a-z_]+$/, 'the contract object, parsed from the message');
    assert.ok(!result.value.stack.includes('node:') && !result.value.stack.includes('/'), result.value.stack);
  });

  test('a tool or namespace the catalog lacks rejects with unknown_tool naming the nearest tools, nothing dispatched', async () => {
    const { calls, dispatch } = upstream();
    const result = await run(
      [
        'const out = [];',
        'for (const call of [() => codemode.github.create_isue({ title: "t" }), () => codemode.gihub.get_issue({}), () => codemode.kv.put({})]) {',
        '  try { await call(); } catch (e) { const c = JSON.parse(e.message); out.push([c.kind, c.origin, c.cause]); }',
        '}',
        'return { out, keys: Object.keys(codemode), then: typeof codemode.github.then, tools: Object.keys(codemode.github) };',
      ].join('\n'),
      { catalog, dispatch },
    );
    assert.equal(result.status, 'completed', JSON.stringify(result));
    const [misspelt, namespace, unknown] = result.value.out;
    assert.deepEqual(misspelt.slice(0, 2), ['unknown_tool', 'code_mode']);
    assert.match(misspelt[2], /no tool named "github::create_isue".*the nearest: "github::create_issue"/);
    assert.match(namespace[2], /the nearest: "github::get_issue"/);
    assert.match(unknown[2], /no tool named "kv::put".*the catalog holds: "github::create_issue"/);
    // The helpers read as before: their names, no thenable namespace.
    assert.deepEqual([result.value.keys, result.value.then, result.value.tools], [['github'], 'undefined', ['create_issue', 'get_issue']]);
    assert.equal(calls.length, 0, 'nothing dispatched');
  });

  test('a guest error has its frames in the submitted source', async () => {
    const result = await run('const a = 1;\nfunction check(x) {\n  return x.y.z;\n}\nreturn check({});', { catalog, dispatch: upstream().dispatch, label: 'agent' });
    assert.deepEqual([result.code, result.failurePhase], ['internal_error', 'guest']);
    // Each engine words the message its own way; the frames are the source's lines.
    assert.match(result.stack, /^TypeError: .*\n {4}at check \(agent:user\.js:3:\d+\)\n {4}at agent:user\.js:5:\d+$/);
    assert.ok(!result.stack.includes('node:') && !result.stack.includes('execute.js'), result.stack);
  });

  test('timeouts (also a synchronous loop) and aborts end the run with their own codes', async () => {
    const slow = upstream({ get_issue: (args, signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))) });
    const loop = await run('while (true) {}', { catalog, dispatch: slow.dispatch, timeoutMs: 100 });
    assert.deepEqual([loop.status, loop.code, 'failurePhase' in loop], ['failed', 'timeout', false]);
    const waiting = await run('await codemode.github.get_issue({});', { catalog, dispatch: slow.dispatch, timeoutMs: 100 });
    assert.deepEqual([waiting.code, waiting.bridgeDispatchStarted], ['timeout', true]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const aborted = await run('await codemode.github.get_issue({});', { catalog, dispatch: slow.dispatch, signal: controller.signal });
    assert.deepEqual([aborted.code, aborted.bridgeDispatchStarted], ['aborted', true]);
    assert.equal(slow.calls.at(-1).signal.aborted, true, 'the pending call was cancelled through its signal');
  });

  test('one output budget: output is cut and redacted, the run stays completed; failures stay failures', async () => {
    const { dispatch } = upstream();
    const chatty = await run(`for (let i = 0; i < 2000; i++) console.log("line " + i);\nconsole.log("token=${TOKEN}");\nreturn "done";`, { catalog, dispatch, maxOutputBytes: 1024 });
    assert.equal(chatty.status, 'completed');
    assert.equal(chatty.value, 'done');
    assert.equal(chatty.truncated, true);
    assert.ok(chatty.output.length <= 1024 && chatty.output.endsWith('…[output truncated]'), chatty.output.slice(-40));
    const secret = await run(`console.log("token=${TOKEN}"); return 1;`, { catalog, dispatch });
    assert.ok(!secret.output.includes(TOKEN), secret.output);
    const failed = await run(`console.log("x".repeat(5000)); throw new Error("boom");`, { catalog, dispatch, maxOutputBytes: 600 });
    assert.deepEqual([failed.status, failed.code], ['failed', 'internal_error']);
    assert.ok(failed.output.length < 600, `${failed.output.length}`);
    // A value that is not JSON data fails as output_limit_exceeded.
    const bigint = await run('return 1n;', { catalog, dispatch });
    assert.deepEqual([bigint.status, bigint.code, bigint.failurePhase], ['failed', 'output_limit_exceeded', 'host']);
  });

  test("the tool's own failure text names arguments of its input schema", async () => {
    const timeCatalog = { time: [{ name: 'convert_time', inputSchema: { type: 'object', properties: { source_timezone: { type: 'string' }, time: { type: 'string' } } } }] };
    const dispatch = async () => ({ isError: true, content: [{ type: 'text', text: "Error executing tool convert_time: Invalid timezone: 'Mars/Olympus'" }] });
    const result = await run('await codemode.time.convert_time({ source_timezone: "Mars/Olympus", time: "10:00" });', { catalog: timeCatalog, dispatch });
    assert.equal(result.toolError.kind, 'invalid_param');
    assert.deepEqual(result.toolError.invalid_arguments.map((a) => a.path), ['source_timezone']);
    assert.equal(result.code, 'invalid_input', 'an input error of the tool is the input');
  });

  test('replaySafe is the request restartSafe, never derived', async () => {
    const { dispatch } = upstream();
    assert.equal((await run({ code: 'return 1' }, { catalog, dispatch })).replaySafe, false);
    assert.equal((await run({ code: 'await codemode.github.get_issue({}); return 1', restartSafe: true }, { catalog, dispatch })).replaySafe, true);
    assert.equal((await run({ code: 'throw new Error("x")', restartSafe: true }, { catalog, dispatch })).replaySafe, true);
  });
});

for (const executor of ['quickjs', 'node-vm']) describe(`execute on ${executor}: the rules hold whatever the code does`, () => {
  const run = (request, options) => execute(request, { executor, catalog, ...options });

  test('the deadline ends a loop after an await, a microtask storm and a looping hook; the host keeps ticking', async () => {
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 10);
    try {
      for (const code of ['await null;\nfor (;;) {}', 'const f = () => Promise.resolve().then(f);\nf();\nawait new Promise(() => {});', 'return { toJSON() { for (;;) {} } };', 'throw { get message() { for (;;) {} } };']) {
        const before = ticks;
        const started = Date.now();
        const result = await run(code, { dispatch: upstream().dispatch, timeoutMs: 200 });
        assert.deepEqual([result.status, result.code, 'failurePhase' in result], ['failed', 'timeout', false], `${code}: ${JSON.stringify(result)}`);
        assert.ok(Date.now() - started < 3_000, `${code}: ${Date.now() - started} ms`);
        assert.ok(ticks - before >= 5, `${code}: the host's timers ran ${ticks - before} times during the run`);
      }
    } finally {
      clearInterval(ticker);
    }
  });

  test("the caller's signal ends a synchronous loop as aborted; an aborted signal runs and dispatches nothing", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const spun = await run('for (;;) {}', { dispatch: upstream().dispatch, signal: controller.signal, timeoutMs: 5_000 });
    assert.deepEqual([spun.code, Date.now() - started < 2_000], ['aborted', true], JSON.stringify(spun));
    const { calls, dispatch } = upstream();
    const before = await run('await codemode.github.create_issue({ title: "t" });', { dispatch, signal: AbortSignal.abort() });
    assert.deepEqual([before.code, before.bridgeDispatchStarted, calls.length], ['aborted', false, 0]);
  });

  test('a spinning run does not starve runs beside it', async () => {
    const { dispatch } = upstream();
    // The spinner holds its worker for 3 s; the short runs must end well before that (a
    // loaded CI machine took 1 s to start their workers under Deno).
    const spinner = run('for (;;) {}', { dispatch, timeoutMs: 3_000 });
    const started = Date.now();
    const short = await Promise.all(Array.from({ length: 3 }, () => run('return 1', { dispatch, timeoutMs: 2_000 })));
    assert.deepEqual(short.map((r) => r.value), [1, 1, 1]);
    assert.ok(Date.now() - started < 2_000, `${Date.now() - started} ms`);
    assert.equal((await spinner).code, 'timeout');
  });

  test('arguments the guest breaks are its own failure, nothing dispatched; the guest catches its own error', async () => {
    for (const args of ['{ toJSON() { throw new Error("boom"); } }', '{ n: 10n }', '(() => { const a = {}; a.self = a; return a; })()']) {
      const { calls, dispatch } = upstream();
      const result = await run(`await codemode.github.create_issue(${args});`, { dispatch });
      assert.deepEqual([result.code, result.failurePhase, 'toolError' in result, calls.length], ['internal_error', 'guest', false, 0], `${args}: ${JSON.stringify(result)}`);
    }
    const caught = await run('try { await codemode.github.create_issue({ toJSON() { throw new Error("boom"); } }); } catch (e) { return e.message; }', { dispatch: upstream().dispatch });
    assert.equal(caught.value, 'boom');
  });

  test('no value is no value; values that are not JSON data fail; a forged timeout code is the guest', async () => {
    const { dispatch } = upstream();
    const none = await run('const x = 1;', { dispatch });
    assert.deepEqual([none.status, 'value' in none], ['completed', false]);
    for (const code of ['return NaN;', 'return Infinity;', 'return () => 1;', 'return Symbol();', 'return new Map();', 'return [undefined];']) {
      const result = await run(code, { dispatch });
      assert.deepEqual([result.code, result.failurePhase], ['output_limit_exceeded', 'host'], `${code}: ${JSON.stringify(result)}`);
    }
    const dated = await run('return { at: new Date(0), skipped: undefined };', { dispatch });
    assert.deepEqual(dated.value, { at: '1970-01-01T00:00:00.000Z' });
    const forged = await run("throw { code: 'ERR_SCRIPT_EXECUTION_TIMEOUT' };", { dispatch });
    assert.deepEqual([forged.code, forged.failurePhase], ['internal_error', 'guest']);
  });

  test('module access is found in the syntax tree, after syntax errors', async () => {
    const { calls, dispatch } = upstream();
    for (const [code, named] of [
      ["await import /**/ ('fs');", '`import` at line 1'],
      ["await import\n('fs');", '`import` at line 1'],
      ["require /* x */ ('fs');", '`require` at line 1'],
      ["import fs from 'node:fs';\nreturn 1;", '`import` declaration at line 1'],
      ['return import.meta.url;', '`import.meta` at line 1'],
    ]) {
      const result = await run(`await codemode.github.create_issue({ title: "t" });\n${code}`, { dispatch });
      assert.deepEqual([result.code, result.failurePhase], ['invalid_input', 'input'], code);
      assert.ok(result.message.includes(named.replace('line 1', 'line 2')), result.message);
    }
    assert.equal(calls.length, 0);
    const syntax = await run("import fs from 'node:fs';\nconst x = ;", { dispatch });
    assert.deepEqual([syntax.line, syntax.column, syntax.message.startsWith('syntax error')], [2, 11, true]);
    for (const [code, at] of [['const a = 1;\u2028const b = ;', [2, 11]], ['const a = 1;\rconst b = ;', [2, 11]], [`const x = "${'a'.repeat(985)}" + ;`, [1, 1001]]]) {
      const result = await run(code, { dispatch });
      assert.deepEqual([result.line, result.column], at, JSON.stringify(code.slice(0, 20)));
    }
  });

  test('a failed run fits its output budget: error, stack and output together', async () => {
    const { dispatch } = upstream();
    const result = await run("console.log('x'.repeat(1000));\nthrow new Error('y'.repeat(5000));", { dispatch, maxOutputBytes: 300 });
    const { telemetry, ...shown } = result;
    assert.ok(new TextEncoder().encode(JSON.stringify(shown)).length <= 300, JSON.stringify(shown));
    assert.deepEqual([result.code, result.failurePhase, result.truncated], ['internal_error', 'guest', true]);
  });

  test("no object the guest reaches is the host's", async () => {
    const { dispatch } = upstream();
    const escape = "constructor('return typeof process')()";
    for (const code of [`return codemode.github.get_issue({}).constructor.${escape};`, `return console.log.${escape};`, `try { await codemode.github.create_issue({}); } catch (e) { return e.constructor.${escape}; }`]) {
      const result = await run(code, { dispatch });
      assert.notEqual(result.value, 'object', `${code}: ${JSON.stringify(result)}`);
    }
    await run("Promise.prototype.hijacked = 1;\nreturn 1;", { dispatch });
    const later = await run('return Promise.prototype.hijacked ?? null;', { dispatch });
    assert.equal(later.value, null, 'nothing is shared between runs');
  });
});

test('host misconfiguration rejects with a typed error naming the option', async () => {
  const dispatch = upstream().dispatch;
  for (const [options, path] of [
    [{ catalog, dispatch, timeoutMs: '100' }, 'timeoutMs'],
    [{ catalog, dispatch, timeoutMs: 0 }, 'timeoutMs'],
    [{ catalog, dispatch, callTimeoutMs: -1 }, 'callTimeoutMs'],
    [{ catalog, dispatch, maxOutputBytes: 1.5 }, 'maxOutputBytes'],
    [{ catalog }, 'dispatch'],
    [{ catalog, dispatch, executor: 'v8' }, 'executor'],
    [{ catalog, dispatch, signal: {} }, 'signal'],
  ]) {
    await assert.rejects(execute('return 1', options), (e) => e instanceof TypeError && e.code === 'invalid_argument' && e.path === path && e.message.includes(path), path);
  }
  const collide = { 'a::b': [{ name: 'c' }], a: [{ name: 'b::c' }] };
  await assert.rejects(execute('return 1', { catalog: collide, dispatch }), (e) => e instanceof TypeError && e.code === 'invalid_argument' && e.message.includes('::'));
});

test("telemetry counts the catalog's tools by source, each namespace being one server, with names cleaned", async () => {
  const sources = {
    github: catalog.github,
    fs: [{ name: 'read_text_file' }],
    idle: [],
    ['__proto__']: [{ name: 'x' }],
    [`token=${TOKEN}`]: [{ name: 'y' }],
  };
  const { telemetry } = await execute('return 1', { catalog: sources, dispatch: upstream().dispatch });
  assert.equal(telemetry.catalog.tools, 5);
  const entries = Object.entries(telemetry.catalog.bySource);
  assert.deepEqual(entries.slice(0, 4), [['github', 2], ['fs', 1], ['idle', 0], ['__proto__', 1]]);
  assert.equal(entries.length, 5);
  assert.ok(!entries[4][0].includes(TOKEN) && entries[4][0].includes('[REDACTED:'), entries[4][0]);
  assert.equal(entries[4][1], 1);
});

test('the QuickJS version the executor falls back to in Deno is the one package.json pins', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const source = readFileSync(new URL('../src/worker/quickjs.js', import.meta.url), 'utf8');
  const version = source.match(/const QUICKJS_VERSION = '([^']+)'/)[1];
  assert.equal(pkg.dependencies['quickjs-emscripten-core'], version);
  assert.equal(pkg.dependencies['@jitl/quickjs-wasmfile-release-sync'], version);
});

test(`the QuickJS packages resolve from node_modules under ${runtime}, so the quickjs executor needs no network`, () => {
  const modules = new URL('../node_modules/', import.meta.url).href;
  for (const name of ['quickjs-emscripten-core', '@jitl/quickjs-wasmfile-release-sync']) {
    assert.ok(import.meta.resolve(name).startsWith(`${modules}${name}/`), `${name} resolves to ${import.meta.resolve(name)}`);
  }
});
