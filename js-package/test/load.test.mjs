// Load: the package under a long run of calls in one process, with refusals at the
// core's input limits (nesting past max_depth) and inputs far past its caps (a 1 MiB
// text, lists and objects past the item caps) mixed in. Every answer must equal the one
// the same input got before the run, every refusal must be the typed error, and the
// WebAssembly memory, the JavaScript heap and the process's memory must stay flat once
// the package is warm.
//
// 10 000 calls by default; CODEMODE_LOAD=full runs the 100 000 (docs/RELIABILITY.md,
// "Load", records the figures). The package has no byte bound of its own: an oversized
// input is read through the core's bounded reader, never refused for its size.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// The package's WebAssembly instance, caught as the binding creates it, so its memory
// can be read: the package does not export it.
const instances = [];
const NativeInstance = WebAssembly.Instance;
WebAssembly.Instance = new Proxy(NativeInstance, {
  construct(target, args, newTarget) {
    const instance = Reflect.construct(target, args, newTarget);
    instances.push(instance);
    return instance;
  },
});
const pkg = await import('codemode-errors');
WebAssembly.Instance = NativeInstance;
const memory = instances.map((i) => i.exports.memory).find((m) => m instanceof WebAssembly.Memory);

/** A full collection, with or without `node --expose-gc`. */
const gc =
  globalThis.gc ??
  (() => {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc');
  })();

const CALLS = process.env.CODEMODE_LOAD === 'full' ? 100_000 : 10_000;
const WARM_UP = CALLS / 10;
const PAGE = 64 * 1024;
const MIB = 1024 * 1024;

/**
 * How far each measure may grow from the end of the warm-up to the end of the run, after
 * a full collection. WebAssembly memory never shrinks, so a leak inside the core shows as
 * pages: 1 MiB, which a leak of 11 bytes a call would pass in the full run, leaves room for
 * the Normalizers still waiting for the finalizer at the high-water mark. The JavaScript
 * heap's live objects get 4 MiB. The resident set is judged without the heap V8 has
 * committed: V8 grows its young generation under a high allocation rate and keeps it
 * (up to 2 x 16 MiB semi-spaces on 64-bit Node), which is sizing, not a leak; what is
 * left (WebAssembly memory, V8's compiler zones, Node's own allocations) gets 16 MiB.
 */
const MAX_PAGES_GROWTH = MIB / PAGE;
const MAX_HEAP_GROWTH = 4 * MIB;
const MAX_OFF_HEAP_GROWTH = 16 * MIB;

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const VARIANTS = 97;

/** Variant `v` of the calls that answer: every entry point, several shapes, secrets. */
function call(v) {
  const secret = `${TOKEN.slice(0, 8)}${String(v).padStart(4, '0')}${TOKEN.slice(12)}`;
  const report = {
    tool: `github::create_issue_${v}`,
    annotations: { readOnlyHint: v % 2 === 0 },
    dispatched: true,
    tool_result: { isError: true, content: [{ type: 'text', text: `HTTP/1.1 429 Too Many Requests; Retry-After: ${v + 1} (token=${secret})` }] },
  };
  switch (v % 12) {
    case 0:
      return () => pkg.normalizeToJson(report);
    case 1:
      return () => pkg.normalizeToJson(JSON.stringify(report));
    case 2:
      return () => pkg.toCallError({ tool: 'net::fetch', transport: { kind: 'timeout', message: `no answer from 10.0.0.${v}` } }).message;
    case 3:
      // A policy per call: a core normalizer built and freed each time.
      return () => pkg.normalizeToJson(report, { max_text_chars: 64 + v });
    case 4:
      return () => pkg.classifyRunToJson({ bridge_dispatch_started: v % 3 === 0, guest_exception: { name: 'TypeError', message: `x${v} is undefined; token=${secret}` } });
    case 5:
      return () => pkg.redactText(`call ${v}: password=hunter${v} Authorization: Bearer ${secret}`);
    case 6:
      return () => JSON.stringify(pkg.redactJson({ password: `p${v}`, note: `n${v}`, list: [v, secret, null] }));
    case 7: {
      const error = pkg.toCallError({ tool: `fs::read_${v}`, policy: { kind: 'forbidden', message: `path /home/u${v} is outside the sandbox` } });
      return () => JSON.stringify([pkg.parseCallError(error), pkg.toMcpErrorEnvelope(error)]);
    }
    case 8: {
      // Far past the caps: a 1 MiB text, a list and an object past the item caps.
      const text = `${'y'.repeat(MIB)} ${v}`;
      const wide = { tool_result: { isError: true, content: [{ type: 'text', text }], structuredContent: { items: Array.from({ length: 1000 }, (_, i) => i + v) } } };
      return () => pkg.normalizeToJson(wide);
    }
    case 9: {
      const members = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`k${i}`, `${v}-${i}`]));
      return () => JSON.stringify(pkg.redactJson(members));
    }
    case 10:
      // A JavaScript Normalizer per call, never freed by hand: the finalizer must keep up.
      return () => JSON.stringify(new pkg.Normalizer({ max_content_blocks: 1 + (v % 4) }).normalize(report));
    default:
      return () => pkg.classifyRunToJson(JSON.stringify({ bridge_dispatch_started: true, restart_safe: true, syntax_error: { message: `Unexpected token ${v}`, line: v + 1, column: 2 } }));
  }
}

/** Variant `v` of the calls the core refuses at a limit: the TypeError code expected. */
function refused(v) {
  let deep = { bridge_dispatch_started: true, aborted: {} };
  for (let i = 0; i < 130 + (v % 7); i++) deep = { nest: deep };
  switch (v % 3) {
    case 0:
      return [() => pkg.normalize({ tool_result: { isError: true, content: [], structuredContent: deep } }), 'too_deep'];
    case 1:
      return [() => pkg.classifyRun(`${'['.repeat(200 + v)}${']'.repeat(200 + v)}`), 'too_deep'];
    default:
      return [() => pkg.normalize({ [`frob${v}`]: 1 }), 'invalid_report'];
  }
}

/** A turn of the event loop, in which FinalizationRegistry callbacks (the binding's frees) run. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

async function measure() {
  gc();
  await turn();
  gc();
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
  const newSpace = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
  return { pages: memory.buffer.byteLength / PAGE, rss, heapTotal, heapUsed, newSpace, external, arrayBuffers };
}

test(`${CALLS} calls in one process give the same answers and leave memory flat`, async () => {
  assert.ok(memory, 'the package instantiated one WebAssembly module with a memory');
  const calls = Array.from({ length: VARIANTS }, (_, v) => call(v));
  const expected = calls.map((f) => f());
  const refusals = Array.from({ length: 7 }, (_, v) => refused(v));

  // The event loop turns every 1000 calls, as it does between a real sandbox's calls: the
  // Normalizers left to the finalizer are freed in those turns, not inside a call.
  const run = async (from, to) => {
    for (let i = from; i < to; i++) {
      if (i % 1000 === 999) await turn();
      if (i % 16 === 5) {
        const [f, code] = refusals[i % refusals.length];
        assert.throws(f, (e) => e instanceof TypeError && e.code === code, `call ${i}`);
      } else {
        const v = (i * 31) % VARIANTS;
        assert.equal(calls[v](), expected[v], `call ${i}, variant ${v}`);
      }
    }
  };

  const start = await measure();
  await run(0, WARM_UP);
  const warm = await measure();
  const began = performance.now();
  await run(WARM_UP, WARM_UP + CALLS);
  const seconds = (performance.now() - began) / 1000;
  const end = await measure();

  const mib = (b) => (b / MIB).toFixed(1);
  const show = (m) => `${m.pages} pages, rss ${mib(m.rss)} MiB, heap ${mib(m.heapUsed)} used of ${mib(m.heapTotal)} MiB (new space ${mib(m.newSpace)} MiB), external ${mib(m.external)} MiB, arrayBuffers ${mib(m.arrayBuffers)} MiB`;
  console.log(`load: ${CALLS} calls in ${seconds.toFixed(2)} s = ${Math.round(CALLS / seconds)} calls/s`);
  console.log(`load: start ${show(start)}\nload: warm ${show(warm)}\nload: end ${show(end)}`);

  assert.ok(end.pages - warm.pages <= MAX_PAGES_GROWTH, `WebAssembly memory grew from ${warm.pages} to ${end.pages} pages`);
  assert.ok(end.heapUsed - warm.heapUsed <= MAX_HEAP_GROWTH, `the heap grew by ${mib(end.heapUsed - warm.heapUsed)} MiB`);
  const offHeap = (m) => m.rss - m.heapTotal;
  assert.ok(offHeap(end) - offHeap(warm) <= MAX_OFF_HEAP_GROWTH, `the resident set outside the heap grew by ${mib(offHeap(end) - offHeap(warm))} MiB`);
});
