// Every shared vector (tests/vectors/) against the package, byte for byte with the native
// core, in every form the surface declares in tests/vectors/gaps.json, judged against the
// declared gaps. The same file runs under Node (surface npm-node: the package's `node`
// entry, by self-reference) and Deno (surface npm-deno:
// `CODEMODE_ERRORS_ENTRY=../dist/deno/index.js deno test ...`).

import assert from 'node:assert/strict';
import process from 'node:process';
import { test } from 'node:test';
import { check, formsFor, gapFor, judge } from './vector-check.mjs';
import { loadSuite } from './vector-files.mjs';

const entry = process.env.CODEMODE_ERRORS_ENTRY ?? 'codemode-errors';
const api = await import(entry);
// The exec-call form calls the binding's step functions, the ones `execute` calls: the
// binding module beside the entry the package resolves to.
const bindingModule = await import(new URL('./binding.js', import.meta.resolve(entry)).href);
const binding = bindingModule.execRequest ? bindingModule : bindingModule.default;
const surface = 'Deno' in globalThis ? 'npm-deno' : 'npm-node';

const { vectors, gaps } = loadSuite();

test(`the vectors folder holds vectors, and gaps.json declares ${surface}`, () => {
  assert.ok(vectors.size > 0, 'no vectors found under tests/vectors/');
  assert.ok(gaps.surfaces.has(surface));
});

for (const [file, vector] of vectors) {
  for (const form of formsFor(gaps, surface, vector)) {
    const declared = gapFor(gaps, surface, file, form);
    test(`${file} [${form}]${declared ? ` (declared gap: ${declared.reason})` : ''}`, () => {
      const { ok, message } = judge(gaps, surface, file, form, check(api, vector, form, binding));
      assert.ok(ok, `${vector.description}\n${message}`);
    });
  }
}
