// The shared vectors (tests/vectors/) as files, for the suites that run under Node and Deno.

import { readdirSync, readFileSync, statSync } from 'node:fs';

/** The folder holding the shared vectors. */
export const root = new URL('../../tests/vectors/', import.meta.url);

/** Every `<group>/<name>.json` below the vectors folder, sorted. */
export function vectorFiles(dir = root, prefix = '') {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const url = new URL(name, dir);
      if (statSync(url).isDirectory()) return vectorFiles(new URL(`${name}/`, dir), `${prefix}${name}/`);
      return name.endsWith('.json') && prefix !== '' ? [`${prefix}${name}`] : [];
    });
}

/** The vector in `file` (a name `vectorFiles` returned), parsed. */
export function readVector(file) {
  return JSON.parse(readFileSync(new URL(file, root), 'utf8'));
}
