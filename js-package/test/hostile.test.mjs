// Hostile runs: model code that attacks the executors of `execute` (quickjs and node-vm),
// each attack in its own child process with a hard kill, so a hang or a crash of the host
// is a detected failure and never a hung test run. The attacks are data
// (hostile/attacks.mjs); hostile/child.mjs runs one and prints what happened.
//
// The measured failures they cover (`item` in each record):
//   1. QuickJS stack overflow: a resolved failed run, and `return 1` still works after ten.
//   2. Call arguments the guest breaks (toJSON throwing, BigInt, cycle, Object.prototype.toJSON):
//      the guest's failure, never the bridge's, nothing dispatched.
//   3. Deadlines (loops after an await, microtask and call loops, Atomics.wait, ReDoS,
//      looping toJSON/getters/toPrimitive of returned and thrown values): `timeout` within a
//      few seconds, the host responsive, no dispatch after the result.
//   4. Host crashes (unhandled rejections, unawaited failing calls, out of memory).
//   5. node-vm realm escape through host-realm objects; prototype mutations seen by later runs.
//   6. Rules the code can bend (a forged timeout code, `import` spelled around the check, a
//      syntax error after a static import).
//   7. Abort (before execute, during a synchronous loop) and one spinning run starving others.
//   8. The output budget of a failed run; values that are not JSON data.
//   9. Namespace names holding `::`; a timeoutMs that is not a number.
//  10. Syntax error positions (a long line, U+2028, a lone CR).
//
// HOSTILE_ONLY=<substring> runs matching attacks only; HOSTILE_POOL sets how many children run
// at once (default 2); HOSTILE_SUMMARY=<file> writes every outcome there as JSON.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { describe, test, after } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import process from 'node:process';
import { ATTACKS, HARD_MS, MAX_TICK_GAP_MS } from './hostile/attacks.mjs';

const CHILD = new URL('./hostile/child.mjs', import.meta.url).pathname;
const EXECUTORS = ['quickjs', 'node-vm'];
const POOL = Number(process.env.HOSTILE_POOL ?? 2);
/** After the result line, how long the child may take to exit by itself. */
const EXIT_GRACE_MS = 3_000;
const only = process.env.HOSTILE_ONLY;
const summary = [];

// At most POOL children at once.
let running = 0;
const waiting = [];
async function pooled(task) {
  if (running >= POOL) await new Promise((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await task();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/** Run one attack in a child: how the process ended and the line it printed. */
function runChild(attack, executor) {
  return new Promise((resolve) => {
    const hardMs = attack.hardMs ?? HARD_MS;
    const started = Date.now();
    const child = spawn(process.execPath, [...(attack.nodeArgs ?? []), CHILD, attack.name, executor], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killedBy;
    let resultAt;
    const kill = (why) => {
      if (killedBy === undefined && child.exitCode === null && child.signalCode === null) {
        killedBy = why;
        child.kill('SIGKILL');
      }
    };
    const hard = setTimeout(() => kill('hard'), hardMs);
    let grace;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (resultAt === undefined && stdout.includes('\n')) {
        resultAt = Date.now();
        grace = setTimeout(() => kill('grace'), EXIT_GRACE_MS);
      }
    });
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    child.on('close', (code, signal) => {
      clearTimeout(hard);
      clearTimeout(grace);
      resolve({ code, signal, killedBy, stdout, stderr, hardMs, wallMs: Date.now() - started });
    });
  });
}

/** The process-level verdict: the category of failure, or the parsed report. */
function processVerdict(ended) {
  const lines = ended.stdout.split('\n').filter((l) => l !== '');
  const tail = ended.stderr.trim().split('\n').slice(-6).join('\n');
  let report;
  if (lines.length === 1) {
    try {
      report = JSON.parse(lines[0]);
    } catch {
      // Judged below.
    }
  }
  if (report === undefined) {
    if (ended.killedBy === 'hard') return { category: 'HANG', detail: `no result within ${ended.hardMs} ms; killed (the host's event loop was blocked or the run never ended)` };
    if (lines.length > 1) return { category: 'BAD OUTPUT', detail: `printed ${lines.length} lines, expected one:\n${ended.stdout.slice(0, 800)}` };
    if (lines.length === 1) return { category: 'BAD OUTPUT', detail: `not JSON: ${lines[0].slice(0, 400)}` };
    return { category: 'HOST CRASH', detail: `exited ${ended.signal ?? `with code ${ended.code}`} before printing a result; stderr:\n${tail}` };
  }
  if (ended.killedBy === 'grace') return { category: 'HANG AFTER RESULT', detail: `printed the result but did not exit by itself within ${EXIT_GRACE_MS} ms`, report };
  if (ended.killedBy === 'hard') return { category: 'HANG AFTER RESULT', detail: `printed the result but was still running at ${ended.hardMs} ms`, report };
  if (ended.code !== 0) return { category: 'HOST CRASH AFTER RESULT', detail: `exited ${ended.signal ?? `with code ${ended.code}`} after printing the result; stderr:\n${tail}`, report };
  return { report };
}

const reMatch = (source, text) => new RegExp(source).test(String(text ?? ''));

/** The problems of one run's report against one expectation (an empty list: it holds). */
function problems(expect, run) {
  const out = [];
  const r = run.result;
  if (run.rejected !== undefined) {
    if (expect.rejected !== undefined && reMatch(expect.rejected, run.rejected.message)) return out;
    return [`REJECTED: execute rejected with ${run.rejected.name}: ${run.rejected.message.slice(0, 300)}`];
  }
  if (expect.rejected !== undefined && Object.keys(expect).length === 1) return [`expected execute to reject (matching /${expect.rejected}/), it resolved`];
  const field = (key, want) => {
    if (want === null ? r[key] !== undefined : !isDeepStrictEqual(r[key], want)) out.push(`${key}: expected ${JSON.stringify(want ?? '(absent)')}, got ${JSON.stringify(r[key] ?? '(absent)')}`);
  };
  for (const key of ['status', 'code', 'failurePhase', 'bridgeDispatchStarted', 'line', 'column', 'toolError', 'truncated']) if (key in expect) field(key, expect[key]);
  if ('value' in expect && r.status === 'completed') field('value', expect.value);
  else if ('value' in expect && !('status' in expect)) out.push(`value: expected ${JSON.stringify(expect.value)}, the run ${r.status}`);
  if (expect.codeIn && !expect.codeIn.includes(r.code)) out.push(`code: expected one of ${expect.codeIn.join(', ')}, got ${r.code ?? '(absent)'}`);
  if (expect.phaseIn && !expect.phaseIn.includes(r.failurePhase)) out.push(`failurePhase: expected one of ${expect.phaseIn.join(', ')}, got ${r.failurePhase ?? '(absent)'}`);
  if ('valueNot' in expect && r.status === 'completed' && isDeepStrictEqual(r.value, expect.valueNot)) out.push(`value: must not be ${JSON.stringify(expect.valueNot)} (it is)`);
  if ('valueNotIncludes' in expect && r.status === 'completed' && Array.isArray(r.value) && r.value.includes(expect.valueNotIncludes)) out.push(`value: must not hold ${JSON.stringify(expect.valueNotIncludes)}, got ${JSON.stringify(r.value)}`);
  if (expect.valueAbsent) {
    if (r.status !== 'completed') out.push(`status: expected completed, got ${r.status}`);
    else if (run.valueInfo?.type !== 'undefined') out.push(`value: expected none (not null), got ${run.valueInfo?.type === 'object' ? JSON.stringify(r.value) : run.valueInfo?.repr ?? JSON.stringify(r.value)}`);
  }
  if (expect.messageMatches && !reMatch(expect.messageMatches, r.message)) out.push(`message: expected /${expect.messageMatches}/, got ${JSON.stringify(r.message)}`);
  if (expect.messageNotMatches && reMatch(expect.messageNotMatches, r.message)) out.push(`message: must not match /${expect.messageNotMatches}/, got ${JSON.stringify(r.message)}`);
  if (expect.positionIn && !expect.positionIn.some(([l, c]) => l === r.line && c === r.column)) out.push(`position: expected one of ${JSON.stringify(expect.positionIn)}, got [${r.line}, ${r.column}]`);
  for (const key of ['dispatches', 'writes']) if (key in expect && run[key] !== expect[key]) out.push(`${key}: expected ${expect[key]}, got ${run[key]}`);
  if (expect.dispatchedTo && !isDeepStrictEqual(run.dispatchedTo, expect.dispatchedTo)) out.push(`dispatched to ${JSON.stringify(run.dispatchedTo)}, expected ${JSON.stringify(expect.dispatchedTo)}`);
  if (expect.maxElapsedMs !== undefined && run.elapsedMs > expect.maxElapsedMs) out.push(`took ${run.elapsedMs} ms, more than ${expect.maxElapsedMs} ms`);
  if (expect.maxOutputValueBytes !== undefined) {
    const bytes = Buffer.byteLength(String(r.output ?? '')) + Buffer.byteLength(r.value === undefined ? '' : JSON.stringify(r.value));
    if (bytes > expect.maxOutputValueBytes) out.push(`output and value are ${bytes} B, over the ${expect.maxOutputValueBytes} B budget`);
  }
  if (expect.maxResultBytes !== undefined && run.resultBytes > expect.maxResultBytes) {
    const { output = '', message = '', stack = '', toolError } = r;
    out.push(
      `result without telemetry is ${run.resultBytes} B, over the ${expect.maxResultBytes} B budget (message ${Buffer.byteLength(message)} B, stack ${Buffer.byteLength(stack)} B, toolError ${toolError ? Buffer.byteLength(JSON.stringify(toolError)) : 0} B, output ${Buffer.byteLength(output)} B)`,
    );
  }
  return out;
}

/** Problems of a run against its expectation, `anyOf` included, plus the checks every run has. */
function judgeRun(expect, run) {
  const out = [];
  const { anyOf, ...rest } = expect;
  if (anyOf) {
    const each = anyOf.map((alt) => problems(alt, run));
    if (!each.some((p) => p.length === 0)) out.push(`none of the accepted outcomes holds: ${each.map((p, i) => `(${i + 1}) ${p.join('; ')}`).join(' | ')}`);
  }
  // A rejection is judged by the alternatives alone (one of them may allow it).
  if (run.rejected === undefined || anyOf === undefined) out.push(...problems(rest, run));
  else if (rest.maxElapsedMs !== undefined && run.elapsedMs > rest.maxElapsedMs) out.push(`took ${run.elapsedMs} ms, more than ${rest.maxElapsedMs} ms`);
  if (run.dispatchesAfter > 0) out.push(`LATE DISPATCH: ${run.dispatchesAfter} call(s) dispatched after the run resolved`);
  return out;
}

function brief(run) {
  if (run.rejected) return `rejected: ${run.rejected.message.slice(0, 120)}`;
  const r = run.result ?? {};
  const bits = [r.status, r.code, r.failurePhase].filter(Boolean);
  if (r.status === 'completed') bits.push(`value=${run.valueInfo?.type === 'undefined' ? 'undefined' : JSON.stringify(r.value)?.slice(0, 60)}`);
  if (r.line !== undefined) bits.push(`at ${r.line}:${r.column}`);
  if (r.status === 'failed' && r.message) bits.push(JSON.stringify(r.message.slice(0, 90)));
  bits.push(`${run.elapsedMs} ms`);
  if (run.dispatches) bits.push(`dispatched ${run.dispatches}${run.writes ? ` (writes ${run.writes})` : ''}`);
  return bits.join(' ');
}

/** Every problem of an attack's child: process, responsiveness, host state, each run. */
function judge(attack, verdict) {
  const out = [];
  if (verdict.category) out.push(`${verdict.category}: ${verdict.detail}`);
  const report = verdict.report;
  if (report === undefined) return out;
  const maxGap = attack.maxTickGapMs ?? MAX_TICK_GAP_MS;
  if (report.maxTickGapMs > maxGap) out.push(`UNRESPONSIVE HOST: the event loop stalled ${report.maxTickGapMs} ms (at most ${maxGap} ms)`);
  if (report.hostChanged.length > 0) out.push(`HOST MUTATED: the host's ${report.hostChanged.join(', ')} changed`);
  const expanded = attack.runs.flatMap((run) => Array.from({ length: run.repeat ?? 1 }, () => run));
  for (const [i, run] of expanded.entries()) {
    const got = report.runs[i];
    const found = judgeRun(run.expect ?? {}, got);
    if (found.length > 0) out.push(`run ${i + 1}/${expanded.length} [${brief(got)}]: ${found.join('; ')}`);
  }
  return out;
}

const selected = ATTACKS.filter((a) => only === undefined || a.name.includes(only));
const started = Date.now();

describe('hostile runs, each in its own process', { concurrency: true }, () => {
  after(() => {
    if (process.env.HOSTILE_SUMMARY) writeFileSync(process.env.HOSTILE_SUMMARY, JSON.stringify({ wallMs: Date.now() - started, outcomes: summary }, null, 1));
  });
  for (const attack of selected) {
    describe(`[${attack.item}] ${attack.name}${attack.note ? ` (${attack.note})` : ''}`, { concurrency: true }, () => {
      for (const executor of attack.executors ?? EXECUTORS) {
        test(executor, async () => {
          const ended = await pooled(() => runChild(attack, executor));
          const verdict = processVerdict(ended);
          const found = judge(attack, verdict);
          summary.push({
            attack: attack.name,
            item: attack.item,
            executor,
            pass: found.length === 0,
            category: verdict.category,
            wallMs: ended.wallMs,
            runs: verdict.report?.runs.map(brief),
            maxTickGapMs: verdict.report?.maxTickGapMs,
            problems: found,
          });
          assert.deepEqual(found, [], `${attack.name} on ${executor}:\n  ${found.join('\n  ')}`);
        });
      }
    });
  }
});
