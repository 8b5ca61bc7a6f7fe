// One call for a whole code-mode run: check the options and the request, parse the model's
// code, run it in an executor with `codemode.<ns>.<tool>()` and `console`, and report how it
// ended. The rules (the request's fields, the source check, where a syntax error or a frame
// is in the submitted source, the output budget, the run's terminal code) are the core's;
// this module orchestrates the executor and keeps the records only it can keep: what it
// dispatched, which call's rejection is which, what the code printed, and the deadline and
// the caller's signal, which end the run whatever the code does.

import * as wasm from './binding.js';
import { createCodemode } from './codemode.js';
import { redactText } from './normalize.js';
import { sourceFindings } from './parse.js';
import { workerExecutor } from './workers.js';

/** The counter lifetime of each catalog object: stable while the object is kept. */
const scopes = new WeakMap();
let nextScope = 1;

/** The longest delay a timer takes (2^31 - 1 ms, about 24.8 days). */
const MAX_DELAY_MS = 2 ** 31 - 1;

/** The largest output budget the core takes (4 GiB). */
const MAX_OUTPUT_BYTES = 2 ** 32;

/** A TypeError for host misconfiguration: `code` `invalid_argument` and the option's `path`. */
function misconfigured(path, message) {
  const error = new TypeError(`execute: ${path} ${message}`);
  error.code = 'invalid_argument';
  error.path = path;
  return error;
}

/** The options, checked: what the host got wrong throws, before anything runs. */
function checkedOptions(options) {
  if (options === null || typeof options !== 'object') throw misconfigured('options', 'must be an object with catalog and dispatch');
  const { catalog = {}, dispatch, executor, timeoutMs, callTimeoutMs, signal, maxOutputBytes, label = 'codemode' } = options;
  if (catalog === null || typeof catalog !== 'object' || Array.isArray(catalog)) throw misconfigured('catalog', 'must be an object of tool lists by namespace');
  if (typeof dispatch !== 'function') throw misconfigured('dispatch', 'must be a function (namespace, name, args, { signal }) => Promise<CallToolResult>');
  const delay = (name, value) => {
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_DELAY_MS) {
      throw misconfigured(name, `must be a positive number of milliseconds up to ${MAX_DELAY_MS}, not ${typeof value === 'number' ? value : typeof value}`);
    }
  };
  delay('timeoutMs', timeoutMs);
  delay('callTimeoutMs', callTimeoutMs);
  if (maxOutputBytes !== undefined && !(Number.isInteger(maxOutputBytes) && maxOutputBytes >= 1 && maxOutputBytes <= MAX_OUTPUT_BYTES)) {
    throw misconfigured('maxOutputBytes', `must be a whole number of bytes from 1 to ${MAX_OUTPUT_BYTES}, not ${typeof maxOutputBytes === 'number' ? maxOutputBytes : typeof maxOutputBytes}`);
  }
  if (signal !== undefined && (signal === null || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function')) {
    throw misconfigured('signal', 'must be an AbortSignal');
  }
  if (typeof label !== 'string') throw misconfigured('label', 'must be a string');
  if (executor !== undefined && executor !== 'quickjs' && executor !== 'node-vm' && (executor === null || typeof executor !== 'object' || typeof executor.compile !== 'function')) {
    throw misconfigured('executor', `must be 'quickjs', 'node-vm' or an executor object with compile(), not ${JSON.stringify(String(executor))}`);
  }
  return { catalog, dispatch, executor: executor ?? 'quickjs', timeoutMs: timeoutMs ?? 30_000, callTimeoutMs, signal, maxOutputBytes: maxOutputBytes ?? wasm.defaultMaxOutputBytes(), label, policy: options.policy };
}

/**
 * Run model-written code as a code-mode run and report how it ended. Never rejects for
 * anything the code does; rejects with a TypeError (`code` `invalid_argument`, `path`) for
 * options the host got wrong, and as `createCodemode` does for a bad catalog or policy.
 *
 * @param {string | { code: string, restartSafe?: boolean }} request the exec tool's
 *   arguments as the model sent them (a string is shorthand for `{ code }`)
 * @param {object} options `catalog` and `dispatch` as `createCodemode` takes them;
 *   `executor` (`'quickjs'`, `'node-vm'`, or an executor object, see README), `timeoutMs`,
 *   `callTimeoutMs`, `signal`, `maxOutputBytes`, `label` (the frame label, default
 *   `codemode`), `policy`
 * @returns {Promise<object>} `{ status: 'completed', value?, output, bridgeDispatchStarted,
 *   replaySafe, truncated?, telemetry }` or `{ status: 'failed', code, message,
 *   failurePhase?, bridgeDispatchStarted, replaySafe, line?, column?, toolError?, stack?,
 *   output, truncated?, telemetry }`
 */
export async function execute(request, options = {}) {
  const started = Date.now();
  const { catalog, dispatch, executor, timeoutMs, callTimeoutMs, signal, maxOutputBytes, label, policy } = checkedOptions(options);
  const stats = { total: 0, failed: 0, byTool: new Map() };
  const telemetry = () => runTelemetry(catalog, stats, Date.now() - started);

  // The run's own record: whether it dispatched, whether it is over (then the bridge refuses
  // every dispatch), and the signal pending calls are cancelled through.
  let dispatched = false;
  let over = false;
  const run = new AbortController();
  const { callTool } = createCodemode(
    catalog,
    (namespace, name, args, { signal: callSignal }) => {
      if (over || run.signal.aborted) throw Object.assign(new Error('the run has ended'), { name: 'AbortError' });
      dispatched = true;
      return dispatch(namespace, name, args, { signal: AbortSignal.any([callSignal, run.signal]) });
    },
    { policy, timeoutMs: callTimeoutMs },
  );

  let restartSafe = false;
  let output = '';
  let outputCut = false;
  const report = (member) => ({ bridge_dispatch_started: dispatched, restart_safe: restartSafe, ...member });
  const failed = (errorJson, stack = '') => {
    over = true;
    run.abort();
    const result = JSON.parse(wasm.failedRun(errorJson, stack, output, maxOutputBytes));
    if (outputCut) result.truncated = true;
    result.telemetry = telemetry();
    return result;
  };
  const fail = (member, stack) => failed(wasm.classifyRun(report(member)), stack);
  /** A step's answer: the run error when the run ends there, else null. */
  const stepFailure = (answer) => (answer === 'null' ? null : JSON.parse(answer).failed);
  const endedAtStep = (error) => failed(JSON.stringify(error));

  // An already aborted signal runs nothing and dispatches nothing.
  if (signal?.aborted) return fail({ aborted: {} });
  const checked = JSON.parse(wasm.execRequest(request));
  if (checked.failed !== undefined) return endedAtStep(checked.failed);
  const { code } = checked;
  restartSafe = checked.restartSafe;

  // The parser's findings, judged by the core: a syntax error first, then module access.
  let findings;
  try {
    findings = await sourceFindings(code);
  } catch (e) {
    return fail({ runtime_unavailable: { message: `the JavaScript parser could not be loaded: ${String(e?.message ?? e)}` } });
  }
  const step = { step: 'source_check', source: code, syntax_error: findings.syntaxError ?? null, uses: findings.uses, restart_safe: restartSafe };
  const refused = stepFailure(wasm.execStep(JSON.stringify(step)));
  if (refused !== null) return endedAtStep(refused);
  if (signal?.aborted) return fail({ aborted: {} });

  const file = `${label}:user.js`;
  const namespaces = Object.entries(catalog).map(([ns, list]) => [ns, Array.isArray(list) ? list.map((t) => String(t?.name)) : []]);
  // Which call's rejection the guest saw, by call id: the contract text the host delivered.
  const delivered = new Map();
  let session;
  const bridge = {
    call(namespace, name, argsJson, id) {
      if (over) return;
      const tool = `${namespace}::${name}`;
      stats.total += 1;
      stats.byTool.set(tool, (stats.byTool.get(tool) ?? 0) + 1);
      let args;
      try {
        args = JSON.parse(argsJson);
      } catch {
        args = null;
      }
      callTool(tool, args).then(
        (result) => {
          let text;
          try {
            text = JSON.stringify(result ?? null);
          } catch {
            text = 'null';
          }
          session?.settle(id, true, text ?? 'null');
        },
        (e) => {
          stats.failed += 1;
          const contract = typeof e?.message === 'string' ? e.message : String(e);
          delivered.set(id, contract);
          session?.settle(id, false, contract);
        },
      );
    },
    log(line, cut) {
      if (cut || output.length > maxOutputBytes * 2) {
        outputCut = true;
        return;
      }
      output += `${line}\n`;
    },
  };

  const runner = typeof executor === 'string' ? workerExecutor(executor) : inProcess(executor);
  // The caller's signal and the deadline end the run from the host's side.
  let stopRun;
  const stopped = new Promise((resolve) => {
    stopRun = resolve;
  });
  const onAbort = () => stopRun({ aborted: true });
  signal?.addEventListener('abort', onAbort, { once: true });
  let timer;
  let ending;
  try {
    const acquiring = runner.acquire(code, file);
    const worker = await Promise.race([acquiring.then((w) => ({ worker: w }), (e) => ({ unavailable: String(e?.message ?? e) })), stopped]);
    if (worker.worker === undefined) {
      // A worker that comes up after the caller gave up goes back to the pool.
      acquiring.then((w) => runner.giveBack?.(w), () => {});
      ending = worker.aborted ? worker : { unavailable: worker.unavailable };
    } else {
      timer = setTimeout(() => stopRun({ timeout: true }), timeoutMs);
      session = runner.run(worker.worker, { code, file, namespaces: JSON.stringify(namespaces), timeoutMs, maxLogUnits: maxOutputBytes * 2 }, bridge);
      ending = await Promise.race([session.ending, stopped]);
      if (ending.aborted || ending.timeout) session.stop();
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    over = true;
    run.abort();
  }

  if (ending.aborted) return fail({ aborted: {} });
  if (ending.timeout || ending.stopped) return fail({ timeout: { deadline_ms: timeoutMs } });
  if (ending.unavailable !== undefined) return fail({ runtime_unavailable: { message: ending.unavailable } });
  if (ending.exit !== undefined) {
    if (ending.exit === 'out_of_memory') return fail({ guest_exception: { name: 'RangeError', message: "out of memory: the code exhausted the executor's heap" } });
    return fail({ runtime_unavailable: { message: ending.exit } });
  }
  if (ending.internal !== undefined) return fail({ internal: { message: ending.internal } });
  if (ending.syntaxError !== undefined) {
    const s = ending.syntaxError;
    return endedAtStep(stepFailure(wasm.syntaxError(runner.engine, s.message, s.stack ?? '', s.line ?? 0, s.column ?? 0, file, runner.linesBefore, runner.columnsBefore, 0, code, restartSafe)));
  }
  if (ending.bridgeCall !== undefined || ending.bridgeError !== undefined) {
    const contract = ending.bridgeError ?? delivered.get(ending.bridgeCall);
    if (contract === undefined) return fail({ internal: { message: 'the code threw a rejection the bridge has no record of' } });
    return fail({ uncaught_tool_error: contract });
  }
  if (ending.guest !== undefined) {
    const { name, message, stack } = ending.guest;
    const lines = code.split('\n').length;
    const frames = stack ? wasm.userStack(runner.engine, name, message, stack, file, runner.linesBefore, runner.columnsBefore, lines, label) : '';
    return fail({ guest_exception: { name, message } }, frames);
  }
  if (ending.unserializable !== undefined) return fail({ output_unserializable: { message: ending.unserializable } });
  const valueJson = ending.none ? 'null' : ending.valueJson;
  const projected = JSON.parse(wasm.projectCompleted(output, valueJson, maxOutputBytes, dispatched, restartSafe));
  if (projected.failed !== undefined) return endedAtStep(projected.failed);
  const result = { status: 'completed' };
  // A run that returned nothing has no value (`undefined` is no JSON data, and not null).
  if (!ending.none) result.value = projected.value;
  Object.assign(result, { output: projected.output, bridgeDispatchStarted: dispatched, replaySafe: restartSafe });
  if (projected.truncated || outputCut) result.truncated = true;
  result.telemetry = telemetry();
  return result;
}

/**
 * An executor object the caller built (see `Executor` in index.d.ts), driven like the
 * built-in ones. It runs in the host's own thread: the deadline and the signal end the
 * run's result at once, but only the executor itself can stop its code.
 */
function inProcess(executor) {
  let compiled;
  return {
    engine: executor.engine,
    get linesBefore() {
      return compiled?.linesBefore ?? 0;
    },
    get columnsBefore() {
      return compiled?.columnsBefore ?? 0;
    },
    async acquire(code, file) {
      compiled = executor.compile(code, file);
      return compiled;
    },
    run(c, { timeoutMs, namespaces }, bridge) {
      const control = new AbortController();
      if (c.syntaxError !== undefined) return { ending: Promise.resolve({ syntaxError: c.syntaxError }), settle() {}, stop() {} };
      let ids = 0;
      const context = {
        bridge: {
          namespaces: Object.fromEntries(JSON.parse(namespaces)),
          call: (namespace, name, args) =>
            new Promise((resolve, reject) => {
              const id = ++ids;
              pending.set(id, { resolve, reject });
              let text;
              try {
                text = JSON.stringify(args ?? {}) ?? 'null';
              } catch (e) {
                pending.delete(id);
                reject(e);
                return;
              }
              bridge.call(namespace, name, text, id);
            }),
        },
        log: (args) => bridge.log(args.map((a) => (typeof a === 'string' ? a : safeText(a))).join(' '), false),
        timeoutMs,
        signal: control.signal,
      };
      const pending = new Map();
      const ending = new Promise((resolve) => resolve(c.run(context)))
        .then((end) => (end?.timeout ? { stopped: true } : end?.guestError !== undefined ? { guest: end.guestError } : end), (e) => ({ internal: String(e?.message ?? e) }))
        .finally(() => c.dispose?.());
      return {
        ending,
        settle(id, ok, text) {
          const waiting = pending.get(id);
          pending.delete(id);
          if (ok) waiting?.resolve(JSON.parse(text));
          else waiting?.reject(text);
        },
        stop: () => control.abort(),
      };
    },
  };
}

/** A host-side value as console text, without throwing. */
function safeText(value) {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return '[unprintable value]';
    }
  }
}

/**
 * Catalog size by source, call counts and duration; namespace and tool names cleaned by
 * the core. A catalog entry says nothing of where it came from beyond its namespace (every
 * entry is a tool as an MCP server's `listTools()` lists it), so each namespace is one
 * source: the server its tools came from.
 */
function runTelemetry(catalog, stats, durationMs) {
  let scope = scopes.get(catalog);
  if (scope === undefined && catalog !== null && typeof catalog === 'object') {
    scope = `run-counters-${nextScope++}`;
    scopes.set(catalog, scope);
  }
  let tools = 0;
  const bySource = new Map();
  for (const [namespace, list] of Object.entries(catalog ?? {})) {
    const n = Array.isArray(list) ? list.length : 0;
    const source = redactText(namespace);
    tools += n;
    bySource.set(source, (bySource.get(source) ?? 0) + n);
  }
  const byTool = {};
  for (const [tool, n] of stats.byTool) byTool[redactText(tool)] = n;
  // Object.fromEntries defines own properties, so a namespace such as `__proto__` is a count too.
  return {
    catalog: { tools, bySource: Object.fromEntries(bySource) },
    calls: { total: stats.total, failed: stats.failed, byTool },
    durationMs,
    counterScope: scope ?? 'run-counters-0',
  };
}
