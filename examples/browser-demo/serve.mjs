// A tiny offline static server for the browser demo (Node's http module, nothing else):
//
//   /                 this folder (index.html, app.js, ...)
//   /package/...      the built npm package (js-package/dist, package.json), the
//                     shared vector checker (js-package/test/vector-check.mjs) and the
//                     QuickJS packages `execute` imports (js-package/node_modules/...)
//   /vectors/...      the shared test vectors and their declared gaps (gaps.json);
//                     /vectors/index.json lists the vectors (as vector-files.mjs does)
//
//   node serve.mjs [--port 8080]      (or: cargo xtask serve-demo)

import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vectorFiles } from '../../js-package/test/vector-files.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = join(here, '..', '..');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
};

/** The packages the `quickjs` executor loads, which the page's import map points into. */
const QUICKJS_PACKAGES = ['quickjs-emscripten-core', '@jitl/quickjs-ffi-types', '@jitl/quickjs-wasmfile-release-sync'];

/** URL prefixes and the folders (and, when given, the only paths inside them) they serve. */
const MOUNTS = [
  {
    prefix: '/package/',
    root: join(repo, 'js-package'),
    allow: [
      'dist/',
      'package.json',
      'test/vector-check.mjs',
      ...QUICKJS_PACKAGES.map((name) => `node_modules/${name}/dist/`),
    ],
  },
  { prefix: '/vectors/', root: join(repo, 'tests', 'vectors') },
  { prefix: '/', root: here },
];

/** The file a URL path names, or undefined when it is outside what is served. */
function resolve(pathname) {
  const mount = MOUNTS.find((m) => pathname.startsWith(m.prefix));
  const rest = decodeURIComponent(pathname.slice(mount.prefix.length)) || 'index.html';
  const file = normalize(join(mount.root, rest));
  const inside = relative(mount.root, file);
  if (inside.startsWith('..') || inside.includes(`..${sep}`)) return undefined;
  if (mount.allow && !mount.allow.some((a) => (a.endsWith('/') ? inside.startsWith(a) : inside === a))) return undefined;
  return file;
}

function handle(request, response) {
  const { pathname } = new URL(request.url, 'http://localhost');
  const send = (status, type, body) => {
    response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    response.end(body);
  };
  if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, 'text/plain', 'method not allowed\n');
  if (pathname === '/vectors/index.json') return send(200, TYPES['.json'], JSON.stringify(vectorFiles()));
  let file;
  try {
    file = resolve(pathname);
  } catch {
    file = undefined;
  }
  if (file === undefined) return send(403, 'text/plain', 'forbidden\n');
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return send(404, 'text/plain', 'not found\n');
  }
  if (!stat.isFile()) return send(404, 'text/plain', 'not found\n');
  response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': stat.size, 'cache-control': 'no-store' });
  if (request.method === 'HEAD') return response.end();
  createReadStream(file).pipe(response);
}

/**
 * Start the server on 127.0.0.1 (`port` 0 picks a free one).
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export function startServer({ port = 8080, host = '127.0.0.1' } = {}) {
  const server = createServer(handle);
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const { port: bound } = server.address();
      done({ url: `http://${host}:${bound}/`, close: () => new Promise((closed) => server.close(() => closed())) });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--port');
  const { url } = await startServer({ port: at === -1 ? 8080 : Number(process.argv[at + 1]) });
  console.log(`browser demo: ${url} (offline; Ctrl-C stops)`);
}
