// HTTP under more clients (issue 15): p99 at 100 connections against p99 at 10, for term-mcp and, as a reference for
// what queueing alone does on this machine, the bare node:http echo. Each target runs in its own child; in each round
// every (target, method, connections) case is measured in turn, so load drift hits them alike. tools/call is
// `terminal_plan {command:"pwd", session_id}` as in bench/http.mjs.
//
//   node bench/http-scaling.mjs [--duration 3] [--rounds 3]
import { load, prepareCall, withHttpTargets } from './http.mjs';
import { fixed, isMain, median, summarize, table } from './support.mjs';

export const SCALING_DEFAULTS = { durationSeconds: 3, rounds: 3, warmupSeconds: 1, connections: [10, 100], targets: ['echo', 'term-mcp'] };

export async function runHttpScalingBench(options = {}) {
  const settings = { ...SCALING_DEFAULTS, ...options };
  return withHttpTargets(settings.targets, async (targets) => {
    const cases = [];
    for (const target of targets) {
      const call = await prepareCall(target);
      for (const [method, params] of [['tools/list', {}], ['tools/call', call]]) {
        for (const connections of settings.connections) {
          await load(target.url, method, params, { connections, durationSeconds: settings.warmupSeconds });
          cases.push({ target: target.kind, url: target.url, method, params, connections, rounds: [] });
        }
      }
    }
    for (let round = 0; round < settings.rounds; round += 1) {
      for (const item of cases) item.rounds.push(await load(item.url, item.method, item.params, { ...settings, connections: item.connections }));
    }
    const results = cases.map(({ target, method, connections, rounds }) => ({
      target,
      method,
      connections,
      requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
      roundP99: rounds.map((r) => summarize(r.latencies).p99),
      roundRates: rounds.map((r) => r.requestsPerSecond),
      pooled: summarize(rounds.flatMap((r) => r.latencies)),
      failed: rounds.reduce((sum, r) => sum + r.failed, 0),
    }));
    return { settings, results };
  });
}

/** p99 at the most connections ÷ p99 at the fewest, round by round: median and spread. */
function p99Ratios({ settings, results }, target, method) {
  const [few, many] = [Math.min(...settings.connections), Math.max(...settings.connections)];
  const at = (connections) => results.find((r) => r.target === target && r.method === method && r.connections === connections);
  const ratios = at(many).roundP99.map((p99, i) => p99 / at(few).roundP99[i]);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), few: at(few), many: at(many) };
}

export function httpScalingVerdicts(run) {
  return ['tools/list', 'tools/call'].map((method) => {
    const r = p99Ratios(run, 'term-mcp', method);
    const spread = r.max - r.min;
    return {
      met: r.median + spread < 3,
      target: `HTTP ${method}: p99 at ${r.many.connections} connections within 3x of p99 at ${r.few.connections}`,
      evidence: `${fixed(r.median)}x per round (${fixed(r.min)}–${fixed(r.max)}); pooled p99 ${fixed(r.many.pooled.p99)} vs ${fixed(r.few.pooled.p99)} ms; ` +
        `${fixed(r.many.requestsPerSecond, 0)} vs ${fixed(r.few.requestsPerSecond, 0)} req/s`,
    };
  });
}

export function httpScalingMarkdown(run) {
  const rows = run.results.map((r) => [
    r.target,
    r.method,
    String(r.connections),
    fixed(r.requestsPerSecond, 0),
    fixed(r.pooled.p50),
    fixed(r.pooled.p99),
    r.roundP99.map((p) => fixed(p)).join(' / '),
    String(r.failed),
  ]);
  const ratioRows = run.settings.targets.flatMap((target) =>
    ['tools/list', 'tools/call'].map((method) => {
      const r = p99Ratios(run, target, method);
      return [target, method, `${fixed(r.median)} (${fixed(r.min)}–${fixed(r.max)})`];
    }),
  );
  return [
    `autocannon, ${run.settings.rounds} rounds of ${run.settings.durationSeconds} s per case after a ${run.settings.warmupSeconds} s warm-up, ` +
      `${run.settings.connections.join(' and ')} connections, cases measured in turn within each round. Latencies pooled; p99 also per round.`,
    '',
    table(['target', 'method', 'connections', 'requests/s (median)', 'p50 ms', 'p99 ms', 'p99 per round', 'non-2xx + errors'], rows),
    '',
    table(['target', 'method', `p99 at ${Math.max(...run.settings.connections)} ÷ p99 at ${Math.min(...run.settings.connections)}, per round: median (min–max)`], ratioRows),
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const arg = (name, fallback) => {
    const index = process.argv.indexOf(`--${name}`);
    return index === -1 ? fallback : Number(process.argv[index + 1]);
  };
  const run = await runHttpScalingBench({ durationSeconds: arg('duration', 3), rounds: arg('rounds', 3) });
  console.log(httpScalingMarkdown(run));
  console.log();
  console.log(table(['target', 'verdict', 'measured'], httpScalingVerdicts(run).map((v) => [v.target, v.met ? 'met' : '**not met**', v.evidence])));
}
