// classifyRun and classifyRunToJson: the terminal error of a failed code-mode run, from a
// run report given as an object or as its JSON text. The rules are the core's (the shared
// vectors in tests/vectors/runs/ check them byte for byte); these tests check what the
// package adds: both input forms, the uncaught tool error handed over as the Error.message
// text a sandbox rejected with, and typed errors for bad input.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classifyRun, classifyRunToJson, parseCallError, toCallError } from 'codemode-errors';

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

/** Assert `f` throws a TypeError with this `code` and `path`; returns it. */
function assertInputError(f, code, path) {
  let thrown;
  try {
    f();
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof TypeError, `expected a TypeError, got ${thrown}`);
  assert.deepEqual({ code: thrown.code, path: thrown.path }, { code, path }, thrown.message);
  return thrown;
}

describe('classifyRun', () => {
  test('a guest exception after a dispatched call is internal_error from the guest, not replay-safe', () => {
    const report = { bridge_dispatch_started: true, guest_exception: { name: 'TypeError', message: "Cannot read properties of undefined (reading 'id')" } };
    const end = classifyRun(report);
    assert.deepEqual(end, {
      code: 'internal_error',
      message: "the code threw TypeError: Cannot read properties of undefined (reading 'id')",
      failurePhase: 'guest',
      bridgeDispatchStarted: true,
      replaySafe: false,
    });
    assert.equal(classifyRunToJson(report), JSON.stringify(end));
    assert.equal(classifyRunToJson(JSON.stringify(report)), classifyRunToJson(report), 'the object and its JSON text give the same bytes');
  });

  test("replaySafe is the request's restartSafe, never derived from what was dispatched", () => {
    const declared = classifyRun({ bridge_dispatch_started: true, restart_safe: true, timeout: {} });
    assert.deepEqual([declared.bridgeDispatchStarted, declared.replaySafe], [true, true]);
    const undeclared = classifyRun({ bridge_dispatch_started: false, syntax_error: { message: 'Unexpected token', line: 1, column: 2 } });
    assert.deepEqual([undeclared.bridgeDispatchStarted, undeclared.replaySafe], [false, false]);
  });

  test("the guest's text is untrusted: sanitized and redacted", () => {
    const end = classifyRun({ bridge_dispatch_started: false, guest_exception: { message: `token=${TOKEN} \u202Eboom` } });
    assert.equal(end.replaySafe, false, 'replaySafe is the request\'s restartSafe, absent here');
    assert.ok(!end.message.includes('ghp_') && !end.message.includes('\u202E'), end.message);
  });

  test("an uncaught tool error, as toCallError's Error.message text, is carried as the same object (rule 6)", () => {
    const rejection = toCallError({
      tool: 'github::create_issue',
      dispatched: true,
      tool_result: { isError: true, content: [{ type: 'text', text: 'HTTP 503 Service Unavailable' }] },
    });
    const end = classifyRun({ bridge_dispatch_started: true, uncaught_tool_error: rejection.message });
    assert.equal(end.code, 'internal_error');
    assert.equal(end.failurePhase, 'bridge');
    assert.equal(end.replaySafe, false);
    assert.deepEqual(end.toolError, JSON.parse(rejection.message));
    assert.deepEqual(end.toolError, parseCallError(rejection));
    assert.equal(end.message, `an uncaught tool call failed: ${end.toolError.message}`);
  });

  test('an uncaught input error is invalid_input and names the arguments to fix', () => {
    const rejection = toCallError({
      tool: 'github::create_issue',
      dispatched: false,
      validation: { arguments: { body: 'x' }, input_schema: { type: 'object', required: ['title', 'repo'] } },
    });
    for (const uncaught_tool_error of [rejection.message, JSON.parse(rejection.message)]) {
      const end = classifyRun({ bridge_dispatch_started: false, uncaught_tool_error });
      assert.deepEqual([end.code, end.failurePhase, end.replaySafe], ['invalid_input', 'bridge', false]);
      assert.match(end.message, /Arguments to fix: title, repo\.$/);
      assert.deepEqual(end.toolError, JSON.parse(rejection.message));
    }
  });

  test('a syntax error carries its one-based line and column, from the input phase', () => {
    const end = classifyRun(JSON.stringify({ bridge_dispatch_started: false, syntax_error: { message: 'Unexpected token', line: 2, column: 5 } }));
    assert.deepEqual([end.code, end.failurePhase, end.line, end.column], ['invalid_input', 'input', 2, 5]);
  });

  test('a bad run report is a TypeError naming the field, as an object and as text', () => {
    for (const form of [(r) => r, JSON.stringify]) {
      const missing = assertInputError(() => classifyRun(form({ aborted: {} })), 'invalid_report', 'bridge_dispatch_started');
      assert.match(missing.message, /required/);
      assertInputError(() => classifyRun(form({ bridge_dispatch_started: 'yes', aborted: {} })), 'invalid_report', 'bridge_dispatch_started');
      assertInputError(() => classifyRun(form({ bridge_dispatch_started: true })), 'invalid_report', '');
      assertInputError(() => classifyRun(form({ bridge_dispatch_started: true, aborted: {}, timeout: {} })), 'invalid_report', 'timeout');
      assertInputError(() => classifyRun(form({ bridge_dispatch_started: true, exploded: {} })), 'invalid_report', 'exploded');
      assertInputError(() => classifyRunToJson(form({ bridge_dispatch_started: true, syntax_error: { message: 'x', line: 0, column: 1 } })), 'invalid_report', 'syntax_error.line');
      assertInputError(() => classifyRun(form({ bridge_dispatch_started: true, internal: {} })), 'invalid_report', 'internal.message');
      assertInputError(
        () => classifyRun(form({ bridge_dispatch_started: true, uncaught_tool_error: { contract_version: 2, kind: 'x', message: 'y' } })),
        'unsupported_version',
        'uncaught_tool_error.contract_version',
      );
    }
    assertInputError(() => classifyRun({ bridge_dispatch_started: true, uncaught_tool_error: 'plain failure' }), 'invalid_call_error', 'uncaught_tool_error');
  });

  test('input that is neither a run report object nor its JSON text is a typed error', () => {
    for (const value of [42, true, null, [], ['aborted']]) assertInputError(() => classifyRun(value), 'invalid_report', '');
    assertInputError(() => classifyRun(undefined), 'invalid_json', '');
    assertInputError(() => classifyRun(() => 'aborted'), 'invalid_json', '');
    assertInputError(() => classifyRun('not json'), 'invalid_json', '');
    assertInputError(() => classifyRun('42'), 'invalid_report', '');
  });

  test('values JSON cannot hold are refused at their path, and the instance keeps working', () => {
    assertInputError(() => classifyRun({ bridge_dispatch_started: true, timeout: { deadline_ms: 10n } }), 'invalid_json', 'timeout.deadline_ms');
    const hostile = {
      bridge_dispatch_started: true,
      get internal() {
        throw new Error('no');
      },
    };
    assertInputError(() => classifyRun(hostile), 'invalid_json', '');
    assert.equal(classifyRun({ bridge_dispatch_started: false, aborted: {} }).code, 'aborted');
  });
});
