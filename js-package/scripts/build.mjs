// Assemble dist/ from wasm-bindgen's output in pkg/ and the hand-written layer in src/.
// `cargo xtask` runs cargo and wasm-bindgen first (`--target web`, `nodejs` and `bundler`
// into pkg/<target>); this script does the rest:
//
//   dist/codemode_errors_js_bg.wasm  the one module, shrunk by binaryen's wasm-opt
//   dist/glue.mjs                    wasm-bindgen's web glue: fetches the module
//   dist/glue.cjs                    its nodejs glue: reads the module synchronously
//   dist/codemode_errors_js{,_bg}.js its bundler glue: imports the module as ESM
//   dist/esm/                        the layer as ESM + a binding that awaits the fetch
//                                    (browsers, bundlers)
//   dist/deno/                       the layer as ESM + a binding over the ESM import
//                                    (Deno loads it as a module: no read permission)
//   dist/cjs/                        the layer as CommonJS + a binding that requires it
//                                    (Node's entry for `require` and `import` alike)
//
// wasm-bindgen emits the same module for all three targets (its imports are named
// "./codemode_errors_js_bg.js" in each), which is checked here, so one .wasm file
// serves every entry.

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { packageJsonDrift } from './package-json.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const at = (p) => `${root}${p}`;
const WASM = 'codemode_errors_js_bg.wasm';
// Built beside dist/ and moved into place at the end, so a concurrent build or test never
// sees a half-written dist/.
const OUT = `dist.tmp-${process.pid}`;

function read(p) {
  return readFileSync(at(p));
}

function write(p, text) {
  writeFileSync(at(p), text);
}

function assembleWasm() {
  const web = read(`pkg/web/${WASM}`);
  for (const target of ['nodejs', 'bundler']) {
    if (!web.equals(read(`pkg/${target}/${WASM}`))) throw new Error(`wasm-bindgen emitted different modules for --target web and ${target}`);
  }
  // Features come from the module's target_features section (kept by the build profile
  // override in xtask); names and producers are stripped here.
  execFileSync(at('node_modules/.bin/wasm-opt'), ['-Os', '--strip-debug', '--strip-producers', '--strip-target-features', at(`pkg/web/${WASM}`), '-o', at(`${OUT}/${WASM}`)], {
    stdio: 'inherit',
  });
  copyFileSync(at('pkg/web/codemode_errors_js.js'), at(`${OUT}/glue.mjs`));
  copyFileSync(at('pkg/nodejs/codemode_errors_js.js'), at(`${OUT}/glue.cjs`));
  for (const file of ['codemode_errors_js.js', 'codemode_errors_js_bg.js']) copyFileSync(at(`pkg/bundler/${file}`), at(`${OUT}/${file}`));
}

const layer = () => readdirSync(at('src')).filter((f) => f.endsWith('.js'));

/** The layer as ESM in dist/<flavor>/ with the binding src/binding/<binding>. */
function assembleEsm(flavor, binding) {
  mkdirSync(at(`${OUT}/${flavor}`));
  for (const file of layer()) copyFileSync(at(`src/${file}`), at(`${OUT}/${flavor}/${file}`));
  copyFileSync(at(`src/binding/${binding}`), at(`${OUT}/${flavor}/binding.js`));
}

function assembleCjs() {
  mkdirSync(at(`${OUT}/cjs`));
  write(`${OUT}/cjs/package.json`, `${JSON.stringify({ type: 'commonjs' })}\n`);
  for (const file of layer()) {
    const out = ts.transpileModule(read(`src/${file}`).toString(), {
      fileName: file,
      reportDiagnostics: true,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: false },
    });
    if (out.diagnostics?.length) {
      throw new Error(`${file}: ${out.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')).join('; ')}`);
    }
    write(`${OUT}/cjs/${file}`, out.outputText);
  }
  copyFileSync(at('src/binding/node.cjs'), at(`${OUT}/cjs/binding.js`));
  copyFileSync(at('index.d.ts'), at(`${OUT}/cjs/index.d.ts`));
}

/**
 * Node imports the CommonJS build too, its named exports found by Node's CommonJS lexer:
 * check they are exactly the ESM build's, so `import { x }` works the same everywhere.
 */
async function checkNodeExports() {
  const esmNames = Array.from(readFileSync(at('src/index.js'), 'utf8').matchAll(/export \{([^}]*)\}/g))
    .flatMap((m) => m[1].split(',').map((n) => n.trim()))
    .sort();
  const imported = await import(pathToFileURL(at(`${OUT}/cjs/index.js`)).href);
  const names = Object.keys(imported)
    .filter((n) => n !== 'default' && n !== '__esModule')
    .sort();
  if (names.join() !== esmNames.join()) throw new Error(`Node's import of the CommonJS build exports ${names} but src/index.js exports ${esmNames}`);
}

const drift = packageJsonDrift();
if (drift.length > 0) {
  console.error(`package.json is out of date; run \`node scripts/package-json.mjs --write\`:\n${drift.join('\n')}`);
  process.exit(1);
}
mkdirSync(at(OUT));
try {
  assembleWasm();
  assembleEsm('esm', 'web.js');
  assembleEsm('deno', 'deno.js');
  assembleCjs();
  await checkNodeExports();
  rmSync(at('dist'), { recursive: true, force: true });
  renameSync(at(OUT), at('dist'));
} finally {
  rmSync(at(OUT), { recursive: true, force: true });
}
console.log(`built ${at('dist')}`);
