// What each tool of the hostile catalogs (attacks.mjs, `CATALOGS`) answers, in one place:
// child.mjs dispatches the npm package's calls to it, and the gateway's hostile MCP server
// (gateway/tests/servers/hostile_server.mjs) serves it. This file only exports (`node --test
// test/` also loads it as a test file, which is harmless).

/** What tool `name` of `namespace` answers; `slow` settles only when `signal` aborts. */
export function answer(namespace, name, signal) {
  switch (name) {
    case 'fail':
      return { isError: true, content: [{ type: 'text', text: 'upstream said no (502 Bad Gateway)' }] };
    case 'long_fail':
      return { isError: true, content: [{ type: 'text', text: `upstream failure detail ${'lorem ipsum dolor sit amet '.repeat(250)}` }] };
    case 'slow':
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason ?? new Error('aborted')), { once: true }));
    case 'ok':
    case 'write':
      return { content: [{ type: 'text', text: 'ok' }], structuredContent: { ok: true } };
    default:
      return { content: [{ type: 'text', text: `${namespace}|${name}` }] };
  }
}
