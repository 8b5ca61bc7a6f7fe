// wrapCallTool and createCodemode: every way a call ends, against in-process fakes of the
// MCP client (the real servers run in example.test.mjs).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createCodemode, parseCallError, wrapCallTool } from 'codemode-errors';

const ok = { content: [{ type: 'text', text: 'done' }] };
const denied = { isError: true, content: [{ type: 'text', text: 'Error: Access denied - path outside allowed directories: /etc/passwd not in /srv' }] };

/** The contract object a promise rejected with. */
async function rejection(promise) {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof Error, `rejected with ${e}, not an Error`);
    return parseCallError(e);
  }
  assert.fail('expected a rejection');
}

/** A wrapper over `callTool` that records every breaker verdict. */
function recorded(callTool, context = {}) {
  const verdicts = [];
  const wrapped = wrapCallTool(callTool, { namespace: 'fs', ...context, onBreaker: (breaker, details) => verdicts.push({ breaker, ...details }) });
  return { wrapped, verdicts };
}

describe('wrapCallTool', () => {
  test('an isError result rejects with the contract; the breaker counts a success', async () => {
    const { wrapped, verdicts } = recorded(async () => denied, { annotations: { read_text_file: { readOnlyHint: true } } });
    const error = await rejection(wrapped('read_text_file', { path: '/etc/passwd' }));
    assert.equal(error.origin, 'tool_execution');
    assert.equal(error.tool, 'fs::read_text_file');
    assert.equal(error.dispatched, true);
    assert.deepEqual(error.safety, { read_only_hint: true });
    assert.equal(error.side_effects, 'none_expected');
    assert.deepEqual(verdicts, [{ breaker: 'success', tool: 'fs::read_text_file', error }]);
  });

  test('successes and input_required pass through unchanged', async () => {
    const pending = { resultType: 'input_required', inputRequests: { q: {} } };
    for (const result of [ok, pending]) {
      const { wrapped, verdicts } = recorded(async () => result);
      assert.equal(await wrapped('x', {}), result);
      assert.deepEqual(verdicts, [{ breaker: 'success', tool: 'fs::x', error: null }]);
    }
  });

  test('a thrown transport error rejects as upstream_transport and counts a failure', async () => {
    const { wrapped, verdicts } = recorded(async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    });
    const error = await rejection(wrapped('read_text_file', {}));
    assert.equal(error.origin, 'upstream_transport');
    assert.equal(error.kind, 'network_error');
    assert.equal(verdicts[0].breaker, 'failure');
  });

  test('a JSON-RPC error (McpError with a numeric code) is classified by its code', async () => {
    class McpError extends Error {
      constructor(code, message, data) {
        super(`MCP error ${code}: ${message}`);
        this.name = 'McpError';
        this.code = code;
        this.data = data;
      }
    }
    const { wrapped } = recorded(async (name) => {
      throw name === 'slow' ? new McpError(-32001, 'Request timed out') : new McpError(-32601, 'Unknown tool: nope');
    });
    const timeout = await rejection(wrapped('slow', {}));
    assert.deepEqual([timeout.kind, timeout.origin], ['timeout', 'upstream_transport']);
    const unknown = await rejection(wrapped('nope', {}));
    assert.equal(unknown.kind, 'unknown_tool');
  });

  test('a call with no result in time rejects with timeout and aborts its signal', async () => {
    let signal;
    const { wrapped, verdicts } = recorded(
      (_name, _args, options) =>
        new Promise(() => {
          signal = options.signal;
        }),
      { timeoutMs: 20 },
    );
    const error = await rejection(wrapped('read_text_file', {}));
    assert.equal(error.kind, 'timeout');
    assert.equal(error.origin, 'upstream_transport');
    assert.equal(signal.aborted, true);
    assert.equal(verdicts[0].breaker, 'failure');
  });

  test('odd throws still reject with the contract', async () => {
    for (const thrown of ['boom', null, 42, { get name() { throw new Error('hostile'); } }]) {
      const { wrapped } = recorded(async () => {
        throw thrown;
      });
      const error = await rejection(wrapped('x', {}));
      assert.equal(error.contract_version, 1);
    }
  });

  test('a result that is not JSON rejects with the contract', async () => {
    const { wrapped } = recorded(async () => ({ isError: true, content: [{ type: 'text', text: () => 'fn' }] }));
    const error = await rejection(wrapped('x', {}));
    assert.equal(error.origin, 'upstream_transport');
    assert.match(error.cause, /tool_result\.content\[0\]\.text/);
  });

  test('a tool name the core refuses is left out of the report', async () => {
    const { wrapped } = recorded(async () => denied);
    const error = await rejection(wrapped('bad\u0000name', {}));
    assert.equal(error.tool, undefined);
    assert.equal(error.origin, 'tool_execution');
  });

  test('a throwing breaker callback surfaces instead of hiding', async () => {
    const wrapped = wrapCallTool(async () => ok, {
      onBreaker: () => {
        throw new RangeError('callback bug');
      },
    });
    await assert.rejects(wrapped('x', {}), RangeError);
  });

  test('misuse is reported when wrapping', () => {
    assert.throws(() => wrapCallTool('not a function'), TypeError);
    assert.throws(() => wrapCallTool(async () => ok, { policy: { max_text_chars: 1 } }), { code: 'invalid_policy' });
  });
});

const catalog = {
  github: [
    {
      name: 'create_issue',
      annotations: { readOnlyHint: false, idempotentHint: false },
      inputSchema: {
        type: 'object',
        properties: { title: { type: 'string' }, labels: { type: 'array', items: { type: 'string' } } },
        required: ['title'],
        additionalProperties: false,
      },
    },
    { name: '__proto__' },
  ],
};

describe('createCodemode', () => {
  test('builds codemode.<namespace>.<tool>() helpers that dispatch valid calls', async () => {
    const calls = [];
    const { codemode, callTool } = createCodemode(catalog, async (namespace, name, args, options) => {
      calls.push([namespace, name, args, options.signal instanceof AbortSignal]);
      return ok;
    });
    assert.equal(await codemode.github.create_issue({ title: 'hi' }), ok);
    assert.equal(await callTool('github::create_issue', { title: 'again', labels: ['a'] }), ok);
    assert.equal(typeof Object.getOwnPropertyDescriptor(codemode.github, '__proto__').value, 'function');
    assert.deepEqual(calls, [
      ['github', 'create_issue', { title: 'hi' }, true],
      ['github', 'create_issue', { title: 'again', labels: ['a'] }, true],
    ]);
  });

  test('arguments violating the input schema reject before dispatch, naming each argument', async () => {
    const verdicts = [];
    let dispatched = 0;
    const { codemode } = createCodemode(
      catalog,
      async () => {
        dispatched++;
        return ok;
      },
      { onBreaker: (breaker) => verdicts.push(breaker) },
    );
    const error = await rejection(codemode.github.create_issue({ titel: 'typo', labels: [1] }));
    assert.equal(dispatched, 0);
    assert.equal(error.origin, 'validation');
    assert.equal(error.kind, 'invalid_param');
    assert.equal(error.dispatched, false);
    assert.deepEqual(error.invalid_arguments, [
      { path: 'title', problem: 'missing required argument' },
      { path: 'labels[0]', problem: 'expected string, got integer' },
      { path: 'titel', problem: 'unexpected argument' },
    ]);
    assert.deepEqual(verdicts, ['none']);
    const missing = await rejection(codemode.github.create_issue());
    assert.equal(missing.kind, 'missing_param');
  });

  test('arguments JSON cannot hold are a validation problem at their path', async () => {
    const { codemode } = createCodemode(catalog, async () => ok);
    const error = await rejection(codemode.github.create_issue({ title: 'x', labels: [() => 1] }));
    assert.equal(error.origin, 'validation');
    assert.equal(error.invalid_arguments[0].path, 'labels[0]');
  });

  test('an isError result and a thrown error reject like wrapCallTool', async () => {
    const { codemode } = createCodemode(catalog, async (_ns, _name, args) => {
      if (args.title === 'throw') throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      return denied;
    });
    const failed = await rejection(codemode.github.create_issue({ title: 'x' }));
    assert.deepEqual([failed.origin, failed.tool, failed.side_effects], ['tool_execution', 'github::create_issue', 'possible']);
    const closed = await rejection(codemode.github.create_issue({ title: 'throw' }));
    assert.equal(closed.origin, 'upstream_transport');
  });

  test('an unknown tool rejects with code_mode unknown_tool', async () => {
    const { callTool } = createCodemode(catalog, async () => ok);
    const error = await rejection(callTool('github::delete_repo', {}));
    assert.deepEqual([error.kind, error.origin, error.dispatched], ['unknown_tool', 'code_mode', false]);
    assert.match(error.message, /github::delete_repo/);
    // The nearest tools of the catalog are named (models misspell and invent names).
    const near = await rejection(callTool('github::create_isue', {}));
    assert.match(near.cause, /the nearest: "github::create_issue"/);
    // The core decides the rest too: a name that is not a string, and a hostile long one.
    const odd = await rejection(callTool(42, {}));
    assert.deepEqual([odd.kind, odd.origin], ['unknown_tool', 'code_mode']);
    assert.match(odd.cause, /not a string/);
    const long = await rejection(callTool('x'.repeat(100_000), {}));
    assert.equal(long.kind, 'unknown_tool');
    assert.ok(JSON.stringify(long).length < 2048, 'the requested name is capped');
  });

  test('model code calling a tool or namespace the catalog lacks gets unknown_tool, not "not a function"', async () => {
    let dispatched = 0;
    const { codemode } = createCodemode(catalog, async () => {
      dispatched++;
      return ok;
    });
    const misspelled = await rejection(codemode.github.create_isue({ title: 'x' }));
    assert.deepEqual([misspelled.kind, misspelled.origin, misspelled.dispatched], ['unknown_tool', 'code_mode', false]);
    assert.match(misspelled.cause, /the nearest: "github::create_issue"/);
    const namespace = await rejection(codemode.githb.create_issue({}));
    assert.equal(namespace.kind, 'unknown_tool');
    assert.match(namespace.message, /githb::create_issue/);
    assert.equal(dispatched, 0);
    // Not for names a value's readers look up: awaiting a namespace, JSON, symbols, what an object inherits.
    assert.equal(codemode.github.then, undefined);
    assert.equal(codemode.then, undefined);
    assert.equal(codemode.github.toJSON, undefined);
    assert.equal(typeof codemode.github.toString, 'function');
    assert.equal(codemode.github[Symbol.iterator], undefined);
    assert.deepEqual(Object.keys(codemode), Object.keys(catalog));
    // Probes of test frameworks and inspectors are no tools; a missing name is one helper.
    assert.equal(codemode.github.asymmetricMatch, undefined);
    assert.equal(codemode.github.$$typeof, undefined);
    assert.equal(codemode.github['@@__IMMUTABLE_ITERABLE__@@'], undefined);
    assert.equal(codemode.gh, codemode.gh);
    assert.equal(codemode.github.nope, codemode.github.nope);
  });

  test('a bad catalog is refused when the helpers are built', () => {
    assert.throws(() => createCodemode({ gh: {} }, async () => ok), TypeError);
    assert.throws(() => createCodemode({ gh: [{ name: 'a' }, { name: 'a' }] }, async () => ok), /twice/);
    assert.throws(() => createCodemode({ gh: [{ name: 'a', inputSchema: { type: () => 1 } }] }, async () => ok), { code: 'invalid_json' });
    assert.throws(() => createCodemode(catalog, 'dispatch'), TypeError);
  });
});

describe('thrown errors the DOM defines', () => {
  test('a DOMException AbortError (legacy code 20) rejects as cancelled, not as a JSON-RPC error', async () => {
    const { wrapped } = recorded(async () => {
      throw new DOMException('The operation was aborted.', 'AbortError');
    });
    const error = await rejection(wrapped('x', {}));
    assert.equal(error.kind, 'cancelled');
    assert.equal(error.origin, 'upstream_transport');
  });
});

describe('results that cannot be read as JSON', () => {
  test('a result with a cycle rejects as a decode_error the core names, and counts against the upstream', async () => {
    const broken = { isError: true, content: [] };
    broken.content.push({ type: 'text', text: 'x', self: broken });
    const { wrapped, verdicts } = recorded(async () => broken);
    const error = await rejection(wrapped('read_text_file', {}));
    assert.equal(error.kind, 'decode_error');
    assert.equal(error.origin, 'upstream_transport');
    assert.match(error.cause, /cannot be read as JSON/);
    assert.equal(verdicts[0].breaker, 'failure');
  });
});
