// Shared plumbing for the benchmarks: child processes that are always reaped, free loopback ports, a line-based
// JSON-RPC client over a child's stdio, the 2026-07-28 request envelope, and latency statistics.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = path.join(ROOT, 'dist', 'main', 'cli.js');
export const BENCH_DIR = path.join(ROOT, 'bench');
export const MODERN_VERSION = '2026-07-28';
/** A fixed token for every server under test (term-mcp wants >= 32 characters). */
export const BENCH_TOKEN = 'bench-token-0123456789abcdefghijklmnopqrstuvwxyz';

export function assertBuilt() {
  if (!existsSync(CLI)) throw new Error(`${path.relative(ROOT, CLI)} is missing: run \`npm run build\` first`);
}

/** True when this module is the script node was asked to run (each benchmark also runs on its own). */
export function isMain(importMetaUrl) {
  return process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(importMetaUrl);
}

// ---------------------------------------------------------------------------------------------------------------
// Child processes: every one is tracked and killed when the benchmark ends, however it ends.

const children = new Set();

function killAllNow() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
process.once('exit', killAllNow);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    killAllNow();
    process.exit(130);
  });
}

/** Spawns a tracked child; stderr is kept (last 64 KiB) for error messages. */
export function startChild(command, args, { env = {}, cwd = ROOT, stdin = 'ignore', nodeOptions = [] } = {}) {
  const isNode = command === 'node';
  const child = spawn(isNode ? process.execPath : command, isNode ? [...nodeOptions, ...args] : args, {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? os.tmpdir(), ...env },
    stdio: [stdin, 'pipe', 'pipe'],
  });
  children.add(child);
  child.stderrText = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    child.stderrText = (child.stderrText + chunk).slice(-65_536);
  });
  child.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  void child.exited.then(() => children.delete(child));
  return child;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. */
export async function stopChild(child, graceMs = 3000) {
  if (child.exitCode !== null || child.signalCode !== null) return child.exited;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  const result = await child.exited;
  clearTimeout(timer);
  return result;
}

/** A port the kernel just handed out on 127.0.0.1 (then released for the child to bind). */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls `url` until it answers at all (any status), or throws after `timeoutMs` with the child's stderr. */
export async function waitForHttp(url, child, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`server exited (${child.exitCode}) before listening:\n${child.stderrText}`);
    try {
      await fetch(url, { method: 'GET', signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`server at ${url} did not start in time:\n${child.stderrText}`);
      await sleep(50);
    }
  }
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function makeTempDir(prefix) {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/** Resident set size of a process, in bytes, from /proc (Linux). */
export function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return match ? Number(match[1]) * 1024 : NaN;
}

// ---------------------------------------------------------------------------------------------------------------
// The servers under test.

/** Environment for a term-mcp child: a temp workspace, limits raised so they never throttle a benchmark. */
export function termMcpEnv(workspace, extra = {}) {
  return {
    WORKSPACE_ROOT: workspace,
    TERM_MCP_TOKEN: BENCH_TOKEN,
    RATE_LIMIT_PER_MINUTE: '100000000',
    LOG_LEVEL: 'error',
    ...extra,
  };
}

/** Starts an HTTP target on a free loopback port and waits until it answers; `env` goes to the reference servers. */
export async function startHttpTarget(kind, workspace, env = {}) {
  const port = await freePort();
  let child;
  if (kind === 'term-mcp') {
    child = startChild('node', [CLI, 'http', '--port', String(port), '--host', '127.0.0.1'], {
      env: termMcpEnv(workspace),
    });
  } else if (kind === 'sdk') {
    child = startChild('node', [path.join(BENCH_DIR, 'sdk-server.mjs'), 'http'], {
      env: { PORT: String(port), BENCH_TOKEN, WORKSPACE_ROOT: workspace, ...env },
    });
  } else if (kind === 'sdk-v1') {
    child = startChild('node', [path.join(BENCH_DIR, 'sdk-v1-server.mjs')], {
      env: { PORT: String(port), BENCH_TOKEN, WORKSPACE_ROOT: workspace, ...env },
    });
  } else if (kind === 'echo' || kind === 'spawn') {
    const spawning = kind === 'spawn' ? { SPAWN_ON_CALL: '1' } : {};
    child = startChild('node', [path.join(BENCH_DIR, 'echo-server.mjs'), 'http'], {
      env: { PORT: String(port), ...env, ...spawning },
    });
  } else {
    throw new Error(`unknown HTTP target ${kind}`);
  }
  child.stdout.resume(); // nothing is expected there, but a full pipe must never block the server
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitForHttp(kind === 'term-mcp' ? `http://127.0.0.1:${port}/health` : url, child);
  return { kind, url, port, child };
}

/** Starts a stdio target: term-mcp, the SDK server, or the bare echo. */
export function startStdioTarget(kind, workspace, extraEnv = {}, nodeOptions = []) {
  if (kind === 'echo')
    return startChild('node', [path.join(BENCH_DIR, 'echo-server.mjs'), 'stdio'], {
      env: extraEnv,
      stdin: 'pipe',
      nodeOptions,
    });
  if (kind === 'term-mcp') {
    return startChild('node', [CLI, 'stdio'], { env: termMcpEnv(workspace, extraEnv), stdin: 'pipe', nodeOptions });
  }
  if (kind === 'sdk') {
    return startChild('node', [path.join(BENCH_DIR, 'sdk-server.mjs'), 'stdio'], {
      env: { WORKSPACE_ROOT: workspace, ...extraEnv },
      stdin: 'pipe',
      nodeOptions,
    });
  }
  throw new Error(`unknown stdio target ${kind}`);
}

// ---------------------------------------------------------------------------------------------------------------
// The 2026-07-28 wire: every request carries its own `_meta`, and on HTTP the mirrored headers.

export function modernMeta() {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientInfo': { name: 'term-mcp-bench', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

/** A modern JSON-RPC request; `params` are merged next to `_meta`. */
export function modernRequest(id, method, params = {}) {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: modernMeta() } };
}

/** Headers of a modern POST (2026-07-28 streamable-http "Required request headers"), with the bench token. */
export function modernHeaders(method, name) {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${BENCH_TOKEN}`,
    'mcp-protocol-version': MODERN_VERSION,
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  };
}

/** One modern POST; returns the parsed JSON-RPC answer (throws on a non-JSON or SSE reply). */
export async function postModern(url, id, method, params = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: modernHeaders(method, params.name ?? params.uri),
    body: JSON.stringify(modernRequest(id, method, params)),
  });
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${method}: HTTP ${response.status} with a body that is not JSON: ${text.slice(0, 300)}`);
  }
}

/** The structured result of a tools/call, or an Error carrying the JSON-RPC or tool error. */
export function toolResult(message, what) {
  if (message.error) throw new Error(`${what}: JSON-RPC error ${message.error.code} ${message.error.message}`);
  const result = message.result;
  if (result?.isError)
    throw new Error(`${what}: tool error ${JSON.stringify(result.structuredContent ?? result.content)}`);
  return result.structuredContent;
}

/** Newline-delimited JSON-RPC over a child's stdin/stdout; answers are matched to requests by id. */
export class StdioRpc {
  constructor(child) {
    this.child = child;
    this.pending = new Map();
    this.nextId = 1;
    /** Bytes of the line being received; large answers arrive in many chunks, joined once at the newline. */
    this.partial = [];
    child.stdout.on('data', (chunk) => this.onData(chunk));
    child.once('exit', () => {
      for (const { reject } of this.pending.values()) reject(new Error(`server exited:\n${child.stderrText}`));
      this.pending.clear();
    });
  }

  /** Sends one modern request and resolves with the whole JSON-RPC answer. */
  request(method, params = {}) {
    const id = this.nextId++;
    const line = `${JSON.stringify(modernRequest(id, method, params))}\n`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(line);
    });
  }

  onData(chunk) {
    let start = 0;
    let newline = chunk.indexOf(0x0a);
    while (newline !== -1) {
      this.partial.push(chunk.subarray(start, newline));
      const line = Buffer.concat(this.partial).toString('utf8');
      this.partial = [];
      if (line.trim() !== '') this.onMessage(JSON.parse(line));
      start = newline + 1;
      newline = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) this.partial.push(chunk.subarray(start));
  }

  onMessage(message) {
    const waiter = this.pending.get(message.id);
    if (waiter === undefined) return; // notifications carry no id we wait for
    this.pending.delete(message.id);
    waiter.resolve(message);
  }

  /** Closes stdin (the stdio shutdown signal) and waits for the child, killing it if it lingers. */
  async close() {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await this.child.exited;
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Statistics and formatting.

/** p50 / p99 / mean / min / max of millisecond samples. */
export function summarize(samplesMs) {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const pick = (p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return { n: sorted.length, p50: pick(50), p99: pick(99), mean, min: sorted[0], max: sorted[sorted.length - 1] };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function hrtimeMs(start) {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function fixed(value, digits = 2) {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

export function mib(bytes) {
  return bytes / (1024 * 1024);
}

/** A Markdown table from a header row and body rows. */
export function table(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
