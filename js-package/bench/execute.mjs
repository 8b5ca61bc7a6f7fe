// What a run costs through `execute`, on each executor, with a warm worker pool: `return 1`,
// one tool call, and twenty in a row (the difference is the bridge's cost per call). The
// tool answers at once, so the figures are the executor's and the bridge's alone.
//
//   node bench/execute.mjs        (from js-package/, after `cargo xtask build-js`)
import { execute } from 'codemode-errors';

const catalog = { ns: [{ name: 'ok', inputSchema: { type: 'object' } }] };
const dispatch = async () => ({ content: [{ type: 'text', text: 'ok' }] });
const programs = {
  'return 1': 'return 1',
  'one call': 'await codemode.ns.ok({}); return 1',
  'twenty calls': 'for (let i = 0; i < 20; i++) await codemode.ns.ok({}); return 1',
};

/** Milliseconds a run of `code`, the mean of `runs` after `warm` unmeasured ones. */
async function perRun(executor, code, warm = 30, runs = 200) {
  for (let i = 0; i < warm; i++) await execute(code, { executor, catalog, dispatch });
  const started = performance.now();
  for (let i = 0; i < runs; i++) {
    const result = await execute(code, { executor, catalog, dispatch });
    if (result.status !== 'completed') throw new Error(`${executor}: ${JSON.stringify(result)}`);
  }
  return (performance.now() - started) / runs;
}

for (const executor of ['quickjs', 'node-vm']) {
  const ms = {};
  for (const [name, code] of Object.entries(programs)) ms[name] = await perRun(executor, code);
  const perCall = (ms['twenty calls'] - ms['return 1']) / 20;
  console.log(`${executor}: return 1 ${ms['return 1'].toFixed(2)} ms, one call ${ms['one call'].toFixed(2)} ms, per call ${perCall.toFixed(3)} ms`);
}
