// The layer's text path (src/plain.js): small plain JSON reports cross as JSON text, and
// everything else goes to the walk. Both readers must give the same bytes: every shared
// vector is run through the walk alone here (the public API takes the text path for most
// of them), and each kind of value the text path must leave to the walk is checked to do
// so, with the same outcome or error as the walk.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { normalizeToJson, toCallError } from 'codemode-errors';
import { check, formsFor, gapFor, judge } from './vector-check.mjs';
import { loadSuite } from './vector-files.mjs';

const require = createRequire(import.meta.url);
// The same instance the package's Node entry uses.
const binding = require('../dist/cjs/binding.js');
const limits = binding.inputLimits();

/**
 * What the package hands the core for `report`: the JSON text it chose to send, or
 * undefined when it handed over the value itself (for the walk).
 */
function asJsonText(report) {
  const { normalize } = binding.Normalizer.prototype;
  let handed;
  binding.Normalizer.prototype.normalize = function (input) {
    handed = input;
    return normalize.call(this, input);
  };
  try {
    normalizeToJson(report);
  } catch {
    // Typed errors for bad input are compared below.
  } finally {
    binding.Normalizer.prototype.normalize = normalize;
  }
  return typeof handed === 'string' && typeof report !== 'string' ? handed : undefined;
}

/** The walk alone: the WebAssembly normalizer and run classifier, handed the value itself. */
const walk = {
  normalizeToJson(report, policy) {
    const normalizer = new binding.Normalizer(policy);
    try {
      return normalizer.normalize(report);
    } finally {
      normalizer.free();
    }
  },
  classifyRunToJson(report) {
    return binding.classifyRun(report);
  },
};

/** The outcome text of `f`, or the typed error it threw as `{code, path}`. */
function result(f) {
  try {
    return f();
  } catch (e) {
    return { code: e.code, path: e.path, type: e.constructor.name };
  }
}

const report = (result) => ({ tool: 'fs::read_file', dispatched: true, tool_result: result });
const textBlock = (text) => report({ isError: true, content: [{ type: 'text', text }] });
const withStructured = (structuredContent) => report({ isError: true, content: [], structuredContent });

describe('the walk alone against every vector (surface npm-node-walk)', () => {
  const { vectors, gaps } = loadSuite();
  for (const [file, vector] of vectors) {
    for (const form of formsFor(gaps, 'npm-node-walk', vector)) {
      const declared = gapFor(gaps, 'npm-node-walk', file, form);
      test(`${file} [${form}]${declared ? ` (declared gap: ${declared.reason})` : ''}`, () => {
        const { ok, message } = judge(gaps, 'npm-node-walk', file, form, check(walk, vector, form));
        assert.ok(ok, `${vector.description}\n${message}`);
      });
    }
  }
});

describe('the text path', () => {
  test('takes a small plain report, with the same bytes as the walk', () => {
    const typical = report({ isError: true, content: [{ type: 'text', text: 'HTTP 429, retry after 20 s' }], structuredContent: { n: [1, -2, null, true, { k: 'v' }] } });
    assert.equal(asJsonText(typical), JSON.stringify(typical));
    assert.equal(normalizeToJson(typical), walk.normalizeToJson(typical));
  });

  test('takes many small values, and a few KB of text among them', () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item ${i}`, ok: i % 2 === 0, note: null }));
    for (const r of [withStructured({ items }), textBlock('lorem ipsum '.repeat(150))]) {
      assert.equal(asJsonText(r), JSON.stringify(r));
      assert.equal(normalizeToJson(r), walk.normalizeToJson(r));
    }
  });

  test('takes values right at the input limits', () => {
    const items = Array.from({ length: limits.array_items }, (_, i) => i);
    const members = Object.fromEntries(items.map((i) => [`k${i}`, i]));
    let deep = [];
    for (let depth = 4; depth < limits.max_depth - 1; depth++) deep = [deep]; // the deepest at max_depth - 1
    for (const value of [items, members, deep, Object.create(null)]) {
      const r = withStructured({ value });
      assert.equal(asJsonText(r), JSON.stringify(r));
      assert.equal(normalizeToJson(r), walk.normalizeToJson(r));
    }
  });

});

describe('the walk counts what it does not read as the text reader does', () => {
  // Found by the host_value fuzz target: members past the kept ones were counted whether
  // or not `JSON.stringify` keeps them, so an object with `undefined` members past the
  // cap claimed one member more per `undefined` than its JSON text has.
  test('undefined members past the member cap are not members', () => {
    const wide = Object.fromEntries(Array.from({ length: limits.object_members * 2 }, (_, i) => [`k${i}`, i % 3 === 0 ? undefined : i]));
    const value = withStructured({ wide, tail: { a: undefined, b: 1 } });
    assert.equal(walk.normalizeToJson(value), normalizeToJson(JSON.stringify(value)));
  });

  // Found by the same target: a key was read (and a lone surrogate in it refused) before
  // its value was seen to be `undefined`, a member `JSON.stringify` leaves out, key and all.
  test('an undefined member\'s key is never read', () => {
    const value = withStructured({ ['k\uD800']: undefined, b: 1 });
    assert.equal(walk.normalizeToJson(value), normalizeToJson(JSON.stringify(value)));
  });
});

describe('what the text path leaves to the walk', () => {
  const big = 'x'.repeat(limits.string_head + 1);
  const cycle = { a: 1 };
  cycle.self = cycle;
  let tooDeep = [];
  for (let depth = 0; depth < limits.max_depth + 5; depth++) tooDeep = [tooDeep];
  class Point {
    x = 1;
  }
  const cases = {
    'a string past the kept head': textBlock(big),
    'a key past the kept head': withStructured({ [big]: 1 }),
    'many strings together': report({ isError: true, content: Array.from({ length: 40 }, () => ({ type: 'text', text: 'y'.repeat(4000) })) }),
    'an array wider than the input limit': report({ isError: true, content: Array.from({ length: limits.array_items + 1 }, (_, i) => ({ type: 'text', text: `${i}` })) }),
    'an object wider than the input limit': withStructured(Object.fromEntries(Array.from({ length: limits.object_members + 1 }, (_, i) => [`k${i}`, i]))),
    'more values than the text path checks': withStructured(Array.from({ length: 20 }, () => Array.from({ length: 250 }, (_, i) => i))),
    'a text block worth more than the values around it': textBlock('z'.repeat(8192)),
    'an undefined member': withStructured({ a: undefined, b: 1 }),
    'an undefined array item': withStructured([1, undefined, 3]),
    'an array hole': withStructured([1, , 3]), // eslint-disable-line no-sparse-arrays
    'NaN': withStructured({ n: Number.NaN }),
    'Infinity': withStructured({ n: Number.POSITIVE_INFINITY }),
    'minus zero': withStructured({ n: -0 }),
    'a fraction': withStructured({ n: 0.1 }),
    'a whole number past 2^53': withStructured({ n: 2 ** 60 }),
    'a bigint': withStructured({ n: 10n }),
    'a function': withStructured({ f() {} }),
    'a symbol': withStructured({ s: Symbol('s') }),
    'a Date': withStructured({ at: new Date(0) }),
    'a class instance': withStructured({ p: new Point() }),
    'a toJSON member': withStructured({ toJSON: () => 'x', a: 1 }),
    'a cycle': withStructured(cycle),
    'nesting past the depth limit': withStructured(tooDeep),
    'a lone surrogate in a string': textBlock('a\uD800b'),
    'a lone surrogate in a key': withStructured({ ['k\uDC00']: 1 }),
    'a getter that throws': withStructured({
      get boom() {
        throw new Error('no');
      },
    }),
    'a revoked Proxy': (() => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return withStructured(proxy);
    })(),
  };
  for (const [name, value] of Object.entries(cases)) {
    test(name, () => {
      assert.equal(asJsonText(value), undefined);
      assert.deepEqual(result(() => normalizeToJson(value)), result(() => walk.normalizeToJson(value)));
    });
  }

  test('an inherited toJSON', () => {
    Object.prototype.toJSON = () => 'polluted'; // eslint-disable-line no-extend-native
    try {
      assert.equal(asJsonText(textBlock('x')), undefined);
    } finally {
      delete Object.prototype.toJSON;
    }
    assert.notEqual(asJsonText(textBlock('x')), undefined);
  });

  test('toCallError gives the same Error message on both paths', () => {
    for (const value of [textBlock('HTTP 503'), textBlock(big), withStructured({ a: undefined })]) {
      const expected = JSON.parse(walk.normalizeToJson(value)).error;
      assert.equal(toCallError(value).message, JSON.stringify(expected));
    }
  });
});

describe('outcome text with non-ASCII characters', () => {
  // The core hands its outcome back as ASCII runs and the runs between them, joined in
  // JavaScript; the evidence must hold the block's text exactly, wherever the runs fall.
  const texts = {
    'all ASCII': 'plain failure',
    'one run at the start': 'é then ASCII',
    'one run at the end': 'ASCII then 中文',
    'runs of two, three and four bytes side by side': 'a é中😀 b',
    'four runs': 'a é b 中 c 😀 d …',
    'five runs, crossing whole': 'a é b 中 c 😀 d … e ü',
    'many runs': Array.from({ length: 40 }, (_, i) => `${i}ü`).join(' '),
    'a long run': '中'.repeat(3000),
    'runs on every side of an eight-byte boundary': 'abcdefgé1234567ü12345678😀',
  };
  for (const [name, text] of Object.entries(texts)) {
    test(name, () => {
      const report = textBlock(text);
      assert.equal(JSON.parse(normalizeToJson(report)).error.evidence.content[0].text, text);
      assert.equal(JSON.parse(toCallError(report).message).evidence.content[0].text, text);
      assert.equal(normalizeToJson(report), walk.normalizeToJson(JSON.stringify(report)));
    });
  }
});
