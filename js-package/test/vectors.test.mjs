// Every shared vector (tests/vectors/) against the package, byte for byte with the native
// core. The same file runs under Node (the package's `node` entry, by self-reference)
// and Deno (`CODEMODE_ERRORS_ENTRY=../dist/deno/index.js deno test ...`).

import assert from 'node:assert/strict';
import process from 'node:process';
import { test } from 'node:test';
import { check, forms } from './vector-check.mjs';
import { readVector, vectorFiles } from './vector-files.mjs';

const api = await import(process.env.CODEMODE_ERRORS_ENTRY ?? 'codemode-errors');

const files = vectorFiles();

test('the vectors folder holds vectors', () => {
  assert.ok(files.length > 0, 'no vectors found under tests/vectors/');
});

for (const file of files) {
  const vector = readVector(file);
  for (const [form, input] of forms(vector)) {
    test(`${file} [${form}]`, () => {
      assert.equal(check(api, vector, input), null, vector.description);
    });
  }
}
