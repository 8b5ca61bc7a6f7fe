// How a whole code-mode run ended: the terminal error of a failed run. Thin like the
// rest of the layer: the WebAssembly core reads the run report and decides the code,
// phase and replay safety; this module only picks the reader and parses the JSON text.

import * as wasm from './binding.js';
import { asJsonText } from './plain.js';

/**
 * The terminal error of a failed run, as the core's exact JSON text. `report` is a run
 * report (`bridge_dispatch_started` and exactly one failure member) or its JSON text.
 *
 * @example
 * classifyRunToJson({ bridge_dispatch_started: false, aborted: {} });
 * // '{"code":"aborted","message":"...","bridgeDispatchStarted":false,"replaySafe":true}'
 */
export function classifyRunToJson(report) {
  return wasm.classifyRun(asJsonText(report) ?? report);
}

/**
 * The terminal error of a failed run as an object: `code`, `message`, `failurePhase`,
 * `bridgeDispatchStarted`, `replaySafe`, and `line`/`column` or the uncaught `toolError`
 * when there are any.
 *
 * @example
 * const end = classifyRun({ bridge_dispatch_started: true, guest_exception: { name: 'TypeError', message: 'x is undefined' } });
 * // end.code === 'internal_error', end.failurePhase === 'guest', end.replaySafe === false
 */
export function classifyRun(report) {
  return JSON.parse(classifyRunToJson(report));
}

/**
 * One executor step answered by the core's run-layer rules, as JSON text: read an exec
 * request, refuse module access, place a syntax error in the submitted source, rewrite a
 * guest stack to `<label>:user.js` frames, fit a completed run to its output budget, or
 * cut console output. `step` is `{ step, ...arguments }` (the forms of the core's
 * `run::ExecStep`) or its JSON text; a malformed step throws a TypeError naming the member.
 * `execute` applies the same rules itself; this is for an executor orchestrated elsewhere.
 *
 * @example
 * execStepToJson({ step: 'module_access', code: "return require('fs')" });
 * // '{"failed":{"code":"invalid_input","message":"the exec request was rejected: module access ...","failurePhase":"input",...}}'
 * execStepToJson({ step: 'fit_output', output: 'hello', budget: 100 });
 * // '{"output":"hello","truncated":false}'
 */
export function execStepToJson(step) {
  return wasm.execStep(asJsonText(step) ?? step);
}
