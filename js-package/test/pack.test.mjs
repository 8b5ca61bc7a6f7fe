// The package as users get it: `npm pack`, installed from the tarball into an empty
// folder, then imported (ESM), required (CommonJS), loaded by Deno without permissions,
// and type-checked as a TypeScript consumer with tsc.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { packageJsonDrift } from '../scripts/package-json.mjs';

const pkg = fileURLToPath(new URL('../', import.meta.url));
const tsc = join(pkg, 'node_modules/typescript/bin/tsc');
const deno = join(pkg, 'node_modules/.bin/deno');
let consumer;
let packed;

const run = (file, args, options = {}) => execFileSync(file, args, { cwd: consumer, encoding: 'utf8', ...options });

before(() => {
  consumer = mkdtempSync(join(tmpdir(), 'codemode-errors-consumer-'));
  [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', consumer], { cwd: pkg, encoding: 'utf8' }));
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', join(consumer, packed.filename)]);
});

after(() => rmSync(consumer, { recursive: true, force: true }));

const report = JSON.stringify({ tool: 'fs::read', tool_result: { isError: true, content: [{ type: 'text', text: 'ENOENT: no such file' }] } });

describe('the packed tarball', () => {
  test('package.json matches what scripts/package-json.mjs generates', () => {
    assert.deepEqual(packageJsonDrift(), []);
  });

  test('holds the built package and nothing else', () => {
    const files = packed.files.map((f) => f.path).sort();
    const top = ['package.json', 'README.md', 'index.d.ts', 'LICENSE-MIT', 'LICENSE-APACHE'];
    for (const needed of [...top, 'dist/codemode_errors_js_bg.wasm', 'dist/cjs/index.js', 'dist/esm/index.js', 'dist/deno/index.js']) {
      assert.ok(files.includes(needed), `${needed} is missing from the tarball`);
    }
    assert.deepEqual(files.filter((f) => !(f.startsWith('dist/') || top.includes(f))), []);
    assert.equal(files.filter((f) => f.endsWith('.wasm')).length, 1, 'one .wasm serves every entry');
  });

  test('exports no benchmark-only functions', () => {
    const binding = readFileSync(join(consumer, 'node_modules/codemode-errors/dist/cjs/binding.js'), 'utf8');
    for (const name of ['benchCore', 'benchCoreText']) assert.ok(!binding.includes(name), `${name} is in the published binding`);
  });

  test('imports as ESM and requires as CommonJS, sharing one instance in Node', () => {
    const out = run('node', [
      '--input-type=module',
      '-e',
      `import { normalize, Normalizer } from 'codemode-errors';
       import { createRequire } from 'node:module';
       const cjs = createRequire(import.meta.url)('codemode-errors');
       console.log(normalize(${JSON.stringify(report)}).error.kind, cjs.normalize(${JSON.stringify(report)}).error.kind, cjs.Normalizer === Normalizer);`,
    ]);
    assert.equal(out.trim(), 'not_found not_found true');
    const required = run('node', ['-e', `console.log(require('codemode-errors').toCallError(${JSON.stringify(report)}) instanceof Error)`]);
    assert.equal(required.trim(), 'true');
  });

  test('loads in Deno with no permissions', () => {
    writeFileSync(join(consumer, 'deno.mjs'), `import { normalize } from 'codemode-errors';\nconsole.log(normalize(${JSON.stringify(report)}).error.kind);\n`);
    const out = run(deno, ['run', '--no-prompt', 'deno.mjs'], { env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(out.trim(), 'not_found');
  });

  test('type-checks a TypeScript consumer (ESM and CommonJS) with tsc', () => {
    writeFileSync(
      join(consumer, 'consumer.ts'),
      `import { classifyRun, classifyRunToJson, createCodemode, normalize, parseCallError, wrapCallTool, type CodeModeCallError, type FailurePhase, type Outcome, type RunError, type RunErrorCode } from 'codemode-errors';
const outcome: Outcome = normalize({ tool: 'fs::read', transport: { kind: 'timeout', message: 'slow' } });
const error: CodeModeCallError | null = outcome.error;
if (error) {
  const action: 'retry_later' | string = error.recovery.action;
  const redactions: Record<string, number> | undefined = error.evidence?.redactions;
  console.log(action, redactions, error.invalid_arguments?.[0]?.path);
}
const callTool = wrapCallTool(async () => ({ content: [] }), { namespace: 'fs', onBreaker: (b) => console.log(b === 'failure') });
const { codemode } = createCodemode({ fs: [{ name: 'read' }] }, async (_ns, _name, _args, { signal }) => (signal.aborted ? { content: [] } : { content: [] }));
void callTool('read', {}).catch((e: unknown) => parseCallError(e).kind);
void codemode.fs?.read?.({});
// @ts-expect-error a transport kind outside the contract
normalize({ transport: { kind: 'gremlins' } });
// @ts-expect-error a report needs a failure
normalize({ tool: 'fs::read' });
const end: RunError = classifyRun({ bridge_dispatch_started: true, guest_exception: { name: 'TypeError', message: 'x is undefined' } });
const code: RunErrorCode = end.code;
const phase: FailurePhase | undefined = end.failurePhase;
const uncaught: CodeModeCallError | undefined = classifyRun({ bridge_dispatch_started: false, uncaught_tool_error: '{"kind":"x","message":"y"}' }).toolError;
console.log(code, phase, end.replaySafe, uncaught?.kind, classifyRunToJson('{"bridge_dispatch_started":false,"aborted":{}}').length);
// @ts-expect-error a run report needs bridge_dispatch_started
classifyRun({ aborted: {} });
// @ts-expect-error a run report has one failure member
classifyRun({ bridge_dispatch_started: true });
`,
    );
    writeFileSync(
      join(consumer, 'consumer.cts'),
      `import codemode = require('codemode-errors');
const kind: string | undefined = codemode.normalize({ budget: { kind: 'quota_exceeded', message: 'm' } }).error?.kind;
const replaySafe: boolean = codemode.classifyRun({ bridge_dispatch_started: false, timeout: { deadline_ms: 1000 } }).replaySafe;
console.log(kind, replaySafe);
`,
    );
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: [] }, files: ['consumer.ts', 'consumer.cts'] }),
    );
    run('node', [tsc, '-p', '.']);
  });
});
