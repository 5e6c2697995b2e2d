// The reference most MCP servers are built on: the v1 TypeScript SDK (`@modelcontextprotocol/sdk` 1.x) `McpServer`
// with its stateful Streamable HTTP transport, as its README wires it: one transport and one McpServer per session
// (created by `initialize`, found again by the `Mcp-Session-Id` header), answers as SSE streams (the default).
// Like bench/sdk-server.mjs it registers term-mcp's own tool definitions on one shared term-mcp composition root, so
// only the protocol layer and the transport differ; a Host check and a bearer check stand in front.
//
//   node bench/sdk-v1-server.mjs   (PORT, BENCH_TOKEN, WORKSPACE_ROOT)
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { referenceGuard } from './reference-guard.mjs';
import { closeTermMcp, registerTermMcpTools } from './sdk-tools.mjs';

function buildServer() {
  const server = new McpServer({ name: 'sdk-v1-bench-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  return registerTermMcpTools(server, { era: 'legacy', signalOf: (extra) => extra.signal });
}

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const port = Number(process.env.PORT ?? 0);
const token = process.env.BENCH_TOKEN ?? '';
const admitted = referenceGuard(port, token);
/** Session id → its transport (README "With Session Management"). */
const transports = new Map();

const http = createServer(async (req, res) => {
  if (!admitted(req, res)) return;
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
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"No valid session"}}');
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
process.once('SIGTERM', () => http.close(() => void closeTermMcp().then(() => process.exit(0))));
