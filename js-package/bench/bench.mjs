// The npm package's budgets, measured, and the comparison with a naive hand-written
// redactor; writes docs/PERFORMANCE-js.md. Run by `cargo xtask bench` (after the build),
// or `node --expose-gc bench/bench.mjs` in js-package/. Never part of the tests: timings
// are reported, not asserted.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { normalize, normalizeToJson, toCallError } from 'codemode-errors';
import { naiveCallError, NAIVE_PATTERNS } from './naive.mjs';
import { oneLinePackage } from './one-line.mjs';
import { PLANTED } from './planted.mjs';

const pkg = fileURLToPath(new URL('../', import.meta.url));
const out = new URL('../../docs/PERFORMANCE-js.md', import.meta.url);
// The bench build (`cargo xtask bench`): the package's binding plus the bench-only exports.
const binding = createRequire(import.meta.url)('./pkg/codemode_errors_js_features.js');

const BUDGET = { rawKiB: 700, gzipKiB: 250, startupMs: 20, overheadUs: 10 };

// ---------------------------------------------------------------- reports

/** The core bench's typical failure: two text blocks (about 1 KB) with a token, annotations. */
const body = 'GitHub API error: HTTP/1.1 422 Unprocessable Entity\nValidation Failed: title is too long. See https://docs.github.com/rest/issues#create-an-issue for the field limits. '.repeat(4);
const typicalResult = {
  isError: true,
  content: [
    { type: 'text', text: body },
    { type: 'text', text: 'request id C0DE:1234 auth=Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789' },
  ],
};
const typical = { tool: 'github::create_issue', annotations: { readOnlyHint: false, idempotentHint: false }, dispatched: true, tool_result: typicalResult };

const line = 'line of tool output with a path /srv/data/file.txt and status=ok\n'.repeat(300);
const largeResult = {
  isError: true,
  content: [...Array.from({ length: 16 }, () => ({ type: 'text', text: line })), { type: 'image', data: 'A'.repeat(1 << 20), mimeType: 'image/png' }],
  structuredContent: { items: Array.from({ length: 1500 }, (_, i) => ({ id: i, name: `item ${i}`, token: `t-${i}` })) },
};
// Parsed from JSON so the 50 MB string is flat, as one from a transport would be.
const hugeResult = JSON.parse(JSON.stringify({ isError: true, content: [{ type: 'text', text: 'x'.repeat(50_000_000) }] }));
const manyResult = { isError: true, content: Array.from({ length: 10_000 }, (_, i) => ({ type: 'text', text: `block ${i}: timed out` })) };
const cappedResult = { isError: true, content: [{ type: 'text', text: 'x'.repeat(128 * 1024) }] };

const REPORTS = [
  ['typical (2 text blocks, ~1 KB)', typicalResult],
  ['large (16 × 20 KB text, 1 MB image, 1500-item structuredContent)', largeResult],
  ['one 50 MB text block', hugeResult],
  ['one 128 KiB text block (the input cap)', cappedResult],
  ['10 000 content blocks', manyResult],
];

// ---------------------------------------------------------------- timing

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Milliseconds per call of `f`: the best of `rounds` batches of about 20 ms each. The
 * best, not the median, because other builds may share this machine: load only ever adds.
 */
function perCall(f, rounds = 15) {
  for (let i = 0; i < 20; i++) f();
  let n = 1;
  for (;;) {
    const t = performance.now();
    for (let i = 0; i < n; i++) f();
    if (performance.now() - t > 20 || n >= 1 << 20) break;
    n *= 2;
  }
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r++) {
    globalThis.gc?.();
    const t = performance.now();
    for (let i = 0; i < n; i++) f();
    best = Math.min(best, (performance.now() - t) / n);
  }
  return best;
}

const us = (ms) => (ms * 1000).toFixed(ms < 0.1 ? 2 : 1);
const msText = (ms) => (ms >= 10 ? ms.toFixed(0) : ms.toFixed(2));

// ---------------------------------------------------------------- measurements

function sizes() {
  const wasm = readFileSync(new URL('../dist/codemode_errors_js_bg.wasm', import.meta.url));
  const esm = readdirSync(new URL('../dist/esm/', import.meta.url)).filter((f) => f.endsWith('.js'));
  const js = ['glue.mjs', ...esm.map((f) => `esm/${f}`)].map((f) => readFileSync(new URL(`../dist/${f}`, import.meta.url)));
  const jsRaw = Buffer.concat(js);
  return { raw: wasm.length, gzip: gzipSync(wasm, { level: 9 }).length, jsRaw: jsRaw.length, jsGzip: gzipSync(jsRaw, { level: 9 }).length };
}


/**
 * Import and require, each plus the first normalize of the typical report, in fresh Node
 * processes, and the same for the one-line package; the four alternate in every round, so
 * the machine's state at the time falls on all of them alike. The ESM child first imports
 * a built-in module, as any ESM program has by the time it imports a package, so the ESM
 * loader's own start-up is not counted; what Node spends on any package is the one-line
 * package's time, reported beside ours.
 */
function startups(floorDir, runs = 21) {
  const report = JSON.stringify(typical);
  const code = (kind, name) =>
    kind === 'import'
      ? `await import('node:path'); const t0 = performance.now(); const m = await import('${name}'); const t1 = performance.now(); m.normalize(${report}); const t2 = performance.now(); console.log(JSON.stringify([t1 - t0, t2 - t1]));`
      : `const t0 = performance.now(); const m = require('${name}'); const t1 = performance.now(); m.normalize(${report}); const t2 = performance.now(); console.log(JSON.stringify([t1 - t0, t2 - t1]));`;
  const run = (kind, name, cwd) => {
    const args = kind === 'import' ? ['--input-type=module', '-e', code(kind, name)] : ['-e', code(kind, name)];
    return JSON.parse(execFileSync(process.execPath, args, { cwd, encoding: 'utf8' }));
  };
  const samples = { import: { ours: [], floor: [] }, require: { ours: [], floor: [] } };
  for (let i = 0; i < runs; i++) {
    for (const kind of ['import', 'require']) {
      samples[kind].ours.push(run(kind, 'codemode-errors', pkg));
      samples[kind].floor.push(run(kind, 'one-line', floorDir));
    }
  }
  const summary = ({ ours, floor }) => {
    const totals = ours.map(([a, b]) => a + b);
    return {
      load: median(ours.map((s) => s[0])),
      first: median(ours.map((s) => s[1])),
      total: median(totals),
      max: Math.max(...totals),
      floor: median(floor.map(([a, b]) => a + b)),
    };
  };
  return { esm: summary(samples.import), cjs: summary(samples.require) };
}

/**
 * What V8 compiles for the first `normalize` of the typical report, from its
 * compilation trace (a count, not a timing): the functions Liftoff compiles on the way and
 * their size, and any function that already runs hot enough to be handed to TurboFan on a
 * background thread, at the default tier-up budget and at half of it (the margin). The
 * trace is printed through C's buffered stdio, so its order against the script's own
 * output is not kept: the call's compiles are those of a process that loads the package
 * and calls it, less those of one that only loads it.
 */
function firstCallCompiles() {
  const compiled = (budget, call) => {
    const code = `const m = require('codemode-errors');${call ? ` m.normalize(${JSON.stringify(typical)});` : ''} setTimeout(() => {}, 300);`;
    const out = execFileSync(process.execPath, ['--trace-wasm-compilation-times', `--wasm-tiering-budget=${budget}`, '-e', code], { cwd: pkg, encoding: 'utf8' });
    const functions = (tier) => new Map([...out.matchAll(new RegExp(`#(\\d+) using ${tier}, .*bodysize (\\d+)`, 'g'))].map((m) => [m[1], Number(m[2])]));
    return { liftoff: functions('Liftoff'), turbofan: functions('TurboFan') };
  };
  const during = (budget) => {
    const [before, after] = [compiled(budget, false), compiled(budget, true)];
    const added = (tier) => [...after[tier]].filter(([f]) => !before[tier].has(f)).map(([, size]) => size);
    const liftoff = added('liftoff');
    return { functions: liftoff.length, bytes: liftoff.reduce((a, b) => a + b, 0), turbofan: added('turbofan').length };
  };
  const DEFAULT_BUDGET = 1_800_000;
  return { ...during(DEFAULT_BUDGET), turbofanAtHalf: during(DEFAULT_BUDGET / 2).turbofan };
}

/** How many calls of `f` take about 20 ms. */
function batchSize(f) {
  for (let i = 0; i < 20; i++) f();
  let n = 1;
  for (;;) {
    const t = performance.now();
    for (let i = 0; i < n; i++) f();
    if (performance.now() - t > 20 || n >= 1 << 20) return n;
    n *= 2;
  }
}

/**
 * Milliseconds per call of each of `entries` (name to [f, calls of the measured thing per
 * call of f]), measured in interleaved rounds so that load on the machine falls on all of
 * them alike; the best round of each.
 */
function interleaved(entries, rounds = 25) {
  const sized = Object.entries(entries).map(([name, [f, inner]]) => [name, f, inner, batchSize(f)]);
  const best = Object.fromEntries(sized.map(([name]) => [name, Number.POSITIVE_INFINITY]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, f, inner, n] of sized) {
      globalThis.gc?.();
      const t = performance.now();
      for (let i = 0; i < n; i++) f();
      best[name] = Math.min(best[name], (performance.now() - t) / n / inner);
    }
  }
  return best;
}

/** Where start-up time goes, in fresh CommonJS processes (medians). */
function startupParts(runs = 15) {
  const report = JSON.stringify(typical);
  const code = `const fs = require('node:fs'); const path = require.resolve('codemode-errors').replace(/cjs.index\\.js$/, 'codemode_errors_js_bg.wasm');
    const t0 = performance.now(); const bytes = fs.readFileSync(path);
    const t1 = performance.now(); new WebAssembly.Module(bytes); const t2 = performance.now();
    const m = require('codemode-errors'); const t3 = performance.now();
    m.normalize(${report}); const t4 = performance.now(); m.normalize(${report}); const t5 = performance.now();
    console.log(JSON.stringify([t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4]));`;
  const samples = Array.from({ length: runs }, () => JSON.parse(execFileSync(process.execPath, ['-e', code], { cwd: pkg, encoding: 'utf8' })));
  const [read, compile, load, first, second] = [0, 1, 2, 3, 4].map((i) => median(samples.map((s) => s[i])));
  return { read, compile, load, first, second };
}

function boundary() {
  const core = new binding.Normalizer(undefined);
  const text = JSON.stringify(typical);
  const iterations = 200;
  return interleaved({
    coreText: [() => core.benchCoreText(text, iterations), iterations],
    coreTree: [() => core.benchCore(typical, iterations), iterations],
    walk: [() => core.benchCore(typical, 0), 1],
    objectToJson: [() => normalizeToJson(typical), 1],
    objectWalked: [() => core.normalize(typical), 1],
    objectToOutcome: [() => normalize(typical), 1],
    callError: [() => toCallError(typical), 1],
    textToJson: [() => normalizeToJson(text), 1],
    stringifyThenText: [() => normalizeToJson(JSON.stringify(typical)), 1],
    stringify: [() => JSON.stringify(typical), 1],
  });
}

function comparison() {
  return REPORTS.map(([label, result]) => {
    const report = { tool: 'bench::tool', dispatched: true, tool_result: result };
    const ours = perCall(() => toCallError(report), 7);
    const naive = perCall(() => naiveCallError(result), 7);
    const oursBytes = toCallError(report).message.length;
    const naiveBytes = naiveCallError(result).message.length;
    return { label, ours, naive, oursBytes, naiveBytes };
  });
}

function misses() {
  return PLANTED.map(({ rule, leak, result }) => {
    const report = { tool: 'bench::tool', dispatched: true, tool_result: result };
    return { rule, ours: toCallError(report).message.includes(leak), naive: naiveCallError(result).message.includes(leak) };
  });
}

// ---------------------------------------------------------------- report

const size = sizes();
const floorDir = oneLinePackage();
const { esm, cjs } = startups(floorDir);
rmSync(floorDir, { recursive: true, force: true });
const parts = startupParts();
const compiles = firstCallCompiles();
const b = boundary();
const rows = comparison();
const planted = misses();

const verdict = (ok) => (ok ? 'within budget' : '**over budget**');
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const overheadObject = b.objectToJson - b.coreText;
const overheadOutcome = b.objectToOutcome - b.coreText;

const doc = `# Performance of the npm package

Measured by \`cargo xtask bench\` (its js step runs \`node --expose-gc bench/bench.mjs\` in
\`js-package/\` after building the package), which rewrites this file. Machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; another
build may share the machine, so read the numbers as upper bounds. Per-call times are the
best of 25 interleaved rounds (for the typical report) or of 7 batches; start-up times the
median of 21 fresh processes, in rounds that alternate ESM and CommonJS, ours and a
package whose entry is one line (what Node spends on importing any package, so the
machine's state at the time shows on every row alike). Load average when this was written: ${loadavg().map((l) => l.toFixed(1)).join(', ')}.

Commands:

\`\`\`sh
cargo xtask bench                                   # build, run every benchmark, rewrite this file
cd js-package && node --expose-gc bench/bench.mjs   # this file only, on the current build
\`\`\`

## Budgets

| budget | limit | measured | |
| --- | --- | --- | --- |
| \`.wasm\` size, raw | ${BUDGET.rawKiB} KiB | ${kib(size.raw)} (${size.raw} bytes) | ${verdict(size.raw <= BUDGET.rawKiB * 1024)} |
| \`.wasm\` size, gzip -9 | ${BUDGET.gzipKiB} KiB | ${kib(size.gzip)} (${size.gzip} bytes) | ${verdict(size.gzip <= BUDGET.gzipKiB * 1024)} |
| import + first \`normalize\`, Node (ESM \`import\`) | ${BUDGET.startupMs} ms | ${esm.total.toFixed(1)} ms (load ${esm.load.toFixed(1)}, first call ${esm.first.toFixed(2)}; worst of 21: ${esm.max.toFixed(1)}); a one-line package: ${esm.floor.toFixed(1)}, so ours adds ${(esm.total - esm.floor).toFixed(1)} | ${verdict(esm.total < BUDGET.startupMs)} |
| require + first \`normalize\`, Node (CommonJS) | ${BUDGET.startupMs} ms | ${cjs.total.toFixed(1)} ms (load ${cjs.load.toFixed(1)}, first call ${cjs.first.toFixed(2)}; worst of 21: ${cjs.max.toFixed(1)}); a one-line package: ${cjs.floor.toFixed(1)}, so ours adds ${(cjs.total - cjs.floor).toFixed(1)} | ${verdict(cjs.total < BUDGET.startupMs)} |
| JS boundary per call, typical report | ${BUDGET.overheadUs} µs beyond the core | ${us(overheadObject)} µs (\`normalizeToJson\`), ${us(overheadOutcome)} µs (\`normalize\`, with \`JSON.parse\`) | ${verdict(overheadObject * 1000 < BUDGET.overheadUs)} |

Start-up is what V8 spends compiling the module, and what Node spends on any package (the
one-line package's time); the next section takes it apart. The typical report is plain JSON data well inside the input
limits, so the object entry points hand it to the core as \`JSON.stringify\` text after one
bounded check in JavaScript (\`src/plain.js\`); the boundary overhead is then that check,
\`JSON.stringify\` (about ${us(b.stringify)} µs), copying the text in with \`encodeInto\`, and
turning the outcome back into a JavaScript string. \`TextDecoder\` is fast only on all-ASCII
bytes (about 1 ns a byte otherwise), and the outcome holds the ellipsis of a cut text, so
its ASCII runs and the few characters between them cross as separate pieces, joined in
JavaScript (\`src/text.rs\`). \`JSON.parse\` of the outcome is what \`normalize\` adds over
\`normalizeToJson\`. Reports the text path leaves to the walk (past its bounds, or holding
\`undefined\`, fractions, class instances and so on) cost what the walk row shows.

The JavaScript and glue a browser loads with it (ESM build: glue, layer, binding) are
${kib(size.jsRaw)} raw, ${kib(size.gzip + size.jsGzip)} gzipped together with the module.

## Start-up

Where the time of \`require\` + first \`normalize\` goes (fresh processes, medians):

| step | ms |
| --- | --- |
| read the ${kib(size.raw)} \`.wasm\` | ${parts.read.toFixed(2)} |
| \`new WebAssembly.Module\` (decode and validate; V8 compiles functions lazily) | ${parts.compile.toFixed(2)} |
| \`require('codemode-errors')\`: glue and layer modules, instantiating (V8 reuses the module just compiled) | ${parts.load.toFixed(2)} |
| first \`normalize\` of the typical report: V8 compiles each function the call reaches | ${parts.first.toFixed(2)} |
| second \`normalize\` | ${parts.second.toFixed(2)} |

What the first \`normalize\` compiles (V8's compilation trace, \`--trace-wasm-compilation-times\`;
counts, so they do not depend on the machine's load): Liftoff compiles
${compiles.functions} functions, ${kib(compiles.bytes)} of WebAssembly code; ${compiles.turbofan} function(s)
run hot enough to be sent to TurboFan during the call, and ${compiles.turbofanAtHalf} at half of V8's
tier-up budget (\`--wasm-tiering-budget=900000\`).

What the package does about start-up, each measured on its own:

- **No multi-value exports.** wasm-bindgen returns a \`Result\` or a string from an export as
  several values when the module's \`target_features\` list \`multivalue\`, which the Rust
  standard library's prebuilt objects put there. V8 calls such exports only through a
  wrapper it compiles with TurboFan, one per signature, while compiling the module (13
  signatures here): about 1.5 ms of \`new WebAssembly.Module\` and 0.5 ms more on the first
  call. The xtask drops the entry before running wasm-bindgen (\`xtask/src/features.rs\`),
  so every export returns at most one value and goes through V8's generic wrapper.
- **No TurboFan during the first call.** V8 charges a function's tier-up budget on every
  loop iteration by the size of the loop's code, so a scanner whose per-byte loop holds all
  its checks reached TurboFan within the first call, and that background compile competes
  with the call for the machine's two cores: about 2.5 ms. The scanners now skip to
  candidates in small loops, and substring search is the core's own (\`src/search.rs\`,
  eight bytes a step) instead of the standard library's two-way searcher; the count above
  shows the margin.
- **Cold code out of line.** V8 compiles a function whole the first time it runs, so code
  inlined into the first call's functions is compiled even when it never runs. The report
  readers for failures other than tool results, the JSON-RPC and validation drafts, SDK
  argument parsing, the shrink steps and the large-object index are \`#[inline(never)]\`, and
  wasm-opt inlines functions with one caller only up to 150 bytes: the first call compiles
  about 20 % less code, about 1.4 ms. The message, the recovery guidance, redaction
  markers and whole numbers are built without \`core::fmt\`, so none of the formatting
  machinery is compiled for a first call (10 functions fewer).

- **Helpers evaluated on first use.** V8 parses a module's body once when the bundle loads
  and again when the body first runs. The CommonJS bundle runs only the modules a first
  \`normalize\` needs; \`parseCallError\`, \`toMcpErrorEnvelope\`, \`classifyRun\`,
  \`wrapCallTool\` and \`createCodemode\` evaluate theirs on their first call (V8's function
  events: about 40 % less of the layer parsed at \`require\`).

Tried and not kept: \`opt-level = "z"\` (the first call compiles less code in more
functions and was not measurably faster, while every later call was about 28 % slower); an
ES-module entry for Node's \`import\` in one file, and one that compiles the module
asynchronously while the layer loads (no faster than the CommonJS build, which Node's
\`import\` loads through its CommonJS translator); \`node --no-wasm-lazy-compilation\` (moves
the Liftoff work to load time without reducing it). Both Node entries load the module once
per process: \`import\` reaches the same CommonJS build as \`require\`, whose named exports
Node's export detection reads from a small entry file, not from the bundled layer.

## Per-call cost on the typical report

The typical report is the core benchmark's (\`benches/normalize.rs\`): two text blocks of
about 1 KB, one holding a GitHub token, with annotations.

| entry | µs per call |
| --- | --- |
| the core's own job inside WebAssembly: read the JSON text, normalize, serialize (\`benchCoreText\`) | ${us(b.coreText)} |
| the core alone on an already read tree: normalize, serialize (\`benchCore\`) | ${us(b.coreTree)} |
| reading the JS object into the bounded tree (the walk, \`benchCore\` with 0 iterations) | ${us(b.walk)} |
| \`normalizeToJson(object)\`: check, \`JSON.stringify\`, core, outcome text back to JS | ${us(b.objectToJson)} |
| the same report through the walk (the WebAssembly \`Normalizer\` handed the object) | ${us(b.objectWalked)} |
| \`normalize(object)\`: the same plus \`JSON.parse\` of the outcome | ${us(b.objectToOutcome)} |
| \`toCallError(object)\`: the same, returning \`new Error(<contract JSON>)\` | ${us(b.callError)} |
| \`normalizeToJson(text)\`: copy the JSON text in, then the core's own job | ${us(b.textToJson)} |
| \`normalizeToJson(JSON.stringify(object))\`: stringify in JS first | ${us(b.stringifyThenText)} |

How the boundary overhead is measured. The core's own time is what it spends once the input
is in WebAssembly memory: \`benchCoreText\` (a bench-only method of the WebAssembly
\`Normalizer\`) copies the report's JSON text in once and then runs the core's whole text
pipeline (\`normalize_json\` + \`Outcome::to_json\`, the job the CLI and the component do) in a
loop inside WebAssembly. The overhead of the JS boundary is the object entry point's time
minus that: the plain-data check and \`JSON.stringify\` in JavaScript, copying the text in
with \`TextEncoder.encodeInto\`, handing the outcome text back to JavaScript
(${us(overheadObject)} µs), and for the object API also \`JSON.parse\`
(${us(overheadOutcome)} µs in all; \`JSON.parse\` of the ${JSON.stringify(normalize(typical)).length}-character
outcome is the difference between the two). Through the walk (reading the object through
js-sys: one crossing per type test, per array item and per object, strings copied with
\`encodeInto\`) the overhead would be ${us(b.objectWalked - b.coreText)} µs. The walk builds the tree with the core's
\`JsonBuilder\`, whose per-string work (UTF-16 length, caps) the text reader does too;
\`benchCore\` shows the core on an already built tree for comparison. The native core's numbers for the same report
are in \`docs/PERFORMANCE.md\` (criterion); the wasm build is \`opt-level = "s"\`, so it trades
some speed for size.

## Against a naive hand-written redactor

The baseline (\`bench/naive.mjs\`) is what a user might otherwise write: \`JSON.stringify\`
the result, run ${NAIVE_PATTERNS.length} secret regexes over it, cut it to 32 KiB and throw
\`new Error(JSON.stringify({kind: "tool_error", message}))\`. Both run on the same results,
in the same process; times per call.

| result | package (\`toCallError\`) | naive | error size: package / naive |
| --- | --- | --- | --- |
${rows.map((r) => `| ${r.label} | ${msText(r.ours)} ms | ${msText(r.naive)} ms | ${r.oursBytes} / ${r.naiveBytes} chars |`).join('\n')}

The package reads at most 128 KiB of each string and 256 items of each array, so a 50 MB
block costs about what a capped 128 KiB block costs (compare the two rows); the naive
version stringifies and scans everything it is given.

### What the naive version misses

Each result below carries one planted secret or hazard (\`bench/planted.mjs\`); "leaks"
means the string reached the error message.

| rule | package | naive |
| --- | --- | --- |
${planted.map((p) => `| ${p.rule} | ${p.ours ? '**leaks**' : 'caught'} | ${p.naive ? '**leaks**' : 'caught'} |`).join('\n')}

The naive version misses ${planted.filter((p) => p.naive).length} of ${planted.length}; the package misses ${planted.filter((p) => p.ours).length}. Beyond
secrets, the naive error also lacks everything the contract carries: the canonical kind
(it is always \`tool_error\`), \`origin\` (tool execution vs transport), recovery advice and
\`retry_after_ms\`, side-effect guidance, the breaker verdict, the tool's annotations,
per-block caps with \`original_length\`, omission of binary data (the image's base64 is in
its message) and a size cap that keeps the JSON valid.
`;

// The comparison with secretlint and a regex list is bench/compare.mjs's section, which
// that script rewrites: kept as it is.
const KEPT = '\n## Redaction against secretlint and a plain-JS regex list';
const old = existsSync(out) ? readFileSync(out, 'utf8') : '';
writeFileSync(out, old.includes(KEPT) ? doc + old.slice(old.indexOf(KEPT)) : doc);
console.log(doc);
console.log(`wrote ${fileURLToPath(out)}`);
