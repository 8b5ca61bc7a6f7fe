// The WebAssembly core for browsers, Deno and bundlers (ESM). The module is fetched
// next to the glue and instantiated before any importer runs (top-level await), so every
// export works synchronously afterwards. Bundlers see the `new URL(..., import.meta.url)`
// in the glue and emit the .wasm as an asset.
import init from '../glue.mjs';

export * from '../glue.mjs';

await init();
