// The examples as tests: the node sandbox against the real MCP servers, and the Deno
// example type-checked and run by Deno (both need `npm install` in their folders, which
// `cargo xtask test` does).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const examples = new URL('../../examples/', import.meta.url);

describe('examples/node-sandbox against real MCP servers', async () => {
  const { runDemo } = await import(new URL('node-sandbox/main.mjs', examples));
  const { caught, envelope, serverRefusal, breaker, log, runs } = await runDemo();

  test('whole runs through execute end as the core says, against the real servers', () => {
    assert.deepEqual([runs.caught.status, runs.caught.output], ['completed', 'caught path_traversal\n']);
    assert.equal(typeof runs.caught.value, 'number');
    assert.deepEqual([runs.uncaught.code, runs.uncaught.failurePhase, runs.uncaught.toolError.kind], ['internal_error', 'bridge', 'path_traversal']);
    assert.deepEqual([runs.syntax.code, runs.syntax.failurePhase, runs.syntax.line, runs.syntax.bridgeDispatchStarted], ['invalid_input', 'input', 2, false]);
    assert.deepEqual([runs.forged.code, runs.forged.failurePhase, 'toolError' in runs.forged], ['internal_error', 'guest', false]);
  });

  test('the model caught a real isError result as the contract object', () => {
    assert.equal(caught.contract_version, 1);
    assert.equal(caught.tool, 'fs::read_text_file');
    assert.equal(caught.origin, 'tool_execution');
    assert.equal(caught.kind, 'path_traversal');
    assert.equal(caught.dispatched, true);
    assert.deepEqual(caught.safety, { read_only_hint: true, open_world_hint: false });
    assert.match(caught.evidence.content[0].text, /outside allowed directories/);
  });

  test('the uncaught failure reaches the gateway as the same contract object', () => {
    assert.equal(envelope.isError, true);
    const text = JSON.stringify(caught);
    assert.equal(JSON.stringify(envelope.structuredContent.error), text);
    assert.equal(JSON.stringify(envelope.structuredContent.trace.error), text);
    assert.equal(JSON.stringify(JSON.parse(envelope.content[0].text)), text);
    assert.deepEqual(envelope.structuredContent.trace.log, log);
  });

  test('model code ran on after the caught failures and stopped at the uncaught one', () => {
    assert.ok(log.some((line) => line.startsWith('model read "ship the release')));
    assert.ok(log.some((line) => line.includes('missing_param message: missing required argument')));
    assert.ok(!log.includes('never reached'));
  });

  test('bad arguments sent straight to the server come back as its isError, as the contract', () => {
    assert.equal(serverRefusal.origin, 'tool_execution');
    // The SDK's zod 4 message names the missing argument; the core reads it.
    assert.equal(serverRefusal.kind, 'missing_param');
    assert.deepEqual(serverRefusal.invalid_arguments, [{ path: 'message', problem: 'missing required argument' }]);
    assert.equal(serverRefusal.tool, 'everything::echo');
    assert.match(serverRefusal.cause, /Input validation error/);
  });

  test('the breaker counted completed errors as successes and local validation as nothing', () => {
    assert.deepEqual(breaker, [
      'fs::read_text_file: success',
      'everything::echo: none',
      'fs::read_text_file: success',
      'fs::read_text_file: success',
      'everything::echo: success',
    ]);
  });
});

test('examples/deno type-checks and runs under Deno without permissions', () => {
  const dir = fileURLToPath(new URL('deno/', examples));
  const deno = fileURLToPath(new URL('deno/node_modules/.bin/deno', examples));
  const env = { ...process.env, NO_COLOR: '1' };
  execFileSync(deno, ['check', 'main.ts'], { cwd: dir, env, stdio: 'pipe' });
  const out = execFileSync(deno, ['run', '--no-prompt', 'main.ts'], { cwd: dir, env, encoding: 'utf8' });
  assert.match(out, /a completed isError result: kind=rate_limited origin=tool_execution next=retry_later breaker=success/);
  assert.match(out, /a dropped connection: kind=network_error origin=upstream_transport .* breaker=failure/);
  assert.match(out, /secrets shown: false/);
});
