// Capture real failures of more TypeScript MCP servers (third-party ones, on several SDK versions
// and frameworks) through the official TypeScript SDK client, over stdio. Run by run.sh (see
// ../README.md), not by CI.
//
//   node capture-more.mjs ROOT SERVERS_DIR OUT.jsonl
//
// ROOT is the scratch directory (run.sh has already started a PostgreSQL cluster on a socket
// under ROOT/pg/sock with a database `demo`); this script fills ROOT/more with the other
// fixtures. SERVERS_DIR holds one npm install a server (npm-servers.txt); the Rust servers
// are installed by `cargo install --root SERVERS_DIR/../cargo-servers` (run.sh). OUT gets one raw
// capture a line, as capture.mjs writes them. No server reaches beyond this machine: backends
// are a local database file, the local PostgreSQL socket, or a closed loopback port
// (127.0.0.1:1, or 127.0.0.1:47999 where the browser refuses port 1).

import { mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

const [root, serversDir, out] = process.argv.slice(2);
if (!root || !serversDir || !out) {
  console.error('usage: node capture-more.mjs ROOT SERVERS_DIR OUT.jsonl');
  process.exit(2);
}
const only = process.env.ONLY ? process.env.ONLY.split(',') : null;

// ---- fixtures -------------------------------------------------------------------------
const more = join(root, 'more');
rmSync(more, { recursive: true, force: true });
const dir = (...p) => { const d = join(more, ...p); mkdirSync(d, { recursive: true }); return d; };
const tmp = dir('tmp');
const pdfs = dir('pdfs');
writeFileSync(join(pdfs, 'notes.txt'), 'not a pdf\n');
dir('pdfs', 'archive');
const sqliteDb = join(dir('sqlite'), 'shop.db');
execFileSync('sqlite3', [sqliteDb, "create table users(id integer primary key, email text unique not null); insert into users(email) values ('ada@example.invalid');"]);
const kubeconfig = join(dir('kube'), 'config');
writeFileSync(kubeconfig, `apiVersion: v1
kind: Config
clusters:
- cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}
  name: local
contexts:
- context: {cluster: local, user: dev, namespace: default}
  name: local
current-context: local
users:
- name: dev
  user: {token: dummy-token}
`);
const tm = dir('tasks', '.taskmaster', 'tasks');
const tmRoot = join(more, 'tasks');
const task = (id, title, status, dependencies = []) => ({
  id, title, description: title, status, dependencies, priority: 'medium', details: '', testStrategy: '', subtasks: [],
});
writeFileSync(join(tm, 'tasks.json'), JSON.stringify({
  master: {
    tasks: [task(1, 'Set up the repository', 'done'), task(2, 'Write the parser', 'pending', [1])],
    metadata: { created: '2026-01-02T03:04:05.000Z', updated: '2026-01-02T03:04:05.000Z', description: 'Tasks for master context' },
  },
}, null, 2));
const pwOut = dir('playwright');
const pgSocket = join(root, 'pg', 'sock');

// ---- servers --------------------------------------------------------------------------
// dir: the install under SERVERS_DIR; pkg: the npm package; bin: the script in the package.
const SERVERS = {
  postgres: {
    dir: 'postgres', pkg: '@modelcontextprotocol/server-postgres', bin: 'dist/index.js',
    args: [`postgresql:///demo?host=${pgSocket}&user=postgres`],
  },
  'postgres-closed': {
    server: 'postgres', dir: 'postgres', pkg: '@modelcontextprotocol/server-postgres', bin: 'dist/index.js',
    args: ['postgresql://postgres@127.0.0.1:1/demo'],
  },
  pdf: { dir: 'pdf', pkg: '@modelcontextprotocol/server-pdf', bin: 'dist/index.js', args: ['--stdio', pdfs] },
  kubernetes: {
    dir: 'kubernetes', pkg: 'mcp-server-kubernetes', bin: 'dist/index.js', args: [], env: { KUBECONFIG: kubeconfig },
  },
  'task-master': {
    dir: 'task-master', pkg: 'task-master-ai', bin: 'dist/mcp-server.js', args: [], env: { TASK_MASTER_TOOLS: 'all' },
  },
  playwright: {
    dir: 'playwright', pkg: '@playwright/mcp', bin: 'cli.js',
    args: ['--headless', '--isolated', '--no-sandbox', '--executable-path', '/usr/bin/chromium', '--output-dir', pwOut],
  },
  commands: { dir: 'commands', pkg: 'mcp-server-commands', bin: 'build/index.js', args: [] },
  // held out (see merge.py)
  'database-server': {
    dir: 'database-server', pkg: '@executeautomation/database-server', bin: 'dist/src/index.js', args: [sqliteDb],
  },
  'code-runner': { dir: 'code-runner', pkg: 'mcp-server-code-runner', bin: 'dist/cli.js', args: [] },
  firecrawl: {
    dir: 'firecrawl', pkg: 'firecrawl-mcp', bin: 'dist/index.js', args: [],
    env: { FIRECRAWL_API_URL: 'http://127.0.0.1:1', FIRECRAWL_API_KEY: 'fc-dummy-key' },
  },
  // a Rust server on rmcp (crates.io), its binary from `cargo install`
  'echo-mcp': { crate: 'echo-mcp', args: ['stdio'] },
};

// ---- cases ----------------------------------------------------------------------------
const P = (p) => join(pdfs, p);
const T = { projectRoot: tmRoot };
const CASES = [
  // postgres (SDK 1.0.1, low-level Server: thrown errors come back as JSON-RPC -32603)
  { id: 'postgres.query.no_such_table', server: 'postgres', tool: 'query', arguments: { sql: 'SELECT * FROM orders' } },
  { id: 'postgres.query.syntax_error', server: 'postgres', tool: 'query', arguments: { sql: 'SELEC * FROM users' } },
  { id: 'postgres.query.no_such_column', server: 'postgres', tool: 'query', arguments: { sql: 'SELECT nme FROM users' } },
  { id: 'postgres.query.read_only_insert', server: 'postgres', tool: 'query', arguments: { sql: "INSERT INTO users(email) VALUES ('bob@example.invalid')" } },
  { id: 'postgres.query.bad_integer', server: 'postgres', tool: 'query', arguments: { sql: "SELECT * FROM users WHERE id = 'abc'" } },
  { id: 'postgres.query.missing_sql', server: 'postgres', tool: 'query', arguments: {} },
  { id: 'postgres.query.sql_wrong_type', server: 'postgres', tool: 'query', arguments: { sql: 5 } },
  { id: 'postgres.unknown_tool', server: 'postgres', tool: 'list_tables', arguments: {} },
  { id: 'postgres-closed.query.connection_refused', server: 'postgres-closed', tool: 'query', arguments: { sql: 'SELECT 1' } },

  // pdf (SDK 2.0.0 McpServer)
  { id: 'pdf.read_pdf_bytes.missing_file', server: 'pdf', tool: 'read_pdf_bytes', arguments: { url: P('report.pdf') } },
  { id: 'pdf.read_pdf_bytes.outside_allowed', server: 'pdf', tool: 'read_pdf_bytes', arguments: { url: '/etc/hosts' } },
  { id: 'pdf.read_pdf_bytes.http_refused', server: 'pdf', tool: 'read_pdf_bytes', arguments: { url: 'http://127.0.0.1:1/paper.pdf' } },
  { id: 'pdf.read_pdf_bytes.connection_refused', server: 'pdf', tool: 'read_pdf_bytes', arguments: { url: 'https://127.0.0.1:1/paper.pdf' } },
  { id: 'pdf.read_pdf_bytes.byte_count_zero', server: 'pdf', tool: 'read_pdf_bytes', arguments: { url: P('notes.txt'), byteCount: 0 } },
  { id: 'pdf.read_pdf_bytes.missing_url', server: 'pdf', tool: 'read_pdf_bytes', arguments: {} },
  { id: 'pdf.display_pdf.missing_file', server: 'pdf', tool: 'display_pdf', arguments: { url: P('slides.pdf') } },
  { id: 'pdf.display_pdf.page_zero', server: 'pdf', tool: 'display_pdf', arguments: { url: P('notes.txt'), page: 0 } },
  { id: 'pdf.interact.bad_action', server: 'pdf', tool: 'interact', arguments: { viewUUID: 'v1', action: 'scroll' } },
  { id: 'pdf.save_pdf.outside_allowed', server: 'pdf', tool: 'save_pdf', arguments: { url: '/var/tmp/out.pdf', data: 'JVBERi0=' } },
  { id: 'pdf.submit_page_data.unknown_request', server: 'pdf', tool: 'submit_page_data', arguments: { requestId: 'req-1', pages: [] } },
  { id: 'pdf.unknown_tool', server: 'pdf', tool: 'read_pdf', arguments: { url: P('notes.txt') } },

  // kubernetes (SDK 1.26.0; kubectl against a closed loopback API server)
  { id: 'kubernetes.kubectl_get.connection_refused', server: 'kubernetes', tool: 'kubectl_get', arguments: { resourceType: 'pods' } },
  { id: 'kubernetes.kubectl_describe.connection_refused', server: 'kubernetes', tool: 'kubectl_describe', arguments: { resourceType: 'pod', name: 'web-0' } },
  { id: 'kubernetes.kubectl_delete.connection_refused', server: 'kubernetes', tool: 'kubectl_delete', arguments: { resourceType: 'pod', name: 'web-0' } },
  { id: 'kubernetes.kubectl_logs.connection_refused', server: 'kubernetes', tool: 'kubectl_logs', arguments: { resourceType: 'pod', name: 'web-0', namespace: 'default' } },
  { id: 'kubernetes.list_api_resources.connection_refused', server: 'kubernetes', tool: 'list_api_resources', arguments: {} },
  { id: 'kubernetes.kubectl_get.missing_resource_type', server: 'kubernetes', tool: 'kubectl_get', arguments: {} },
  { id: 'kubernetes.kubectl_context.bad_operation', server: 'kubernetes', tool: 'kubectl_context', arguments: { operation: 'delete' } },
  { id: 'kubernetes.kubectl_context.unknown_context', server: 'kubernetes', tool: 'kubectl_context', arguments: { operation: 'set', name: 'staging' } },
  { id: 'kubernetes.unknown_tool', server: 'kubernetes', tool: 'kubectl_get_pods', arguments: {} },

  // task-master (TypeScript fastmcp 3.x)
  { id: 'task-master.get_task.unknown_id', server: 'task-master', tool: 'get_task', arguments: { id: '99', ...T } },
  { id: 'task-master.get_tasks.missing_project_root', server: 'task-master', tool: 'get_tasks', arguments: {} },
  { id: 'task-master.set_task_status.bad_status', server: 'task-master', tool: 'set_task_status', arguments: { id: '2', status: 'finished', ...T } },
  { id: 'task-master.set_task_status.unknown_id', server: 'task-master', tool: 'set_task_status', arguments: { id: '42', status: 'done', ...T } },
  { id: 'task-master.remove_task.unknown_id', server: 'task-master', tool: 'remove_task', arguments: { id: '42', confirm: true, ...T } },
  { id: 'task-master.add_tag.reserved_name', server: 'task-master', tool: 'add_tag', arguments: { name: 'master', ...T } },
  { id: 'task-master.use_tag.unknown_tag', server: 'task-master', tool: 'use_tag', arguments: { name: 'release-2', ...T } },
  { id: 'task-master.delete_tag.unknown_tag', server: 'task-master', tool: 'delete_tag', arguments: { name: 'release-2', yes: true, ...T } },
  { id: 'task-master.get_tasks.relative_root', server: 'task-master', tool: 'get_tasks', arguments: { projectRoot: 'relative/dir' } },
  { id: 'task-master.unknown_tool', server: 'task-master', tool: 'list_tasks', arguments: { ...T } },

  // playwright (its own MCP server on the SDK)
  // first, on the blank page: after a failed navigation the error page's title may or may not be in the text
  { id: 'playwright.browser_handle_dialog.no_dialog', server: 'playwright', tool: 'browser_handle_dialog', arguments: { accept: true } },
  { id: 'playwright.browser_navigate.connection_refused', server: 'playwright', tool: 'browser_navigate', arguments: { url: 'http://127.0.0.1:47999/' } },
  { id: 'playwright.browser_navigate.unsafe_port', server: 'playwright', tool: 'browser_navigate', arguments: { url: 'http://127.0.0.1:1/' } },
  { id: 'playwright.browser_navigate.file_blocked', server: 'playwright', tool: 'browser_navigate', arguments: { url: `file://${P('notes.txt')}` } },
  { id: 'playwright.browser_navigate.missing_url', server: 'playwright', tool: 'browser_navigate', arguments: {} },
  { id: 'playwright.browser_click.missing_target', server: 'playwright', tool: 'browser_click', arguments: { element: 'Submit button', ref: 'e3' } },
  { id: 'playwright.browser_resize.width_wrong_type', server: 'playwright', tool: 'browser_resize', arguments: { width: 'wide', height: 600 } },
  { id: 'playwright.browser_tabs.unknown_tab', server: 'playwright', tool: 'browser_tabs', arguments: { action: 'select', index: 5 } },
  { id: 'playwright.browser_network_request.unknown_index', server: 'playwright', tool: 'browser_network_request', arguments: { index: 42 } },
  { id: 'playwright.browser_evaluate.page_throws', server: 'playwright', tool: 'browser_evaluate', arguments: { function: '() => { throw new Error("cart is empty") }' } },
  { id: 'playwright.unknown_tool', server: 'playwright', tool: 'browser_open', arguments: { url: 'http://127.0.0.1:47999/' } },

  // commands (SDK 1.9.0, low-level Server; runs shell commands)
  { id: 'commands.run_command.exit_status', server: 'commands', tool: 'run_command', arguments: { command: 'test -f release.lock' } },
  { id: 'commands.run_command.command_not_found', server: 'commands', tool: 'run_command', arguments: { command: 'frobnicate --all' } },
  { id: 'commands.run_command.file_missing', server: 'commands', tool: 'run_command', arguments: { command: 'cat notes/plan.md' } },
  { id: 'commands.run_command.missing_workdir', server: 'commands', tool: 'run_command', arguments: { command: 'ls', workdir: join(more, 'build') } },
  { id: 'commands.run_command.script_exit_message', server: 'commands', tool: 'run_command', arguments: { command: 'python3', stdin: 'import sys\nsys.exit("no orders to export")\n' } },
  { id: 'commands.run_command.grep_no_match', server: 'commands', tool: 'run_command', arguments: { command: 'grep -q TODO', stdin: 'all done\n' } },
  { id: 'commands.run_command.missing_command', server: 'commands', tool: 'run_command', arguments: {} },
  { id: 'commands.run_command.command_wrong_type', server: 'commands', tool: 'run_command', arguments: { command: 5 } },
  { id: 'commands.unknown_tool', server: 'commands', tool: 'run_script', arguments: { script: 'ls' } },

  // database-server (SDK 1.9.0, low-level Server, SQLite)
  { id: 'database-server.read_query.no_such_table', server: 'database-server', tool: 'read_query', arguments: { query: 'SELECT * FROM orders' } },
  { id: 'database-server.read_query.not_select', server: 'database-server', tool: 'read_query', arguments: { query: 'DELETE FROM users' } },
  { id: 'database-server.write_query.unique_violation', server: 'database-server', tool: 'write_query', arguments: { query: "INSERT INTO users(email) VALUES ('ada@example.invalid')" } },
  { id: 'database-server.write_query.select', server: 'database-server', tool: 'write_query', arguments: { query: 'SELECT * FROM users' } },
  { id: 'database-server.write_query.syntax_error', server: 'database-server', tool: 'write_query', arguments: { query: 'UPDATE users SET email = WHERE id = 1' } },
  { id: 'database-server.create_table.exists', server: 'database-server', tool: 'create_table', arguments: { query: 'CREATE TABLE users (id INTEGER)' } },
  { id: 'database-server.describe_table.missing_table', server: 'database-server', tool: 'describe_table', arguments: { table_name: 'orders' } },
  { id: 'database-server.alter_table.no_such_table', server: 'database-server', tool: 'alter_table', arguments: { query: 'ALTER TABLE orders ADD COLUMN total REAL' } },
  { id: 'database-server.drop_table.missing_table', server: 'database-server', tool: 'drop_table', arguments: { table_name: 'orders', confirm: true } },
  { id: 'database-server.read_query.missing_query', server: 'database-server', tool: 'read_query', arguments: {} },
  { id: 'database-server.export_query.bad_format', server: 'database-server', tool: 'export_query', arguments: { query: 'SELECT * FROM users', format: 'xml' } },
  { id: 'database-server.append_insight.missing_insight', server: 'database-server', tool: 'append_insight', arguments: {} },
  { id: 'database-server.unknown_tool', server: 'database-server', tool: 'run_sql', arguments: { query: 'SELECT 1' } },

  // code-runner (SDK McpServer; runs snippets with the machine's interpreters)
  { id: 'code-runner.run-code.bad_language', server: 'code-runner', tool: 'run-code', arguments: { code: 'DISPLAY "HI".', languageId: 'cobol' } },
  { id: 'code-runner.run-code.missing_code', server: 'code-runner', tool: 'run-code', arguments: { languageId: 'python' } },
  { id: 'code-runner.run-code.exit_status', server: 'code-runner', tool: 'run-code', arguments: { code: 'raise SystemExit(3)', languageId: 'python' } },
  { id: 'code-runner.run-code.python_exception', server: 'code-runner', tool: 'run-code', arguments: { code: "import json\njson.loads('{bad')", languageId: 'python' } },
  { id: 'code-runner.run-code.syntax_error', server: 'code-runner', tool: 'run-code', arguments: { code: 'console.log(', languageId: 'javascript' } },
  { id: 'code-runner.run-code.interpreter_missing', server: 'code-runner', tool: 'run-code', arguments: { code: 'puts 1', languageId: 'ruby' } },
  { id: 'code-runner.run-code.shell_command_missing', server: 'code-runner', tool: 'run-code', arguments: { code: 'frobnicate --all', languageId: 'shellscript' } },
  { id: 'code-runner.unknown_tool', server: 'code-runner', tool: 'run_code', arguments: { code: 'print(1)', languageId: 'python' } },

  // firecrawl (TypeScript fastmcp 4.x; the API is a closed loopback port)
  { id: 'firecrawl.firecrawl_scrape.connection_refused', server: 'firecrawl', tool: 'firecrawl_scrape', arguments: { url: 'https://docs.example.invalid/' } },
  { id: 'firecrawl.firecrawl_map.connection_refused', server: 'firecrawl', tool: 'firecrawl_map', arguments: { url: 'https://docs.example.invalid/' } },
  { id: 'firecrawl.firecrawl_check_crawl_status.connection_refused', server: 'firecrawl', tool: 'firecrawl_check_crawl_status', arguments: { id: 'crawl-1' } },
  { id: 'firecrawl.firecrawl_scrape.no_url', server: 'firecrawl', tool: 'firecrawl_scrape', arguments: {} },
  { id: 'firecrawl.firecrawl_scrape.not_a_url', server: 'firecrawl', tool: 'firecrawl_scrape', arguments: { url: 'docs page' } },
  { id: 'firecrawl.firecrawl_search.limit_wrong_type', server: 'firecrawl', tool: 'firecrawl_search', arguments: { query: 'tides', limit: 'five' } },
  { id: 'firecrawl.firecrawl_check_crawl_status.missing_id', server: 'firecrawl', tool: 'firecrawl_check_crawl_status', arguments: {} },
  { id: 'firecrawl.unknown_tool', server: 'firecrawl', tool: 'firecrawl_scrap', arguments: { url: 'https://docs.example.invalid/' } },

  // echo-mcp (Rust, rmcp)
  { id: 'echo-mcp.echo.missing_message', server: 'echo-mcp', tool: 'echo', arguments: {} },
  { id: 'echo-mcp.echo.message_wrong_type', server: 'echo-mcp', tool: 'echo', arguments: { message: 42 } },
  { id: 'echo-mcp.echo.misnamed_argument', server: 'echo-mcp', tool: 'echo', arguments: { text: 'hello' } },
  { id: 'echo-mcp.unknown_tool', server: 'echo-mcp', tool: 'say', arguments: { message: 'hello' } },
];

// ---- capture --------------------------------------------------------------------------
function packageDir(s) {
  return join(serversDir, s.dir, 'node_modules', s.pkg);
}

const cargoRoot = join(serversDir, '..', 'cargo-servers');
// The version cargo recorded for an installed crate (`"echo-mcp 0.1.1 (registry+...)" = [...]`).
function crateVersion(crate) {
  const m = readFileSync(join(cargoRoot, '.crates.toml'), 'utf8').match(new RegExp(`^"${crate} ([^ ]+) `, 'm'));
  if (!m) throw new Error(`${crate} is not installed under ${cargoRoot}`);
  return m[1];
}

function packageVersion(dirPath) {
  const version = JSON.parse(readFileSync(join(dirPath, 'package.json'), 'utf8')).version;
  if (!version) throw new Error(`no version in ${dirPath}`);
  return version;
}

async function connect(s) {
  const client = new Client({ name: 'codemode-errors-recognition-capture', version: '1.0.0' });
  const env = { PATH: process.env.PATH, HOME: root, TMPDIR: tmp, TZ: 'UTC', ...(s.env ?? {}) };
  const [command, args] = s.crate
    ? [join(cargoRoot, 'bin', s.crate), s.args]
    : [process.execPath, [join(packageDir(s), s.bin), ...s.args]];
  await client.connect(new StdioClientTransport({ command, args, env, cwd: more, stderr: 'ignore' }));
  return client;
}

function errorObject(e) {
  if (e instanceof McpError) {
    const prefix = `MCP error ${e.code}: `;
    const message = e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
    const error = { code: e.code, message };
    if (e.data !== undefined) error.data = e.data;
    return { jsonrpc_error: error, raised: { class: 'McpError', message: e.message } };
  }
  throw e;
}

const lines = [];
const sdkVersion = packageVersion(join(process.cwd(), 'node_modules', '@modelcontextprotocol/sdk'));
for (const name of Object.keys(SERVERS)) {
  if (only && !only.includes(name)) continue;
  const s = SERVERS[name];
  const client = await connect(s);
  const info = client.getServerVersion();
  const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
  for (const c of CASES.filter((c) => c.server === name)) {
    let failure;
    try {
      const result = await client.callTool({ name: c.tool, arguments: c.arguments });
      failure = { tool_result: result };
      if (!result.isError) {
        console.error(`warning: ${c.id} did not fail: ${JSON.stringify(result).slice(0, 300)}`);
        continue;
      }
    } catch (e) {
      failure = errorObject(e);
    }
    const tool = tools.get(c.tool);
    lines.push({
      id: c.id,
      server: s.server ?? name,
      package: s.crate ?? s.pkg,
      package_version: s.crate ? crateVersion(s.crate) : packageVersion(packageDir(s)),
      server_info: { name: info?.name, version: info?.version },
      server_args: s.args,
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
console.error(`captured ${lines.length} failures into ${out}`);
