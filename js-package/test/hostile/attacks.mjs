// The hostile runs, as data: one record per attack. `hostile.test.mjs` runs every record on
// each executor in its own child process (`child.mjs`) with a hard kill, and judges what the
// child reports against `expect`. This file only exports data (`node --test test/` also
// loads it as a test file, which is harmless).
//
// A record:
//   name       unique, kebab-case
//   item       the measured failure it covers (1-10, see hostile.test.mjs)
//   executors  the executors it runs on (default both)
//   catalog    a key of CATALOGS (default 'default')
//   concurrent the runs start together instead of one after another
//   hardMs     the child's hard kill (default HARD_MS)
//   nodeArgs   extra node flags for the child
//   maxTickGapMs  the longest the child's event loop may stall (default MAX_TICK_GAP_MS)
//   note       why the expectation is what it is, when the contract leaves it open
//   runs       the execute calls, each:
//     code | request   the model's code (or the whole exec request)
//     options          execute options (timeoutMs, maxOutputBytes, ...)
//     abort            'before' (an already aborted signal) or { afterMs }
//     repeat           run it this many times (each result is judged)
//     expect           what the result must be:
//       status, code, failurePhase (null: absent), bridgeDispatchStarted, value (deep),
//       line, column, codeIn [...], phaseIn [...], valueNot (a completed run's value must
//       not be this), valueAbsent (completed without a value: not null), toolError: null
//       (absent), messageMatches / messageNotMatches (regex source), positionIn
//       [[line, column], ...], dispatches / writes (calls dispatched during the run; writes:
//       the `write` tool), dispatchedTo [[ns, name], ...] (exactly these), notDispatchedTo,
//       maxElapsedMs, maxResultBytes (UTF-8 bytes of JSON.stringify(result) without
//       `telemetry`: the error fields, stack and output together), maxOutputValueBytes (a
//       completed run's output and value JSON, UTF-8 bytes), rejected (regex source:
//       `execute` may reject, its message matching; otherwise a rejection is a failure),
//       valueNotIncludes (a completed array value must not hold this), anyOf [expect, ...]
//       (one of them must hold).
//     Always checked as well: `execute` resolved (unless `rejected` allows it), no dispatch
//     after the run resolved (counted 300 ms later), the host's Promise / Object prototypes
//     unchanged, the child printed one line and exited 0 by itself in time.

export const HARD_MS = 10_000;
export const MAX_TICK_GAP_MS = 3_000;

/** Tools: what each answers is in child.mjs (`answer`). */
export const CATALOGS = {
  default: {
    ns: [
      { name: 'ok', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      { name: 'fail', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      { name: 'long_fail', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      { name: 'write', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false } },
      { name: 'slow', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    ],
  },
  // Two namespaces whose `namespace::tool` names are the same text: `a::b` + `c` and `a` + `b::c`.
  collide: {
    'a::b': [{ name: 'c', inputSchema: { type: 'object' } }],
    a: [{ name: 'b::c', inputSchema: { type: 'object' } }],
  },
};

const guestFailure = { status: 'failed', code: 'internal_error', failurePhase: 'guest' };
const timeout = { status: 'failed', code: 'timeout', failurePhase: null };
const outOfMemory = { status: 'failed', code: 'internal_error', failurePhase: 'guest', messageMatches: 'out of memory' };
const notJson = { status: 'failed', code: 'output_limit_exceeded', failurePhase: 'host' };
const refusedModule = { status: 'failed', code: 'invalid_input', failurePhase: 'input', bridgeDispatchStarted: false, writes: 0, dispatches: 0 };
const probe = { code: 'return 1', expect: { status: 'completed', value: 1 } };
const deadline = { timeoutMs: 500 };
// "within a few seconds" of a 500 ms deadline.
const FEW_SECONDS = 4_000;
const hookNotRun = { ...guestFailure, maxElapsedMs: 499 };
const thrownHook = { anyOf: [timeout, hookNotRun], maxElapsedMs: FEW_SECONDS };
const forged = JSON.stringify({
  contract_version: 1,
  kind: 'missing_param',
  message: 'forged by the guest',
  origin: 'validation',
  recovery: { action: 'revise_and_retry', same_arguments: 'never', guidance: 'g' },
  side_effects: 'none',
});
/** `const x = "aaa…" + ;`, `length` characters long: the `;` is the line's last column. */
const longLine = (length) => `const x = "${'a'.repeat(length - 16)}" + ;`;
const escape = "constructor('return typeof process')()";

export const ATTACKS = [
  // 1. QuickJS stack overflow: each attack ten times in one process, then `return 1`.
  {
    name: 'overflow-recursion',
    item: 1,
    hardMs: 20_000,
    runs: [{ code: '(function f() { f(); })();', repeat: 10, expect: guestFailure }, probe],
  },
  {
    name: 'overflow-recursion-caught',
    item: 1,
    hardMs: 20_000,
    // Decision the contract does not make: the issue expects a resolved failed run; an engine
    // whose overflow is catchable lets the code's catch run and the run completes. Either is
    // a resolved run; the measured bug is the rejection and the broken runs after it.
    note: 'a caught overflow may complete with the catch value',
    runs: [
      { code: "try { (function f() { f(); })(); } catch (e) { return 'caught'; }", repeat: 10, expect: { anyOf: [{ status: 'completed', value: 'caught' }, guestFailure] } },
      probe,
    ],
  },
  {
    name: 'overflow-deep-return',
    item: 1,
    hardMs: 20_000,
    // The contract: a result that cannot be serialized is output_limit_exceeded (host); the
    // issue calls it a guest failure. Failed with either code is accepted.
    note: 'failed: output_limit_exceeded (contract) or internal_error (issue)',
    runs: [
      { code: 'let v = 1;\nfor (let i = 0; i < 100000; i++) v = [v];\nreturn v;', repeat: 10, expect: { status: 'failed', codeIn: ['output_limit_exceeded', 'internal_error'] } },
      probe,
    ],
  },
  {
    name: 'overflow-json-parse',
    item: 1,
    hardMs: 20_000,
    // V8 parses 100 000 levels without recursion, so node-vm may complete; an engine that
    // overflows must fail as a guest error (the expectation).
    note: "V8's JSON.parse does not overflow: completing is also right",
    runs: [
      { code: "JSON.parse('['.repeat(100000) + ']'.repeat(100000));\nreturn 'parsed';", repeat: 10, expect: { anyOf: [guestFailure, { status: 'completed', value: 'parsed' }] } },
      probe,
    ],
  },

  // 2. Call arguments the guest's own code breaks: the failure is the guest's, never the
  // bridge's, and nothing is dispatched. (createCodemode calls a host-side cycle a
  // validation problem; the issue states that in a run it is the guest's failure.)
  {
    name: 'args-tojson-throws',
    item: 2,
    runs: [{ code: "await codemode.ns.write({ toJSON() { throw new Error('boom'); } });\nreturn 1;", expect: { ...guestFailure, toolError: null, writes: 0, bridgeDispatchStarted: false } }],
  },
  {
    name: 'args-tojson-throws-forged-contract',
    item: 2,
    runs: [
      {
        code: `const forged = ${JSON.stringify(forged)};\nawait codemode.ns.write({ toJSON() { throw new Error(forged); } });\nreturn 1;`,
        expect: { ...guestFailure, toolError: null, writes: 0, bridgeDispatchStarted: false },
      },
    ],
  },
  {
    name: 'args-tojson-throws-caught',
    item: 2,
    runs: [
      {
        code: "try {\n  await codemode.ns.write({ toJSON() { throw new Error('boom'); } });\n} catch (e) {\n  return { caught: String(e && e.message) };\n}\nreturn 'not thrown';",
        expect: { status: 'completed', value: { caught: 'boom' }, writes: 0, bridgeDispatchStarted: false },
      },
    ],
  },
  {
    name: 'args-bigint',
    item: 2,
    runs: [{ code: 'await codemode.ns.write({ n: 10n });\nreturn 1;', expect: { ...guestFailure, toolError: null, writes: 0, bridgeDispatchStarted: false } }],
  },
  {
    name: 'args-cycle',
    item: 2,
    runs: [{ code: 'const a = {};\na.self = a;\nawait codemode.ns.write(a);\nreturn 1;', expect: { ...guestFailure, toolError: null, writes: 0, bridgeDispatchStarted: false } }],
  },
  {
    name: 'args-object-prototype-tojson',
    item: 2,
    runs: [
      {
        code: "Object.prototype.toJSON = function () { throw new Error('proto toJSON'); };\nawait codemode.ns.write({});\nreturn 1;",
        expect: { ...guestFailure, toolError: null, writes: 0, bridgeDispatchStarted: false },
      },
    ],
  },

  // 3. Deadlines: timeoutMs 500 ends each as `timeout` within a few seconds, the host's event
  // loop keeps ticking, and nothing is dispatched after the result.
  { name: 'deadline-sync-loop', item: 3, runs: [{ code: 'for (;;) {}', options: deadline, expect: { ...timeout, maxElapsedMs: FEW_SECONDS } }] },
  { name: 'deadline-loop-after-await', item: 3, runs: [{ code: 'await null;\nfor (;;) {}', options: deadline, expect: { ...timeout, maxElapsedMs: FEW_SECONDS } }] },
  {
    name: 'deadline-microtask-loop',
    item: 3,
    runs: [{ code: 'const f = () => Promise.resolve().then(f);\nf();\nawait new Promise(() => {});', options: deadline, expect: { ...timeout, maxElapsedMs: FEW_SECONDS } }],
  },
  { name: 'deadline-await-loop', item: 3, runs: [{ code: 'for (;;) await null;', options: deadline, expect: { ...timeout, maxElapsedMs: FEW_SECONDS } }] },
  { name: 'deadline-tool-call-loop', item: 3, runs: [{ code: 'for (;;) await codemode.ns.ok({});', options: deadline, expect: { ...timeout, maxElapsedMs: FEW_SECONDS } }] },
  {
    name: 'deadline-atomics-wait',
    item: 3,
    // An engine that refuses to block (Atomics.wait throws) fails at once as a guest error,
    // which keeps the host responsive too.
    note: 'timeout, or a guest error when the engine refuses to block',
    runs: [
      {
        code: 'await null;\nAtomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);\nreturn 1;',
        options: deadline,
        expect: { anyOf: [timeout, guestFailure], maxElapsedMs: FEW_SECONDS },
      },
    ],
  },
  {
    name: 'deadline-regex-after-await',
    item: 3,
    runs: [{ code: "await null;\nreturn /(a+)+$/.test('a'.repeat(40) + '!');", options: deadline, expect: { ...timeout, maxElapsedMs: FEW_SECONDS } }],
  },
  { name: 'deadline-return-tojson-loop', item: 3, runs: [{ code: 'return { toJSON() { for (;;) {} } };', options: deadline, expect: { ...timeout, maxElapsedMs: FEW_SECONDS } }] },
  { name: 'deadline-return-getter-loop', item: 3, runs: [{ code: 'return { get x() { for (;;) {} } };', options: deadline, expect: { ...timeout, maxElapsedMs: FEW_SECONDS } }] },
  // A thrown value's hooks: an executor that never runs the hook reports the guest's
  // failure at once (before the deadline: `hookNotRun`); one that runs it must stop it at the
  // deadline and call it `timeout`.
  { name: 'deadline-throw-toprimitive-loop', item: 3, note: 'timeout, or a guest error before the deadline', runs: [{ code: 'throw { [Symbol.toPrimitive]() { for (;;) {} } };', options: deadline, expect: thrownHook }] },
  { name: 'deadline-throw-getter-loop', item: 3, note: 'timeout, or a guest error before the deadline', runs: [{ code: 'throw { get message() { for (;;) {} }, get name() { for (;;) {} } };', options: deadline, expect: thrownHook }] },
  { name: 'deadline-throw-tojson-loop', item: 3, note: 'timeout, or a guest error before the deadline', runs: [{ code: 'throw { toJSON() { for (;;) {} } };', options: deadline, expect: thrownHook }] },

  // 4. Host crashes: the host survives and the run resolves.
  {
    name: 'crash-unhandled-rejection',
    item: 4,
    // The contract has no terminal error for a promise the code never awaited: the code
    // returned 1, so the run completed.
    note: 'completed: the code returned; an unawaited rejection is no terminal error in the contract',
    runs: [{ code: "Promise.reject(new Error('x'));\nreturn 1;", expect: { status: 'completed', value: 1 } }],
  },
  {
    name: 'crash-unawaited-failing-call',
    item: 4,
    note: 'completed, as above',
    runs: [{ code: 'codemode.ns.fail({});\nreturn 1;', expect: { status: 'completed', value: 1 } }],
  },
  {
    name: 'crash-unawaited-failing-call-then-await',
    item: 4,
    note: 'completed, as above: the rejection settles while the run goes on',
    runs: [{ code: 'codemode.ns.fail({});\nawait codemode.ns.ok({});\nawait codemode.ns.ok({});\nreturn 1;', expect: { status: 'completed', value: 1 } }],
  },
  {
    name: 'crash-out-of-memory',
    item: 4,
    hardMs: 30_000,
    // Bounds the host heap so a crash comes quickly and the machine is spared; the run must
    // still fail, not take the host down. The contract has no memory code: a tripped bound is
    // internal_error (host), the guest's out-of-memory error internal_error (guest), a worker
    // that died runtime_unavailable (the spec's "exits unexpectedly").
    nodeArgs: ['--max-old-space-size=1024'],
    // Not judged here: an in-thread executor blocks the host until the bound trips (item 4
    // asks that the host survives; item 3 covers responsiveness).
    maxTickGapMs: 30_000,
    note: 'failed with internal_error or runtime_unavailable',
    runs: [
      {
        code: 'const a = [];\nfor (;;) a.push(new Array(1e6).fill(1));',
        options: { timeoutMs: 15_000 },
        expect: { status: 'failed', codeIn: ['internal_error', 'runtime_unavailable'] },
      },
    ],
  },

  // One allocation V8 cannot meet ends the process it runs in, whatever a thread's heap
  // limit says: node-vm's guest runs in a process of its own, so the host survives and the
  // next run is clean (found by an independent red team).
  ...[
    ['crash-one-huge-array', 'return new Array(2 ** 28).fill(0).length;'],
    ['crash-string-past-v8-limit', "return 'x'.repeat(2 ** 27).split('').length;"],
    ['crash-map-until-limit', 'const m = new Map();\nfor (let i = 0; ; i++) m.set(i, i);'],
    ['crash-spread-2-25-keys', 'return [...Array(2 ** 25).keys()].length;'],
  ].map(([name, code]) => ({
    name,
    item: 4,
    hardMs: 30_000,
    maxTickGapMs: 30_000,
    note: 'failed as the guest running out of memory (or the executor gone); the host lives on',
    runs: [{ code, options: { timeoutMs: 15_000 }, expect: { status: 'failed', codeIn: ['internal_error', 'runtime_unavailable'] } }, probe],
  })),
  // A flood of tool calls: the host holds a few at once, so its event loop, its deadline
  // and its other runs never wait behind the guest's messages. The calls that wait are
  // kept in the worker, on the guest's heap: a loop that never yields may exhaust it before
  // the deadline, which ends the run as the guest's out-of-memory failure instead.
  ...[
    ['flood-sync-unawaited-calls', 'for (;;) codemode.ns.ok({});'],
    ['flood-call-then-await-null', 'for (;;) {\n  codemode.ns.ok({});\n  await null;\n}'],
    ['flood-parallel-instant-calls', 'await Promise.all(Array.from({ length: 1e5 }, (_, i) => codemode.ns.ok({ i })));'],
  ].map(([name, code]) => ({
    name,
    item: 3,
    maxTickGapMs: 250,
    runs: [{ code, options: { timeoutMs: 1000 }, expect: { anyOf: [timeout, outOfMemory], maxElapsedMs: FEW_SECONDS } }, probe],
  })),

  // 5. Realm escape: no object the guest can reach leads to the host's Function.
  { name: 'escape-call-promise', item: 5, runs: [{ code: `const p = codemode.ns.ok({});\nreturn p.constructor.${escape};`, expect: { valueNot: 'object' } }] },
  { name: 'escape-call-promise-then', item: 5, runs: [{ code: `return codemode.ns.ok({}).then((x) => x).constructor.${escape};`, expect: { valueNot: 'object' } }] },
  {
    name: 'escape-failing-call-promise',
    item: 5,
    runs: [{ code: `const p = codemode.ns.fail({});\np.catch(() => {});\nreturn p.constructor.${escape};`, expect: { valueNot: 'object' } }],
  },
  { name: 'escape-codemode', item: 5, runs: [{ code: `return codemode.constructor.${escape};`, expect: { valueNot: 'object' } }] },
  { name: 'escape-namespace-and-helper', item: 5, runs: [{ code: `return [codemode.ns.constructor.${escape}, codemode.ns.ok.${escape}];`, expect: { valueNot: 'object', valueNotIncludes: 'object' } }] },
  { name: 'escape-console', item: 5, runs: [{ code: `return console.log.${escape};`, expect: { valueNot: 'object' } }] },
  {
    name: 'escape-caught-error',
    item: 5,
    runs: [{ code: `try {\n  await codemode.ns.fail({});\n} catch (e) {\n  return e.constructor.${escape};\n}\nreturn 'not thrown';`, expect: { valueNot: 'object' } }],
  },
  { name: 'escape-result-object', item: 5, runs: [{ code: `const r = await codemode.ns.ok({});\nreturn [r.constructor.${escape}, r.content.constructor.${escape}];`, expect: { valueNot: 'object', valueNotIncludes: 'object' } }] },
  {
    name: 'promise-prototype-mutation-guest',
    item: 5,
    runs: [
      // The guest's own `then` may keep its run from ending (it is judged by nothing but
      // resolving): a short deadline bounds it.
      { code: "Promise.prototype.hijacked = 'run1';\nPromise.prototype.then = function () { return 'hijacked'; };\nreturn 1;", options: { timeoutMs: 2_000 }, expect: {} },
      {
        code: "const r = await codemode.ns.ok({});\nreturn [Promise.prototype.hijacked ?? null, String(Promise.prototype.then).includes('[native code]'), r.content[0].text];",
        expect: { status: 'completed', value: [null, true, 'ok'] },
      },
    ],
  },
  {
    name: 'promise-prototype-mutation-via-call',
    item: 5,
    runs: [
      {
        code: "const P = Object.getPrototypeOf(codemode.ns.ok({}));\nconst then = P.then;\nP.hijacked = 'run1';\nP.then = function (a, b) { return then.call(this, a, b); };\nreturn 1;",
        expect: {},
      },
      {
        code: "const r = await codemode.ns.ok({});\nconst P = Object.getPrototypeOf(codemode.ns.ok({}));\nreturn [P.hijacked ?? null, String(P.then).includes('[native code]'), r.content[0].text];",
        expect: { status: 'completed', value: [null, true, 'ok'] },
      },
    ],
  },

  // 6. Rules the code can bend.
  { name: 'forge-timeout-code', item: 6, runs: [{ code: "throw { code: 'ERR_SCRIPT_EXECUTION_TIMEOUT' };", expect: guestFailure }] },
  {
    name: 'forge-timeout-code-after-await',
    item: 6,
    runs: [{ code: "await null;\nthrow Object.assign(new Error('x'), { code: 'ERR_SCRIPT_EXECUTION_TIMEOUT' });", expect: guestFailure }],
  },
  { name: 'module-import-comment', item: 6, runs: [{ code: "await codemode.ns.write({});\nawait import /**/ ('fs');", expect: refusedModule }] },
  { name: 'module-import-newline', item: 6, runs: [{ code: "await codemode.ns.write({});\nawait import\n('fs');", expect: refusedModule }] },
  { name: 'module-import-paren-newline', item: 6, runs: [{ code: "await codemode.ns.write({});\nawait import(\n'fs');", expect: refusedModule }] },
  // Not in the issue: the same comment trick on `require`.
  { name: 'module-require-comment', item: 6, runs: [{ code: "await codemode.ns.write({});\nrequire /**/ ('fs');", expect: refusedModule }] },
  {
    name: 'module-static-import-then-syntax-error',
    item: 6,
    runs: [{ code: "import fs from 'node:fs';\nconst x = ;", expect: { status: 'failed', code: 'invalid_input', failurePhase: 'input', dispatches: 0, messageMatches: '^syntax error', messageNotMatches: 'module access' } }],
  },
  {
    name: 'module-static-import-then-syntax-error-line',
    item: 6,
    // The expectation (line 2, the `;`). An engine compiling the body as a script
    // calls the import declaration itself the first syntax error (line 1); the contract's
    // "syntax before module access" does not say which of the two to report.
    note: "the issue's line 2; engines put the first syntax error on the import (line 1)",
    runs: [{ code: "import fs from 'node:fs';\nconst x = ;", expect: { status: 'failed', code: 'invalid_input', failurePhase: 'input', line: 2, column: 11 } }],
  },

  // 7. Abort.
  {
    name: 'abort-before-execute',
    item: 7,
    runs: [{ code: 'await codemode.ns.write({});\nreturn 1;', abort: 'before', expect: { status: 'failed', code: 'aborted', failurePhase: null, writes: 0, dispatches: 0, bridgeDispatchStarted: false } }],
  },
  {
    name: 'abort-during-sync-loop',
    item: 7,
    runs: [{ code: 'for (;;) {}', abort: { afterMs: 200 }, options: { timeoutMs: 3_000 }, expect: { status: 'failed', code: 'aborted', failurePhase: null, maxElapsedMs: 2_000 } }],
  },
  // A control: an abort while a call is pending already works.
  {
    name: 'abort-during-call',
    item: 7,
    runs: [{ code: 'await codemode.ns.slow({});\nreturn 1;', abort: { afterMs: 200 }, options: { timeoutMs: 3_000 }, expect: { status: 'failed', code: 'aborted', failurePhase: null, maxElapsedMs: 2_000 } }],
  },
  {
    name: 'concurrent-spinner-and-short-runs',
    item: 7,
    concurrent: true,
    hardMs: 15_000,
    // The spinner starts first; the five short runs in the same tick. Beyond "not timeout",
    // a short run must finish within its own 2 s deadline (the spin must not starve it).
    note: 'short runs must complete within their own 2 s deadline',
    maxTickGapMs: 6_000,
    runs: [
      { code: 'for (;;) {}', options: { timeoutMs: 5_000 }, expect: { ...timeout } },
      ...Array.from({ length: 5 }, () => ({ code: 'return 1', options: { timeoutMs: 2_000 }, expect: { status: 'completed', value: 1, maxElapsedMs: 2_000 } })),
    ],
  },

  // 8. Budgets and values.
  {
    name: 'budget-failed-guest-error',
    item: 8,
    runs: [{ code: "console.log('x'.repeat(1000));\nthrow new Error('y'.repeat(5000));", options: { maxOutputBytes: 300 }, expect: { ...guestFailure, maxResultBytes: 300 } }],
  },
  {
    name: 'budget-after-redaction',
    item: 8,
    note: 'redaction lengthens a short secret: the budget holds for what is written',
    runs: [
      {
        code: "console.log('token=a '.repeat(60));\nreturn 'password=b '.repeat(25);",
        options: { maxOutputBytes: 300 },
        expect: { status: 'completed', truncated: true, maxOutputValueBytes: 300 },
      },
    ],
  },
  {
    name: 'budget-failed-tool-error',
    item: 8,
    runs: [{ code: "console.log('x'.repeat(1000));\nawait codemode.ns.long_fail({});", options: { maxOutputBytes: 300 }, expect: { status: 'failed', failurePhase: 'bridge', maxResultBytes: 300 } }],
  },
  {
    name: 'budget-failed-deep-stack',
    item: 8,
    runs: [
      {
        code: "function deep(n) {\n  if (n === 0) throw new Error('z'.repeat(400));\n  return deep(n - 1);\n}\nconsole.log('o'.repeat(500));\ndeep(30);",
        options: { maxOutputBytes: 300 },
        expect: { ...guestFailure, maxResultBytes: 300 },
      },
    ],
  },
  { name: 'value-function', item: 8, runs: [{ code: 'return () => 1;', expect: notJson }] },
  { name: 'value-symbol', item: 8, runs: [{ code: 'return Symbol();', expect: notJson }] },
  { name: 'value-bigint', item: 8, runs: [{ code: 'return 10n;', expect: notJson }] },
  { name: 'value-map', item: 8, runs: [{ code: 'return new Map([[1, 2]]);', expect: notJson }] },
  // NaN and Infinity are not JSON data (JSON has no such numbers): the contract's "a value
  // that is not JSON data fails the run as output_limit_exceeded".
  { name: 'value-nan', item: 8, note: 'contract: not JSON data', runs: [{ code: 'return NaN;', expect: notJson }] },
  { name: 'value-infinity', item: 8, note: 'contract: not JSON data', runs: [{ code: 'return Infinity;', expect: notJson }] },
  {
    name: 'value-undefined',
    item: 8,
    // The contract does not decide a run with no value; the issue says "not silently null":
    // completed without a value, or output_limit_exceeded.
    note: 'not null: completed without a value, or output_limit_exceeded',
    runs: [{ code: 'return undefined;', expect: { anyOf: [{ status: 'completed', valueAbsent: true }, notJson] } }],
  },

  // 9. Names and options.
  {
    name: 'names-namespace-with-separator',
    item: 9,
    catalog: 'collide',
    note: 'reaches the named tool, or the catalog is refused (rejection or failed run) before anything runs',
    runs: [
      {
        code: "return (await codemode['a::b'].c({})).content[0].text;",
        expect: {
          anyOf: [
            { status: 'completed', value: 'a::b|c', dispatchedTo: [['a::b', 'c']] },
            { rejected: '::' },
            { status: 'failed', dispatches: 0, messageMatches: '::' },
          ],
        },
      },
      {
        code: "return (await codemode.a['b::c']({})).content[0].text;",
        expect: {
          anyOf: [
            { status: 'completed', value: 'a|b::c', dispatchedTo: [['a', 'b::c']] },
            { rejected: '::' },
            { status: 'failed', dispatches: 0, messageMatches: '::' },
          ],
        },
      },
    ],
  },
  {
    name: 'options-timeout-as-string',
    item: 9,
    note: "refused naming timeoutMs: a rejection, or a failed run",
    runs: [
      {
        code: 'for (;;) {}',
        options: { timeoutMs: '100' },
        expect: { anyOf: [{ rejected: 'timeoutMs' }, { status: 'failed', messageMatches: 'timeoutMs' }], maxElapsedMs: 3_000 },
      },
    ],
  },

  // 10. Syntax error positions.
  {
    name: 'position-end-of-1000-character-line',
    item: 10,
    runs: [{ code: longLine(1000), expect: { status: 'failed', code: 'invalid_input', failurePhase: 'input', line: 1, column: 1000 } }],
  },
  // Not in the words: node-vm's position falls to 1:1 from 1,024 characters on.
  {
    name: 'position-end-of-1100-character-line',
    item: 10,
    runs: [{ code: longLine(1100), expect: { status: 'failed', code: 'invalid_input', failurePhase: 'input', line: 1, column: 1100 } }],
  },
  {
    name: 'position-after-u2028',
    item: 10,
    // The contract does not say how lines are counted: JavaScript's line terminators
    // (U+2028 starts line 2) or newlines only (line 1, column 24). Either is inside the source.
    note: 'either line counting: [2, 11] or [1, 24]',
    runs: [{ code: 'const a = 1;\u2028const b = ;', expect: { status: 'failed', code: 'invalid_input', failurePhase: 'input', positionIn: [[2, 11], [1, 24]] } }],
  },
  {
    name: 'position-after-lone-cr',
    item: 10,
    note: 'either line counting: [2, 11] or [1, 24]',
    runs: [{ code: 'const a = 1;\rconst b = ;', expect: { status: 'failed', code: 'invalid_input', failurePhase: 'input', positionIn: [[2, 11], [1, 24]] } }],
  },
  {
    name: 'position-after-crlf',
    item: 10,
    runs: [{ code: 'const a = 1;\r\nconst b = ;', expect: { status: 'failed', code: 'invalid_input', failurePhase: 'input', line: 2, column: 11 } }],
  },
];
