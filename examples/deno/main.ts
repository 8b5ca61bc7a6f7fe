// The codemode-errors npm package in Deno: the same package Node and browsers load, resolved
// through its package.json `deno` export (the core is imported as a WebAssembly module, so
// no permission flags are needed). A Deno gateway normalizes three failures, rejects
// with the contract, and reads it back the way sandbox code does. (`execute` is the one
// export that needs `--allow-read`: either executor starts its worker from the package's
// files, and without the flag every run resolves `runtime_unavailable`.)
//
//   npm install && npx deno run main.ts

import { type CodeModeCallError, type FailureReport, normalize, parseCallError, redactText, toCallError } from 'codemode-errors';

const reports: Record<string, FailureReport> = {
  'a completed isError result': {
    tool: 'github::create_issue',
    annotations: { readOnlyHint: false },
    dispatched: true,
    tool_result: {
      isError: true,
      content: [{ type: 'text', text: 'HTTP/1.1 429 Too Many Requests; Retry-After: 20 (auth=Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789)' }],
    },
  },
  'a dropped connection': { tool: 'search::web', transport: { kind: 'connection_closed', message: 'socket hang up' } },
  'a budget stop': { tool: 'fs::read_file', budget: { kind: 'quota_exceeded', message: 'code-mode run exceeded 50 tool calls', retry_after_ms: 60000 } },
};

for (const [what, report] of Object.entries(reports)) {
  const { error, breaker } = normalize(report);
  console.log(`${what}: kind=${error?.kind} origin=${error?.origin} next=${error?.recovery.action} breaker=${breaker}`);
}

const rejection = toCallError(reports['a completed isError result']);
const read: CodeModeCallError = parseCallError(rejection);
console.log(`read back in sandbox code: ${read.kind}, retry after ${read.recovery.retry_after_ms} ms, secrets shown: ${read.message.includes('ghp_')}`);
console.log(`redactText: ${redactText('password=hunter2 and Authorization: Bearer abcdefghijklmnopqrstuv')}`);
