// The reference most MCP servers are built on: the v1 TypeScript SDK (`@modelcontextprotocol/sdk` 1.x) `McpServer`
// with its stateful Streamable HTTP transport, as its README wires it: one transport and one McpServer per session
// (created by `initialize`, found again by the `Mcp-Session-Id` header), answers as SSE streams (the default).
// Like bench/sdk-server.mjs it registers term-mcp's own tool definitions on one shared term-mcp composition root, so
// only the protocol layer and the transport differ; a Host check and a bearer check stand in front.
//
//   node bench/sdk-v1-server.mjs   (PORT, BENCH_TOKEN, WORKSPACE_ROOT)
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { startInProcess } from './in-process.mjs';
import { ROOT } from './support.mjs';

const { DomainError } = await import(pathToFileURL(path.join(ROOT, 'dist', 'domain', 'errors.js')).href);
const { toolErrorResult } = await import(pathToFileURL(path.join(ROOT, 'dist', 'application', 'tools', 'tool-catalog.js')).href);

const termMcp = await startInProcess(process.env.WORKSPACE_ROOT ?? process.cwd());
const tools = termMcp.container.get(termMcp.TYPES.Tools);

/** term-mcp's ToolCatalog.call, minus the input parsing the SDK already did with the same zod schema. */
async function callTool(tool, args, extra) {
  try {
    const outcome = await tool.call(args, { signal: extra.signal, era: 'legacy', principal: undefined });
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
  const server = new McpServer({ name: 'sdk-v1-bench-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  for (const tool of tools) {
    const { name, title, description, input, output, annotations } = tool;
    server.registerTool(name, { title, description, inputSchema: input, outputSchema: output, annotations: { title, ...annotations } }, (args, extra) =>
      callTool(tool, args, extra),
    );
  }
  return server;
}

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const port = Number(process.env.PORT ?? 0);
const token = process.env.BENCH_TOKEN ?? '';
const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
/** Session id → its transport (README "With Session Management"). */
const transports = new Map();

const http = createServer(async (req, res) => {
  if (!allowedHosts.has(req.headers.host ?? '')) {
    res.writeHead(403, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Forbidden host"}}');
    return;
  }
  if (token !== '' && req.headers.authorization !== `Bearer ${token}`) {
    res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  try {
    const body = await readJson(req);
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (transport === undefined) {
      if (sessionId !== undefined || !isInitializeRequest(body)) {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"No valid session"}}');
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => transports.set(id, transport),
      });
      transport.onclose = () => {
        if (transport.sessionId) transports.delete(transport.sessionId);
      };
      await buildServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  } catch (error) {
    if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: String(error) } }));
  }
});
http.listen(port, '127.0.0.1');
process.once('SIGTERM', () => http.close(() => void termMcp.close().then(() => process.exit(0))));
