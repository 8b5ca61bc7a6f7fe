// codemode-errors: every code-mode tool failure as one versioned, redacted, size-capped
// error object. The rules live in the WebAssembly core; see README.md for the API.

export { Normalizer, normalize, normalizeToJson, redactJson, redactText, toCallError } from './normalize.js';
export { parseCallError, toMcpErrorEnvelope } from './consumer.js';
export { classifyRun, classifyRunToJson, execStepToJson } from './run.js';
export { wrapCallTool } from './call-tool.js';
export { createCodemode } from './codemode.js';
export { execute } from './execute.js';
