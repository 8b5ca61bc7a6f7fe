// npm `execute` on the QuickJS executor, the figures gateway/benches/execute.rs compares the
// gateway's executor against: a warm `return 1`, and a run making one awaited call of a
// trivial dispatch (the same `echo` tool as gateway/benches/echo_server.mjs, answered in
// process), with the dispatch itself timed apart. Uses the built package in js-package/dist
// (`cargo xtask build-js` rebuilds it).
//
// node gateway/benches/npm_execute.mjs [ROUNDS]   → one JSON line on stdout, times in µs
import { execute } from '../../js-package/dist/cjs/index.js';

const rounds = Number(process.argv[2] ?? 300);
const catalog = {
  echo: [
    {
      name: 'echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnlyHint: true },
    },
  ],
};
const dispatch = async (_namespace, _name, args) => ({ content: [{ type: 'text', text: String(args.text) }] });
const options = { executor: 'quickjs', catalog, dispatch };

const RETURN_1 = 'return 1';
const ONE_CALL = 'const r = await codemode.echo.echo({ text: "hi" });\nreturn r.content[0].text;';

async function check(code, value) {
  const run = await execute({ code }, options);
  if (run.status !== 'completed' || run.value !== value) {
    throw new Error(`${code}: ${JSON.stringify(run)}`);
  }
}

/** Median and mean of `rounds` timings of `f`, in µs, after a warm-up. */
async function measure(f) {
  for (let i = 0; i < Math.min(50, rounds); i++) await f();
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    await f();
    times.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  times.sort((a, b) => a - b);
  return {
    median_us: times[Math.floor(times.length / 2)],
    mean_us: times.reduce((a, b) => a + b, 0) / times.length,
    p90_us: times[Math.floor(times.length * 0.9)],
  };
}

await check(RETURN_1, 1);
await check(ONE_CALL, 'hi');
const result = {
  node: process.version,
  rounds,
  return_1: await measure(() => execute({ code: RETURN_1 }, options)),
  one_call: await measure(() => execute({ code: ONE_CALL }, options)),
  dispatch_direct: await measure(() => dispatch('echo', 'echo', { text: 'hi' })),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
