// Wrapping a tool-calling function so that every way a call can fail rejects with the
// contract. The core classifies; this module only catches, times out and reports.

import * as wasm from './binding.js';

/** How many call sites (one per tool name) a wrapper keeps before starting afresh. */
const MAX_SITES = 1024;

/** The Error a timed-out call is classified from: the core reads the `TimeoutError` name. */
function timeoutError(ms) {
  const error = new Error(`no result within ${ms} ms`);
  error.name = 'TimeoutError';
  return error;
}

/** Run `call(signal)`, rejecting with a `TimeoutError` (and aborting `signal`) after `ms`. */
function withTimeout(call, ms) {
  const controller = new AbortController();
  if (ms === undefined || ms === null) return Promise.resolve().then(() => call(controller.signal));
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const error = timeoutError(ms);
      controller.abort(error);
      reject(error);
    }, ms);
  });
  const result = Promise.resolve().then(() => call(controller.signal));
  return Promise.race([result, timeout]).finally(() => clearTimeout(timer));
}

/** Read a property of a thrown value without letting a hostile getter throw again. */
function property(value, key) {
  try {
    return value !== null && (typeof value === 'object' || typeof value === 'function') ? value[key] : undefined;
  } catch {
    return undefined;
  }
}

/** The core's verdict on a thrown value, from its `name`, `code`, `message` and `data`. */
function thrownVerdict(site, thrown, dispatched, args) {
  const name = property(thrown, 'name');
  const message = typeof thrown === 'string' ? thrown : property(thrown, 'message');
  return site.thrown(typeof name === 'string' ? name : '', property(thrown, 'code'), message, property(thrown, 'data'), dispatched, args);
}

/**
 * Tell `onBreaker` the verdict. The callback belongs to the host: if it throws, the call
 * rejects with that exception, so the bug shows instead of hiding.
 */
function report(onBreaker, verdict, tool) {
  if (typeof onBreaker !== 'function') return;
  onBreaker(verdict[1], { tool, error: verdict[0] === null ? null : JSON.parse(verdict[0]) });
}

/**
 * Settle one call: resolve with its result when the core finds no failure, otherwise
 * reject with `new Error(<contract JSON>)`. Shared by `wrapCallTool` and `createCodemode`.
 */
export async function settle(site, call, { tool, timeoutMs, onBreaker, args }) {
  let verdict;
  let result;
  try {
    result = await withTimeout(call, timeoutMs);
  } catch (thrown) {
    verdict = thrownVerdict(site, thrown, undefined, args);
  }
  if (verdict === undefined) {
    // A result that cannot be read as JSON is classified by the core too (decode_error).
    verdict = site.result(result, true, args);
  }
  report(onBreaker, verdict, tool);
  if (verdict[0] !== null) throw new Error(verdict[0]);
  return result;
}

/** Reject with a verdict the sandbox reached before dispatching anything. */
export async function reject(verdict, { tool, onBreaker }) {
  report(onBreaker, verdict, tool);
  throw new Error(verdict[0]);
}

/** A core call site, falling back to one without a tool name when the core refuses the name. */
export function callSite(header, policy) {
  try {
    return { tool: header.tool, site: new wasm.CallSite(header, policy) };
  } catch (e) {
    if (property(e, 'path') !== 'tool') throw e;
    return { tool: undefined, site: new wasm.CallSite({ annotations: header.annotations }, policy) };
  }
}

/**
 * Wrap any async `(name, args) => CallToolResult` so that an `isError` result, a thrown
 * transport error, a JSON-RPC error (an McpError with a numeric `code`) or a timeout all
 * reject with `new Error(<contract JSON>)`. Successes and `input_required` results pass
 * through. The wrapped function receives a third argument `{ signal }`, aborted on timeout.
 *
 * @param {(name: string, args: object, options: { signal: AbortSignal }) => Promise<object>} callTool
 * @param {object} [context] `namespace` (tools become `namespace::name`), `annotations`
 *   (a map from tool name to MCP annotations, or a function of the name), `policy`,
 *   `timeoutMs`, and `onBreaker(breaker, { tool, error })` called after every call.
 */
export function wrapCallTool(callTool, context = {}) {
  if (typeof callTool !== 'function') {
    throw new TypeError('wrapCallTool: callTool must be a function (name, args) => Promise<CallToolResult>');
  }
  const { namespace, annotations, policy, timeoutMs, onBreaker } = context;
  // Checks the policy now, so a bad one fails at wrap time rather than on the first call.
  new wasm.Normalizer(policy).free();
  const sites = new Map();
  const siteFor = (name) => {
    let entry = sites.get(name);
    if (entry === undefined) {
      if (sites.size >= MAX_SITES) sites.clear();
      const tool = namespace === undefined || namespace === null ? undefined : `${namespace}::${name}`;
      const hints = typeof annotations === 'function' ? annotations(name) : property(annotations, name);
      entry = callSite({ tool, annotations: hints }, policy);
      sites.set(name, entry);
    }
    return entry;
  };
  return async function callToolWithContract(name, args) {
    const { tool, site } = siteFor(String(name));
    return settle(site, (signal) => callTool(name, args, { signal }), { tool, timeoutMs, onBreaker });
  };
}
