// The package's `redactText` against what a Node user would use instead, in one process on
// the same text: secretlint's core with its recommended preset, and a plain-JS list of the
// 15 gitleaks-style regexes of the core's Rust bench (`benches/redact.rs`, `ALTERNATION`).
// Throughput on the mixed-log families of the core's text suite (`benches/texts.rs`, the
// same bytes), then recall on the text-mode cases of the project's corpus
// (`tests/redaction/`), scored as `tests/redaction_corpus.rs` scores them.
//
// Needs the built package (`cargo xtask build-js`) and the peers, which are never the
// package's dependencies: `npm ci` in `bench/peers/`. Then, in `js-package/`:
//
//     node --expose-gc bench/compare.mjs            # print the section (npm run --prefix bench/peers compare)
//     node --expose-gc bench/compare.mjs --write    # and replace it in docs/PERFORMANCE-js.md
//
// Options: `--mib N` (text size, default 10), `--rounds N` (measured rounds, default 9),
// `--texts DIR` (where the suite's files are, default `target/bench-texts/`).
// Never part of the tests: timings are reported, not asserted.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

if (!existsSync(here('../dist/cjs/index.js'))) {
  console.error('bench/compare.mjs: the package is not built; run `cargo xtask build-js` first.');
  process.exit(1);
}
const { redactText } = await import('codemode-errors');

let peers;
try {
  peers = await import('./peers/index.mjs');
} catch (e) {
  if (e?.code !== 'ERR_MODULE_NOT_FOUND') throw e;
  console.error(
    'bench/compare.mjs: the comparison peers (@secretlint/core and its recommended preset) are not installed.\n' +
      'Install them beside the script, never in the package: `npm ci --prefix js-package/bench/peers`.\n' +
      `(${e.message})`,
  );
  process.exit(1);
}
const { lintSource, recommendPreset } = peers;
const secretlintVersion = JSON.parse(readFileSync(here('./peers/node_modules/@secretlint/core/package.json'), 'utf8')).version;
const presetVersion = JSON.parse(
  readFileSync(here('./peers/node_modules/@secretlint/secretlint-rule-preset-recommend/package.json'), 'utf8'),
).version;

const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
};
const MIB = arg('--mib', 10);
const ROUNDS = arg('--rounds', 9);
const WRITE = process.argv.includes('--write');

// ---------------------------------------------------------------- the text

/**
 * The mixed families of the core's text suite (`benches/texts.rs`), as
 * `cargo run --release --example bench_texts -- DIR` writes them (`cargo xtask bench` writes
 * them to `target/bench-texts/`): application log lines of every kind with a secret every
 * 200 lines, the same with one every 5 lines, and with none.
 */
const TEXTS_DIR = process.argv.includes('--texts')
  ? process.argv[process.argv.indexOf('--texts') + 1]
  : here('../../target/bench-texts');
function suiteText(family) {
  const path = `${TEXTS_DIR}/${family}-10m.txt`;
  if (!existsSync(path)) {
    console.error(`bench/compare.mjs: ${path} is missing; run \`cargo run --release --example bench_texts -- ${TEXTS_DIR}\` first.`);
    process.exit(1);
  }
  const text = readFileSync(path, 'utf8');
  // A prefix of whole lines when a smaller text is asked for.
  if (text.length <= MIB * (1 << 20)) return text;
  const cut = text.lastIndexOf('\n', MIB * (1 << 20));
  return text.slice(0, cut + 1);
}

// ---------------------------------------------------------------- the regex baseline

/** `ALTERNATION` of benches/redact.rs, one pattern per entry; `i` where it says `(?i)`. */
const PATTERNS = [
  [String.raw`gh[pousr]_[A-Za-z0-9]{36}`, ''],
  [String.raw`github_pat_[A-Za-z0-9_]{22,}`, ''],
  [String.raw`glpat-[A-Za-z0-9_-]{20,}`, ''],
  [String.raw`xox[abposr]-[A-Za-z0-9-]{10,}`, ''],
  [String.raw`(?:AKIA|ASIA)[A-Z0-9]{16}`, ''],
  [String.raw`AIza[A-Za-z0-9_-]{35}`, ''],
  [String.raw`sk-[A-Za-z0-9_-]{20,}`, ''],
  [String.raw`[sr]k_(?:live|test)_[A-Za-z0-9]{16,}`, ''],
  [String.raw`eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`, ''],
  [String.raw`bearer [A-Za-z0-9._~+/-]{8,}=*`, 'i'],
  [String.raw`(?:password|passwd|secret|token|api[_-]?key)\s*[:=]\s*[^\s,;]+`, 'i'],
  [String.raw`[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@`, ''],
  [String.raw`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`, ''],
  [String.raw`https://hooks\.slack\.com/services/[A-Za-z0-9/]+`, ''],
  [String.raw`npm_[A-Za-z0-9]{36}`, ''],
];

/** What a user writes: each pattern its own regex, applied in turn with `replace`. */
const LIST = PATTERNS.map(([source, flags]) => new RegExp(source, `g${flags}`));
function regexList(text) {
  let out = text;
  for (const re of LIST) out = out.replace(re, '[REDACTED]');
  return out;
}

/**
 * `source` matching without regard to ASCII case, spelled out (Node 20 has no inline
 * `(?i:...)`): a letter outside a class becomes `[Xx]`, a class gains the other case of its
 * letters and letter ranges. Enough for the patterns above.
 */
function caseless(source) {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      out += c + source[++i];
    } else if (c === '[') {
      let j = i + 1;
      let body = '';
      let extra = '';
      while (source[j] !== ']') {
        if (source[j] === '\\') {
          body += source[j] + source[j + 1];
          j += 2;
        } else if (source[j + 1] === '-' && source[j + 2] !== ']' && /[A-Za-z]/.test(source[j])) {
          const [a, b] = [source[j], source[j + 2]];
          body += `${a}-${b}`;
          extra += /[a-z]/.test(a) ? `${a.toUpperCase()}-${b.toUpperCase()}` : `${a.toLowerCase()}-${b.toLowerCase()}`;
          j += 3;
        } else {
          const d = source[j];
          body += d;
          if (/[A-Za-z]/.test(d)) extra += d === d.toLowerCase() ? d.toUpperCase() : d.toLowerCase();
          j += 1;
        }
      }
      out += `[${body}${extra}]`;
      i = j;
    } else if (/[A-Za-z]/.test(c)) {
      out += `[${c.toUpperCase()}${c.toLowerCase()}]`;
    } else {
      out += c;
    }
  }
  return out;
}

/**
 * The Rust bench's own form: the 15 joined into one alternation, one `replace`. The Rust
 * `(?i)` of the tenth branch holds to the end of the pattern (the regex crate's flags run to
 * the end of their group), so branches 10 to 15 are caseless, as here.
 */
const ALTERNATION = new RegExp(PATTERNS.map(([source], i) => (i >= 9 ? caseless(source) : source)).join('|'), 'g');
const regexAlternation = (text) => text.replace(ALTERNATION, '[REDACTED]');

// ---------------------------------------------------------------- secretlint

const SECRETLINT_CONFIG = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommendPreset }] };
/** secretlint's findings (type "message") for `text`, linted as a plain text file. */
async function secretlint(text) {
  const result = await lintSource({
    source: { content: text, filePath: 'tool-output.txt', ext: '.txt', contentType: 'text' },
    options: { config: SECRETLINT_CONFIG, noPhysicFilePath: true },
  });
  return result.messages.filter((m) => m.type === 'message');
}
/** `text` with every finding's range replaced by a NUL: what redaction by its findings leaves. */
function masked(text, findings) {
  const ranges = findings.map((m) => m.range).sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end] of ranges) {
    if (end <= at) continue;
    out += text.slice(at, Math.max(at, start)) + '\0';
    at = end;
  }
  return out + text.slice(at);
}

// ---------------------------------------------------------------- timing

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The tools timed, each from the text to what it hands back (a string or findings). */
const TOOLS = [
  ['redactText', (t) => redactText(t)],
  ['secretlint', (t) => secretlint(t)],
  ['regexList', (t) => regexList(t)],
  ['regexAlternation', (t) => regexAlternation(t)],
];
const LABEL = {
  redactText: 'package `redactText`',
  secretlint: `secretlint core ${secretlintVersion} + preset-recommend ${presetVersion} (\`lintSource\`)`,
  regexList: 'plain-JS list: 15 regexes, 15 × `replace`',
  regexAlternation: 'the same 15 joined: 1 × `replace` (the Rust bench\'s form)',
};

/**
 * Milliseconds per call of every tool on `text`: `rounds` interleaved rounds after two of
 * warm-up, so load on the machine falls on all of them alike; each tool's samples kept.
 */
async function timeAll(text, rounds) {
  const samples = Object.fromEntries(TOOLS.map(([name]) => [name, []]));
  for (let r = -2; r < rounds; r++) {
    for (const [name, f] of TOOLS) {
      globalThis.gc?.();
      const t = performance.now();
      const out = await f(text);
      const ms = performance.now() - t;
      if (out.length < 0) throw new Error('unreachable'); // keep the result alive
      if (r >= 0) samples[name].push(ms);
    }
  }
  return samples;
}

// ---------------------------------------------------------------- the corpus (text mode)

const corpus = (name) =>
  readFileSync(here(`../../tests/redaction/${name}`), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));

const FRAGMENT = 8;
/** `invisible` of tests/redaction_corpus.rs. */
const invisible = (cp) =>
  cp === 0xad || cp === 0x34f || cp === 0x61c || cp === 0x115f || cp === 0x1160 || cp === 0x17b4 || cp === 0x17b5 ||
  (cp >= 0x180b && cp <= 0x180f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
  (cp >= 0x2060 && cp <= 0x206f) || cp === 0x3164 || (cp >= 0xfe00 && cp <= 0xfe0f) || cp === 0xfeff || cp === 0xffa0 ||
  (cp >= 0xe0000 && cp <= 0xe0fff);
/** `model_view`: invisible characters dropped, full-width forms as ASCII. */
function modelView(text) {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    if (invisible(cp)) continue;
    if (cp >= 0xff01 && cp <= 0xff5e) out += String.fromCodePoint(cp - 0xfee0);
    else if (cp === 0x3000) out += ' ';
    else out += ch;
  }
  return out;
}
/** `without_markers`: every `[REDACTED:<family>]` replaced by a NUL. */
function withoutMarkers(output) {
  let out = '';
  let rest = output;
  for (let at = rest.indexOf('[REDACTED:'); at >= 0; at = rest.indexOf('[REDACTED:')) {
    out += rest.slice(0, at) + '\0';
    const end = rest.indexOf(']', at);
    rest = end < 0 ? '' : rest.slice(end + 1);
  }
  return out + rest;
}
/** `outside_secrets`: the input as a model reads it with every secret cut out. */
function outsideSecrets(input, secrets) {
  let context = modelView(input);
  for (const s of secrets) context = context.split(modelView(s)).join('\0');
  return context;
}
/** `surviving_fragment`: whether an 8-character fragment of `secret` not found in `context` survives. */
function survives(output, secret, context) {
  const cps = Array.from(modelView(secret));
  if (cps.length <= FRAGMENT) {
    const whole = cps.join('');
    return output.includes(whole) && !context.includes(whole);
  }
  for (let i = 0; i + FRAGMENT <= cps.length; i++) {
    const f = cps.slice(i, i + FRAGMENT).join('');
    if (output.includes(f) && !context.includes(f)) return true;
  }
  return false;
}
/** Whether every occurrence of every secret lies inside one finding's range. */
function covered(text, secrets, findings) {
  return secrets.every((s) => {
    let any = false;
    for (let at = text.indexOf(s); at >= 0; at = text.indexOf(s, at + 1)) {
      any = true;
      if (!findings.some(({ range: [a, b] }) => a <= at && at + s.length <= b)) return false;
    }
    return any;
  });
}

async function recall() {
  const positives = corpus('positives.jsonl');
  const negatives = corpus('negatives.jsonl');
  const textPositives = positives.filter((c) => c.mode === 'text');
  const textNegatives = negatives.filter((c) => c.mode === 'text');
  const names = ['redactText', 'secretlint', 'regexList', 'regexAlternation'];
  const hits = Object.fromEntries(names.map((n) => [n, 0]));
  const untouched = Object.fromEntries(names.map((n) => [n, 0]));
  const families = new Map();
  let secretlintCovered = 0;
  for (const c of textPositives) {
    const context = outsideSecrets(c.text, c.secrets);
    const findings = await secretlint(c.text);
    const outputs = {
      redactText: redactText(c.text),
      secretlint: masked(c.text, findings),
      regexList: regexList(c.text),
      regexAlternation: regexAlternation(c.text),
    };
    const family = families.get(c.family) ?? Object.fromEntries([['cases', 0], ...names.map((n) => [n, 0])]);
    family.cases += 1;
    for (const n of names) {
      const out = withoutMarkers(modelView(outputs[n]));
      const hit = !c.secrets.some((s) => survives(out, s, context));
      hits[n] += hit;
      family[n] += hit;
    }
    families.set(c.family, family);
    secretlintCovered += covered(c.text, c.secrets, findings);
  }
  for (const c of textNegatives) {
    untouched.redactText += redactText(c.text) === c.text;
    untouched.secretlint += (await secretlint(c.text)).length === 0;
    untouched.regexList += regexList(c.text) === c.text;
    untouched.regexAlternation += regexAlternation(c.text) === c.text;
  }
  return {
    positives: textPositives.length,
    reportPositives: positives.length - textPositives.length,
    negatives: textNegatives.length,
    reportNegatives: negatives.length - textNegatives.length,
    hits,
    untouched,
    secretlintCovered,
    families,
  };
}

/** Six lines with a secret each, of six kinds, checked one by one. */
const SECRETS = [
  'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2lnbmF0dXJlLXRoYXQtaXMtbG9uZw',
  'export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  'db url postgres://app:s3cr3t-passw0rd@db.internal:5432/prod',
  'aws key AKIAIOSFODNN7EXAMPLE with secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'slack https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX',
  'password=hunter2-but-longer',
];

/** For each of the six lines: whether each tool leaves any of its secret behind. */
async function plantedLines() {
  const parts = [
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2lnbmF0dXJlLXRoYXQtaXMtbG9uZw'],
    ['ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
    ['s3cr3t-passw0rd'],
    ['AKIAIOSFODNN7EXAMPLE', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
    ['T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX'],
    ['hunter2-but-longer'],
  ];
  const rows = [];
  for (const [i, line] of SECRETS.entries()) {
    const secrets = parts[i];
    const context = outsideSecrets(line, secrets);
    const outs = {
      redactText: redactText(line),
      secretlint: masked(line, await secretlint(line)),
      regexList: regexList(line),
      regexAlternation: regexAlternation(line),
    };
    const row = { line };
    for (const [n, o] of Object.entries(outs)) row[n] = !secrets.some((s) => survives(withoutMarkers(modelView(o)), s, context));
    rows.push(row);
  }
  return rows;
}

// ---------------------------------------------------------------- run

const texts = [
  ['mixed log, a secret every 200 lines (app_log)', suiteText('app_log')],
  ['mixed log, a secret every 5 lines (app_log_dense)', suiteText('app_log_dense')],
  ['mixed log, clean (app_log_clean)', suiteText('app_log_clean')],
];
const runs = [];
for (const [label, text] of texts) {
  const samples = await timeAll(text, ROUNDS);
  const mbs = (ms) => text.length / (1 << 20) / (ms / 1000);
  const stats = Object.fromEntries(
    Object.entries(samples).map(([n, ms]) => [n, { median: mbs(median(ms)), lo: mbs(Math.max(...ms)), hi: mbs(Math.min(...ms)) }]),
  );
  // Ratios of each round's own times, so a slow moment falls on both sides of a ratio.
  const ratio = (other) => {
    const rs = samples.redactText.map((ms, i) => samples[other][i] / ms);
    return { median: median(rs), lo: Math.min(...rs), hi: Math.max(...rs) };
  };
  runs.push({ label, bytes: text.length, stats, vs: { secretlint: ratio('secretlint'), regexList: ratio('regexList'), regexAlternation: ratio('regexAlternation') } });
  console.error(`timed: ${label}`);
}
const r = await recall();
const planted = await plantedLines();

// ---------------------------------------------------------------- the section

const f1 = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const f2 = (x) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
const pct = (a, b) => `${((100 * a) / b).toFixed(1)} %`;
const mbCell = (s) => `${f1(s.median)} (${f1(s.lo)}–${f1(s.hi)})`;
const ratioCell = (x) => `${f2(x.median)}× (${f2(x.lo)}–${f2(x.hi)})`;
const met = (ok) => (ok ? 'met' : '**missed**');
const eqOrBetter = (n, other) => r.hits[n] >= r.hits[other];

const worstSecretlint = Math.min(...runs.map((x) => x.vs.secretlint.median));
const worstList = Math.min(...runs.map((x) => Math.max(x.vs.regexList.median, x.vs.regexAlternation.median)));

const BEGIN = '<!-- bench/compare.mjs: generated from here -->';
const END = '<!-- bench/compare.mjs: generated up to here -->';
const section = `${BEGIN}

Measured by \`bench/compare.mjs\` in one Node process: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version},
load average ${loadavg().map((l) => l.toFixed(1)).join(', ')} when it finished (other work shares the machine).

\`\`\`sh
cargo xtask build-js                     # the package, into js-package/dist/
npm ci --prefix js-package/bench/peers   # secretlint, beside the bench, never in the package
cd js-package && node --expose-gc bench/compare.mjs --write   # or: npm run --prefix bench/peers compare
\`\`\`

\`cargo xtask bench\` runs it too, after \`bench/bench.mjs\` (which keeps this section as it is).

The texts are the mixed-log families of the core's text suite (\`benches/texts.rs\`), read from the files \`examples/bench_texts.rs\` writes:
${(runs[0].bytes / (1 << 20)).toFixed(1)} MB each (MB = 2^20 bytes here) of log lines of eight kinds (requests with query
strings, stack frames, JSON error bodies, ENOENT lines, retries with a commit sha, SQL timings)
with varying values, and planted secrets of fourteen kinds in turn. Only the scan is timed (\`performance.now()\` around the call; the text and
secretlint's configuration are built before): \`redactText(text)\`; \`await lintSource(...)\`
with the recommended preset, the text linted as a \`.txt\` file; the regexes' \`replace\`.
${ROUNDS} rounds after 2 of warm-up, the four tools interleaved in every round; MB/s is the
median round, with the slowest and fastest in brackets. A ratio is the other tool's time over
\`redactText\`'s in the same round (above 1: \`redactText\` is faster), median and range.

| ${runs.map((x) => x.label).join(' | ')} | tool |
|${' --- |'.repeat(runs.length + 1)}
${TOOLS.map(([n]) => `| ${runs.map((x) => `${mbCell(x.stats[n])} MB/s`).join(' | ')} | ${LABEL[n]} |`).join('\n')}
| ${runs.map((x) => ratioCell(x.vs.secretlint)).join(' | ')} | \`redactText\` against secretlint (target ≥ 3×) |
| ${runs.map((x) => ratioCell(x.vs.regexList)).join(' | ')} | \`redactText\` against the plain-JS list (target ≥ 2×) |
| ${runs.map((x) => ratioCell(x.vs.regexAlternation)).join(' | ')} | \`redactText\` against the joined alternation |

Recall on the project's corpus (\`tests/redaction/\`), its text-mode cases only: ${r.positives} of the
${r.positives + r.reportPositives} positives and ${r.negatives} of the ${r.negatives + r.reportNegatives} negatives (the ${r.reportPositives + r.reportNegatives} report-mode cases go through
\`normalize\` as a whole MCP result, which the other tools have no counterpart for). Scored as
\`tests/redaction_corpus.rs\` scores a text case: a positive is a strict hit when no secret and no
8-character fragment of one survives in the output; a negative is untouched when the output is the
input. secretlint reports findings and does not replace, so its output is the text with every
finding's range cut out; by the plainer rule (every occurrence of every secret inside one finding's
range) it hits ${r.secretlintCovered}. A negative is untouched by secretlint when it reports nothing.

| tool | strict recall (text positives) | negatives untouched |
| --- | --- | --- |
${TOOLS.map(([n]) => `| ${LABEL[n]} | ${r.hits[n]} / ${r.positives} (${pct(r.hits[n], r.positives)}) | ${r.untouched[n]} / ${r.negatives} (${pct(r.untouched[n], r.negatives)}) |`).join('\n')}

Six lines with a secret each, each on its own (caught: no fragment of its secret left):

| planted line | \`redactText\` | secretlint | list | alternation |
| --- | --- | --- | --- | --- |
${planted.map((p) => `| \`${p.line}\` | ${['redactText', 'secretlint', 'regexList', 'regexAlternation'].map((n) => (p[n] ? 'caught' : '**leaks**')).join(' | ')} |`).join('\n')}

| target (issue 10) | measured | |
| --- | --- | --- |
| \`redactText\` ≥ 3× secretlint's core | ${runs.map((x) => `${f2(x.vs.secretlint.median)}×`).join(', ')} (${runs.map((x) => x.label).join(', ')}) | ${met(worstSecretlint >= 3)} |
| \`redactText\` ≥ 2× a plain-JS regex list | ${runs.map((x) => `${f2(x.vs.regexList.median)}× the list, ${f2(x.vs.regexAlternation.median)}× the alternation`).join('; ')} | ${met(worstList >= 2)} |
| at equal or better recall | ${pct(r.hits.redactText, r.positives)} against ${pct(r.hits.secretlint, r.positives)}, ${pct(r.hits.regexList, r.positives)}, ${pct(r.hits.regexAlternation, r.positives)} | ${met(['secretlint', 'regexList', 'regexAlternation'].every((n) => eqOrBetter('redactText', n)))} |

${END}`;

const familyTable = [...r.families]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([name, fam]) => `${name.padEnd(30)} ${String(fam.cases).padStart(4)} ${['redactText', 'secretlint', 'regexList', 'regexAlternation'].map((n) => String(fam[n]).padStart(6)).join('')}`)
  .join('\n');
console.log(section);
console.log(`\nper family (text positives): cases, then hits of redactText, secretlint, list, alternation\n${familyTable}`);

if (WRITE) {
  const doc = here('../../docs/PERFORMANCE-js.md');
  const old = readFileSync(doc, 'utf8');
  const [a, b] = [old.indexOf(BEGIN), old.indexOf(END)];
  if (a < 0 || b < 0) {
    console.error(`bench/compare.mjs: docs/PERFORMANCE-js.md has no generated section between the markers; add "${BEGIN}" and "${END}" under the section's heading.`);
    process.exit(1);
  }
  writeFileSync(doc, old.slice(0, a) + section + old.slice(b + END.length));
  console.error(`rewrote the generated part of ${doc}`);
}
