// The documentation's examples as tests: every fenced block of the docs below is run (or,
// for Rust, left to rustdoc) and what its comments claim is compared with what it does.
//
// Fences say what a block is:
//   ```rust                 a doctest: its file is included as crate docs (`include_str!`)
//   ```rust excerpt=PATH    a verbatim excerpt of PATH (checked, not compiled)
//   ```js                   run under Node against the built package, imported as a user
//                           would (`from 'codemode-errors'`); `with=a+b` adds FIXTURES
//   ```js deno FLAGS...     the same, run by `deno run FLAGS` in examples/deno/
//   ```sh                   each line run by `sh` at the repository root, `codemode-errors`
//                           being the CLI cargo built (target/debug)
//   ```html importmap       every path of the import map exists where it says
//   ```json                 valid JSON
//   ```LANG no-run: REASON  not run (rustdoc's `ignore` too), best with the reason (a
//                           size-capped doc may leave it out); sh blocks that build, test
//                           or bench must be no-run
// Claims: a `// => VALUE` comment (JS; continued on `//   ` lines) after a statement is
// the value of that expression statement or of the declaration's initializer, deep-equal
// to VALUE, where a `...` member allows more members (more items, last in an array) and a
// `...` inside a string matches any text; each claim must be reached. In sh blocks,
// `# => TEXT` lines after a command are its stdout (trimmed, `...` matching any text), and
// `# exit N` in a command's comment its exit status (0 otherwise). Blocks may `assert`.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as acorn from 'acorn';

const root = fileURLToPath(new URL('../../', import.meta.url));
// The user-facing docs: both READMEs, CONTRIBUTING.md and every page of docs/.
const DOCS = [
  'README.md',
  'js-package/README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/** The fenced blocks of a Markdown text: `{ line, info: [words], code }`. */
function blocks(markdown) {
  const out = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(```+)(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, ticks, info] = open;
    const body = [];
    let j = i + 1;
    for (; j < lines.length && lines[j].trimEnd() !== indent + ticks && lines[j].trim() !== ticks; j++) {
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
    }
    out.push({ line: i + 1, info: info.trim().split(/[\s,]+/).filter(Boolean), code: body.join('\n') + '\n' });
    i = j;
  }
  return out;
}

// ---- the fixtures a JS block names with `with=` (each defines what its prose assumes)

const FIXTURES = {
  // A GitHub MCP server's client that creates issues.
  github: `
const client = {
  async listTools() {
    return { tools: [{ name: 'create_issue', annotations: { readOnlyHint: false },
      inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } }] };
  },
  async callTool({ name, arguments: args }) {
    return { content: [{ type: 'text', text: '{"number":7}' }], structuredContent: { number: 7, title: args.title } };
  },
};`,
  // The same server, rate limited: every call is a completed isError result.
  'github-429': `
const rateLimited = { isError: true, content: [{ type: 'text', text: 'HTTP/1.1 429 Too Many Requests; Retry-After: 20 (token=ghp_abcdefghijklmnopqrstuvwxyz0123456789)' }] };
const tools = [{ name: 'create_issue', annotations: { readOnlyHint: false },
  inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } }];
const client = { async listTools() { return { tools }; }, async callTool() { return rateLimited; } };
const args = { title: 'x' }, title = 'x';
const byName = { create_issue: { readOnlyHint: false } };
const breaker = { verdicts: [], record(v) { this.verdicts.push(v); } };
const { codemode } = __pkg.createCodemode({ github: tools }, async () => rateLimited);
const sleep = async () => {};`,
  // A filesystem MCP server confined to /srv.
  fs: `
const tools = [{ name: 'read_text_file', annotations: { readOnlyHint: true },
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];
const client = {
  async listTools() { return { tools }; },
  async callTool({ name, arguments: args }) {
    return { isError: true, content: [{ type: 'text', text: 'Error: Access denied - path outside allowed directories: ' + args.path + ' not in /srv' }] };
  },
};
const fsClient = client, clients = { fs: client };
const catalog = { fs: tools };
const dispatch = (namespace, name, args, { signal }) => clients[namespace].callTool({ name, arguments: args }, undefined, { signal });`,
  // A report, a result and the rejection a call got.
  report: `
const result = { isError: true, content: [{ type: 'text', text: "Error: ENOENT: no such file or directory, open '/srv/notes.md'" }] };
const report = { tool: 'fs::read_file', dispatched: true, tool_result: result };
const rejection = __pkg.toCallError(report);
const codeModeCallError = JSON.parse(rejection.message);
const runModelCode = async () => { throw rejection; };
const runId = 'run-1', logs = ['reading /srv/notes.md'];`,
};

// ---- JS: claims, rewriting, running

/** Deep equality where an expected object's `'…'` member allows more members and an
 * expected string holding `...` matches any text there. */
function matches(actual, expected) {
  if (typeof expected === 'string' && expected.includes('...')) {
    if (typeof actual !== 'string') return false;
    const parts = expected.split('...').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    return new RegExp(`^${parts.join('[\\s\\S]*')}$`).test(actual);
  }
  if (Array.isArray(expected)) {
    const open = expected.at(-1) === '…';
    const items = open ? expected.slice(0, -1) : expected;
    if (!Array.isArray(actual) || (open ? actual.length < items.length : actual.length !== items.length)) return false;
    return items.every((e, i) => matches(actual[i], e));
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object') return false;
    const open = '…' in expected;
    const keys = Object.keys(expected).filter((k) => k !== '…');
    if (!open && Object.keys(actual).length !== keys.length) return false;
    return keys.every((k) => k in actual && matches(actual[k], expected[k]));
  }
  return Object.is(actual, expected);
}

/** A claim's text as a JavaScript expression: a `...` member of an object becomes `'…': 1`. */
function claimExpression(text) {
  let out = '';
  let last = 0;
  const stack = [];
  const tokens = [...acorn.tokenizer(text, { ecmaVersion: 'latest' })];
  tokens.forEach((t, i) => {
    const label = t.type.label;
    if (label === '{' || label === '${') stack.push('{');
    else if (label === '[') stack.push('[');
    else if (label === '}' || label === ']') stack.pop();
    else if (label === '...' && stack.at(-1) === '{' && ['}', ','].includes(tokens[i + 1]?.type.label)) {
      out += `${text.slice(last, t.start)}'…': 1`;
      last = t.end;
    } else if (label === '...' && stack.at(-1) === '[' && tokens[i + 1]?.type.label === ']') {
      out += `${text.slice(last, t.start)}'…'`;
      last = t.end;
    }
  });
  return out + text.slice(last);
}

/** The block's code rewritten to check its claims, and how many claims it holds. */
function instrument(code, where) {
  const [doc, fence] = [where.slice(0, where.lastIndexOf(':')), Number(where.slice(where.lastIndexOf(':') + 1))];
  const comments = [];
  const ast = acorn.parse(code, { ecmaVersion: 'latest', sourceType: 'module', allowAwaitOutsideFunction: true, onComment: comments, locations: true });
  // Claims: `// =>` comments with their continuation lines.
  const claims = [];
  for (let i = 0; i < comments.length; i++) {
    const c = comments[i];
    if (c.type !== 'Line' || !/^\s*=>/.test(c.value)) continue;
    let text = c.value.replace(/^\s*=>/, '');
    while (comments[i + 1]?.type === 'Line' && /^ {2,}/.test(comments[i + 1].value) && comments[i + 1].loc.start.line === comments[i].loc.start.line + 1) {
      text += ' ' + comments[++i].value.trim(); // a line break inside a claim is one space
    }
    claims.push({ start: c.start, at: `${doc}:${fence + c.loc.start.line}`, text: text.trim() });
  }
  // Every statement, to find the one each claim follows.
  const statements = [];
  (function walk(node) {
    if (!node || typeof node.type !== 'string') return;
    if (/Statement$|Declaration$/.test(node.type) && node.type !== 'BlockStatement') statements.push(node);
    for (const v of Object.values(node)) {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object' && typeof v.type === 'string') walk(v);
    }
  })(ast);
  const edits = [];
  const imports = [];
  for (const s of ast.body) if (s.type === 'ImportDeclaration') imports.push(s);
  claims.forEach((claim, n) => {
    const before = statements.filter((s) => s.end <= claim.start).sort((a, b) => b.end - a.end || a.end - a.start - (b.end - b.start));
    const s = before[0];
    const value =
      s?.type === 'ExpressionStatement' ? s.expression : s?.type === 'VariableDeclaration' ? s.declarations.at(-1).init : undefined;
    if (!value) throw new Error(`${claim.at}: a \`// =>\` claim must follow an expression statement or a declaration`);
    const expected = claimExpression(claim.text);
    try {
      new Function(`return (${expected});`);
    } catch (e) {
      throw new Error(`${claim.at}: the claim is no JavaScript value: ${claim.text}\n${e.message}`);
    }
    edits.push({ at: value.start, text: '(__claimed = (' });
    edits.push({ at: value.end, text: '))' });
    edits.push({ at: s.end, text: `;__claim(__claimed, () => (${expected}), ${JSON.stringify(claim.at)}, ${n});` });
  });
  // Imports move out of the block's scope; the rest runs in a block, so it may name what
  // the fixtures name.
  for (const i of imports) edits.push({ at: i.start, text: '/*' }, { at: i.end, text: '*/' });
  edits.sort((a, b) => a.at - b.at);
  let body = '';
  let last = 0;
  for (const e of edits) {
    body += code.slice(last, e.at) + e.text;
    last = e.at;
  }
  body += code.slice(last);
  const importText = imports.map((i) => code.slice(i.start, i.end)).join('\n');
  const imported = new Set(imports.flatMap((i) => i.specifiers.map((s) => s.local.name)));
  return { body, importText, imported, claims: claims.length };
}

const entry = import.meta.resolve('codemode-errors');
let exportNames;

async function runJs(code, info, where) {
  exportNames ??= Object.keys(await import('codemode-errors')).filter((k) => k !== 'default');
  const { body, importText, imported, claims } = instrument(code, where);
  const fixtures = (info.find((w) => w.startsWith('with='))?.slice(5).split('+') ?? []).map((name) => {
    if (!(name in FIXTURES)) throw new Error(`${where}: no fixture ${name} (known: ${Object.keys(FIXTURES).join(', ')})`);
    return FIXTURES[name];
  });
  const names = exportNames.filter((n) => !imported.has(n));
  const source = [
    importText.replaceAll(/(['"])codemode-errors\1/g, JSON.stringify(entry)),
    `import * as __pkg from ${JSON.stringify(entry)};`,
    imported.has('assert') ? '' : "import assert from 'node:assert/strict';",
    `const { ${names.join(', ')} } = __pkg;`,
    'let __claimed;',
    `const __claim = globalThis.__docsClaim;`,
    `{\n${fixtures.join('\n')}\n{\n${body}\n}\n}`,
    '',
  ].join('\n');
  const dir = mkdtempSync(join(tmpdir(), 'codemode-docs-'));
  const file = join(dir, 'block.mjs');
  writeFileSync(file, source);
  const reached = new Array(claims).fill(0);
  globalThis.__docsClaim = (actual, expected, at, n) => {
    reached[n]++;
    const want = expected();
    if (!matches(actual, want)) {
      assert.fail(`${at}: the claim does not hold\n  claimed: ${JSON.stringify(want)}\n  actual:  ${JSON.stringify(actual)}`);
    }
  };
  try {
    await import(pathToFileURL(file).href);
  } catch (e) {
    e.message = `${where}: ${e.message}\n--- the block as run (${file}) ---\n${source}`;
    throw e;
  }
  rmSync(dir, { recursive: true });
  reached.forEach((count, n) => assert.ok(count > 0, `${where}: claim ${n + 1} was never reached`));
}

function runDeno(code, info, where) {
  const flags = info.slice(info.indexOf('deno') + 1).filter((w) => w.startsWith('--'));
  const dir = join(root, 'examples/deno');
  const deno = join(dir, 'node_modules/.bin/deno');
  assert.ok(existsSync(deno), `${where}: ${deno} is missing: run \`npm install\` in examples/deno (cargo xtask test does)`);
  const file = join(dir, `.docs-block-${process.pid}.mjs`);
  const { body, importText, imported, claims } = instrument(code, where);
  const source = [
    importText,
    imported.has('assert') ? '' : "import assert from 'node:assert/strict';",
    matches.toString(),
    `const __reached = new Array(${claims}).fill(0);`,
    'let __claimed;',
    'const __claim = (actual, expected, at, n) => {',
    '  __reached[n]++;',
    '  if (!matches(actual, expected())) throw new Error(`${at}: the claim does not hold\\n  claimed: ${JSON.stringify(expected())}\\n  actual:  ${JSON.stringify(actual)}`);',
    '};',
    `{\n${body}\n}`,
    '__reached.forEach((count, n) => { if (!count) throw new Error(`claim ${n + 1} was never reached`); });',
    '',
  ].join('\n');
  writeFileSync(file, source);
  try {
    const r = spawnSync(deno, ['run', '--no-prompt', ...flags, file], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(r.status, 0, `${where}: deno run ${flags.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  } finally {
    rmSync(file, { force: true });
  }
}

// ---- sh: each command run, its stdout and status compared with its comments

function cliDir() {
  const target = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
  const dir = join(target, 'debug');
  const cli = join(dir, `codemode-errors${process.platform === 'win32' ? '.exe' : ''}`);
  assert.ok(existsSync(cli), `${cli} is missing: \`cargo build -p codemode-errors-host\` builds it (cargo xtask test does)`);
  return dir;
}

function runSh(code, where, startLine) {
  const lines = code.split('\n');
  const commands = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const claim = /^\s*# => ?(.*)$/.exec(line);
    if (claim) {
      assert.ok(commands.length, `${where}: a \`# =>\` line with no command before it`);
      commands.at(-1).stdout = commands.at(-1).stdout === undefined ? claim[1] : `${commands.at(-1).stdout}\n${claim[1]}`;
      continue;
    }
    if (!line.trim() || line.trim().startsWith('#')) continue;
    // A long command (a build, every test, a benchmark) belongs in a no-run block.
    assert.ok(!/(^\s*|[|;&(]\s*)(cargo|npm|npx|deno|valgrind)\b/.test(line), `${where.split(':')[0]}:${startLine + i + 1}: \`${line.trim()}\` is no example to run here: mark the block no-run`);
    const exit = / # .*\bexit (\d+)\b/.exec(line);
    commands.push({ line: startLine + i + 1, command: line, status: exit ? Number(exit[1]) : 0 });
  }
  const PATH = `${cliDir()}:${process.env.PATH}`;
  for (const c of commands) {
    const r = spawnSync('sh', ['-c', c.command], { cwd: root, encoding: 'utf8', env: { ...process.env, PATH } });
    const at = `${where.split(':')[0]}:${c.line}`;
    assert.equal(r.status, c.status, `${at}: \`${c.command}\` exited ${r.status}, not ${c.status}:\n${r.stdout}${r.stderr}`);
    if (c.stdout !== undefined) {
      assert.ok(matches(r.stdout.trim(), c.stdout), `${at}: \`${c.command}\` printed\n${r.stdout.trim()}\nnot\n${c.stdout}`);
    }
  }
}

// ---- the import map: every path is where a static server of node_modules/ finds it

function checkImportMap(code, where) {
  const json = /<script type="importmap">([\s\S]*?)<\/script>/.exec(code);
  assert.ok(json, `${where}: no import map`);
  const { imports } = JSON.parse(json[1]);
  const pkg = join(root, 'js-package');
  for (const [name, path] of Object.entries(imports)) {
    const m = /^\/node_modules\/(.*)$/.exec(path);
    assert.ok(m, `${where}: ${name} is not served from /node_modules/`);
    const file = m[1].startsWith('codemode-errors/') ? join(pkg, m[1].slice('codemode-errors/'.length)) : join(pkg, 'node_modules', m[1]);
    assert.ok(existsSync(file), `${where}: ${name} maps to ${path}, which the package's node_modules layout does not hold`);
  }
  // Every package the browser build imports by name is mapped.
  const files = readdirSync(join(pkg, 'dist/esm'), { recursive: true }).filter((f) => f.endsWith('.js'));
  const named = new Set();
  for (const f of files) {
    const text = readFileSync(join(pkg, 'dist/esm', f), 'utf8');
    for (const [, spec] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"]([@a-z][^'"\s]*)['"]/g)) if (!spec.startsWith('node:')) named.add(spec);
  }
  assert.ok(named.size > 0, `${where}: found no package the browser build imports`);
  for (const spec of named) assert.ok(spec in imports, `${where}: dist/esm imports ${spec}, which the map lacks`);
}

// ---- every block of every document

const doctested = readFileSync(join(root, 'src/lib.rs'), 'utf8') + readFileSync(join(root, 'host/src/lib.rs'), 'utf8');

for (const doc of DOCS) {
  const text = readFileSync(join(root, doc), 'utf8');
  describe(doc, () => {
    for (const block of blocks(text)) {
      const where = `${doc}:${block.line}`;
      const [lang = '', ...rest] = block.info;
      const name = `${where} \`\`\`${block.info.join(' ')}`;
      const skip = rest.findIndex((w) => /^(no-run|ignore):?$/.test(w));
      if (skip >= 0) {
        test(name, { skip: `${rest.slice(skip).join(' ')}` }, () => {});
      } else if (lang === 'rust') {
        const excerpt = rest.find((w) => w.startsWith('excerpt='));
        test(name, () => {
          if (excerpt) {
            const from = readFileSync(join(root, excerpt.slice('excerpt='.length)), 'utf8');
            assert.ok(from.includes(block.code.trim()), `${where}: the excerpt is not in ${excerpt.slice(8)} verbatim`);
          } else {
            const included = [`include_str!("../${doc}")`, `include_str!("../../${doc}")`].some((i) => doctested.includes(i));
            assert.ok(included, `${where}: ${doc} is not a doctest (\`#[doc = include_str!("../${doc}")]\` in src/lib.rs)`);
          }
        });
      } else if (lang === 'js' && rest.includes('deno')) {
        test(name, () => runDeno(block.code, rest, where));
      } else if (lang === 'js') {
        test(name, () => runJs(block.code, rest, where));
      } else if (lang === 'sh') {
        test(name, () => runSh(block.code, where, block.line));
      } else if (lang === 'html' && rest.includes('importmap')) {
        test(name, () => checkImportMap(block.code, where));
      } else if (lang === 'json') {
        test(name, () => JSON.parse(block.code));
      } else {
        test(name, () => assert.fail(`${where}: the fence does not say how to run the block (js, sh, rust, json, html importmap, or LANG no-run REASON)`));
      }
    }
  });
}
