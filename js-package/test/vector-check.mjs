// Checks one shared test vector (tests/vectors/README.md) against an entry point of the
// package. Runs unchanged under Node, Deno and in the browser demo page.

/**
 * The inputs a vector is fed as: a `report` (or a run report, `run`) both as the object
 * itself and as its compact JSON text; a `report_text` only as text (the object entry
 * points skip it).
 * @returns {Array<[string, unknown]>} pairs of form name and input
 */
export function forms(vector) {
  if ('report_text' in vector) return [['text', vector.report_text]];
  const report = 'run' in vector ? vector.run : vector.report;
  return [
    ['object', report],
    ['text', JSON.stringify(report)],
  ];
}

/** Where two strings first differ, with context from each. */
export function firstDifference(expected, actual) {
  let at = 0;
  while (at < expected.length && at < actual.length && expected[at] === actual[at]) at++;
  const window = (s) => s.slice(Math.max(0, at - 80), at + 160);
  return `first difference at ${at} (expected ${expected.length} chars, got ${actual.length}):\n  expected: …${window(expected)}…\n  actual:   …${window(actual)}…`;
}

/**
 * Check one input form of a vector with `api` (the package's exports): a run vector with
 * `classifyRunToJson`, any other with `normalizeToJson`. The expected bytes are
 * `JSON.stringify(vector.expected)`; an `expected_error` is compared by `code` and `path`.
 * @returns {string | null} null when the output matches, else what differs
 */
export function check(api, vector, input) {
  let output;
  let thrown;
  try {
    output = 'run' in vector ? api.classifyRunToJson(input) : api.normalizeToJson(input, vector.policy);
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
