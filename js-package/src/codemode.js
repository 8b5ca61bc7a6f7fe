// The `codemode.<namespace>.<tool>()` helpers model code calls, built from a tool catalog.

import * as wasm from './binding.js';
import { callSite, reject, settle } from './call-tool.js';

/** A TypeError for a catalog or dispatch the host got wrong: `code` `invalid_argument`, `path`. */
function misconfigured(path, message) {
  const error = new TypeError(`createCodemode: ${path} ${message}`);
  error.code = 'invalid_argument';
  error.path = path;
  return error;
}

/** Names read off any object by `await`, JSON, test frameworks and inspectors: never tools. */
const PROBED = new Set(['then', 'toJSON', 'asymmetricMatch', '$$typeof', 'nodeType', 'inspect', '_isMockFunction', 'constructor', 'prototype']);

/** Define `key` on `target` as a plain data property (safe for names like `__proto__`). */
function define(target, key, value) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: false, configurable: false });
}

/**
 * Build the helpers model code calls from a tool catalog.
 *
 * Arguments that violate a tool's `inputSchema` reject with a `validation` contract error
 * naming the missing, unexpected or mistyped arguments, before `dispatch` runs. Every
 * other failure rejects as `wrapCallTool` describes.
 *
 * @param {Record<string, Array<{ name: string, inputSchema?: object, annotations?: object }>>} catalog
 *   tools by namespace, e.g. `{ fs: (await client.listTools()).tools }`
 * @param {(namespace: string, name: string, args: object, options: { signal: AbortSignal }) => Promise<object>} dispatch
 *   sends one call upstream and resolves with its `CallToolResult`
 * @param {object} [options] `policy`, `timeoutMs`, `onBreaker(breaker, { tool, error })`
 * @returns {{ codemode: Record<string, Record<string, (args?: object) => Promise<object>>>, callTool: (tool: string, args?: object) => Promise<object> }}
 */
export function createCodemode(catalog, dispatch, options = {}) {
  if (catalog === null || typeof catalog !== 'object') throw misconfigured('catalog', 'must be an object of tool lists by namespace');
  if (typeof dispatch !== 'function') throw misconfigured('dispatch', 'must be a function (namespace, name, args) => Promise<CallToolResult>');
  const { policy, timeoutMs, onBreaker } = options;
  const tools = new Map();
  const codemode = {};
  for (const [namespace, list] of Object.entries(catalog)) {
    if (!Array.isArray(list)) throw misconfigured(`catalog.${namespace}`, 'must be an array of tools');
    const helpers = {};
    for (const [i, entry] of list.entries()) {
      if (typeof entry?.name !== 'string') throw misconfigured(`catalog.${namespace}[${i}].name`, 'must be a string');
      if (Object.hasOwn(helpers, entry.name)) throw misconfigured(`catalog.${namespace}`, `lists ${entry.name} twice`);
      const fq = `${namespace}::${entry.name}`;
      // Tools are named `namespace::name` everywhere (the contract's `tool`, telemetry,
      // callTool): two entries that spell the same name would be one tool to all of them.
      const other = tools.get(fq);
      if (other !== undefined) {
        throw misconfigured(
          `catalog.${namespace}[${i}].name`,
          `names the tool ${JSON.stringify(fq)}, as ${JSON.stringify(other.name)} of namespace ${JSON.stringify(other.namespace)} does: a namespace or tool name holding "::" makes tool names collide`,
        );
      }
      const { tool, site } = callSite({ tool: fq, annotations: entry.annotations }, policy);
      site.setInputSchema(entry.inputSchema);
      const call = { namespace, name: entry.name, tool, site };
      tools.set(fq, call);
      define(helpers, entry.name, (args) => invoke(call, args));
    }
    define(codemode, namespace, lenient(Object.freeze(helpers), (name) => missing(namespace, name)));
  }
  const anonymous = new wasm.CallSite(undefined, policy);

  // A name the catalog lacks is still callable, as in the executors' sandboxes: the call
  // rejects with the contract's `unknown_tool`, naming the nearest tools, where a plain
  // object would give the model a bare "not a function". Not for a symbol, `then` (an
  // awaited namespace is no promise), `toJSON`, the names test frameworks and inspectors
  // probe objects with (`asymmetricMatch`, `$$typeof`, `nodeType`, `inspect`, `@@…`), nor
  // for what the object holds or inherits. Each missing name gives the same helper each time.
  function lenient(target, absent) {
    const made = new Map();
    const callable = (key) => typeof key === 'string' && !PROBED.has(key) && !key.startsWith('@@');
    const get = (t, key) => {
      if (key in t || !callable(key)) return t[key];
      if (!made.has(key)) made.set(key, absent(key));
      return made.get(key);
    };
    return new Proxy(target, { get });
  }

  function missing(namespace, name) {
    return () => callTool(`${namespace}::${name}`);
  }

  function invoke(call, args = {}) {
    // The arguments go with the verdict: the tool's failure text can then name them.
    const context = { tool: call.tool, timeoutMs, onBreaker, args };
    let invalid;
    try {
      invalid = call.site.invalidArguments(args);
    } catch (e) {
      // Arguments JSON cannot hold (a function, a cycle): a validation problem at that path.
      const problem = { path: typeof e?.path === 'string' ? e.path : '', problem: String(e?.message ?? e) };
      invalid = call.site.failure('validation', { problems: [problem] }, false);
    }
    if (invalid !== undefined) return reject(invalid, context);
    return settle(call.site, (signal) => dispatch(call.namespace, call.name, args, { signal }), context);
  }

  function callTool(tool, args) {
    const call = typeof tool === 'string' ? tools.get(tool) : undefined;
    if (call === undefined) return reject(anonymous.unknownTool(tool, [...tools.keys()].join('\n')), { tool: undefined, onBreaker });
    return invoke(call, args);
  }

  return { codemode: lenient(Object.freeze(codemode), (namespace) => lenient(Object.freeze({}), (name) => missing(namespace, name))), callTool };
}
