// The reference: the official TypeScript SDK (v2) serving term-mcp's own tools, wired the way the SDK documents it:
// `createMcpHandler` (a fresh McpServer per request, both eras) behind `toNodeHandler` on node:http, or `serveStdio`.
//
// Fairness: the tools are term-mcp's real tool definitions (the same zod input and output schemas, the same handlers
// on one shared term-mcp composition root built from dist/), registered with `McpServer.registerTool`, and their
// results are shaped as term-mcp's catalog shapes them. So both servers answer byte-identical requests with the same
// tool code and the same catalog; what differs is only the MCP protocol layer and the transport. In front of the HTTP
// handler it checks the Host header and the bearer token, as term-mcp's HTTP app does (term-mcp also adds helmet
// headers, an access log, a rate limit, a body limit and MCP header checks).
//
//   node bench/sdk-server.mjs http    (PORT, BENCH_TOKEN, WORKSPACE_ROOT)
//   node bench/sdk-server.mjs stdio   (WORKSPACE_ROOT)
import { createServer } from 'node:http';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { referenceGuard } from './reference-guard.mjs';
import { closeTermMcp, registerTermMcpTools } from './sdk-tools.mjs';

function buildServer() {
  const server = new McpServer({ name: 'sdk-bench-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  return registerTermMcpTools(server, { era: 'modern', signalOf: (ctx) => ctx.mcpReq.signal });
}

function serveHttp() {
  const port = Number(process.env.PORT ?? 0);
  const token = process.env.BENCH_TOKEN ?? '';
  const handler = toNodeHandler(createMcpHandler(buildServer));
  const admitted = referenceGuard(port, token);
  const http = createServer((req, res) => {
    if (!admitted(req, res)) return;
    void handler(req, res);
  });
  http.listen(port, '127.0.0.1');
  process.once('SIGTERM', () => http.close(() => void closeTermMcp().then(() => process.exit(0))));
}

async function serveOnStdio() {
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  serveStdio(buildServer);
  process.stdin.once('end', () => void closeTermMcp());
}

const mode = process.argv[2] ?? 'stdio';
if (mode === 'http') serveHttp();
else if (mode === 'stdio') await serveOnStdio();
else throw new Error(`usage: node bench/sdk-server.mjs http|stdio (got ${mode})`);
