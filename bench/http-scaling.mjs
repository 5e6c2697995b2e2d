// HTTP under more clients (issue 15): p99 at 100 connections against p99 at 10, for term-mcp and, as a reference for
// what queueing alone does on this machine, the bare node:http echo. Each target runs in its own child; in each round
// every (target, method, connections) case is measured in turn, so load drift hits them alike. tools/call is
// `terminal_plan {command:"pwd", session_id}` as in bench/http.mjs.
//
//   node bench/http-scaling.mjs [--duration 3] [--rounds 3]
import { load, prepareCall, withHttpTargets } from './http.mjs';
import os from 'node:os';
import { fixed, isMain, median, summarize, table } from './support.mjs';

export const SCALING_DEFAULTS = {
  durationSeconds: 3,
  rounds: 3,
  warmupSeconds: 1,
  connections: [10, 100],
  targets: ['echo', 'term-mcp'],
  /** `terminal_execute {command: "echo hi"}` (one-shot, sandboxed: the default), against the bare spawn server and the v1 SDK server. */
  executeTargets: ['spawn', 'term-mcp', 'sdk-v1'],
  /**
   * Longer for the execute cases: at 100 connections and ~35 calls/s a call waits ~3 s, and a round shorter than that
   * would cut the tail off (only answered calls have a latency).
   */
  executeDurationSeconds: 10,
};

/** The method label of the execute cases; their tools/call runs `echo hi`, and only a succeeded answer counts. */
export const EXECUTE = 'tools/call execute';
const EXECUTE_CALL = { name: 'terminal_execute', arguments: { command: 'echo hi' } };
/** `"status":"succeeded"` in the structured result, or in its JSON text (escaped, maybe pretty-printed: the v1 SDK's). */
const succeeded = (body) => /status\\?":\s*\\?"succeeded/.test(body);

export async function runHttpScalingBench(options = {}) {
  const settings = { ...SCALING_DEFAULTS, ...options };
  const kinds = [...new Set([...settings.targets, ...settings.executeTargets])];
  return withHttpTargets(kinds, async (targets) => {
    const cases = [];
    for (const target of targets) {
      const methods = [];
      if (settings.targets.includes(target.kind))
        methods.push(['tools/list', {}], ['tools/call', await prepareCall(target)]);
      if (settings.executeTargets.includes(target.kind)) methods.push([EXECUTE, EXECUTE_CALL, succeeded]);
      for (const [method, params, verify] of methods) {
        for (const connections of settings.connections) {
          const wire = method === EXECUTE ? 'tools/call' : method;
          await load(
            target.url,
            wire,
            params,
            { connections, durationSeconds: settings.warmupSeconds },
            target,
            verify,
          );
          cases.push({
            target: target.kind,
            handle: target,
            url: target.url,
            method,
            wire,
            params,
            verify,
            connections,
            rounds: [],
          });
        }
      }
    }
    for (let round = 0; round < settings.rounds; round += 1) {
      for (const item of cases) {
        const durationSeconds = item.method === EXECUTE ? settings.executeDurationSeconds : settings.durationSeconds;
        item.rounds.push(
          await load(
            item.url,
            item.wire,
            item.params,
            { durationSeconds, connections: item.connections },
            item.handle,
            item.verify,
          ),
        );
        item.loads = [...(item.loads ?? []), fixed(os.loadavg()[0], 2)];
      }
    }
    const results = cases.map(({ target, method, connections, rounds }) => ({
      target,
      method,
      connections,
      requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
      succeededPerSecond: median(rounds.map((r) => r.succeededPerSecond)),
      roundP99: rounds.map((r) => summarize(r.latencies).p99),
      roundRates: rounds.map((r) => r.requestsPerSecond),
      pooled: summarize(rounds.flatMap((r) => r.latencies)),
      failed: rounds.reduce((sum, r) => sum + r.failed, 0),
      loads: cases.find((item) => item.target === target && item.method === method && item.connections === connections)
        .loads,
    }));
    return { settings, results };
  });
}

/** p99 at the most connections ÷ p99 at the fewest, round by round: median and spread. */
function p99Ratios({ settings, results }, target, method) {
  const [few, many] = [Math.min(...settings.connections), Math.max(...settings.connections)];
  const at = (connections) =>
    results.find((r) => r.target === target && r.method === method && r.connections === connections);
  if (!at(many) || !at(few)) return undefined;
  const ratios = at(many).roundP99.map((p99, i) => p99 / at(few).roundP99[i]);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), few: at(few), many: at(many) };
}

export function httpScalingVerdicts(run) {
  const execute = [];
  const ours = p99Ratios(run, 'term-mcp', EXECUTE);
  const bare = p99Ratios(run, 'spawn', EXECUTE);
  const v1 = p99Ratios(run, 'sdk-v1', EXECUTE);
  if (ours && bare) {
    execute.push({
      // A call that failed answers early: the ratio only counts when every call succeeded.
      met: ours.median <= bare.median && ours.many.failed + ours.few.failed === 0,
      target: `HTTP terminal_execute: p99 at ${ours.many.connections} ÷ p99 at ${ours.few.connections} no worse than the bare node:http spawn server's`,
      evidence: `term-mcp ${fixed(ours.median)}x (${fixed(ours.min)}–${fixed(ours.max)}) vs spawn server ${fixed(bare.median)}x (${fixed(bare.min)}–${fixed(bare.max)}); failed calls: ${ours.many.failed + ours.few.failed} vs ${bare.many.failed + bare.few.failed}; loads ${ours.many.loads.join(', ')}`,
    });
  }
  if (ours && v1) {
    execute.push(
      ...[ours.few.connections, ours.many.connections].map((connections) => {
        const mine = connections === ours.few.connections ? ours.few : ours.many;
        const theirs = connections === v1.few.connections ? v1.few : v1.many;
        return {
          met: mine.succeededPerSecond >= theirs.succeededPerSecond,
          target: `HTTP terminal_execute at ${connections} connections: throughput (succeeded calls) at least the v1 SDK server's`,
          evidence: `${fixed(mine.succeededPerSecond, 1)} vs ${fixed(theirs.succeededPerSecond, 1)} succeeded/s (failed: ${mine.failed} vs ${theirs.failed})`,
        };
      }),
    );
  }
  return [
    ...execute,
    ...['tools/list', 'tools/call']
      .filter((method) => p99Ratios(run, 'term-mcp', method))
      .map((method) => {
        const r = p99Ratios(run, 'term-mcp', method);
        const spread = r.max - r.min;
        return {
          met: r.median + spread < 3,
          target: `HTTP ${method}: p99 at ${r.many.connections} connections within 3x of p99 at ${r.few.connections}`,
          evidence:
            `${fixed(r.median)}x per round (${fixed(r.min)}–${fixed(r.max)}); pooled p99 ${fixed(r.many.pooled.p99)} vs ${fixed(r.few.pooled.p99)} ms; ` +
            `${fixed(r.many.requestsPerSecond, 0)} vs ${fixed(r.few.requestsPerSecond, 0)} req/s`,
        };
      }),
  ];
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
    r.loads.join(', '),
  ]);
  const ratioRows = [...new Set(run.results.map((r) => `${r.target}\n${r.method}`))].flatMap((key) => {
    const [target, method] = key.split('\n');
    const r = p99Ratios(run, target, method);
    return r ? [[target, method, `${fixed(r.median)} (${fixed(r.min)}–${fixed(r.max)})`]] : [];
  });
  return [
    `autocannon, ${run.settings.rounds} rounds of ${run.settings.durationSeconds} s per case (${run.settings.executeDurationSeconds} s for \`tools/call execute\`) after a ${run.settings.warmupSeconds} s warm-up, ` +
      `${run.settings.connections.join(' and ')} connections, cases measured in turn within each round. Latencies pooled; p99 also per round.`,
    '',
    table(
      [
        'target',
        'method',
        'connections',
        'requests/s (median)',
        'p50 ms',
        'p99 ms',
        'p99 per round',
        'failed (non-2xx, errors, tool errors)',
        'load (1 min) per round',
      ],
      rows,
    ),
    '',
    table(
      [
        'target',
        'method',
        `p99 at ${Math.max(...run.settings.connections)} ÷ p99 at ${Math.min(...run.settings.connections)}, per round: median (min–max)`,
      ],
      ratioRows,
    ),
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const arg = (name, fallback) => {
    const index = process.argv.indexOf(`--${name}`);
    return index === -1 ? fallback : Number(process.argv[index + 1]);
  };
  // --execute-only: only the terminal_execute cases (the spawn server, term-mcp, the v1 SDK server).
  const only = process.argv.includes('--execute-only') ? { targets: [] } : {};
  const run = await runHttpScalingBench({
    durationSeconds: arg('duration', 3),
    executeDurationSeconds: arg('execute-duration', 10),
    rounds: arg('rounds', 3),
    ...only,
  });
  console.log(httpScalingMarkdown(run));
  console.log();
  console.log(
    table(
      ['target', 'verdict', 'measured'],
      httpScalingVerdicts(run).map((v) => [v.target, v.met ? 'met' : '**not met**', v.evidence]),
    ),
  );
}
