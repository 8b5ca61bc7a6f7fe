// The small task a user might otherwise write by hand: stringify the tool result, run a
// list of secret regexes over it, cut it to a size, and throw it. It is the baseline
// bench.mjs compares the package with, for speed and for what it misses.

/** A typical hand-written secret list. */
export const NAIVE_PATTERNS = [
  [/ghp_[A-Za-z0-9]{36}/g, '[REDACTED]'],
  [/sk-[A-Za-z0-9]{20,}/g, '[REDACTED]'],
  [/AKIA[0-9A-Z]{16}/g, '[REDACTED]'],
  [/xox[abpr]-[A-Za-z0-9-]+/g, '[REDACTED]'],
  [/Bearer\s+[A-Za-z0-9._~+/=-]+/g, 'Bearer [REDACTED]'],
  [/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, '[REDACTED]'],
  [/(password|passwd|secret|token|api_key)(["']?\s*[:=]\s*["']?)[^"'\s,}&]+/gi, '$1$2[REDACTED]'],
];

/** The naive rejection for a CallToolResult: `new Error(JSON.stringify({kind, message}))`. */
export function naiveCallError(result, maxChars = 32768) {
  let text = JSON.stringify(result);
  for (const [pattern, replacement] of NAIVE_PATTERNS) text = text.replace(pattern, replacement);
  if (text.length > maxChars) text = `${text.slice(0, maxChars)}…`;
  return new Error(JSON.stringify({ kind: 'tool_error', message: text }));
}
