// Producing outcomes and redacted values. Thin: the WebAssembly core decides everything;
// this module only parses the JSON text the core returns.

import * as wasm from './binding.js';
import { payload } from './consumer.js';
import { asJsonText } from './plain.js';

let shared;

/**
 * From this many UTF-16 units, `redactText` writes the text's UTF-8 bytes straight into
 * the module's memory (`TextEncoder.encodeInto`, native) rather than handing over the
 * string, which wasm-bindgen copies a character at a time in JavaScript; below it, the
 * extra calls cost more than the loop.
 */
const LONG_TEXT = 1024;
const utf8 = new TextEncoder();

/**
 * A string from ASCII bytes, by the fastest decoder the platform has: a Node `Buffer`
 * reads ASCII about five times as fast as `TextDecoder`, which must check for UTF-8.
 */
const fromAscii = (() => {
  const NodeBuffer = globalThis.process?.versions?.node ? globalThis.Buffer : undefined;
  if (typeof NodeBuffer?.from === 'function') {
    return (bytes) => NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('ascii');
  }
  const decoder = new TextDecoder();
  return (bytes) => decoder.decode(bytes);
})();

/**
 * `text` redacted by the core normalizer `core`. A long text crosses as its UTF-8 bytes,
 * written where the core reads them, and comes back as it was (nothing to redact), as
 * the place of its redacted ASCII bytes in the module's memory, or as a string.
 */
function redactWith(core, text) {
  if (typeof text !== 'string' || text.length < LONG_TEXT) return core.redactText(text);
  try {
    const redacted = core.redactStaged(staged(core, text));
    if (redacted === undefined) return text;
    if (typeof redacted === 'string') return redacted;
    return fromAscii(new Uint8Array(wasm.moduleMemory().buffer, redacted[0], redacted[1]));
  } finally {
    core.release();
  }
}

/**
 * Write `text` as UTF-8 into room the core makes for it, and return the bytes written.
 * Room for a byte a unit first (all a text of ASCII needs); a text with other characters
 * gets room for three bytes for each unit left, which always suffices. A view of the
 * memory is made after each call into the module, which may have grown it.
 */
function staged(core, text) {
  let room = text.length;
  let at = core.stage(0, room);
  let read = 0;
  let written = 0;
  for (;;) {
    const done = utf8.encodeInto(read === 0 ? text : text.slice(read), new Uint8Array(wasm.moduleMemory().buffer, at, room));
    read += done.read;
    written += done.written;
    if (read >= text.length) return written;
    room = 3 * (text.length - read);
    at = core.stage(written, room);
  }
}

/** The default-policy normalizer, built on first use and reused. */
function defaults() {
  shared ??= new wasm.Normalizer(undefined);
  return shared;
}

/** What the core is handed for `report`: its JSON text when that reads the same, else itself. */
function input(report) {
  return asJsonText(report) ?? report;
}

/** Run `use` with a core normalizer for `policy`, freeing it afterwards when not shared. */
function withPolicy(policy, use) {
  if (policy === undefined || policy === null) return use(defaults());
  const normalizer = new wasm.Normalizer(policy);
  try {
    return use(normalizer);
  } finally {
    normalizer.free();
  }
}

/** The Error a sandbox rejects with for a `[errorJson | null, breaker]` verdict, or null. */
export function errorFromVerdict(verdict) {
  return verdict[0] === null ? null : new Error(verdict[0]);
}

/**
 * Turns failure reports into outcomes under one policy. Build it once and reuse it.
 *
 * @example
 * const normalizer = new Normalizer({ max_text_chars: 2048 });
 * const { error, breaker } = normalizer.normalize(report);
 */
export class Normalizer {
  #core;

  /** @param {object | string} [policy] caps and redaction lists by name, or the same as JSON text */
  constructor(policy) {
    this.#core = new wasm.Normalizer(policy);
  }

  /**
   * Release the core's memory for this normalizer now rather than when the garbage
   * collector finalizes it. Later calls throw. Also `using n = new Normalizer()` where the
   * runtime has `Symbol.dispose`.
   */
  free() {
    this.#core?.free();
    this.#core = null;
  }

  get #live() {
    if (this.#core === null) throw new Error('this Normalizer was freed: create a new one');
    return this.#core;
  }

  /** The outcome of a failure report (an object, or its JSON text). */
  normalize(report) {
    return JSON.parse(this.#live.normalize(input(report)));
  }

  /** The outcome as the core's exact JSON text. */
  normalizeToJson(report) {
    return this.#live.normalize(input(report));
  }

  /** The Error whose message is the contract JSON, or null when the report is not a failure. */
  toCallError(report) {
    return errorFromVerdict(this.#live.verdict(input(report)));
  }

  /** Sanitized, redacted free text. */
  redactText(text) {
    return redactWith(this.#live, text);
  }

  /** A redacted copy of a JSON value. */
  redactJson(value) {
    return JSON.parse(this.#live.redactJson(value));
  }

  /**
   * Read the contract object back from a rejection (the Error, its message, or the
   * object) under this normalizer's policy, as `parseCallError` does: an object this
   * normalizer made reads back unchanged, values its policy allows included.
   */
  parseCallError(error) {
    return JSON.parse(this.#core.parseCallError(payload(error)));
  }

  /** The policy in force, with every cap and list. */
  get policy() {
    return JSON.parse(this.#live.policy());
  }
}

if (typeof Symbol.dispose === 'symbol') {
  Normalizer.prototype[Symbol.dispose] = Normalizer.prototype.free;
}

/** The outcome of one failure report under `policy` (defaults when omitted). */
export function normalize(report, policy) {
  return withPolicy(policy, (n) => JSON.parse(n.normalize(input(report))));
}

/** The outcome as the core's exact JSON text. */
export function normalizeToJson(report, policy) {
  return withPolicy(policy, (n) => n.normalize(input(report)));
}

/** The Error whose message is the contract JSON, or null when the report is not a failure. */
export function toCallError(report, policy) {
  return withPolicy(policy, (n) => errorFromVerdict(n.verdict(input(report))));
}

/** Sanitized, redacted free text (no cap). */
export function redactText(text) {
  return redactWith(defaults(), text);
}

/** A redacted copy of a JSON value: secret-named members replaced, every string redacted. */
export function redactJson(value) {
  return JSON.parse(defaults().redactJson(value));
}
