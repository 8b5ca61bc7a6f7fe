// A stdio MCP server with one trivial tool, `echo(text)` → the text back, for the gateway's
// execute benchmark (gateway/benches/execute.rs). On the TypeScript SDK installed in
// examples/node-sandbox (`npm ci` there; `cargo xtask test` does it). Its low-level `Server`
// keeps the tool free of schema libraries: the answer is what a real server's simplest tool
// answers.
import { Server } from '../../examples/node-sandbox/node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.js';
import { StdioServerTransport } from '../../examples/node-sandbox/node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '../../examples/node-sandbox/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js';

const server = new Server({ name: 'codemode-bench-echo', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'echo',
      description: 'Return the text unchanged.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnlyHint: true },
    },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name !== 'echo') {
    return { isError: true, content: [{ type: 'text', text: `no tool ${request.params.name}` }] };
  }
  return { content: [{ type: 'text', text: String(request.params.arguments?.text ?? '') }] };
});

await server.connect(new StdioServerTransport());
