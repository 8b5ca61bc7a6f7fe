// The browser demo in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core): the page loads the package's ESM build offline, renders a failure with
// its redactions and truncations marked, runs every shared vector in the page, runs model
// code with `execute` on the quickjs executor (whose packages the page's import map names;
// the executor runs in a Web Worker the page links them for), attacks that executor (loops
// after awaits, microtask storms, aborts, realm escapes, stack overflows) while the page
// keeps ticking, and its playground runs code typed or picked in the page. Screenshots are saved to
// target/js-browser-demo.png and target/js-browser-playground.png.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../examples/browser-demo/serve.mjs';
import { formsFor } from './vector-check.mjs';
import { loadSuite } from './vector-files.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--disable-component-update', '--disable-sync'];

let server;
let profile;
let context;
let page;
const problems = [];
const fetched = [];

before(async () => {
  server = await startServer({ port: 0 });
  profile = mkdtempSync(join(tmpdir(), 'codemode-errors-chromium-'));
  // Playwright passes the fresh profile as --user-data-dir.
  context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: ARGS, viewport: { width: 1280, height: 1100 } });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('response', (r) => fetched.push(new URL(r.url()).pathname));
  await page.goto(server.url);
  await page.waitForFunction(() => window.demoReady === true && window.playgroundReady === true, null, { timeout: 30_000 });
});

after(async () => {
  await context?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** Pick the sample whose label starts with `label`. */
async function pick(label) {
  const value = await page.$eval('#sample', (select, l) => [...select.options].find((o) => o.text.startsWith(l)).value, label);
  await page.selectOption('#sample', value);
}

describe('browser demo in headless Chromium', () => {
  test('loads the package offline and shows the outcome of a failing result', async () => {
    await pick('GitHub: rate limited');
    assert.match(await page.textContent('#summary'), /rate_limited/);
    assert.match(await page.textContent('#summary'), /retry_later/);
    const marks = await page.$$eval('#evidence mark.redacted', (m) => m.map((x) => x.textContent));
    assert.ok(marks.length > 0 && marks.every((m) => /^\[REDACTED:[a-z_]+\]$/.test(m)), `redaction marks: ${marks}`);
    assert.ok(!(await page.textContent('#output')).includes('ghp_'), 'the token must not reach the page output');
  });

  test('marks truncations, omitted binaries and omitted blocks', async () => {
    await pick('Image plus');
    assert.match(await page.textContent('#evidence .badge.omitted'), /binary omitted: image\/png/);
    await pick('Forty content blocks');
    assert.match(await page.textContent('#evidence'), /24 more content blocks omitted/);
    await pick('Build log');
    assert.match(await page.textContent('#evidence .badge.truncated'), /truncated: kept 2048 of \d+ characters/);
    assert.ok((await page.$$('#evidence mark.redacted')).length >= 1);
  });

  test('reports bad input as the typed error, not a crash', async () => {
    await page.fill('#result', '{"isError": true, "content": [{"type": "text", "text": 1}]');
    assert.match(await page.textContent('#input-error'), /Not JSON/);
    await page.fill('#annotations', '[1]');
    await page.fill('#result', '{"isError": true, "content": []}');
    assert.match(await page.textContent('#input-error'), /invalid_report at annotations/);
  });

  test('runs every shared vector in the page, byte for byte, judged against the declared gaps', async () => {
    const result = await page.evaluate(() => window.runVectors());
    const served = JSON.parse(await (await fetch(`${server.url}vectors/index.json`)).text());
    const { vectors, gaps } = loadSuite();
    assert.deepEqual(served, [...vectors.keys()]);
    const expectedChecks = [...vectors.values()].reduce((n, v) => n + formsFor(gaps, 'npm-chromium', v).length, 0);
    assert.deepEqual(result.failures, []);
    assert.equal(result.files, vectors.size);
    assert.equal(result.checks, expectedChecks);
    assert.equal(result.passed, expectedChecks);
    assert.equal(result.declared.length, gaps.gaps.filter((g) => g.surface === 'npm-chromium').length);
  });

  test('redactText stages a long text in the page and reads it back as its lines read', async () => {
    const result = await page.evaluate(async () => {
      const { redactText } = await import('codemode-errors');
      const lines = ['a plain log line with nothing secret in it', 'Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'password=hunter2'];
      const read = (extra) => {
        const text = Array.from({ length: 90 }, (_, i) => (i % 4 === 3 ? extra : lines[i % 3])).join('\n');
        return [redactText(text), text.split('\n').map((line) => redactText(line)).join('\n'), text.length];
      };
      // All ASCII (read back through TextDecoder here), and with characters of 2 to 4 bytes.
      return [read('status=200 ok'), read('café € 😀 status=200')];
    });
    for (const [whole, byLine, length] of result) {
      assert.ok(length >= 1024, 'long enough to be staged');
      assert.equal(whole, byLine);
      assert.ok(!whole.includes('hunter2') && !whole.includes('ghp_') && whole.includes('[REDACTED:'));
    }
  });

  test('the vectors button reports the same, and the page is captured', async () => {
    await pick('Build log');
    await page.click('#run-vectors');
    await page.waitForFunction(() => /passed/.test(document.getElementById('vector-result').textContent), null, { timeout: 60_000 });
    assert.match(await page.textContent('#vector-result'), /^\d+ passed, 0 failed \(\d+ vectors(, \d+ declared gaps)?\)$/);
    mkdirSync(join(repo, 'target'), { recursive: true });
    await page.screenshot({ path: join(repo, 'target/js-browser-demo.png'), fullPage: true });
  });
});

/**
 * `execute` in the page on the quickjs executor, against a notes catalog whose dispatch
 * answers each tool from `answers`: a CallToolResult, or `{ thrown: message }` to throw
 * (a transport failure). Anything else answers with a text naming the tool and arguments.
 */
function executeInPage(request, { answers = {}, timeoutMs } = {}) {
  return page.evaluate(
    async ({ request, answers, timeoutMs }) => {
      const { execute } = await import('codemode-errors');
      const catalog = {
        notes: [
          { name: 'get', inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }, annotations: { readOnlyHint: true } },
          { name: 'add', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, annotations: { readOnlyHint: false } },
        ],
      };
      const dispatch = async (namespace, name, args) => {
        const answer = answers[name] ?? { content: [{ type: 'text', text: `${namespace}.${name} ${JSON.stringify(args)}` }] };
        if (answer.thrown !== undefined) throw new Error(answer.thrown);
        return answer;
      };
      return execute(request, { executor: 'quickjs', catalog, dispatch, timeoutMs });
    },
    { request, answers, timeoutMs },
  );
}

const MISSING = { isError: true, content: [{ type: 'text', text: 'note n-404 not found' }] };

describe('execute in headless Chromium on the quickjs executor', () => {
  test('a completed run with a tool call returns its value, output and telemetry; QuickJS came from the served packages', async () => {
    const result = await executeInPage('const r = await codemode.notes.get({ id: "n-1" });\nconsole.log("read", r.content[0].text);\nreturn { text: r.content[0].text };');
    assert.equal(result.status, 'completed', JSON.stringify(result));
    assert.deepEqual(result.value, { text: 'notes.get {"id":"n-1"}' });
    assert.equal(result.output, 'read notes.get {"id":"n-1"}\n');
    assert.equal(result.bridgeDispatchStarted, true);
    assert.deepEqual(result.telemetry.calls, { total: 1, failed: 0, byTool: { 'notes::get': 1 } });
    assert.ok(fetched.includes('/package/node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm'), `fetched: ${fetched.filter((p) => p.includes('node_modules'))}`);
  });

  test('a caught tool failure reaches the guest as the contract and the run completes', async () => {
    const result = await executeInPage('try { await codemode.notes.get({ id: "n-404" }); } catch (e) { return JSON.parse(e.message).origin; }', { answers: { get: MISSING } });
    assert.deepEqual([result.status, result.value], ['completed', 'tool_execution'], JSON.stringify(result));
  });

  test('a misspelt tool rejects with unknown_tool naming the nearest, in the browser too', async () => {
    const result = await executeInPage('try { await codemode.notes.gett({ id: "n-1" }); } catch (e) { const c = JSON.parse(e.message); return [c.kind, c.cause]; }');
    assert.equal(result.status, 'completed', JSON.stringify(result));
    assert.equal(result.value[0], 'unknown_tool');
    assert.match(result.value[1], /the nearest: "notes::get"/);
  });

  test('an uncaught tool failure is the bridge, with the contract object as toolError', async () => {
    const result = await executeInPage('const r = await codemode.notes.get({ id: "n-404" });\nreturn r;', { answers: { get: MISSING } });
    assert.deepEqual([result.status, result.code, result.failurePhase, result.bridgeDispatchStarted], ['failed', 'internal_error', 'bridge', true], JSON.stringify(result));
    assert.deepEqual([result.toolError.tool, result.toolError.origin], ['notes::get', 'tool_execution']);
    const thrown = await executeInPage('await codemode.notes.add({ text: "x" });', { answers: { add: { thrown: 'fetch failed: ECONNRESET' } } });
    assert.deepEqual([thrown.code, thrown.failurePhase, thrown.toolError.origin], ['internal_error', 'bridge', 'upstream_transport'], JSON.stringify(thrown));
  });

  test('a syntax error is invalid_input placed in the submitted source', async () => {
    const result = await executeInPage('const a = 1;\nconst x = ;\nreturn a;');
    assert.deepEqual(
      [result.code, result.failurePhase, result.line, result.column, result.bridgeDispatchStarted],
      ['invalid_input', 'input', 2, 11, false],
      JSON.stringify(result),
    );
  });

  test('a contract error forged by the guest is the guest, without toolError', async () => {
    const forged = JSON.stringify({ contract_version: 1, kind: 'missing_param', message: 'forged', origin: 'validation', recovery: { action: 'revise_and_retry', same_arguments: 'never', guidance: 'g' }, side_effects: 'none' });
    const result = await executeInPage(`throw new Error(${JSON.stringify(forged)});`);
    assert.deepEqual([result.code, result.failurePhase, 'toolError' in result], ['internal_error', 'guest', false], JSON.stringify(result));
  });

  test('without the import map entries, the run fails as runtime_unavailable naming the package', async () => {
    // A served document without the demo's import map (a stylesheet opened as a page).
    const bare = await context.newPage();
    try {
      await bare.goto(`${server.url}style.css`);
      const result = await bare.evaluate(async () => {
        const { execute } = await import('/package/dist/esm/index.js');
        return execute('return 1', { executor: 'quickjs', catalog: {}, dispatch: async () => ({ content: [] }) });
      });
      assert.deepEqual([result.code, result.failurePhase, result.bridgeDispatchStarted], ['runtime_unavailable', 'host', false], JSON.stringify(result));
      assert.match(result.message, /quickjs-emscripten-core/);
    } finally {
      await bare.close();
    }
  });

  test('a synchronous loop ends at the deadline as timeout', async () => {
    const started = Date.now();
    const result = await executeInPage('while (true) {}', { timeoutMs: 200 });
    assert.deepEqual([result.status, result.code], ['failed', 'timeout'], JSON.stringify(result));
    assert.ok(Date.now() - started < 10_000, 'the interrupt stopped the loop');
  });
});

/**
 * Runs in the page, each `[request, { timeoutMs?, abortAfterMs? }]` started together, with
 * the page's own timer ticking beside them: what each resolved, its wall time, and the
 * longest gap between the page's ticks (how long guest code could block the page).
 */
function concurrentInPage(runs) {
  return page.evaluate(async (runs) => {
    const { execute } = await import('codemode-errors');
    const catalog = { notes: [{ name: 'get', annotations: { readOnlyHint: true } }] };
    const dispatch = async () => ({ content: [{ type: 'text', text: 'note' }] });
    let last = performance.now();
    let maxGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 10);
    try {
      const results = await Promise.all(
        runs.map(async ([request, { timeoutMs, abortAfterMs }]) => {
          const signal = abortAfterMs === undefined ? undefined : AbortSignal.timeout(abortAfterMs);
          const started = performance.now();
          const result = await execute(request, { executor: 'quickjs', catalog, dispatch, timeoutMs, signal });
          return { status: result.status, code: result.code, value: result.value, ms: performance.now() - started };
        }),
      );
      return { results, maxGap };
    } finally {
      clearInterval(ticker);
    }
  }, runs);
}

describe('execute in headless Chromium: the QuickJS executor runs in a Web Worker the page can always stop', () => {
  test('a loop after an await and a microtask storm end at the deadline while the page keeps ticking', async () => {
    const { results, maxGap } = await concurrentInPage([
      ['await null;\nfor (;;) {}', { timeoutMs: 300 }],
      ['const f = () => Promise.resolve().then(f);\nf();\nawait new Promise(() => {});', { timeoutMs: 300 }],
      ['return { toJSON() { for (;;) {} } };', { timeoutMs: 300 }],
    ]);
    assert.deepEqual(results.map((r) => [r.status, r.code]), [['failed', 'timeout'], ['failed', 'timeout'], ['failed', 'timeout']], JSON.stringify(results));
    assert.ok(results.every((r) => r.ms < 3_000), JSON.stringify(results));
    assert.ok(maxGap < 250, `the page's event loop stalled ${maxGap} ms`);
  });

  test("the caller's signal ends a synchronous loop as aborted, and a spinning run starves none beside it", async () => {
    const { results } = await concurrentInPage([
      ['for (;;) {}', { timeoutMs: 5_000, abortAfterMs: 200 }],
      ['return 1', { timeoutMs: 2_000 }],
      ['return 2', { timeoutMs: 2_000 }],
    ]);
    assert.deepEqual(results.map((r) => r.code ?? r.value), ['aborted', 1, 2], JSON.stringify(results));
    assert.ok(results[0].ms < 2_000, JSON.stringify(results));
  });

  test('the objects the guest reaches are its own realm, and nothing is shared between runs', async () => {
    const { results } = await concurrentInPage([
      ["return codemode.notes.get({}).constructor.constructor('return typeof document')();", {}],
      ["return console.log.constructor('return typeof window')();", {}],
    ]);
    assert.deepEqual(results.map((r) => r.value), ['undefined', 'undefined'], JSON.stringify(results));
    await concurrentInPage([['Promise.prototype.hijacked = 1;\nreturn 1;', {}]]);
    const { results: later } = await concurrentInPage([['return Promise.prototype.hijacked ?? null;', {}]]);
    assert.equal(later[0].value, null);
  });

  test('stack overflows are the guest error and the executor keeps working after them', async () => {
    const { results } = await concurrentInPage([
      ['(function f() { f(); })();', {}],
      ["JSON.parse('['.repeat(100000) + ']'.repeat(100000));\nreturn 'parsed';", {}],
    ]);
    assert.ok(results.every((r) => r.status === 'failed' && r.code === 'internal_error'), JSON.stringify(results));
    const { results: after } = await concurrentInPage([['return 1', {}]]);
    assert.equal(after[0].value, 1);
  });
});

/**
 * Run code in the playground as a user would: pick the snippet whose label starts with
 * `snippet`, or type `code`, then click Run (or press `keys`); resolves with the run result
 * the page shows.
 */
async function runInPlayground({ snippet, code, keys }) {
  if (snippet !== undefined) {
    const value = await page.$eval('#snippet', (select, l) => [...select.options].find((o) => o.text.startsWith(l)).value, snippet);
    await page.selectOption('#snippet', value);
  }
  if (code !== undefined) {
    await page.fill('#code', '');
    await page.locator('#code').pressSequentially(code);
  }
  const before = Number((await page.getAttribute('#run-result', 'data-run')) ?? 0);
  if (keys === undefined) await page.click('#run-code');
  else await page.locator('#code').press(keys);
  await page.waitForFunction((n) => Number(document.getElementById('run-result').dataset.run ?? 0) > n, before, { timeout: 30_000 });
  return JSON.parse(await page.textContent('#run-result'));
}

/** What each snippet's run shows, checked on the result the page rendered. */
const SNIPPET_RUNS = [
  ['Success', (r) => {
    assert.deepEqual([r.status, r.value, r.output], ['completed', { id: 'n-2', text: 'Call the plumber' }, 'added n-2\n']);
    assert.deepEqual(r.telemetry.calls.byTool, { 'notes::add': 1, 'notes::get': 1 });
  }],
  ['Caught failure', (r) => assert.deepEqual([r.status, r.value, r.output], ['completed', { kind: 'not_found', origin: 'tool_execution' }, 'recovery: rediscover\n'])],
  ['Uncaught failure', (r) => assert.deepEqual([r.code, r.failurePhase, r.toolError.kind, r.toolError.origin], ['internal_error', 'bridge', 'not_found', 'tool_execution'])],
  ['Uncaught transport failure', (r) => {
    assert.deepEqual([r.code, r.failurePhase, r.toolError.origin, r.toolError.tool, r.output], ['internal_error', 'bridge', 'upstream_transport', 'search::web', 'searching\n']);
    assert.match(r.toolError.cause, /\[REDACTED:[a-z_]+\]/);
    assert.ok(!JSON.stringify(r).includes('sk-live-'), r.toolError.cause);
  }],
  ['Wrong arguments', (r) => assert.deepEqual([r.code, r.failurePhase, r.bridgeDispatchStarted, r.toolError.invalid_arguments.map((a) => a.path).sort()], ['invalid_input', 'bridge', false, ['text', 'txt']])],
  ['Syntax error', (r) => assert.deepEqual([r.code, r.failurePhase, r.line, r.column, r.bridgeDispatchStarted], ['invalid_input', 'input', 2, 28, false])],
  ['Forged error', (r) => assert.deepEqual([r.code, r.failurePhase, 'toolError' in r], ['internal_error', 'guest', false])],
  ['Timeout', (r) => assert.deepEqual([r.status, r.code], ['failed', 'timeout'])],
];

describe('the playground: model code typed or picked in the page runs in QuickJS', () => {
  test('typed code that calls a tool completes, with its value and console output shown', async () => {
    const result = await runInPlayground({ code: 'const n = await codemode.notes.get({ id: "n-1" });\nconsole.log("got", n.structuredContent.id);\nreturn n.structuredContent.text;' });
    assert.deepEqual([result.status, result.value, result.bridgeDispatchStarted], ['completed', 'Buy oat milk', true], JSON.stringify(result));
    assert.equal(await page.textContent('#run-output'), 'got n-1\n');
    assert.equal(await page.textContent('#run-status'), 'completed');
    assert.equal(await page.$$eval('#tools li', (items) => items.length), 3);
  });

  test('typed code with a syntax error is invalid_input at its line and column; Ctrl+Enter runs it', async () => {
    const result = await runInPlayground({ code: 'const a = 1;\nreturn a +;', keys: 'Control+Enter' });
    assert.deepEqual([result.code, result.failurePhase, result.line, result.column], ['invalid_input', 'input', 2, 11], JSON.stringify(result));
    assert.match(await page.textContent('#run-summary'), /line 2, column 11/);
    assert.equal(await page.textContent('#run-status'), 'failed: invalid_input');
  });

  for (const [snippet, check] of SNIPPET_RUNS) {
    test(`the snippet "${snippet}" runs to what it shows`, async () => {
      const result = await runInPlayground({ snippet });
      check(result);
    });
  }

  test('a leaked key never reaches the page, and the playground is captured', async () => {
    await runInPlayground({ snippet: 'Uncaught transport failure' });
    assert.ok(!(await page.textContent('#playground')).includes('sk-live-'), 'the planted key must not reach the page');
    assert.ok((await page.$$('#run-result mark.redacted')).length >= 1);
    mkdirSync(join(repo, 'target'), { recursive: true });
    await page.locator('#playground').screenshot({ path: join(repo, 'target/js-browser-playground.png') });
  });
});

test('the page logged no errors and every request succeeded', () => {
  assert.deepEqual(problems, []);
});
