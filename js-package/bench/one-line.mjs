// A package whose entry is one line, in a temporary folder: what Node itself spends
// importing any package, measured beside ours (bench.mjs, startup.mjs) so that the
// machine's state falls on both alike.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A folder whose node_modules holds `one-line`, whose `normalize` returns its input. */
export function oneLinePackage() {
  const dir = mkdtempSync(join(tmpdir(), 'codemode-errors-floor-'));
  const at = join(dir, 'node_modules', 'one-line');
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, 'package.json'), JSON.stringify({ name: 'one-line', exports: { import: './index.mjs', require: './index.cjs' } }));
  writeFileSync(join(at, 'index.mjs'), 'export const normalize = (report) => report;\n');
  writeFileSync(join(at, 'index.cjs'), 'exports.normalize = (report) => report;\n');
  return dir;
}
