// STDIO throughput: round trips per second over a spawned child's stdin/stdout, with 1 request in flight (pure
// latency) and with 64 in flight (the server's own concurrency), for term-mcp (`term-mcp stdio`), the official SDK
// server (`serveStdio`) and the bare line echo (bench/echo-server.mjs stdio, the ceiling). Modern-era requests
// (2026-07-28 `_meta` on every request) after one `server/discover`.
//
//   node bench/stdio.mjs [--duration 2] [--rounds 3]
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  assertBuilt,
  fixed,
  hrtimeMs,
  isMain,
  makeTempDir,
  median,
  removeDir,
  startStdioTarget,
  StdioRpc,
  summarize,
  table,
  toolResult,
} from './support.mjs';
import { writeToolCatalog } from './in-process.mjs';

export const STDIO_DEFAULTS = { durationSeconds: 2, rounds: 3, warmupRequests: 500, inFlight: [1, 64] };
const TARGETS = ['echo', 'sdk', 'term-mcp'];

/** Keeps `inFlight` requests outstanding for `durationSeconds`; every answer must be a result, not an error. */
async function drive(rpc, method, params, inFlight, durationSeconds) {
  const latencies = [];
  const deadline = process.hrtime.bigint() + BigInt(Math.round(durationSeconds * 1e9));
  const start = process.hrtime.bigint();
  const lane = async () => {
    while (process.hrtime.bigint() < deadline) {
      const sent = process.hrtime.bigint();
      const answer = await rpc.request(method, params);
      if (answer.error) throw new Error(`${method}: ${answer.error.code} ${answer.error.message}`);
      latencies.push(hrtimeMs(sent));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return { roundTripsPerSecond: (latencies.length / hrtimeMs(start)) * 1000, latencies };
}

/** One `server/discover`, then the tools/call every target answers: `terminal_plan {command:"pwd"}` in one session. */
async function prepare(rpc, kind) {
  const discover = await rpc.request('server/discover');
  if (discover.error) throw new Error(`${kind} server/discover: ${discover.error.message}`);
  if (kind === 'echo') return { name: 'terminal_plan', arguments: { command: 'pwd', session_id: 'bench' } };
  const first = toolResult(
    await rpc.request('tools/call', { name: 'terminal_plan', arguments: { command: 'pwd' } }),
    `${kind} terminal_plan`,
  );
  return { name: 'terminal_plan', arguments: { command: 'pwd', session_id: first.session_id } };
}

async function warmUp(rpc, method, params, count) {
  for (let done = 0; done < count; done += 50) {
    await Promise.all(Array.from({ length: 50 }, () => rpc.request(method, params)));
  }
}

/**
 * All children run at once (idle while not measured) and are measured in turn, round after round, so a change in
 * the machine's load hits every target alike. Round trips/s is the median of the rounds; latencies are pooled.
 */
export async function runStdioBench(options = {}) {
  assertBuilt();
  const settings = { ...STDIO_DEFAULTS, ...options };
  const scratch = makeTempDir('term-mcp-bench-stdio-');
  const clients = [];
  try {
    const workspace = path.join(scratch, 'workspace');
    mkdirSync(workspace);
    const catalogFile = await writeToolCatalog(path.join(scratch, 'catalog.json'), workspace);
    const cases = [];
    for (const kind of settings.targets ?? TARGETS) {
      const rpc = new StdioRpc(startStdioTarget(kind, workspace, { CATALOG_FILE: catalogFile }));
      clients.push(rpc);
      const call = await prepare(rpc, kind);
      for (const [method, params] of [
        ['tools/list', {}],
        ['tools/call', call],
      ]) {
        await warmUp(rpc, method, params, settings.warmupRequests);
        for (const inFlight of settings.inFlight) cases.push({ kind, rpc, method, params, inFlight, rounds: [] });
      }
    }
    for (let round = 0; round < settings.rounds; round += 1) {
      for (const item of cases)
        item.rounds.push(await drive(item.rpc, item.method, item.params, item.inFlight, settings.durationSeconds));
    }
    const results = cases.map(({ kind, method, inFlight, rounds }) => {
      const stats = summarize(rounds.flatMap((r) => r.latencies));
      return {
        target: kind,
        method,
        inFlight,
        roundTripsPerSecond: median(rounds.map((r) => r.roundTripsPerSecond)),
        roundRates: rounds.map((r) => r.roundTripsPerSecond),
        p50Ms: stats.p50,
        p99Ms: stats.p99,
        total: stats.n,
      };
    });
    return { settings, results };
  } finally {
    await Promise.all(clients.map((rpc) => rpc.close()));
    removeDir(scratch);
  }
}

export function stdioMarkdown({ settings, results }) {
  const rows = results.map((r) => [
    r.target,
    r.method,
    String(r.inFlight),
    fixed(r.roundTripsPerSecond, 0),
    r.roundRates.map((rate) => fixed(rate, 0)).join(' / '),
    fixed(r.p50Ms, 3),
    fixed(r.p99Ms, 3),
    String(r.total),
  ]);
  return [
    `One child per server, ${settings.rounds} rounds of ${settings.durationSeconds} s per row (targets measured in turn within each round) after ` +
      `${settings.warmupRequests} warm-up requests; modern era (every request carries 2026-07-28 \`_meta\`), after one \`server/discover\`. ` +
      'Round trips/s is the median round; latencies are pooled.',
    '',
    table(
      ['target', 'method', 'in flight', 'round trips/s (median)', 'per round', 'p50 ms', 'p99 ms', 'requests'],
      rows,
    ),
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const arg = (name, fallback) => {
    const index = process.argv.indexOf(`--${name}`);
    return index === -1 ? fallback : Number(process.argv[index + 1]);
  };
  const outcome = await runStdioBench({
    durationSeconds: arg('duration', STDIO_DEFAULTS.durationSeconds),
    rounds: arg('rounds', STDIO_DEFAULTS.rounds),
  });
  console.log(stdioMarkdown(outcome));
}
