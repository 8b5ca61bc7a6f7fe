// A stdio MCP server for gateway/tests/hostile.rs, on the official TypeScript SDK (the copy
// examples/node-sandbox installs): it serves one namespace of a catalog of the red team's
// attack file (js-package/test/hostile/attacks.mjs, `CATALOGS`), with the same tools
// (names, input schemas, annotations) and the same answers as js-package/test/hostile/child.mjs
// (`answer`, from js-package/test/hostile/answers.mjs), and records every call it receives.
//
// Environment:
//   HOSTILE_CATALOG    the catalog's key (default 'default')
//   HOSTILE_NAMESPACE  the namespace of that catalog this process serves (default 'ns');
//                      the gateway's config names the server the same
//   HOSTILE_CALLS      a file: one JSON line per call received, {"ns": namespace, "name":
//                      tool, "at": epoch ms (fractional), "bytes": the request's line on
//                      stdin, in bytes}, taken the moment the call arrives (the lines are
//                      written before the event loop turns)
//
// Usage: node hostile_server.mjs (stdio).

import { writeSync, openSync } from 'node:fs';
import process from 'node:process';

const sdk = new URL('../../../examples/node-sandbox/node_modules/@modelcontextprotocol/sdk/dist/esm/', import.meta.url);
const { Server } = await import(new URL('server/index.js', sdk));
const { StdioServerTransport } = await import(new URL('server/stdio.js', sdk));
const { CallToolRequestSchema, ListToolsRequestSchema } = await import(new URL('types.js', sdk));
const { CATALOGS } = await import(new URL('../../../js-package/test/hostile/attacks.mjs', import.meta.url));
const { answer } = await import(new URL('../../../js-package/test/hostile/answers.mjs', import.meta.url));

const catalogName = process.env.HOSTILE_CATALOG ?? 'default';
const namespace = process.env.HOSTILE_NAMESPACE ?? 'ns';
const tools = CATALOGS[catalogName]?.[namespace];
if (tools === undefined) {
  process.stderr.write(`hostile_server: no namespace ${JSON.stringify(namespace)} in catalog ${JSON.stringify(catalogName)}\n`);
  process.exit(2);
}

// The record: lines gathered as calls arrive, written in one go before the loop turns (a
// flood of calls costs one write per batch, and the arrival time is taken per call).
const fd = process.env.HOSTILE_CALLS ? openSync(process.env.HOSTILE_CALLS, 'a') : undefined;
let pending = [];
function record(name) {
  if (fd === undefined) return;
  const bytes = lineBytes.shift() ?? 0;
  pending.push(JSON.stringify({ ns: namespace, name, at: performance.timeOrigin + performance.now(), bytes }));
  if (pending.length === 1) {
    queueMicrotask(flush);
  }
}
function flush() {
  if (pending.length === 0) return;
  const text = `${pending.join('\n')}\n`;
  pending = [];
  writeSync(fd, text);
}

const server = new Server({ name: 'codemode-hostile', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
  const name = request.params.name;
  record(name);
  if (!tools.some((t) => t.name === name)) {
    return { isError: true, content: [{ type: 'text', text: `hostile_server: no tool ${JSON.stringify(name)}` }] };
  }
  return answer(namespace, name, extra.signal);
});
// The size of each `tools/call` line as it arrives (a listener added before the transport's,
// so the sizes are taken before the calls are handled, in the same order): the test tells a
// call that waited in the pipe from one written late by how many bytes the pipe can hold.
const lineBytes = [];
let carry = 0;
let carryText = '';
process.stdin.on('data', (chunk) => {
  const text = chunk.toString('latin1');
  let start = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
    const line = carryText + text.slice(start, nl);
    if (line.includes('"tools/call"')) lineBytes.push(carry + (nl - start) + 1);
    carry = 0;
    carryText = '';
    start = nl + 1;
  }
  carry += text.length - start;
  // Enough of a long partial line to see its method.
  carryText = (carryText + text.slice(start)).slice(0, 4096);
});
await server.connect(new StdioServerTransport());
