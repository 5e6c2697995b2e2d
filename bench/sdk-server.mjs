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
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { startInProcess } from './in-process.mjs';
import { ROOT } from './support.mjs';

const { DomainError } = await import(pathToFileURL(path.join(ROOT, 'dist', 'domain', 'errors.js')).href);
const { toolErrorResult } = await import(pathToFileURL(path.join(ROOT, 'dist', 'application', 'tools', 'tool-catalog.js')).href);

const termMcp = await startInProcess(process.env.WORKSPACE_ROOT ?? process.cwd());
const tools = termMcp.container.get(termMcp.TYPES.Tools);

/** term-mcp's ToolCatalog.call, minus the input parsing the SDK already did with the same zod schema. */
async function callTool(tool, args, ctx) {
  try {
    const outcome = await tool.call(args, { signal: ctx.mcpReq.signal, era: 'modern', principal: undefined });
    return {
      content: [{ type: 'text', text: outcome.text ?? JSON.stringify(outcome.structured, null, 2) }],
      structuredContent: outcome.structured,
      isError: outcome.isError ?? false,
    };
  } catch (error) {
    if (error instanceof DomainError) return toolErrorResult(error.code, error.message, error.nextStep, { ...error.details });
    throw error;
  }
}

function buildServer() {
  const server = new McpServer({ name: 'sdk-bench-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  for (const tool of tools) {
    const { name, title, description, input, output, annotations } = tool;
    server.registerTool(name, { title, description, inputSchema: input, outputSchema: output, annotations: { title, ...annotations } }, (args, ctx) =>
      callTool(tool, args, ctx),
    );
  }
  return server;
}

function serveHttp() {
  const port = Number(process.env.PORT ?? 0);
  const token = process.env.BENCH_TOKEN ?? '';
  const handler = toNodeHandler(createMcpHandler(buildServer));
  const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const http = createServer((req, res) => {
    if (!allowedHosts.has(req.headers.host ?? '')) {
      res.writeHead(403, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Forbidden host"}}');
      return;
    }
    if (token !== '' && req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return;
    }
    void handler(req, res);
  });
  http.listen(port, '127.0.0.1');
  process.once('SIGTERM', () => http.close(() => void termMcp.close().then(() => process.exit(0))));
}

async function serveOnStdio() {
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  serveStdio(buildServer);
  process.stdin.once('end', () => void termMcp.close());
}

const mode = process.argv[2] ?? 'stdio';
if (mode === 'http') serveHttp();
else if (mode === 'stdio') await serveOnStdio();
else throw new Error(`usage: node bench/sdk-server.mjs http|stdio (got ${mode})`);
