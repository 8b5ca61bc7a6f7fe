// A code-mode sandbox against two real MCP servers (@modelcontextprotocol/server-filesystem
// and server-everything over stdio, through the official SDK client). Model-style code runs
// in a node:vm context and calls `codemode.<namespace>.<tool>()`; every failure rejects
// with `new Error(<contract JSON>)`. The code catches one failure and lets the same one go
// uncaught; the gateway turns the uncaught one into the MCP error envelope. Both expose
// the same contract object.
//
//   npm install && node main.mjs        (or: cargo xtask demo)

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vm from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createCodemode, execute, toMcpErrorEnvelope, wrapCallTool } from 'codemode-errors';

const require = createRequire(import.meta.url);

/** What the model wrote: it catches the first failure and lets the same one go uncaught. */
export const MODEL_CODE = `
let caught;
try {
  await codemode.fs.read_text_file({ path: '/etc/passwd' });
} catch (e) {
  caught = JSON.parse(String(e.message));
  console.log('model caught', caught.kind, 'from', caught.tool, '->', caught.recovery.action);
}
try {
  await codemode.everything.echo({ mesage: 'hello' });
} catch (e) {
  const bad = JSON.parse(String(e.message));
  console.log('model caught', bad.kind, bad.invalid_arguments.map((a) => a.path + ': ' + a.problem).join('; '));
}
const notes = await codemode.fs.read_text_file({ path: NOTES });
console.log('model read', JSON.stringify(notes.content[0].text));
report(caught);
await codemode.fs.read_text_file({ path: '/etc/passwd' });
console.log('never reached');
`;

/**
 * Four runs of model code through `execute` (QuickJS), side by side: one that catches a
 * failure and completes, one that lets it go uncaught, one with a syntax error, and one
 * that forges the contract JSON (which stays the guest's error: provenance is by identity).
 */
export const EXEC_RUNS = {
  caught: `try {\n  await codemode.fs.read_text_file({ path: '/etc/passwd' });\n} catch (e) {\n  console.log('caught', JSON.parse(e.message).kind);\n}\nreturn (await codemode.fs.list_allowed_directories({})).content.length;`,
  uncaught: `await codemode.fs.read_text_file({ path: '/etc/passwd' });`,
  syntax: `const notes = await codemode.fs.read_text_file({ path: NOTES });\nreturn notes.content[0].text.split(' ';`,
  forged: `throw new Error(JSON.stringify({ contract_version: 1, kind: 'missing_param', message: 'forged', origin: 'validation' }));`,
};

/** Run each of `EXEC_RUNS` through `execute` against the servers; resolves with the results. */
async function runExecuteDemo(catalog, dispatch, notes) {
  const results = {};
  for (const [name, code] of Object.entries(EXEC_RUNS)) {
    results[name] = await execute({ code: code.replace('NOTES', JSON.stringify(notes)) }, { catalog, dispatch, label: 'demo', timeoutMs: 30_000 });
  }
  return results;
}

/** Start one MCP server over stdio and connect the SDK client to it. */
async function connect(bin, args) {
  const client = new Client({ name: 'codemode-errors-node-sandbox', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [require.resolve(bin), ...args], stderr: 'ignore' }));
  return client;
}

/** Run the model code in a fresh vm context with the helpers; resolves or rejects as it does. */
function runInSandbox(code, globals) {
  const context = vm.createContext({ ...globals });
  return vm.runInContext(`(async () => {${code}})()`, context, { filename: 'model.js' });
}

/**
 * Run the demo against the real servers and return what it saw: the contract object the
 * model caught, the MCP envelope of the uncaught one, what the everything server itself
 * answered to bad arguments (through wrapCallTool, without local validation), the
 * breaker verdicts and the sandbox log.
 */
export async function runDemo() {
  const allowed = mkdtempSync(join(tmpdir(), 'codemode-sandbox-'));
  const notes = join(allowed, 'notes.txt');
  writeFileSync(notes, 'ship the release on friday\n');
  const fs = await connect('@modelcontextprotocol/server-filesystem/dist/index.js', [allowed]);
  const everything = await connect('@modelcontextprotocol/server-everything/dist/index.js', ['stdio']);
  const clients = { fs, everything };
  try {
    const catalog = { fs: (await fs.listTools()).tools, everything: (await everything.listTools()).tools };
    const breaker = [];
    const onBreaker = (verdict, { tool }) => breaker.push(`${tool ?? '(no tool)'}: ${verdict}`);
    const dispatch = (namespace, name, args, { signal }) => clients[namespace].callTool({ name, arguments: args }, undefined, { signal });
    const { codemode } = createCodemode(catalog, dispatch, { onBreaker, timeoutMs: 30_000 });

    const log = [];
    let caught;
    let uncaught;
    try {
      await runInSandbox(MODEL_CODE, {
        codemode,
        NOTES: notes,
        console: { log: (...parts) => log.push(parts.join(' ')) },
        // Copied into this realm: objects parsed inside the vm have its prototypes.
        report: (error) => {
          caught = JSON.parse(JSON.stringify(error));
        },
      });
    } catch (e) {
      uncaught = e;
    }
    const envelope = uncaught === undefined ? undefined : toMcpErrorEnvelope(uncaught, { run_id: 'demo-1', log });

    // The same bad arguments sent straight to the server: its own isError, as the contract.
    const annotations = Object.fromEntries(catalog.everything.map((t) => [t.name, t.annotations]));
    const callEverything = wrapCallTool((name, args, { signal }) => everything.callTool({ name, arguments: args }, undefined, { signal }), {
      namespace: 'everything',
      annotations,
      onBreaker,
    });
    let serverRefusal;
    try {
      await callEverything('echo', { mesage: 'hello' });
    } catch (e) {
      serverRefusal = JSON.parse(String(e.message));
    }
    const runs = await runExecuteDemo(catalog, dispatch, notes);
    return { caught, envelope, serverRefusal, breaker, log, runs };
  } finally {
    await Promise.allSettled(Object.values(clients).map((c) => c.close()));
    rmSync(allowed, { recursive: true, force: true });
  }
}

async function main() {
  const { caught, envelope, serverRefusal, breaker, log, runs } = await runDemo();
  console.log('— sandbox log');
  for (const line of log) console.log(`  ${line}`);
  console.log('\n— caught inside the sandbox: JSON.parse(String(e.message))');
  console.log(JSON.stringify(caught, null, 2));
  console.log('\n— uncaught: the gateway returns the MCP error envelope; structuredContent.error is');
  console.log(JSON.stringify(envelope?.structuredContent.error, null, 2));
  const text = JSON.stringify(caught);
  const same = text !== undefined && text === JSON.stringify(envelope?.structuredContent.error) && text === JSON.stringify(envelope?.structuredContent.trace.error);
  console.log(`\nsame contract object caught and uncaught: ${same}`);
  console.log('\n— the everything server refusing bad arguments itself (isError), through wrapCallTool');
  console.log(JSON.stringify({ kind: serverRefusal?.kind, origin: serverRefusal?.origin, invalid_arguments: serverRefusal?.invalid_arguments, cause: serverRefusal?.cause }, null, 2));
  console.log('\n— circuit-breaker verdicts');
  for (const line of breaker) console.log(`  ${line}`);
  console.log('\n— whole runs through execute (QuickJS): how each ended');
  for (const [name, r] of Object.entries(runs)) {
    const where = r.line === undefined ? '' : ` at line ${r.line}, column ${r.column}`;
    const tool = r.toolError === undefined ? '' : ` toolError.kind=${r.toolError.kind}`;
    console.log(`  ${name.padEnd(9)} ${r.status} ${r.code ?? ''} ${r.failurePhase ?? ''}${where}${tool} dispatched=${r.bridgeDispatchStarted}`);
  }
  if (!same || caught === undefined || serverRefusal === undefined) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) await main();
