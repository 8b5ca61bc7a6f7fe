'use strict';
// The WebAssembly core for Node (CommonJS): wasm-bindgen's nodejs glue reads the .wasm
// beside it and instantiates it synchronously on first require. Node's `import` entry
// wraps this build too, so one process holds one instance.
module.exports = require('../glue.cjs');
