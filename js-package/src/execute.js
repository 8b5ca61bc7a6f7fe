// One call for a whole code-mode run: check the request, compile the model's code, run it
// in a sandbox with `codemode.<ns>.<tool>()` and `console`, and report how it ended. The
// rules (the request's fields, module access, where a syntax error or a frame is in the
// submitted source, the output budget, the run's terminal code) are the core's; this
// module orchestrates the executor and keeps the records only it can keep: whether a call
// was dispatched, and which rejections its bridge delivered.

import * as wasm from './binding.js';
import { createCodemode } from './codemode.js';
import { redactText } from './normalize.js';

/** The counter lifetime of each catalog object: stable while the object is kept. */
const scopes = new WeakMap();
let nextScope = 1;

/** A guest value as text for the console, without running more guest code than a getter. */
function consoleText(value) {
  if (typeof value === 'string') return value;
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch {
    // A cycle or a BigInt: shown as its string form below.
  }
  try {
    return String(value);
  } catch {
    return '[unprintable value]';
  }
}

/**
 * Run model-written code as a code-mode run and report how it ended. Never throws for
 * anything the code does.
 *
 * @param {string | { code: string, restartSafe?: boolean }} request the exec tool's
 *   arguments as the model sent them (a string is shorthand for `{ code }`)
 * @param {object} options `catalog` and `dispatch` as `createCodemode` takes them;
 *   `executor` (`'node-vm'`, or an executor object, see README), `timeoutMs`, `signal`,
 *   `maxOutputBytes`, `label` (the frame label, default `codemode`), `policy`
 * @returns {Promise<object>} `{ status: 'completed', value, output, bridgeDispatchStarted,
 *   replaySafe, truncated?, telemetry }` or `{ status: 'failed', code, message,
 *   failurePhase?, bridgeDispatchStarted, replaySafe, line?, column?, toolError?, stack?,
 *   output, telemetry }`
 */
export async function execute(request, options = {}) {
  const started = Date.now();
  const { catalog = {}, dispatch, policy, timeoutMs, signal, label = 'codemode' } = options;
  const maxOutputBytes = options.maxOutputBytes ?? wasm.defaultMaxOutputBytes();
  const stats = { total: 0, failed: 0, byTool: new Map() };
  const telemetry = () => runTelemetry(catalog, stats, Date.now() - started);
  const ended = (failedJson, output = '') => failedRun(failedJson, output, maxOutputBytes, telemetry());

  const checked = JSON.parse(wasm.execRequest(request));
  if (checked.failed !== undefined) return ended(JSON.stringify(checked));
  const { code, restartSafe } = checked;

  let executor;
  try {
    executor = await resolveExecutor(options.executor);
  } catch (e) {
    const report = { bridge_dispatch_started: false, restart_safe: restartSafe, runtime_unavailable: { message: String(e?.message ?? e) } };
    return ended(`{"failed":${wasm.classifyRun(report)}}`);
  }
  const file = `${label}:user.js`;
  const compiled = executor.compile(code, file);
  if (compiled.syntaxError !== undefined) {
    const s = compiled.syntaxError;
    return ended(wasm.syntaxError(executor.engine, s.message, s.stack ?? '', s.line ?? 0, s.column ?? 0, file, compiled.linesBefore, compiled.columnsBefore, 0, code, restartSafe));
  }
  const denied = wasm.moduleAccess(code, restartSafe);
  if (denied !== undefined) return ended(denied);

  // The bridge: the executor's own record of what it dispatched. Which rejections it
  // delivered, the executor records itself (they live in its realm).
  let dispatched = false;
  const run = new AbortController();
  const onAbort = () => run.abort(signal.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const { callTool } = createCodemode(catalog, (namespace, name, args, { signal: callSignal }) => {
    dispatched = true;
    return dispatch(namespace, name, args, { signal: AbortSignal.any([callSignal, run.signal]) });
  }, { policy, timeoutMs: options.callTimeoutMs });
  const bridge = {
    namespaces: Object.fromEntries(Object.entries(catalog).map(([ns, list]) => [ns, Array.isArray(list) ? list.map((t) => String(t?.name)) : []])),
    /** Call a tool: resolves with its result, or rejects with the contract JSON text. */
    async call(namespace, name, args) {
      const tool = `${namespace}::${name}`;
      stats.total += 1;
      stats.byTool.set(tool, (stats.byTool.get(tool) ?? 0) + 1);
      try {
        return await callTool(tool, args);
      } catch (e) {
        stats.failed += 1;
        throw typeof e?.message === 'string' ? e.message : String(e);
      }
    },
  };

  let output = '';
  let outputCut = false;
  const log = (args) => {
    if (output.length > maxOutputBytes * 2) {
      outputCut = true;
      return;
    }
    output += `${args.map(consoleText).join(' ')}\n`;
  };

  const deadline = timeoutMs ?? 30_000;
  let timer;
  const stopped = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ timeout: true }), deadline);
    run.signal.addEventListener('abort', () => resolve({ aborted: true }), { once: true });
  });
  let settled;
  try {
    // A synchronous throw from the executor is its own failure, like a rejection.
    const running = new Promise((resolve) => resolve(compiled.run({ bridge, log, timeoutMs: deadline, signal: run.signal }))).then(
      (ending) => ending,
      (e) => ({ failed: String(e?.message ?? e) }),
    );
    settled = await Promise.race([running, stopped]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  if (settled.aborted || settled.timeout) run.abort();
  compiled.dispose?.();
  const base = { bridge_dispatch_started: dispatched, restart_safe: restartSafe };
  const fail = (member) => ended(`{"failed":${wasm.classifyRun({ ...base, ...member })}}`, output);

  if (settled.aborted) return fail({ aborted: {} });
  if (settled.timeout) return fail({ timeout: { deadline_ms: deadline } });
  if (settled.failed !== undefined) return fail({ internal: { message: settled.failed } });
  if (settled.bridgeError !== undefined) return fail({ uncaught_tool_error: settled.bridgeError });
  if (settled.guestError !== undefined) {
    const { name, message, stack } = settled.guestError;
    const result = fail({ guest_exception: { name, message } });
    if (typeof stack === 'string' && stack !== '') {
      const lines = code.split('\n').length;
      result.stack = wasm.userStack(executor.engine, name, message, stack, file, compiled.linesBefore, compiled.columnsBefore, lines, label);
    }
    return result;
  }
  if (settled.unserializable !== undefined) return fail({ output_unserializable: { message: settled.unserializable } });
  const projected = JSON.parse(wasm.projectCompleted(output, settled.valueJson, maxOutputBytes, dispatched, restartSafe));
  if (projected.failed !== undefined) return failedRun(JSON.stringify(projected), output, maxOutputBytes, telemetry());
  const result = { status: 'completed', value: projected.value, output: projected.output, bridgeDispatchStarted: dispatched, replaySafe: restartSafe };
  if (projected.truncated || outputCut) result.truncated = true;
  result.telemetry = telemetry();
  return result;
}

/**
 * How an executor reports the end of its run (`run()` resolves with one of these):
 * `{ valueJson }` (the returned value as JSON text), `{ unserializable: reason }`,
 * `{ bridgeError: contractJson }` (an uncaught value that is one of the rejections its
 * bridge delivered, by identity), `{ guestError: { name, message, stack } }`, `{ timeout:
 * true }` (its own deadline, such as an interrupted loop).
 */

/** A failed run: the core's run error, the output in what the budget leaves, telemetry. */
function failedRun(failedJson, output, maxOutputBytes, telemetry) {
  const error = JSON.parse(failedJson).failed;
  const [text] = wasm.fitOutput(output, Math.max(0, maxOutputBytes - JSON.stringify(error).length));
  return { status: 'failed', ...error, output: text, telemetry };
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

/** The executor object for `executor`: a name, or an object the caller built. */
async function resolveExecutor(executor) {
  if (executor !== undefined && executor !== null && typeof executor === 'object') return executor;
  const name = executor ?? 'quickjs';
  if (name === 'node-vm') {
    const { nodeVmExecutor } = await import('./node-vm.js');
    return nodeVmExecutor();
  }
  if (name === 'quickjs') {
    const { quickjsExecutor } = await import('./quickjs.js');
    return quickjsExecutor();
  }
  throw new Error(`unknown executor ${JSON.stringify(String(name))}: 'quickjs', 'node-vm' or an executor object`);
}
