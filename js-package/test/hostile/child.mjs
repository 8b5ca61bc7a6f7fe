// One hostile attack in its own process: `node child.mjs <attack> <executor>` runs the
// attack's runs (attacks.mjs) with the built package and prints exactly one JSON line with
// what happened, then exits by itself. The parent (hostile.test.mjs) kills it when it hangs
// and reads a crash from its exit status.
//
// Without arguments (as `node --test test/` runs every file under test/) it does nothing.

import process from 'node:process';
import { ATTACKS, CATALOGS } from './attacks.mjs';
import { answer } from './answers.mjs';

const [attackName, executor] = process.argv.slice(2);
if (attackName !== undefined) await main(attackName, executor);

/** A value as the child can describe it in JSON (NaN, undefined and the like are lost by JSON). */
function describeValue(result) {
  if (result === null || typeof result !== 'object' || result.status !== 'completed') return undefined;
  const value = result.value;
  return { present: Object.hasOwn(result, 'value'), type: typeof value, repr: typeof value === 'number' || value === undefined ? String(value) : undefined };
}

/** JSON text of anything, without throwing. */
function safeJson(value) {
  const seen = new WeakSet();
  return JSON.stringify(value, (key, v) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'function' || typeof v === 'symbol') return `[${typeof v}]`;
    if (v !== null && typeof v === 'object') {
      if (seen.has(v)) return '[cycle]';
      seen.add(v);
    }
    return v;
  });
}

/** The host's own prototypes, to see whether a run changed them. */
function prototypeState() {
  return {
    then: Promise.prototype.then,
    promiseKeys: Reflect.ownKeys(Promise.prototype).map(String).sort().join(','),
    objectKeys: Reflect.ownKeys(Object.prototype).map(String).sort().join(','),
    functionKeys: Reflect.ownKeys(Function.prototype).map(String).sort().join(','),
  };
}

async function main(name, executorName) {
  const attack = ATTACKS.find((a) => a.name === name);
  if (attack === undefined) throw new Error(`no attack named ${name}`);
  const { execute } = await import(process.env.CODEMODE_ERRORS_ENTRY ?? 'codemode-errors');
  const catalog = CATALOGS[attack.catalog ?? 'default'];
  const before = prototypeState();

  // The host's responsiveness: the longest gap between ticks while runs are going.
  let lastTick = Date.now();
  let maxTickGapMs = 0;
  let ticks = 0;
  const tick = () => {
    const now = Date.now();
    maxTickGapMs = Math.max(maxTickGapMs, now - lastTick);
    lastTick = now;
    ticks += 1;
  };
  const ticker = setInterval(tick, 20);

  // Every dispatch, by the run whose dispatch it came through, and whether that run had resolved.
  const dispatched = [];
  const expanded = attack.runs.flatMap((run) => Array.from({ length: run.repeat ?? 1 }, () => run));
  const reports = expanded.map(() => ({}));

  async function one(run, index) {
    const report = reports[index];
    report.resolved = false;
    const dispatch = async (namespace, tool, args, { signal }) => {
      dispatched.push({ index, namespace, name: tool, afterResult: report.resolved });
      return answer(namespace, tool, signal);
    };
    let signal;
    let abortTimer;
    if (run.abort === 'before') signal = AbortSignal.abort();
    else if (run.abort !== undefined) {
      const controller = new AbortController();
      abortTimer = setTimeout(() => controller.abort(), run.abort.afterMs);
      signal = controller.signal;
    }
    const started = Date.now();
    try {
      const result = await execute(run.request ?? run.code, { executor: executorName, catalog, dispatch, ...(signal ? { signal } : {}), ...run.options });
      report.elapsedMs = Date.now() - started;
      report.resolved = true;
      report.valueInfo = describeValue(result);
      if (result !== null && typeof result === 'object') {
        const { telemetry, ...rest } = result;
        report.resultBytes = Buffer.byteLength(safeJson(rest) ?? '');
        report.result = { ...rest, calls: telemetry?.calls };
      } else {
        report.result = result;
      }
    } catch (e) {
      report.elapsedMs = Date.now() - started;
      report.resolved = true;
      report.rejected = { name: String(e?.name), message: String(e?.message ?? e) };
    } finally {
      clearTimeout(abortTimer);
    }
  }

  if (attack.concurrent) await Promise.all(expanded.map((run, i) => one(run, i)));
  else for (const [i, run] of expanded.entries()) await one(run, i);
  tick();
  const runsMaxTickGapMs = maxTickGapMs;

  // Late dispatches: whatever the runs still send after they resolved.
  await new Promise((resolve) => setTimeout(resolve, 300));
  clearInterval(ticker);
  for (const [index, report] of reports.entries()) {
    const mine = dispatched.filter((d) => d.index === index);
    const during = mine.filter((d) => !d.afterResult);
    report.dispatches = during.length;
    report.writes = during.filter((d) => d.name === 'write').length;
    report.dispatchedTo = during.map((d) => [d.namespace, d.name]);
    report.dispatchesAfter = mine.length - during.length;
    delete report.resolved;
  }
  const after = prototypeState();
  const hostChanged = Object.keys(before).filter((k) => before[k] !== after[k]);

  process.stdout.write(`${safeJson({ attack: name, executor: executorName, runs: reports, maxTickGapMs: runsMaxTickGapMs, ticks, hostChanged })}\n`);
}
