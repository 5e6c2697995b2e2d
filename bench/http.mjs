// HTTP throughput: autocannon against term-mcp (`term-mcp http`), the official SDK server (bench/sdk-server.mjs, v2
// stateless), the v1 SDK's stateful McpServer (bench/sdk-v1-server.mjs) and the bare node:http echo (the ceiling). Each target runs in its own child process on a free 127.0.0.1 port and gets
// the same load: the same connections, duration and byte-identical modern-era (2026-07-28, stateless) requests with
// `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers and the bearer token.
//
//   node bench/http.mjs [--duration 3] [--rounds 3] [--connections 10]
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import {
  assertBuilt,
  fixed,
  isMain,
  makeTempDir,
  median,
  modernHeaders,
  modernRequest,
  postModern,
  removeDir,
  startHttpTarget,
  stopChild,
  BENCH_TOKEN,
  summarize,
  table,
  toolResult,
} from './support.mjs';
import { writeToolCatalog } from './in-process.mjs';

export const HTTP_DEFAULTS = { durationSeconds: 3, rounds: 3, warmupSeconds: 1, connections: 10 };
const TARGETS = ['echo', 'sdk', 'sdk-v1', 'term-mcp'];

// ---------------------------------------------------------------------------------------------------------------
// The v1 SDK reference is stateful: one `initialize` makes a session, and every request then names it
// (2025-11-25 streamable-http: `Mcp-Session-Id`, `MCP-Protocol-Version`); its answers come as SSE streams.

function legacyHeaders(session) {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${BENCH_TOKEN}`,
    ...(session === undefined ? {} : { 'mcp-session-id': session.id, 'mcp-protocol-version': session.protocolVersion }),
  };
}

/** The JSON-RPC message of an answer sent as JSON or as an SSE stream (its first `data:` line). */
function parseAnswer(text, what) {
  const data = text.split('\n').find((line) => line.startsWith('data:'));
  try {
    return JSON.parse(data === undefined ? text : data.slice(5));
  } catch {
    throw new Error(`${what}: an answer that is not JSON: ${text.slice(0, 300)}`);
  }
}

async function postLegacy(url, session, id, method, params = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: legacyHeaders(session),
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  return { response, message: parseAnswer(await response.text(), method) };
}

/** initialize + notifications/initialized: the session every later request of the v1 reference names. */
async function openLegacySession(url) {
  const { response, message } = await postLegacy(url, undefined, 'init', 'initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'term-mcp-bench', version: '1.0.0' },
  });
  const id = response.headers.get('mcp-session-id');
  if (message.error || id === null) throw new Error(`initialize: ${JSON.stringify(message)}`);
  const session = { id, protocolVersion: message.result.protocolVersion };
  const initialized = await fetch(url, {
    method: 'POST',
    headers: legacyHeaders(session),
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await initialized.text();
  return session;
}

/** A request as the target expects it: modern and stateless, or in the target's legacy session. */
function wireFor(target, method, params) {
  if (target?.session !== undefined) {
    return { headers: legacyHeaders(target.session), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) };
  }
  return { headers: modernHeaders(method, params.name), body: JSON.stringify(modernRequest(1, method, params)) };
}

async function request(target, id, method, params) {
  if (target.session !== undefined) return (await postLegacy(target.url, target.session, id, method, params)).message;
  return postModern(target.url, id, method, params);
}

/** Starts a target; the stateful v1 reference also gets its session. */
export async function startTarget(kind, workspace, env) {
  const target = await startHttpTarget(kind, workspace, env);
  if (kind === 'sdk-v1') target.session = await openLegacySession(target.url);
  return target;
}

/** One autocannon run; latencies come from every response's own timing (autocannon's histogram rounds to 1 ms). */
export async function load(url, method, params, { durationSeconds, connections }, target, verifyBody) {
  const latencies = [];
  const instance = autocannon({
    url,
    method: 'POST',
    connections,
    duration: durationSeconds,
    ...wireFor(target, method, params),
    // A tool error is an HTTP 200 too: where the answer says whether the call succeeded, a failure counts as failed.
    ...(verifyBody === undefined ? {} : { verifyBody }),
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await instance;
  const failed = result.non2xx + result.errors + result.timeouts + (result.mismatches ?? 0);
  return {
    requestsPerSecond: result.requests.total / durationSeconds,
    succeededPerSecond: Math.max(0, result.requests.total - failed) / durationSeconds,
    latencies,
    total: result.requests.total,
    failed,
  };
}

/** The tools/call every target answers: `terminal_plan {command:"pwd"}` in one execution session made for it. */
export async function prepareCall(target) {
  if (target.kind === 'echo') return { name: 'terminal_plan', arguments: { command: 'pwd', session_id: 'bench' } };
  const first = toolResult(
    await request(target, 'setup', 'tools/call', { name: 'terminal_plan', arguments: { command: 'pwd' } }),
    'terminal_plan',
  );
  return { name: 'terminal_plan', arguments: { command: 'pwd', session_id: first.session_id } };
}

async function checkAnswers(target, method, params) {
  const answer = await request(target, 'check', method, params);
  if (method === 'tools/list' && !(answer.result?.tools?.length > 0))
    throw new Error(`${target.kind} tools/list: no tools`);
  if (answer.error) throw new Error(`${target.kind} ${method}: ${answer.error.code} ${answer.error.message}`);
  if (method === 'tools/call' && target.kind !== 'echo') toolResult(answer, `${target.kind} ${method}`);
}

/**
 * All targets run at once (idle while not measured) and are measured in turn, round after round, so a change in
 * the machine's load hits every target alike. Requests/s is the median of the rounds; latencies are pooled.
 */
/**
 * Starts each HTTP target of `kinds` on one temp workspace (the reference servers list term-mcp's own catalog, written
 * there first), runs `measure(targets)`, then stops every target and removes the workspace, whatever happened.
 */
export async function withHttpTargets(kinds, measure) {
  assertBuilt();
  const scratch = makeTempDir('term-mcp-bench-http-');
  const targets = [];
  try {
    const workspace = path.join(scratch, 'workspace');
    mkdirSync(workspace);
    const catalogFile = await writeToolCatalog(path.join(scratch, 'catalog.json'), workspace);
    for (const kind of kinds) targets.push(await startTarget(kind, workspace, { CATALOG_FILE: catalogFile }));
    return await measure(targets);
  } finally {
    await Promise.all(targets.map((target) => stopChild(target.child)));
    removeDir(scratch);
  }
}

export async function runHttpBench(options = {}) {
  const settings = { ...HTTP_DEFAULTS, ...options };
  return withHttpTargets(settings.targets ?? TARGETS, async (targets) => {
    const cases = [];
    for (const target of targets) {
      const call = await prepareCall(target);
      for (const [method, params] of [
        ['tools/list', {}],
        ['tools/call', call],
      ]) {
        await checkAnswers(target, method, params);
        await load(target.url, method, params, { ...settings, durationSeconds: settings.warmupSeconds }, target);
        cases.push({ target, method, params, rounds: [] });
      }
    }
    for (let round = 0; round < settings.rounds; round += 1) {
      for (const item of cases)
        item.rounds.push(await load(item.target.url, item.method, item.params, settings, item.target));
    }
    const results = cases.map(({ target, method, rounds }) => {
      const stats = summarize(rounds.flatMap((r) => r.latencies));
      return {
        target: target.kind,
        method,
        requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
        roundRates: rounds.map((r) => r.requestsPerSecond),
        p50Ms: stats.p50,
        p99Ms: stats.p99,
        total: rounds.reduce((sum, r) => sum + r.total, 0),
        failed: rounds.reduce((sum, r) => sum + r.failed, 0),
      };
    });
    return { settings, results };
  });
}

export function httpMarkdown({ settings, results }) {
  const rows = results.map((r) => [
    r.target,
    r.method,
    fixed(r.requestsPerSecond, 0),
    r.roundRates.map((rate) => fixed(rate, 0)).join(' / '),
    fixed(r.p50Ms),
    fixed(r.p99Ms),
    String(r.total),
    String(r.failed),
  ]);
  return [
    `autocannon, ${settings.connections} connections, ${settings.rounds} rounds of ${settings.durationSeconds} s per row (targets measured in turn ` +
      `within each round) after a ${settings.warmupSeconds} s warm-up; modern era (2026-07-28 stateless requests with \`_meta\`, ` +
      '`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, bearer token), except sdk-v1, which is sent the same requests in ' +
      'its one legacy session (`Mcp-Session-Id`, `MCP-Protocol-Version`). requests/s is the median round; latencies are pooled.',
    '',
    table(
      ['target', 'method', 'requests/s (median)', 'per round', 'p50 ms', 'p99 ms', 'requests', 'non-2xx + errors'],
      rows,
    ),
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const arg = (name, fallback) => {
    const index = process.argv.indexOf(`--${name}`);
    return index === -1 ? fallback : Number(process.argv[index + 1]);
  };
  const outcome = await runHttpBench({
    durationSeconds: arg('duration', HTTP_DEFAULTS.durationSeconds),
    connections: arg('connections', HTTP_DEFAULTS.connections),
    rounds: arg('rounds', HTTP_DEFAULTS.rounds),
  });
  console.log(httpMarkdown(outcome));
}
