// The WebAssembly core for Deno (ESM): wasm-bindgen's bundler glue imports the .wasm as
// a module, which Deno 2 loads like any other import (no read permission needed, no
// top-level await in the package).
export * from '../codemode_errors_js.js';
