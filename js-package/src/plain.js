// A faster way in for the common report: small, plain JSON data crosses into WebAssembly
// as one JSON text (`JSON.stringify`, then one copy) instead of one crossing per value of
// the walk. Not a rule of its own: it only picks between two readers of the core that
// build the same tree. The text reader and the walk agree on every value this check
// admits, so both give the same outcome bytes; anything else (values past the core's
// input limits, which the walk caps and counts; `undefined`, functions, non-finite
// numbers; class instances, Dates and anything with `toJSON`; cycles; lone surrogates)
// goes to the walk, which also says what is wrong and where.

import * as wasm from './binding.js';

/**
 * When the text path pays. Each value the walk would read costs it about a third of a
 * microsecond of crossings, while each UTF-16 unit of a string costs the text path about
 * 3.5 ns more (`JSON.stringify` escapes it and the core parses it again), so a report
 * takes the text path when its strings and keys hold at most `UNITS_FREE` units plus
 * `UNITS_PER_VALUE` per value. The check itself stops past `MOST_VALUES` values or
 * `MOST_UNITS` units. Speed choices of this adapter, measured on Node 20, not caps: the
 * core's limits come from the core.
 */
const UNITS_FREE = 2048;
const UNITS_PER_VALUE = 96;
const MOST_VALUES = 4096;
const MOST_UNITS = 64 * 1024;

/** Lone surrogates must go to the walk, which refuses them at their path. */
const canCheckSurrogates = typeof String.prototype.isWellFormed === 'function';

let limits;

/** The core's input limits (`string_head`, `array_items`, `object_members`, `max_depth`). */
function inputLimits() {
  limits ??= wasm.inputLimits();
  return limits;
}

// What the check has counted so far, reset for each report. Module state rather than an
// object per call (an object per call makes V8 drop the check's optimized code at every
// full GC). A getter that normalizes a report itself while being checked only skews the
// outer count, which decides speed, never the outcome.
let values = 0;
let units = 0;

/**
 * The JSON text of `value` when the core reads that text exactly as it reads the value
 * itself; otherwise undefined, and the caller hands over the value.
 */
export function asJsonText(value) {
  if (!canCheckSurrogates || typeof value !== 'object' || value === null) return undefined;
  values = 0;
  units = 0;
  try {
    if (!isPlain(value, 0, inputLimits()) || units > UNITS_FREE + UNITS_PER_VALUE * values) return undefined;
    return JSON.stringify(value);
  } catch {
    // A getter or a Proxy trap threw: the walk reports it at its path.
    return undefined;
  }
}

/** Whether `v`, at nesting `depth`, is plain JSON data that both readers agree on. */
function isPlain(v, depth, limits) {
  if (++values > MOST_VALUES) return false;
  switch (typeof v) {
    case 'string':
      return isPlainString(v, limits);
    case 'number':
      // Whole numbers print and parse back exactly; -0 prints as 0.
      return Number.isSafeInteger(v) && !Object.is(v, -0);
    case 'boolean':
      return true;
    case 'object':
      return v === null || isPlainContainer(v, depth + 1, limits);
    default:
      return false;
  }
}

/** A string (or key) the core keeps whole, with no lone surrogate. */
function isPlainString(s, limits) {
  units += s.length;
  return units <= MOST_UNITS && s.length <= limits.string_head && s.isWellFormed();
}

/** A plain array or plain object inside the depth limit, with no `toJSON`. */
function isPlainContainer(v, depth, limits) {
  if (depth >= limits.max_depth || v.toJSON !== undefined) return false;
  const proto = Object.getPrototypeOf(v);
  if (Array.isArray(v)) return proto === Array.prototype && isPlainArray(v, depth, limits);
  return (proto === Object.prototype || proto === null) && isPlainObject(v, depth, limits);
}

function isPlainArray(items, depth, limits) {
  if (items.length > limits.array_items) return false;
  for (let i = 0; i < items.length; i++) {
    if (!isPlain(items[i], depth, limits)) return false;
  }
  return true;
}

function isPlainObject(members, depth, limits) {
  const keys = Object.keys(members);
  if (keys.length > limits.object_members) return false;
  for (const key of keys) {
    if (!isPlainString(key, limits) || !isPlain(members[key], depth, limits)) return false;
  }
  return true;
}
