// The demo page: a failing CallToolResult in, the contract object out, with redactions,
// truncations and omissions marked. Every decision comes from the package; this file only
// renders what it returns.

import { classifyRunToJson, execStepToJson, normalize, normalizeToJson } from 'codemode-errors';
// The exec-call form of the vectors calls the binding's step functions, the ones `execute` calls.
import * as binding from '/package/dist/esm/binding.js';
import { parseGaps, runAll, vectorProblem } from '/package/test/vector-check.mjs';
import { $, el, marked } from './dom.js';
import { SAMPLES } from './samples.js';

function badge(text, className) {
  return el('span', text, `badge ${className}`);
}

function renderSummary(outcome) {
  const box = $('summary');
  box.replaceChildren();
  const e = outcome.error;
  if (e === null) {
    box.append(el('p', 'Not a failure: the result passes through.', 'ok'));
    return;
  }
  const rows = [
    ['kind', e.kind + (e.original_kind ? ` (upstream said ${e.original_kind})` : '')],
    ['origin', e.origin],
    ['next', `${e.recovery.action}; same arguments: ${e.recovery.same_arguments}` + (e.recovery.retry_after_ms ? `; wait ${e.recovery.retry_after_ms} ms` : '')],
    ['side effects', e.side_effects],
    ['breaker', `${outcome.breaker} (what the upstream's circuit breaker counts)`],
  ];
  if (e.invalid_arguments) rows.push(['arguments', e.invalid_arguments.map((a) => `${a.path || '(arguments)'}: ${a.problem}`).join('; ')]);
  const table = el('table');
  for (const [k, v] of rows) {
    const tr = el('tr');
    tr.append(el('th', k), el('td', v));
    table.append(tr);
  }
  box.append(table);
}

function renderEvidence(error) {
  const box = $('evidence');
  box.replaceChildren();
  const evidence = error?.evidence;
  if (!evidence) {
    box.append(el('p', 'No evidence.'));
    return;
  }
  const counts = Object.entries(evidence.redactions ?? {});
  if (counts.length > 0) {
    const line = el('p', '', 'counts');
    line.append(badge(`${counts.reduce((n, [, c]) => n + c, 0)} redacted`, 'redacted'), ` ${counts.map(([f, c]) => `${f} × ${c}`).join(', ')}`);
    box.append(line);
  }
  for (const [i, block] of (evidence.content ?? []).entries()) {
    const card = el('div', undefined, 'block');
    const head = el('div', undefined, 'block-head');
    head.append(el('strong', `#${i + 1} ${block.type}`));
    if (block.truncated) head.append(badge(`truncated: kept ${block.text?.length ?? 0} of ${block.original_length} characters`, 'truncated'));
    if (block.data_omitted) head.append(badge(`binary omitted: ${block.mime_type ?? 'data'}, ${block.encoded_bytes} encoded bytes`, 'omitted'));
    if (block.content_omitted) head.append(badge('content omitted', 'omitted'));
    card.append(head);
    if (block.text !== undefined) {
      const pre = el('pre');
      pre.append(marked(block.text));
      if (block.truncated) pre.append(el('span', ' …[truncated]', 'cut'));
      card.append(pre);
    }
    box.append(card);
  }
  if (evidence.omitted_content_blocks) {
    const line = el('p', '', 'omitted-line');
    line.append(badge(`${evidence.omitted_content_blocks} more content blocks omitted`, 'omitted'));
    box.append(line);
  }
  for (const key of ['structured_content', 'parsed_error']) {
    if (evidence[key] === undefined) continue;
    box.append(el('h3', key));
    const pre = el('pre');
    pre.append(marked(JSON.stringify(evidence[key], null, 2)));
    box.append(pre);
  }
}

/** Normalize what the form holds and show it. */
function update() {
  const problem = $('input-error');
  problem.hidden = true;
  let report;
  try {
    const annotations = $('annotations').value.trim() ? JSON.parse($('annotations').value) : undefined;
    report = { tool: $('tool').value.trim() || undefined, annotations, dispatched: true, tool_result: JSON.parse($('result').value) };
  } catch (e) {
    problem.textContent = `Not JSON: ${e.message}`;
    problem.hidden = false;
    return;
  }
  const policy = { max_text_chars: Number($('max-text').value) || 8192 };
  let text;
  try {
    text = normalizeToJson(report, policy);
  } catch (e) {
    problem.textContent = `${e.code}${e.path ? ` at ${e.path}` : ''}: ${e.message}`;
    problem.hidden = false;
    return;
  }
  const outcome = normalize(report, policy);
  renderSummary(outcome);
  $('message').replaceChildren(marked(outcome.error?.message ?? ''));
  renderEvidence(outcome.error);
  $('bytes').textContent = String(new TextEncoder().encode(text).length);
  $('json').replaceChildren(marked(JSON.stringify(JSON.parse(text), null, 2)));
}

function load(index) {
  const sample = SAMPLES[index];
  $('tool').value = sample.tool;
  $('annotations').value = JSON.stringify(sample.annotations);
  $('result').value = JSON.stringify(sample.result, null, 2);
  $('max-text').value = sample.maxText ?? 2048;
  update();
}

/**
 * Run every shared vector against the package in this page (surface npm-chromium of
 * tests/vectors/gaps.json), as the Node and Deno suites do, judged against the declared
 * gaps. Resolves with the counts, the declared gaps still failing and the failures.
 */
export async function runVectors() {
  const files = await (await fetch('/vectors/index.json')).json();
  const vectors = new Map();
  for (const file of files) {
    const vector = await (await fetch(`/vectors/${file}`)).json();
    const problem = vectorProblem(vector);
    if (problem !== null) throw new Error(`tests/vectors/${file}: ${problem}`);
    vectors.set(file, vector);
  }
  const gaps = parseGaps(await (await fetch('/vectors/gaps.json')).json(), vectors);
  return runAll({ classifyRunToJson, execStepToJson, normalizeToJson }, 'npm-chromium', vectors, gaps, binding);
}

for (const [i, s] of SAMPLES.entries()) $('sample').append(new Option(s.label, String(i)));
$('sample').addEventListener('change', () => load(Number($('sample').value)));
for (const id of ['tool', 'annotations', 'result', 'max-text']) $(id).addEventListener('input', update);
$('run-vectors').addEventListener('click', async () => {
  $('vector-result').textContent = 'running…';
  const r = await runVectors();
  const declared = r.declared.length > 0 ? `, ${r.declared.length} declared gaps` : '';
  $('vector-result').textContent = `${r.passed} passed, ${r.failed} failed (${r.files} vectors${declared})`;
  $('vector-result').className = r.failed === 0 ? 'ok' : 'problem';
});
load(0);
window.runVectors = runVectors;
window.demoReady = true;
