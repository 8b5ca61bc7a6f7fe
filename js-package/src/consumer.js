// The consumer side: reading a contract object back in sandbox code, and the MCP
// envelope for a failure that model code let go uncaught.

import * as wasm from './binding.js';

/** Whether `value` is an Error (also one from another realm). */
function isError(value) {
  return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
}

/** What holds the contract: an Error's message, else the value itself (text or object). */
export function payload(value) {
  return isError(value) ? value.message : value;
}

/**
 * Read the contract object back from what a tool call rejected with: the Error itself,
 * its message text, or an already parsed object. Unknown fields are ignored, legacy
 * `{kind, message}` payloads are upgraded, newer contract versions are refused with a
 * TypeError whose `code` is `unsupported_version`.
 *
 * @example
 * try { await codemode.fs.read_file({ path }) } catch (e) { const err = parseCallError(e); }
 */
export function parseCallError(error) {
  return JSON.parse(wasm.parseCallError(payload(error)));
}

/**
 * The MCP `CallToolResult` a gateway returns when model code let a failure go uncaught:
 * the same contract object as text content, under `structuredContent.error`, and under
 * `error` in the execution trace.
 */
export function toMcpErrorEnvelope(error, trace) {
  return JSON.parse(wasm.mcpErrorEnvelope(payload(error), trace));
}
