// The fields of package.json that follow from the build layout and the Rust workspace.
// They are generated here, never edited by hand: `node scripts/package-json.mjs --write`
// rewrites them, `--check` (run by the build and the tests) fails when they drift.
// Dependencies stay under npm's control.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = new URL('../', import.meta.url);
const packagePath = fileURLToPath(new URL('package.json', here));

/** The workspace version from the root Cargo.toml (`[workspace.package] version`). */
export function workspaceVersion() {
  const cargo = readFileSync(new URL('../Cargo.toml', here), 'utf8');
  const section = cargo.split(/^\[/m).find((s) => s.startsWith('workspace.package]'));
  const version = section?.match(/^version\s*=\s*"([^"]+)"/m)?.[1];
  if (!version) throw new Error('no [workspace.package] version in the root Cargo.toml');
  return version;
}

/**
 * The generated fields. Export conditions, first match wins: Deno takes the ESM build that
 * imports the core as a WebAssembly module; Node takes the CommonJS build for both
 * `require` and `import` (named exports come through Node's CommonJS interop, and one
 * process holds one instance); browsers and bundlers take the ESM build that
 * fetches the core and instantiates it with top-level await.
 */
export function generatedFields() {
  return {
    name: 'codemode-errors',
    version: workspaceVersion(),
    description:
      'Normalize every code-mode tool failure into one versioned, redacted, size-capped error object (Node, Deno and browsers).',
    license: 'MIT OR Apache-2.0',
    type: 'module',
    main: './dist/cjs/index.js',
    module: './dist/esm/index.js',
    types: './index.d.ts',
    exports: {
      '.': {
        deno: { types: './index.d.ts', default: './dist/deno/index.js' },
        node: {
          import: { types: './index.d.ts', default: './dist/cjs/index.js' },
          require: { types: './dist/cjs/index.d.ts', default: './dist/cjs/index.js' },
        },
        types: './index.d.ts',
        default: './dist/esm/index.js',
      },
      './package.json': './package.json',
    },
    // What a user needs and nothing else (src/, test/, bench/, scripts/ and Cargo.toml stay
    // out); `cargo xtask test` checks the `npm publish --dry-run` list (xtask/src/publish.rs).
    files: ['dist/', 'index.d.ts', 'README.md', 'LICENSE-MIT', 'LICENSE-APACHE'],
    sideEffects: ['./dist/*/binding.js', './dist/glue.mjs', './dist/codemode_errors_js.js'],
    engines: { node: '>=20' },
  };
}

/** package.json with the generated fields in place (first, in this order) and the rest kept. */
export function expectedPackageJson(current) {
  const generated = generatedFields();
  const rest = Object.fromEntries(Object.entries(current).filter(([k]) => !(k in generated)));
  return { ...generated, ...rest };
}

/** The differences between the committed package.json and the expected one, as lines. */
export function packageJsonDrift() {
  const text = readFileSync(packagePath, 'utf8');
  const expected = `${JSON.stringify(expectedPackageJson(JSON.parse(text)), null, 2)}\n`;
  if (text === expected) return [];
  const a = text.split('\n');
  const b = expected.split('\n');
  const lines = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) lines.push(`line ${i + 1}: have ${JSON.stringify(a[i])}, want ${JSON.stringify(b[i])}`);
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const mode = process.argv[2];
  if (mode === '--write') {
    const current = JSON.parse(readFileSync(packagePath, 'utf8'));
    writeFileSync(packagePath, `${JSON.stringify(expectedPackageJson(current), null, 2)}\n`);
  } else if (mode === '--check') {
    const drift = packageJsonDrift();
    if (drift.length > 0) {
      console.error(`js-package/package.json is out of date; run \`node scripts/package-json.mjs --write\`:\n${drift.join('\n')}`);
      process.exit(1);
    }
  } else {
    console.error('usage: node scripts/package-json.mjs --check|--write');
    process.exit(2);
  }
}
