// The ceiling: bare Node, no framework, no MCP. It parses each JSON-RPC message and answers a result that echoes the
// request's params. Whatever an MCP server does on top costs throughput relative to this. With CATALOG_FILE
// (term-mcp's tools/list) a `tools/list` is answered with that catalog instead, serialized per request, so the
// ceiling writes as many bytes as the MCP servers do.
//
//   node bench/echo-server.mjs http    (PORT, CATALOG_FILE, SPAWN_ON_CALL): node:http, one message per POST
//   node bench/echo-server.mjs stdio   (CATALOG_FILE): newline-delimited JSON on stdin/stdout
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const catalog = process.env.CATALOG_FILE ? JSON.parse(readFileSync(process.env.CATALOG_FILE, 'utf8')) : undefined;

function answer(text) {
  let request;
  try {
    request = JSON.parse(text);
  } catch {
    return { status: 400, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}' };
  }
  const result =
    catalog !== undefined && request.method === 'tools/list' ? { tools: catalog } : { echo: request.params ?? null };
  return { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: request.id ?? null, result }) };
}

/**
 * SPAWN_ON_CALL=1: a `tools/call` runs `echo hi` (child_process.spawn, output piped) and answers with its output once
 * it closes, `"status":"succeeded"` when it exited 0: the bare node:http spawn server, the reference for
 * `terminal_execute` under many connections.
 */
function spawnAnswer(text, reply) {
  let request;
  try {
    request = JSON.parse(text);
  } catch {
    reply(answer(text));
    return;
  }
  if (request.method !== 'tools/call') {
    reply(answer(text));
    return;
  }
  const child = spawn('echo', ['hi'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.resume();
  child.once('error', () =>
    reply({ status: 500, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"spawn failed"}}' }),
  );
  child.once('close', (code) => {
    const result = { structuredContent: { status: code === 0 ? 'succeeded' : 'failed', stdout } };
    reply({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: request.id ?? null, result }) });
  });
}

function serveHttp() {
  const spawning = process.env.SPAWN_ON_CALL === '1';
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const reply = ({ status, body }) =>
        res
          .writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
          .end(body);
      const text = Buffer.concat(chunks).toString('utf8') || '{}';
      if (spawning) spawnAnswer(text, reply);
      else reply(answer(text));
    });
  });
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

function serveStdio() {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (line.trim() !== '') process.stdout.write(`${answer(line).body}\n`);
  });
}

const mode = process.argv[2] ?? 'http';
if (mode === 'http') serveHttp();
else if (mode === 'stdio') serveStdio();
else throw new Error(`usage: node bench/echo-server.mjs http|stdio (got ${mode})`);
