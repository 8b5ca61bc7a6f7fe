// Executor workers in browsers: a module Web Worker running worker/main.js
// beside this file (bundlers recognize `new Worker(new URL(..., import.meta.url))`).
//
// A browser's worker has no import map: on a page that names the QuickJS packages in its
// import map (and no bundler bundled them into the worker), the page links them for the
// worker: each module of their graph is fetched, its imports pointed at the linked copies
// of what the page's import map resolves them to, and handed over as a blob: URL.

/** Start an executor worker: `{ post, onMessage, onExit, ref, unref, terminate, sharedStop }`. */
export async function spawnWorker() {
  const worker = new Worker(new URL('./worker/main.js', import.meta.url), { type: 'module', name: 'codemode-executor' });
  const exits = [];
  const exited = (why) => {
    for (const listener of exits.splice(0)) listener(why);
  };
  worker.addEventListener('error', (e) => {
    e.preventDefault?.();
    exited(String(e?.message ?? 'the executor worker failed'));
  });
  worker.addEventListener('messageerror', () => exited('the executor worker sent a message that could not be read'));
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.addEventListener('message', (e) => listener(e.data)),
    onExit: (listener) => exits.push(listener),
    // A page has no process to keep alive.
    ref: () => {},
    unref: () => {},
    terminate: () => worker.terminate(),
    // SharedArrayBuffer needs a cross-origin isolated page.
    sharedStop: typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated === true,
  };
}

/** The worker's side of the channel: `{ post, onMessage }`. */
export async function workerPort() {
  // A rejection the guest never handled ends nothing: the run goes on as the code says.
  globalThis.addEventListener('unhandledrejection', (e) => e.preventDefault());
  // What the worker would print (an engine's abort message, say) is no output of the host's.
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace']) console[method] = () => {};
  return { post: (message) => globalThis.postMessage(message), onMessage: (listener) => globalThis.addEventListener('message', (e) => listener(e.data)) };
}

/** The QuickJS modules the worker loads, by what worker/quickjs.js calls them. */
const QUICKJS = { core: 'quickjs-emscripten-core', variant: '@jitl/quickjs-wasmfile-release-sync' };

let linked;

/**
 * The module URLs a worker loads `engine` from, when it cannot resolve package names
 * itself (a browser page with an import map), else undefined (a bundler's build).
 */
export function engineModules(engine) {
  if (engine !== 'quickjs' || typeof document === 'undefined') return undefined;
  let resolvable;
  try {
    resolvable = typeof import.meta.resolve === 'function' && Object.values(QUICKJS).every((name) => import.meta.resolve(name));
  } catch {
    resolvable = false;
  }
  if (!resolvable) return undefined;
  linked ??= linkModules(QUICKJS).catch((e) => {
    linked = undefined;
    throw e;
  });
  return linked;
}

/** `{ key: blob URL }` for each module of `names` (`{ key: specifier }`), its graph linked. */
async function linkModules(names) {
  const { Parser } = await import('./acorn.js');
  const urls = new Map();
  const link = (url) => {
    if (!urls.has(url)) urls.set(url, linkOne(Parser, url, link));
    return urls.get(url);
  };
  const out = {};
  for (const [key, name] of Object.entries(names)) out[key] = await link(import.meta.resolve(name));
  return out;
}

/** One module at `url`, its imports and `import.meta` rewritten, as a blob: URL. */
async function linkOne(Parser, url, link) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not fetch ${url} (HTTP ${response.status})`);
  const text = await response.text();
  const program = Parser.parse(text, { ecmaVersion: 'latest', sourceType: 'module' });
  const edits = [];
  const specifier = async (node) => {
    if (node?.type !== 'Literal' || typeof node.value !== 'string') return;
    const spec = node.value;
    let target;
    if (/^(\.{0,2}\/|[a-z][a-z0-9+.-]*:)/i.test(spec)) target = new URL(spec, url).href;
    else {
      try {
        target = import.meta.resolve(spec);
      } catch {
        throw new Error(`the page's import map does not name ${spec} (imported by ${url})`);
      }
    }
    edits.push([node.start, node.end, JSON.stringify(await link(target))]);
  };
  const todo = [program];
  const waits = [];
  while (todo.length > 0) {
    const node = todo.pop();
    if (node.type === 'ImportDeclaration' || node.type === 'ExportAllDeclaration' || node.type === 'ExportNamedDeclaration') waits.push(specifier(node.source));
    else if (node.type === 'ImportExpression') waits.push(specifier(node.source));
    else if (node.type === 'MetaProperty' && node.meta.name === 'import') edits.push([node.start, node.end, `({ url: ${JSON.stringify(url)} })`]);
    for (const key in node) {
      const value = node[key];
      if (Array.isArray(value)) for (const item of value) item !== null && typeof item?.type === 'string' && todo.push(item);
      else if (value !== null && typeof value === 'object' && typeof value.type === 'string') todo.push(value);
    }
  }
  await Promise.all(waits);
  let rewritten = text;
  for (const [start, end, replacement] of edits.sort((a, b) => b[0] - a[0])) rewritten = rewritten.slice(0, start) + replacement + rewritten.slice(end);
  return URL.createObjectURL(new Blob([rewritten], { type: 'text/javascript' }));
}
