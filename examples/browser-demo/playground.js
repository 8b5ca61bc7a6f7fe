// The code-mode playground: model code typed in the page runs in QuickJS (WebAssembly)
// through the package's `execute`, against three fake tools kept in the page. Every verdict
// (the run's code, its phase, the tool errors, redaction, the output budget) comes from the
// package; this file only plays the tools' servers and renders what `execute` resolves.

import { execute } from 'codemode-errors';
import { $, el, marked } from './dom.js';
import { SNIPPETS } from './snippets.js';

/** The run's deadline: ample for every snippet, short enough to wait out the loop. */
const TIMEOUT_MS = 1500;

/** The tools by namespace, as each MCP server's `listTools()` would describe them. */
const CATALOG = {
  notes: [
    {
      name: 'add',
      description: 'Add a note; answers with its id.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    {
      name: 'get',
      description: 'Read a note by id; a missing id is a tool error (isError).',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
      annotations: { readOnlyHint: true },
    },
  ],
  search: [
    {
      name: 'web',
      description: 'Search the web; its upstream is down (a thrown transport error).',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
  ],
};

/** A CallToolResult with a text block and structured content. */
const answer = (text, structuredContent) => ({ content: [{ type: 'text', text }], structuredContent });

/**
 * The fake servers behind the catalog, fresh for each run (holding the note n-1), so every
 * run starts alike. Answers as an MCP client would: a result, an `isError` result, or a throw.
 */
function fakeServers() {
  const notes = new Map([['n-1', 'Buy oat milk']]);
  return async (namespace, name, args) => {
    const tool = `${namespace}.${name}`;
    if (tool === 'notes.add') {
      const id = `n-${notes.size + 1}`;
      notes.set(id, args.text);
      return answer(`added ${id}`, { id });
    }
    if (tool === 'notes.get') {
      if (!notes.has(args.id)) return { isError: true, content: [{ type: 'text', text: `Note ${args.id} not found` }] };
      return answer(notes.get(args.id), { id: args.id, text: notes.get(args.id) });
    }
    if (tool === 'search.web') {
      // What a fetch-based client throws when the upstream refuses the connection; the
      // key in the URL is a planted fake, to show the redaction.
      const url = 'https://search.internal/v1/query?api_key=sk-live-abcdefghijklmnopqrstuvwxyz123456';
      throw Object.assign(new Error(`connect ECONNREFUSED 10.20.0.7:443 while requesting ${url}`), { code: 'ECONNREFUSED' });
    }
    throw new Error(`no fake server for ${tool}`);
  };
}

/** The headline facts of a run result, as table rows. */
function summaryRows(result) {
  const rows = [['status', result.status]];
  if (result.status === 'failed') {
    rows.push(['code', result.code]);
    if (result.failurePhase) rows.push(['phase', result.failurePhase]);
    if (result.line !== undefined) rows.push(['position', `line ${result.line}, column ${result.column}`]);
    if (result.toolError) rows.push(['tool error', `${result.toolError.kind} from ${result.toolError.origin} (${result.toolError.tool})`]);
  }
  rows.push(['dispatched', result.bridgeDispatchStarted ? 'yes: a call left the sandbox' : 'no']);
  rows.push(['calls', `${result.telemetry.calls.total} (${result.telemetry.calls.failed} failed), ${result.telemetry.durationMs} ms`]);
  return rows;
}

function render(result) {
  const table = el('table');
  for (const [k, v] of summaryRows(result)) {
    const tr = el('tr');
    tr.append(el('th', k), el('td', v, k === 'status' ? (result.status === 'completed' ? 'ok' : 'problem') : undefined));
    table.append(tr);
  }
  $('run-summary').replaceChildren(table);
  $('run-output').replaceChildren(marked(result.output || '(nothing printed)'));
  $('run-result').replaceChildren(marked(JSON.stringify(result, null, 2)));
}

let runs = 0;

/** Run what the text area holds and show how the run ended. */
async function runCode() {
  const button = $('run-code');
  button.disabled = true;
  $('run-status').textContent = 'running…';
  $('run-status').className = '';
  try {
    const result = await execute({ code: $('code').value }, { executor: 'quickjs', catalog: CATALOG, dispatch: fakeServers(), timeoutMs: TIMEOUT_MS });
    render(result);
    $('run-status').textContent = result.status === 'completed' ? 'completed' : `failed: ${result.code}`;
  } catch (e) {
    // execute never throws for the code; only the page's own mistakes land here.
    $('run-status').textContent = `the page failed: ${e.message}`;
    $('run-status').className = 'problem';
  } finally {
    button.disabled = false;
    $('run-result').dataset.run = String(++runs);
  }
}

for (const [namespace, tools] of Object.entries(CATALOG)) {
  for (const tool of tools) {
    const item = el('li');
    item.append(el('code', `codemode.${namespace}.${tool.name}({ ${Object.keys(tool.inputSchema.properties).join(', ')} })`), `: ${tool.description}`);
    $('tools').append(item);
  }
}
for (const [i, s] of SNIPPETS.entries()) $('snippet').append(new Option(s.label, String(i)));
$('snippet').addEventListener('change', () => {
  $('code').value = SNIPPETS[Number($('snippet').value)].code;
});
$('code').value = SNIPPETS[0].code;
$('run-code').addEventListener('click', runCode);
$('code').addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    runCode();
  }
});
window.playgroundReady = true;
