// The shared vectors (tests/vectors/) and their declared gaps as files, for the suites that
// run under Node and Deno and for the browser demo's server: the same files, layout and
// checks as the Rust loader (tests/vector-suite/).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { isExpectedFile, isVectorFile, parseGaps, TOP_LEVEL_FILES, vectorProblem } from './vector-check.mjs';

/** The folder holding the shared vectors. */
export const root = new URL('../../tests/vectors/', import.meta.url);

/** Every file below `dir`, as paths relative to the vectors folder, sorted per folder. */
function allFiles(dir = root, prefix = '') {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const url = new URL(name, dir);
      if (statSync(url).isDirectory()) return allFiles(new URL(`${name}/`, dir), `${prefix}${name}/`);
      return [`${prefix}${name}`];
    });
}

/**
 * Every `<group>/<name>.json` below the vectors folder, sorted. Throws on a file that is
 * neither a vector nor one of the top-level files (README.md, gaps.json, off-schema.json).
 */
export function vectorFiles() {
  const files = allFiles();
  const stray = files.filter((f) => !isExpectedFile(f));
  if (stray.length > 0) {
    throw new Error(`unexpected files among the vectors (only <group>/<name>.json, and ${TOP_LEVEL_FILES.join(', ')} at the top): ${stray.join(', ')}`);
  }
  return files.filter(isVectorFile);
}

/** The vector in `file` (a name `vectorFiles` returned), parsed and checked. */
export function readVector(file) {
  const vector = JSON.parse(readFileSync(new URL(file, root), 'utf8'));
  const problem = vectorProblem(vector);
  if (problem !== null) throw new Error(`tests/vectors/${file}: ${problem}`);
  return vector;
}

/**
 * Every vector (a Map of name to vector, in `vectorFiles` order) and the parsed
 * `gaps.json`.
 */
export function loadSuite() {
  const vectors = new Map(vectorFiles().map((f) => [f, readVector(f)]));
  const gaps = parseGaps(JSON.parse(readFileSync(new URL('gaps.json', root), 'utf8')), vectors);
  return { vectors, gaps };
}
