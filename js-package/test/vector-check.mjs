// The shared test vectors (tests/vectors/README.md) and their declared gaps
// (tests/vectors/gaps.json), with the same rules as the Rust loader
// (tests/vector-suite/src/): which forms apply to a vector, which a surface runs, and how a
// result is judged against the gaps. Pure JavaScript: runs unchanged under Node, Deno and
// in the browser demo page.

/** Top-level keys a vector may have. */
export const VECTOR_KEYS = ['description', 'policy', 'report', 'report_text', 'run', 'exec', 'expected', 'expected_error'];

/** The only files at the top of the vectors folder; everything else is `<group>/<name>.json`. */
export const TOP_LEVEL_FILES = ['README.md', 'gaps.json', 'off-schema.json'];

/** Every form, as the Rust loader names them (`Form::name`). */
export const FORMS = ['text', 'object', 'typed', 'run-text', 'run-object', 'exec', 'exec-call'];

/** Whether `name`, a path below the vectors folder, is a vector file (`<group>/<name>.json`). */
export function isVectorFile(name) {
  const parts = name.split('/');
  return parts.length === 2 && parts[1].endsWith('.json');
}

/** Whether `name` is allowed in the vectors folder at all. */
export function isExpectedFile(name) {
  return isVectorFile(name) || TOP_LEVEL_FILES.includes(name);
}

/** What is wrong with a vector's shape, as the Rust loader checks it, or null. */
export function vectorProblem(vector) {
  if (vector === null || typeof vector !== 'object' || Array.isArray(vector)) return 'the vector is not a JSON object';
  const unknown = Object.keys(vector).find((k) => !VECTOR_KEYS.includes(k));
  if (unknown !== undefined) return `unknown top-level key ${JSON.stringify(unknown)}`;
  if (typeof vector.description !== 'string' || vector.description.trim() === '') return '`description` (a non-empty string naming the rule) is required';
  const inputs = ['report', 'report_text', 'run', 'exec'].filter((k) => k in vector);
  if (inputs.length !== 1) return 'exactly one of `report`, `report_text`, `run` and `exec` is required';
  if ('report_text' in vector && typeof vector.report_text !== 'string') return '`report_text` must be a string';
  if (('run' in vector || 'exec' in vector) && 'policy' in vector) return 'a `run` or `exec` vector takes no `policy`';
  if ('expected' in vector === 'expected_error' in vector) return 'exactly one of `expected` and `expected_error` is required';
  const runLayer = 'run' in vector || 'exec' in vector;
  if ('expected' in vector && !runLayer && (typeof vector.expected?.error !== 'object' || Array.isArray(vector.expected.error))) {
    return '`expected.error` must be an object or null';
  }
  const e = vector.expected_error;
  if (e !== undefined && (typeof e?.code !== 'string' || typeof e?.path !== 'string')) return '`expected_error` must be {code, path} strings';
  return null;
}

/**
 * Whether `form` can apply to `vector` at all, on any surface (`Vector::applies` in the
 * Rust loader, which documents why):
 * - `text`: a `report` (as its compact JSON) or a `report_text` (as written);
 * - `object`: a `report` only: a `report_text` is raw text, with no value without choosing
 *   a JSON parser, whose rules are what those vectors test in the core's own reader;
 * - `run-text`, `run-object`: a `run` report only;
 * - `exec`: an executor step, as its JSON text through `execStepToJson`;
 * - `exec-call`: a well-formed step through its own function of the binding (`execCall`);
 * - `typed`: the WIT typed entry point, which no JavaScript surface has: only the Rust
 *   loader decides which reports the WIT types can express, so here any `report` may.
 */
export function applies(vector, form) {
  switch (form) {
    case 'text':
      return 'report' in vector || 'report_text' in vector;
    case 'object':
    case 'typed':
      return 'report' in vector;
    case 'run-text':
    case 'run-object':
      return 'run' in vector;
    case 'exec':
      return 'exec' in vector;
    case 'exec-call':
      return 'exec' in vector && stepCall(vector.exec) !== null;
    default:
      return false;
  }
}

const STEP_MEMBERS = {
  request: ['request'],
  module_access: ['code', 'restart_safe'],
  syntax_error: ['engine', 'message', 'stack', 'position', 'wrapping', 'source', 'restart_safe'],
  user_stack: ['engine', 'name', 'message', 'stack', 'wrapping', 'label'],
  project_completed: ['output', 'value', 'max_bytes', 'dispatched', 'restart_safe'],
  fit_output: ['output', 'budget'],
};
const ENGINES = ['v8', 'quickjs', 'spidermonkey'];
const U32 = 2 ** 32 - 1;

/**
 * A step's call as a function of its arguments (`binding` in, the answer's JSON text out),
 * when the step is well formed (as `ExecCall::from_step` in the Rust loader decides), else
 * null: a malformed step has no call to make.
 */
export function stepCall(step) {
  if (step === null || typeof step !== 'object' || Array.isArray(step)) return null;
  const members = STEP_MEMBERS[step.step];
  if (members === undefined || Object.keys(step).some((k) => k !== 'step' && !members.includes(k))) return null;
  const str = (k) => (typeof step[k] === 'string' ? step[k] : null);
  const flag = (k) => (step[k] === undefined ? false : typeof step[k] === 'boolean' ? step[k] : null);
  const count = (v) => (Number.isInteger(v) && v >= 0 && v <= U32 ? v : null);
  const wrap = (w) => {
    if (w === null || typeof w !== 'object' || Array.isArray(w)) return null;
    if (Object.keys(w).some((k) => !['file', 'lines_before', 'columns_before', 'source_lines'].includes(k))) return null;
    const lines = w.source_lines === undefined || w.source_lines === null ? 0 : count(w.source_lines);
    if (typeof w.file !== 'string' || count(w.lines_before) === null || count(w.columns_before) === null || lines === null) return null;
    return { ...w, lines };
  };
  const strings = (...keys) => (keys.every((k) => str(k) !== null) ? keys.map(str) : null);
  switch (step.step) {
    case 'request':
      return 'request' in step ? (b) => b.execRequest(step.request) : null;
    case 'module_access': {
      const rs = flag('restart_safe');
      if (str('code') === null || rs === null) return null;
      return (b) => b.moduleAccess(step.code, rs) ?? 'null';
    }
    case 'syntax_error': {
      const s = strings('message', 'stack', 'source');
      const w = wrap(step.wrapping);
      const rs = flag('restart_safe');
      const p = step.position ?? null;
      const pos = p === null ? [0, 0] : Array.isArray(p) && p.length === 2 && p.every((n) => count(n) !== null && n >= 1) ? p : null;
      if (!ENGINES.includes(step.engine) || s === null || w === null || rs === null || pos === null) return null;
      return (b) => b.syntaxError(step.engine, s[0], s[1], pos[0], pos[1], w.file, w.lines_before, w.columns_before, w.lines, s[2], rs);
    }
    case 'user_stack': {
      const s = strings('name', 'message', 'stack', 'label');
      const w = wrap(step.wrapping);
      if (!ENGINES.includes(step.engine) || s === null || w === null) return null;
      return (b) => JSON.stringify(b.userStack(step.engine, s[0], s[1], s[2], w.file, w.lines_before, w.columns_before, w.lines, s[3]));
    }
    case 'project_completed': {
      const s = strings('output', 'value');
      const [d, rs] = [flag('dispatched'), flag('restart_safe')];
      if (s === null || count(step.max_bytes) === null || d === null || rs === null) return null;
      return (b) => b.projectCompleted(s[0], s[1], step.max_bytes, d, rs);
    }
    case 'fit_output': {
      if (str('output') === null || count(step.budget) === null) return null;
      return (b) => {
        const [output, truncated] = b.fitOutput(step.output, step.budget);
        return JSON.stringify({ output, truncated });
      };
    }
    default:
      return null;
  }
}

/** The input `form` feeds: the value itself, or its compact JSON text, or `report_text`. */
export function input(vector, form) {
  switch (form) {
    case 'text':
      return 'report_text' in vector ? vector.report_text : JSON.stringify(vector.report);
    case 'object':
      return vector.report;
    case 'run-text':
      return JSON.stringify(vector.run);
    case 'run-object':
      return vector.run;
    case 'exec':
      return JSON.stringify(vector.exec);
    default:
      throw new Error(`no JavaScript entry point takes the ${form} form`);
  }
}

/**
 * `gaps.json`, checked as the Rust loader checks it: surfaces with known forms, and gaps
 * naming a known surface, a vector of `vectors` (a Map of name to vector), a form the
 * surface runs and that applies to the vector, and a reason. An entry without `form`
 * stands for every form the surface runs for that vector. Throws on the first problem.
 * @returns {{ surfaces: Map<string, { runner: string, forms: string[] }>, gaps: Array<{ surface: string, vector: string, form: string, reason: string }> }}
 */
export function parseGaps(doc, vectors) {
  const fail = (why) => {
    throw new Error(`tests/vectors/gaps.json: ${why}`);
  };
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) fail('not a JSON object');
  const unknown = Object.keys(doc).find((k) => !['description', 'surfaces', 'gaps'].includes(k));
  if (unknown !== undefined) fail(`unknown key ${JSON.stringify(unknown)}`);
  if (doc.surfaces === null || typeof doc.surfaces !== 'object' || Array.isArray(doc.surfaces)) fail('`surfaces` must be an object');
  const surfaces = new Map();
  for (const [name, decl] of Object.entries(doc.surfaces)) {
    if (typeof decl?.runner !== 'string' || !Array.isArray(decl.forms)) fail(`surfaces.${name} must be {runner, forms}`);
    for (const form of decl.forms) if (!FORMS.includes(form)) fail(`surfaces.${name}: unknown form ${JSON.stringify(form)}`);
    if (new Set(decl.forms).size !== decl.forms.length) fail(`surfaces.${name}: a form is listed twice`);
    surfaces.set(name, { runner: decl.runner, forms: decl.forms });
  }
  if (!Array.isArray(doc.gaps)) fail('`gaps` must be an array');
  const gaps = [];
  for (const [i, entry] of doc.gaps.entries()) {
    const at = `gaps[${i}]`;
    const extra = Object.keys(entry ?? {}).find((k) => !['surface', 'vector', 'form', 'reason'].includes(k));
    if (extra !== undefined) fail(`${at}: unknown key ${JSON.stringify(extra)}`);
    const surface = surfaces.get(entry?.surface);
    if (surface === undefined) fail(`${at}: unknown surface ${JSON.stringify(entry?.surface)}`);
    const vector = vectors.get(entry.vector);
    if (vector === undefined) fail(`${at}: no vector named ${entry.vector}`);
    if (typeof entry.reason !== 'string' || entry.reason.trim() === '') fail(`${at}: \`reason\` must be a non-empty string`);
    let forms;
    if (entry.form === undefined) {
      forms = surface.forms.filter((f) => applies(vector, f));
      if (forms.length === 0) fail(`${at}: ${entry.surface} runs no form of ${entry.vector}`);
    } else {
      if (!FORMS.includes(entry.form)) fail(`${at}: unknown form ${JSON.stringify(entry.form)}`);
      if (!surface.forms.includes(entry.form)) fail(`${at}: ${entry.surface} does not run the ${entry.form} form`);
      if (!applies(vector, entry.form)) fail(`${at}: the ${entry.form} form does not apply to ${entry.vector}`);
      forms = [entry.form];
    }
    for (const form of forms) {
      if (gaps.some((g) => g.surface === entry.surface && g.vector === entry.vector && g.form === form)) {
        fail(`${at}: ${entry.surface} ${entry.vector} [${form}] is declared twice`);
      }
      gaps.push({ surface: entry.surface, vector: entry.vector, form, reason: entry.reason });
    }
  }
  return { surfaces, gaps };
}

/** The forms `surface` runs for `vector`: the declared ones that apply. */
export function formsFor(gaps, surface, vector) {
  const decl = gaps.surfaces.get(surface);
  if (decl === undefined) throw new Error(`tests/vectors/gaps.json declares no surface ${JSON.stringify(surface)}`);
  return decl.forms.filter((f) => applies(vector, f));
}

/** The declared gap for this pair, or undefined. */
export function gapFor(gaps, surface, file, form) {
  return gaps.gaps.find((g) => g.surface === surface && g.vector === file && g.form === form);
}

/**
 * Judge one check against the declared gaps, as the Rust loader's tally does.
 * @param {string | null} problem what `check` returned
 * @returns {{ ok: boolean, message: string | null, gap?: object }} `ok` false fails the run
 */
export function judge(gaps, surface, file, form, problem) {
  const gap = gapFor(gaps, surface, file, form);
  if (gap === undefined) return { ok: problem === null, message: problem };
  if (problem !== null) return { ok: true, message: `declared gap, still failing: ${gap.reason}`, gap };
  return { ok: false, message: `a declared gap now passes: remove its entry (${surface} ${file} [${form}]) from tests/vectors/gaps.json`, gap };
}

/** Where two strings first differ, with context from each. */
export function firstDifference(expected, actual) {
  let at = 0;
  while (at < expected.length && at < actual.length && expected[at] === actual[at]) at++;
  const window = (s) => s.slice(Math.max(0, at - 80), at + 160);
  return `first difference at ${at} (expected ${expected.length} chars, got ${actual.length}):\n  expected: …${window(expected)}…\n  actual:   …${window(actual)}…`;
}

/**
 * Check one form of a vector with `api` (the package's exports, or anything with the same
 * `normalizeToJson`, `classifyRunToJson` and `execStepToJson`): a run vector with
 * `classifyRunToJson`, an exec vector with `execStepToJson` (`exec`) or its own function
 * of `binding`, the package's WebAssembly binding (`exec-call`), any other with
 * `normalizeToJson`. The expected bytes are `JSON.stringify(vector.expected)`;
 * an `expected_error` is compared by `code` and `path`.
 * @returns {string | null} null when the output matches, else what differs
 */
export function check(api, vector, form, binding) {
  let output;
  let thrown;
  try {
    if (form === 'exec-call') {
      if (binding === undefined) return 'the exec-call form needs the binding';
      output = stepCall(vector.exec)(binding);
    } else {
      const value = input(vector, form);
      if ('exec' in vector) output = api.execStepToJson(value);
      else output = 'run' in vector ? api.classifyRunToJson(value) : api.normalizeToJson(value, vector.policy);
    }
  } catch (e) {
    thrown = e;
  }
  if ('expected' in vector) {
    if (thrown !== undefined) return `threw ${thrown?.code} at ${JSON.stringify(thrown?.path)}: ${thrown?.message}`;
    const expected = JSON.stringify(vector.expected);
    return output === expected ? null : firstDifference(expected, output);
  }
  if ('expected_error' in vector) {
    const want = vector.expected_error;
    if (thrown === undefined) return `expected the error ${JSON.stringify(want)}, got the outcome ${output}`;
    if (!(thrown instanceof TypeError)) return `expected a TypeError, got ${thrown}`;
    if (thrown.code !== want.code || thrown.path !== want.path) {
      return `expected ${JSON.stringify(want)}, got ${JSON.stringify({ code: thrown.code, path: thrown.path })}: ${thrown.message}`;
    }
    return null;
  }
  return 'the vector has neither `expected` nor `expected_error`';
}

/**
 * Run every form `surface` declares of every vector through `api` and judge the results.
 * `vectors` is a Map of name to vector, `gaps` what `parseGaps` returned.
 * @returns {{ files: number, checks: number, passed: number, failed: number, declared: string[], failures: string[] }}
 */
export function runAll(api, surface, vectors, gaps, binding) {
  const failures = [];
  const declared = [];
  let checks = 0;
  let passed = 0;
  for (const [file, vector] of vectors) {
    for (const form of formsFor(gaps, surface, vector)) {
      checks++;
      const verdict = judge(gaps, surface, file, form, check(api, vector, form, binding));
      if (!verdict.ok) failures.push(`${file} [${form}]: ${verdict.message}`);
      else {
        passed++;
        if (verdict.gap) declared.push(`${file} [${form}]: ${verdict.gap.reason}`);
      }
    }
  }
  return { files: vectors.size, checks, passed, failed: failures.length, declared, failures };
}
