// The browser demo in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core): the page loads the package's ESM build offline, renders a failure with
// its redactions and truncations marked, and runs every shared vector in the page.
// A screenshot is saved to target/js-browser-demo.png.

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

before(async () => {
  server = await startServer({ port: 0 });
  profile = mkdtempSync(join(tmpdir(), 'codemode-errors-chromium-'));
  // Playwright passes the fresh profile as --user-data-dir.
  context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: ARGS, viewport: { width: 1280, height: 1100 } });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  await page.goto(server.url);
  await page.waitForFunction(() => window.demoReady === true, null, { timeout: 30_000 });
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

  test('the vectors button reports the same, and the page is captured', async () => {
    await pick('Build log');
    await page.click('#run-vectors');
    await page.waitForFunction(() => /passed/.test(document.getElementById('vector-result').textContent), null, { timeout: 60_000 });
    assert.match(await page.textContent('#vector-result'), /^\d+ passed, 0 failed \(\d+ vectors(, \d+ declared gaps)?\)$/);
    mkdirSync(join(repo, 'target'), { recursive: true });
    await page.screenshot({ path: join(repo, 'target/js-browser-demo.png'), fullPage: true });
  });

  test('the page logged no errors and every request succeeded', () => {
    assert.deepEqual(problems, []);
  });
});
