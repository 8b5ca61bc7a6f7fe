// Capture real failures of the TypeScript MCP reference servers through the official
// TypeScript SDK client, over stdio. Run by run.sh (see ../README.md), not by CI.
//
//   node capture.mjs ROOT OUT.jsonl
//
// ROOT is a scratch directory this script fills with fixtures under ROOT/fs and
// ROOT/memory (merge.py rewrites ROOT to /srv/mcp-root); OUT gets one raw capture a line: the case, the tool's
// input_schema and annotations from tools/list, and the failure as the client saw it (the
// CallToolResult, or the JSON-RPC error the client raised).

import { mkdirSync, rmSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

const [root, out] = process.argv.slice(2);
if (!root || !out) {
  console.error('usage: node capture.mjs ROOT OUT.jsonl');
  process.exit(2);
}

// ---- fixtures -------------------------------------------------------------------------
const fsRoot = join(root, 'fs');
for (const d of [fsRoot, join(root, 'memory')]) rmSync(d, { recursive: true, force: true });
const allowed = join(fsRoot, 'allowed');
const outside = join(fsRoot, 'outside');
for (const d of [join(allowed, 'sub'), outside, join(root, 'memory')]) mkdirSync(d, { recursive: true });
writeFileSync(join(allowed, 'notes.txt'), 'ship the release on friday\n');
writeFileSync(join(allowed, 'existing.txt'), 'already here\n');
writeFileSync(join(outside, 'secret.txt'), 'not for the model\n');
symlinkSync(join(outside, 'secret.txt'), join(allowed, 'escape.txt'));
const memoryFile = join(root, 'memory', 'memory.jsonl');

const A = (p) => join(allowed, p);

// ---- servers --------------------------------------------------------------------------
const SERVERS = {
  filesystem: { pkg: '@modelcontextprotocol/server-filesystem', bin: 'dist/index.js', args: [allowed] },
  memory: { pkg: '@modelcontextprotocol/server-memory', bin: 'dist/index.js', args: [], env: { MEMORY_FILE_PATH: memoryFile } },
  everything: {
    pkg: '@modelcontextprotocol/server-everything',
    bin: 'dist/index.js',
    args: ['stdio'],
    // gzip-file-as-resource may fetch only from localhost (nothing listens on the port the
    // cases use) and at most 64 bytes.
    env: { GZIP_ALLOWED_DOMAINS: 'localhost', GZIP_MAX_FETCH_SIZE: '64' },
  },
  'sequential-thinking': {
    pkg: '@modelcontextprotocol/server-sequential-thinking',
    bin: 'dist/index.js',
    args: [],
    env: { DISABLE_THOUGHT_LOGGING: 'true' },
  },
};

// ---- cases ----------------------------------------------------------------------------
// Each: id, server, tool, arguments; optional `setup` (calls made first, which must
// succeed), `timeout_ms` (the client's request timeout), `raw` (a tools/call request
// whose params are sent as given, to get the JSON-RPC error a malformed call gets).
const thought = { thought: 'check the plan', nextThoughtNeeded: true, thoughtNumber: 1, totalThoughts: 3 };
const CASES = [
  // filesystem
  { id: 'fs.read_text_file.missing_file', server: 'filesystem', tool: 'read_text_file', arguments: { path: A('missing.txt') } },
  { id: 'fs.read_text_file.outside_root_absolute', server: 'filesystem', tool: 'read_text_file', arguments: { path: '/etc/passwd' } },
  { id: 'fs.read_text_file.outside_root_dotdot', server: 'filesystem', tool: 'read_text_file', arguments: { path: A('../outside/secret.txt') } },
  { id: 'fs.read_text_file.symlink_escape', server: 'filesystem', tool: 'read_text_file', arguments: { path: A('escape.txt') } },
  { id: 'fs.read_text_file.is_directory', server: 'filesystem', tool: 'read_text_file', arguments: { path: A('sub') } },
  { id: 'fs.read_text_file.head_and_tail', server: 'filesystem', tool: 'read_text_file', arguments: { path: A('notes.txt'), head: 1, tail: 1 } },
  { id: 'fs.read_text_file.missing_path', server: 'filesystem', tool: 'read_text_file', arguments: {} },
  { id: 'fs.read_text_file.path_wrong_type', server: 'filesystem', tool: 'read_text_file', arguments: { path: 42 } },
  { id: 'fs.read_text_file.head_wrong_type', server: 'filesystem', tool: 'read_text_file', arguments: { path: A('notes.txt'), head: 'two' } },
  { id: 'fs.read_file.missing_file', server: 'filesystem', tool: 'read_file', arguments: { path: A('old/notes.txt') } },
  { id: 'fs.read_media_file.missing_file', server: 'filesystem', tool: 'read_media_file', arguments: { path: A('chart.png') } },
  { id: 'fs.read_media_file.outside_root', server: 'filesystem', tool: 'read_media_file', arguments: { path: '/usr/share/pixmaps/debian-logo.png' } },
  { id: 'fs.read_multiple_files.empty_list', server: 'filesystem', tool: 'read_multiple_files', arguments: { paths: [] } },
  { id: 'fs.read_multiple_files.not_a_list', server: 'filesystem', tool: 'read_multiple_files', arguments: { paths: A('notes.txt') } },
  { id: 'fs.write_file.parent_missing', server: 'filesystem', tool: 'write_file', arguments: { path: A('drafts/plan.md'), content: '# plan\n' } },
  { id: 'fs.write_file.outside_root', server: 'filesystem', tool: 'write_file', arguments: { path: join(outside, 'new.txt'), content: 'x' } },
  { id: 'fs.write_file.missing_content', server: 'filesystem', tool: 'write_file', arguments: { path: A('new.txt') } },
  { id: 'fs.write_file.into_a_file', server: 'filesystem', tool: 'write_file', arguments: { path: A('notes.txt/inner.txt'), content: 'x' } },
  { id: 'fs.edit_file.no_match', server: 'filesystem', tool: 'edit_file', arguments: { path: A('notes.txt'), edits: [{ oldText: 'ship on monday', newText: 'ship on tuesday' }] } },
  { id: 'fs.edit_file.missing_file', server: 'filesystem', tool: 'edit_file', arguments: { path: A('todo.txt'), edits: [{ oldText: 'a', newText: 'b' }] } },
  { id: 'fs.edit_file.edits_wrong_type', server: 'filesystem', tool: 'edit_file', arguments: { path: A('notes.txt'), edits: 'replace friday with monday' } },
  { id: 'fs.edit_file.edit_missing_new_text', server: 'filesystem', tool: 'edit_file', arguments: { path: A('notes.txt'), edits: [{ oldText: 'friday' }] } },
  { id: 'fs.create_directory.file_exists', server: 'filesystem', tool: 'create_directory', arguments: { path: A('notes.txt') } },
  { id: 'fs.create_directory.outside_root', server: 'filesystem', tool: 'create_directory', arguments: { path: '/var/tmp/agent-work' } },
  { id: 'fs.list_directory.not_a_directory', server: 'filesystem', tool: 'list_directory', arguments: { path: A('notes.txt') } },
  { id: 'fs.list_directory.missing_directory', server: 'filesystem', tool: 'list_directory', arguments: { path: A('archive') } },
  { id: 'fs.list_directory_with_sizes.bad_sort', server: 'filesystem', tool: 'list_directory_with_sizes', arguments: { path: allowed, sortBy: 'date' } },
  { id: 'fs.directory_tree.outside_root', server: 'filesystem', tool: 'directory_tree', arguments: { path: '/' } },
  { id: 'fs.move_file.destination_exists', server: 'filesystem', tool: 'move_file', arguments: { source: A('notes.txt'), destination: A('existing.txt') } },
  { id: 'fs.move_file.missing_source', server: 'filesystem', tool: 'move_file', arguments: { source: A('gone.txt'), destination: A('here.txt') } },
  { id: 'fs.move_file.missing_destination', server: 'filesystem', tool: 'move_file', arguments: { source: A('notes.txt') } },
  { id: 'fs.search_files.outside_root', server: 'filesystem', tool: 'search_files', arguments: { path: '/etc', pattern: '*.conf' } },
  { id: 'fs.search_files.missing_pattern', server: 'filesystem', tool: 'search_files', arguments: { path: allowed } },
  { id: 'fs.get_file_info.missing_file', server: 'filesystem', tool: 'get_file_info', arguments: { path: A('report.pdf') } },
  { id: 'fs.unknown_tool', server: 'filesystem', tool: 'delete_file', arguments: { path: A('notes.txt') } },

  // memory
  { id: 'memory.add_observations.unknown_entity', server: 'memory', tool: 'add_observations', arguments: { observations: [{ entityName: 'Bob', contents: ['likes tea'] }] } },
  { id: 'memory.add_observations.second_unknown_entity', server: 'memory', tool: 'add_observations', arguments: { observations: [{ entityName: 'Alice', contents: ['likes coffee'] }, { entityName: 'Project Zeta', contents: ['due in May'] }] } },
  { id: 'memory.create_entities.entity_missing_fields', server: 'memory', tool: 'create_entities', arguments: { entities: [{ name: 'Carol' }] } },
  { id: 'memory.create_entities.entities_wrong_type', server: 'memory', tool: 'create_entities', arguments: { entities: 'Carol' } },
  { id: 'memory.create_relations.missing_relations', server: 'memory', tool: 'create_relations', arguments: {} },
  { id: 'memory.delete_entities.names_wrong_type', server: 'memory', tool: 'delete_entities', arguments: { entityNames: 'Alice' } },
  { id: 'memory.search_nodes.missing_query', server: 'memory', tool: 'search_nodes', arguments: {} },
  { id: 'memory.open_nodes.names_wrong_type', server: 'memory', tool: 'open_nodes', arguments: { names: 7 } },
  { id: 'memory.unknown_tool', server: 'memory', tool: 'delete_entity', arguments: { name: 'Alice' } },

  // everything
  { id: 'everything.echo.missing_message', server: 'everything', tool: 'echo', arguments: {} },
  { id: 'everything.echo.message_wrong_type', server: 'everything', tool: 'echo', arguments: { message: 5 } },
  { id: 'everything.get-sum.wrong_type', server: 'everything', tool: 'get-sum', arguments: { a: 'one', b: 2 } },
  { id: 'everything.get-sum.missing_b', server: 'everything', tool: 'get-sum', arguments: { a: 1 } },
  { id: 'everything.get-annotated-message.bad_enum', server: 'everything', tool: 'get-annotated-message', arguments: { messageType: 'warning' } },
  { id: 'everything.get-resource-reference.zero_id', server: 'everything', tool: 'get-resource-reference', arguments: { resourceId: 0 } },
  { id: 'everything.get-resource-reference.fractional_id', server: 'everything', tool: 'get-resource-reference', arguments: { resourceId: 2.5 } },
  { id: 'everything.get-resource-reference.bad_type', server: 'everything', tool: 'get-resource-reference', arguments: { resourceType: 'Video' } },
  { id: 'everything.get-resource-links.too_many', server: 'everything', tool: 'get-resource-links', arguments: { count: 50 } },
  { id: 'everything.get-structured-content.bad_location', server: 'everything', tool: 'get-structured-content', arguments: { location: 'Paris' } },
  { id: 'everything.gzip-file-as-resource.domain_not_allowed', server: 'everything', tool: 'gzip-file-as-resource', arguments: { name: 'page.gz', data: 'http://127.0.0.1:1/page.html' } },
  { id: 'everything.gzip-file-as-resource.connection_refused', server: 'everything', tool: 'gzip-file-as-resource', arguments: { name: 'page.gz', data: 'http://localhost:1/page.html' } },
  { id: 'everything.gzip-file-as-resource.not_a_url', server: 'everything', tool: 'gzip-file-as-resource', arguments: { name: 'page.gz', data: 'page.html' } },
  { id: 'everything.gzip-file-as-resource.too_large', server: 'everything', tool: 'gzip-file-as-resource', arguments: { name: 'big.gz', data: `data:text/plain;base64,${Buffer.from('x'.repeat(300)).toString('base64')}` } },
  { id: 'everything.gzip-file-as-resource.bad_protocol', server: 'everything', tool: 'gzip-file-as-resource', arguments: { name: 'page.gz', data: 'ftp://127.0.0.1/page.html' } },
  { id: 'everything.simulate-research-query.needs_task_execution', server: 'everything', tool: 'simulate-research-query', arguments: { topic: 'tides' } },
  { id: 'everything.trigger-long-running-operation.client_timeout', server: 'everything', tool: 'trigger-long-running-operation', arguments: { duration: 5, steps: 5 }, timeout_ms: 300 },
  { id: 'everything.unknown_tool', server: 'everything', tool: 'echoo', arguments: { message: 'hi' } },
  { id: 'everything.tools_call_without_name', server: 'everything', tool: null, arguments: { message: 'hi' }, raw: { arguments: { message: 'hi' } } },
  { id: 'everything.tools_call_arguments_not_object', server: 'everything', tool: 'echo', arguments: 'hi', raw: { name: 'echo', arguments: 'hi' } },

  // sequential-thinking
  { id: 'seq.sequentialthinking.no_arguments', server: 'sequential-thinking', tool: 'sequentialthinking', arguments: {} },
  { id: 'seq.sequentialthinking.thought_number_zero', server: 'sequential-thinking', tool: 'sequentialthinking', arguments: { ...thought, thoughtNumber: 0 } },
  { id: 'seq.sequentialthinking.thought_wrong_type', server: 'sequential-thinking', tool: 'sequentialthinking', arguments: { ...thought, thought: 5 } },
  { id: 'seq.sequentialthinking.total_not_a_number', server: 'sequential-thinking', tool: 'sequentialthinking', arguments: { ...thought, totalThoughts: 'three' } },
  { id: 'seq.sequentialthinking.next_not_boolean', server: 'sequential-thinking', tool: 'sequentialthinking', arguments: { ...thought, nextThoughtNeeded: 'maybe' } },
  { id: 'seq.sequentialthinking.fractional_number', server: 'sequential-thinking', tool: 'sequentialthinking', arguments: { ...thought, thoughtNumber: 1.5 } },
  { id: 'seq.unknown_tool', server: 'sequential-thinking', tool: 'sequential_thinking', arguments: thought },
];

// Calls that prepare a server's state before its cases.
const SETUP = {
  memory: [{ tool: 'create_entities', arguments: { entities: [{ name: 'Alice', entityType: 'person', observations: ['works on the release'] }] } }],
};

// ---- capture --------------------------------------------------------------------------
// The installed package's own package.json (the SDK's exports map `package.json` to a stub).
function packageDir(pkg) {
  return join(process.cwd(), 'node_modules', pkg);
}

function packageVersion(pkg) {
  const version = JSON.parse(readFileSync(join(packageDir(pkg), 'package.json'), 'utf8')).version;
  if (!version) throw new Error(`no version for ${pkg}`);
  return version;
}

async function connect(name) {
  const s = SERVERS[name];
  const client = new Client({ name: 'codemode-errors-recognition-capture', version: '1.0.0' });
  const env = { PATH: process.env.PATH, HOME: root, ...(s.env ?? {}) };
  const script = join(packageDir(s.pkg), s.bin);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [script, ...s.args], env, stderr: 'ignore' }));
  return client;
}

function errorObject(e) {
  if (e instanceof McpError) {
    // McpError's message is `MCP error <code>: <message>`; the JSON-RPC object has the message alone.
    const prefix = `MCP error ${e.code}: `;
    const message = e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
    const error = { code: e.code, message };
    if (e.data !== undefined) error.data = e.data;
    return { jsonrpc_error: error, raised: { class: 'McpError', message: e.message } };
  }
  throw e;
}

const lines = [];
const sdkVersion = packageVersion('@modelcontextprotocol/sdk');
for (const name of Object.keys(SERVERS)) {
  const client = await connect(name);
  const info = client.getServerVersion();
  const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
  for (const step of SETUP[name] ?? []) {
    const r = await client.callTool({ name: step.tool, arguments: step.arguments });
    if (r.isError) throw new Error(`setup ${name}::${step.tool} failed: ${JSON.stringify(r)}`);
  }
  for (const c of CASES.filter((c) => c.server === name)) {
    let failure;
    try {
      const options = c.timeout_ms ? { timeout: c.timeout_ms } : undefined;
      const result = c.raw
        ? await client.request({ method: 'tools/call', params: c.raw }, CallToolResultSchema, options)
        : await client.callTool({ name: c.tool, arguments: c.arguments }, undefined, options);
      failure = { tool_result: result };
      if (!result.isError) {
        console.error(`warning: ${c.id} did not fail: ${JSON.stringify(result).slice(0, 200)}`);
        continue;
      }
    } catch (e) {
      failure = errorObject(e);
    }
    const tool = c.tool ? tools.get(c.tool) : undefined;
    lines.push({
      id: c.id,
      server: name,
      package: SERVERS[name].pkg,
      package_version: packageVersion(SERVERS[name].pkg),
      server_info: { name: info?.name, version: info?.version },
      server_args: SERVERS[name].args,
      sdk: 'typescript',
      sdk_package: '@modelcontextprotocol/sdk',
      sdk_version: sdkVersion,
      tool: c.tool,
      tool_listed: Boolean(tool),
      input_schema: tool?.inputSchema ?? null,
      annotations: tool?.annotations ?? null,
      arguments: c.arguments,
      ...failure,
    });
  }
  await client.close();
}
writeFileSync(out, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
console.error(`captured ${lines.length} failures from ${Object.keys(SERVERS).length} servers into ${out}`);
