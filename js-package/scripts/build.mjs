// Assemble dist/ from wasm-bindgen's output in pkg/ and the hand-written layer in src/.
// `cargo xtask` runs cargo and wasm-bindgen first (`--target web`, `nodejs` and `bundler`
// into pkg/<target>); this script does the rest:
//
//   dist/codemode_errors_js_bg.wasm  the one module, shrunk by binaryen's wasm-opt
//   dist/glue.mjs                    wasm-bindgen's web glue: fetches the module
//   dist/codemode_errors_js{,_bg}.js its bundler glue: imports the module as ESM
//   dist/esm/                        the layer as ESM + a binding that awaits the fetch
//                                    (browsers, bundlers)
//   dist/deno/                       the layer as ESM + a binding over the ESM import
//                                    (Deno loads it as a module: no read permission)
//   dist/cjs/                        the layer as CommonJS, bundled into layer.js; a
//                                    small index.js naming its exports; binding.js, the
//                                    nodejs glue, which reads the module synchronously
//                                    (Node's entry for `require` and `import` alike);
//                                    worker.js, the executor worker (src/worker/) as one
//                                    CommonJS file for worker_threads
//
// Each flavor gets the platform's worker start (src/spawn/web.js for browsers,
// src/spawn/deno.js for Deno, src/spawn/node.js for Node) as spawn.js, the executor worker (ESM: worker/), and acorn,
// the parser `execute` checks sources with, copied from node_modules (its MIT license
// beside it) so that no import map or bundler needs to name it.
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
  // override in xtask); names and producers are stripped here. `-Oz --converge`: 1.2 KB
  // gzipped less than `-Os`, no slower a call (docs/PERFORMANCE-js.md).
  execFileSync(at('node_modules/.bin/wasm-opt'), ['-Oz', '--converge', '--one-caller-inline-max-function-size', '150', '--strip-debug', '--strip-producers', '--strip-target-features', at(`pkg/web/${WASM}`), '-o', at(`${OUT}/${WASM}`)], {
    stdio: 'inherit',
  });
  copyFileSync(at('pkg/web/codemode_errors_js.js'), at(`${OUT}/glue.mjs`));
  for (const file of ['codemode_errors_js.js', 'codemode_errors_js_bg.js']) copyFileSync(at(`pkg/bundler/${file}`), at(`${OUT}/${file}`));
}

const layer = () => readdirSync(at('src')).filter((f) => f.endsWith('.js'));
const workerModules = () => readdirSync(at('src/worker')).filter((f) => f.endsWith('.js'));

/** acorn's files: the ESM build, the CommonJS (UMD) build, its license. */
const ACORN = 'node_modules/acorn';

function copyAcorn(dir, build) {
  copyFileSync(at(`${ACORN}/dist/${build}`), at(`${dir}/acorn.js`));
  copyFileSync(at(`${ACORN}/LICENSE`), at(`${dir}/acorn.LICENSE`));
}

/** The layer as ESM in dist/<flavor>/ with the binding src/binding/<binding>. */
function assembleEsm(flavor, binding, spawn) {
  mkdirSync(at(`${OUT}/${flavor}`));
  for (const file of layer()) copyFileSync(at(`src/${file}`), at(`${OUT}/${flavor}/${file}`));
  copyFileSync(at(`src/binding/${binding}`), at(`${OUT}/${flavor}/binding.js`));
  copyFileSync(at(`src/spawn/${spawn}`), at(`${OUT}/${flavor}/spawn.js`));
  mkdirSync(at(`${OUT}/${flavor}/worker`));
  for (const file of workerModules()) copyFileSync(at(`src/worker/${file}`), at(`${OUT}/${flavor}/worker/${file}`));
  copyAcorn(`${OUT}/${flavor}`, 'acorn.mjs');
}

/** A layer module as CommonJS text. */
function toCommonJs(file) {
  const out = ts.transpileModule(read(`src/${file}`).toString(), {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: false },
  });
  if (out.diagnostics?.length) {
    throw new Error(`${file}: ${out.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')).join('; ')}`);
  }
  // Renamed so that Node's CommonJS export detection, which reads the whole bundle, sees
  // only the bundle's own exports.
  if (/\bmoduleExports\b/.test(out.outputText)) throw new Error(`${file} uses the name moduleExports, which bundling reserves`);
  return out.outputText.replace(/\bexports\b/g, 'moduleExports');
}

/** The names src/index.js exports. */
function indexExports() {
  return indexExportSources()
    .map(({ name }) => name)
    .sort();
}

/** Each name src/index.js exports, with the layer file (`x.js`) it comes from. */
function indexExportSources() {
  const found = Array.from(readFileSync(at('src/index.js'), 'utf8').matchAll(/export \{([^}]*)\} from '\.\/([^']+)'/g));
  return found.flatMap(([, names, file]) => names.split(',').map((n) => ({ name: n.trim(), file })));
}

/** The layer modules a first `normalize` needs; the others are evaluated on first use. */
const EAGER_MODULES = new Set(['./normalize.js']);

/**
 * The `length` of the function `name` exported by src/`file`: its parameters before the
 * first one with a default, a rest or a `?` (what JavaScript counts).
 */
function declaredLength(file, name) {
  const source = ts.createSourceFile(file, read(`src/${file}`).toString(), ts.ScriptTarget.ES2022);
  const declaration = source.statements.find((s) => ts.isFunctionDeclaration(s) && s.name?.text === name);
  if (!declaration) throw new Error(`src/${file} exports no function declaration ${name}; lazily loaded exports must be functions`);
  const first = declaration.parameters.findIndex((p) => p.initializer || p.dotDotDotToken || p.questionToken);
  return first === -1 ? declaration.parameters.length : first;
}

/**
 * The bundle's exports, by src/index.js: names from the eager modules directly, the others
 * as functions that evaluate their module on the first call (V8 parses a module's body
 * again when it first runs it, so a process that only normalizes never parses the
 * tool-calling helpers twice). Each stands in with the real function's name and length.
 */
function layerExports() {
  const lines = [];
  for (const { name, file } of indexExportSources()) {
    lines.push(
      EAGER_MODULES.has(`./${file}`)
        ? `  ${name}: load('./${file}').${name},`
        : `  ${name}: lazy('./${file}', '${name}', ${declaredLength(file, name)}),`,
    );
  }
  return `/** A stand-in for the function \`name\` of \`file\`, loading that module on its first call. */
function lazy(file, name, length) {
  const f = function (...args) {
    return load(file)[name].apply(this, args);
  };
  Object.defineProperty(f, 'name', { value: name });
  Object.defineProperty(f, 'length', { value: length });
  return f;
}
module.exports = {
${lines.join('\n')}
};`;
}

/** A bundle's table of modules: each a function of the module, its exports and `require`. */
function moduleTable(entries) {
  return entries.map(([name, text]) => `  '${name}': function (module, moduleExports, require) {\n${text}\n  },`).join('\n');
}

/** A bundle's `own(name)`: the exports of its module `name`, evaluated on first use. */
const OWN_MODULES = `const loaded = {};
function own(name) {
  if (!(name in loaded)) {
    const module = { exports: {} };
    loaded[name] = module;
    modules[name].call(module.exports, module, module.exports, load);
  }
  return loaded[name].exports;
}`;

/** The layer modules (`./x.js`) the CommonJS text of a module requires. */
function layerRequires(text) {
  return Array.from(text.matchAll(/require\("(\.\/[^"]+)"\)/g), (m) => m[1]);
}

/**
 * The layer as two CommonJS files, each module a function in a table, and `require` of a
 * bundled name returning its exports (other names, such as `./binding.js`, go to Node's
 * require). layer.js holds the modules a first `normalize` needs (EAGER_MODULES and what
 * they require); layer-later.js the rest, read and compiled on the first call that needs
 * one of them, so a process that only normalizes never parses the executors. Two files
 * instead of one per module: Node's loader costs about a third of a millisecond per file
 * it resolves, reads and compiles.
 */
function commonJsLayer(files) {
  const texts = new Map(files.map(([name, file]) => [name, toCommonJs(file)]));
  const eager = new Set();
  const reach = (name) => {
    if (eager.has(name) || !texts.has(name)) return;
    eager.add(name);
    for (const needed of layerRequires(texts.get(name))) reach(needed);
  };
  for (const name of EAGER_MODULES) reach(name);
  const later = [...texts.keys()].filter((name) => !eager.has(name));
  const table = (names) => moduleTable(names.map((name) => [name, texts.get(name)]));
  const layerJs = `'use strict';
// codemode-errors for Node (CommonJS): the layer's modules (src/*.js) a first \`normalize\`
// needs, bundled by scripts/build.mjs; the others are in ./layer-later.js, loaded on first
// use. The WebAssembly core is ./binding.js.
const modules = {
${table([...eager])}
};
const LATER = new Set(${JSON.stringify(later)});
let later;
${OWN_MODULES}
function load(name) {
  if (name in modules) return own(name);
  if (LATER.has(name)) return (later ??= require('./layer-later.js')(load))(name);
  return require(name);
}
${layerExports()}
`;
  const laterJs = `'use strict';
// codemode-errors for Node (CommonJS): the layer's modules (src/*.js) a first \`normalize\`
// does not need, bundled by scripts/build.mjs and loaded by ./layer.js on first use; the
// loader it is given resolves every other name.
module.exports = function (outer) {
const modules = {
${table(later)}
};
${OWN_MODULES}
function load(name) {
  return name in modules ? own(name) : outer(name);
}
return load;
};
`;
  return { layerJs, laterJs };
}

/** The executor worker (src/worker/*.js) as one CommonJS file. */
function workerBundle(files) {
  return `'use strict';
// codemode-errors for Node (CommonJS): the executor worker (src/worker/*.js), bundled by
// scripts/build.mjs. The WebAssembly core is ./binding.js.
const modules = {
${moduleTable(files.map(([name, file]) => [name, toCommonJs(file)]))}
};
${OWN_MODULES}
function load(name) {
  return name in modules ? own(name) : require(name);
}
load('./main.js');
`;
}

/**
 * The CommonJS entry: the bundle's exports, each named. Node's \`import\` of a CommonJS
 * file finds its named exports by reading its text, so this file is kept small and the
 * bundle out of that reading.
 */
function commonJsEntry() {
  const names = indexExports().map((name) => `exports.${name} = layer.${name};`);
  return `'use strict';
// codemode-errors for Node (CommonJS, and Node's \`import\` too, so one process holds one
// instance). The layer is bundled in ./layer.js; see README.md for the API.
const layer = require('./layer.js');
${names.join('\n')}
`;
}

/**
 * The WebAssembly core for Node (CommonJS): wasm-bindgen's nodejs glue, which reads the
 * .wasm synchronously and instantiates it on first require, here one folder below it.
 */
function commonJsBinding() {
  const glue = read('pkg/nodejs/codemode_errors_js.js').toString();
  const from = '`${__dirname}/codemode_errors_js_bg.wasm`';
  if (glue.split(from).length !== 2) throw new Error(`the nodejs glue no longer names the module as ${from}`);
  return glue.replace(from, '`${__dirname}/../codemode_errors_js_bg.wasm`');
}

function assembleCjs() {
  mkdirSync(at(`${OUT}/cjs`));
  write(`${OUT}/cjs/package.json`, `${JSON.stringify({ type: 'commonjs' })}\n`);
  write(`${OUT}/cjs/index.js`, commonJsEntry());
  const host = layer()
    .filter((f) => f !== 'index.js')
    .map((f) => [`./${f}`, f]);
  const { layerJs, laterJs } = commonJsLayer([...host, ['./spawn.js', 'spawn/node.js']]);
  write(`${OUT}/cjs/layer.js`, layerJs);
  write(`${OUT}/cjs/layer-later.js`, laterJs);
  const worker = workerModules().map((f) => [`./${f}`, `worker/${f}`]);
  write(`${OUT}/cjs/worker.js`, workerBundle([...worker, ['../spawn.js', 'spawn/node.js']]));
  write(`${OUT}/cjs/binding.js`, commonJsBinding());
  copyAcorn(`${OUT}/cjs`, 'acorn.js');
  copyFileSync(at('index.d.ts'), at(`${OUT}/cjs/index.d.ts`));
}

/**
 * Node imports the CommonJS build too, its named exports found by Node's CommonJS lexer:
 * check they are exactly the ESM build's, so `import { x }` works the same everywhere.
 */
async function checkNodeExports() {
  const esmNames = indexExports();
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
  assembleEsm('esm', 'web.js', 'web.js');
  assembleEsm('deno', 'deno.js', 'deno.js');
  assembleCjs();
  await checkNodeExports();
  rmSync(at('dist'), { recursive: true, force: true });
  renameSync(at(OUT), at('dist'));
} finally {
  rmSync(at(OUT), { recursive: true, force: true });
}
console.log(`built ${at('dist')}`);
