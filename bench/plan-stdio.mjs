// terminal_plan of a long line against terminal_plan of `echo a`, over STDIO (issue 20's cost goal: a 1 000-character
// line within 2x of `echo a`). One `term-mcp stdio` server (the sandbox off: a plan runs nothing), one client, the
// lines interleaved round by round so load on the machine falls on all of them alike; the figures are ratios of
// p50s in the same run. Each line is planned in a terminal session of its own, made by its first call.
//
// `--baseline <dist>` also runs the server of another build (an earlier commit's dist/, with node_modules reachable
// from it), interleaved in the same rounds, so a change is measured against its baseline under the same load.
//
//   node bench/plan-stdio.mjs [--rounds 300] [--baseline /path/to/old/dist]
import path from 'node:path';
import {
  assertBuilt,
  CLI,
  fixed,
  hrtimeMs,
  isMain,
  makeTempDir,
  removeDir,
  startChild,
  StdioRpc,
  summarize,
  termMcpEnv,
  toolResult,
} from './support.mjs';

export const PLAN_LINES = {
  'echo a': 'echo a',
  'echo a a a ... (1 000 characters)': `echo${' a'.repeat(498)}`,
  'ls;ls;... (999 characters, 333 commands)': 'ls;'.repeat(333),
};
const WARM_UP = 200;

export async function runPlanStdioBench({ rounds = 300, baseline = null } = {}) {
  assertBuilt();
  const workspace = makeTempDir('term-mcp-bench-plan-');
  const builds =
    baseline === null
      ? [['this build', CLI]]
      : [
          ['this build', CLI],
          ['baseline', path.join(baseline, 'main', 'cli.js')],
        ];
  const servers = builds.map(([build, cli]) => {
    const child = startChild('node', [cli, 'stdio'], {
      env: termMcpEnv(workspace, { TERM_MCP_SANDBOX: 'off' }),
      stdin: 'pipe',
    });
    return { build, rpc: new StdioRpc(child), sessions: new Map() };
  });
  try {
    for (const { build, rpc } of servers) {
      const discover = await rpc.request('server/discover');
      if (discover.error) throw new Error(`${build} server/discover: ${discover.error.message}`);
    }
    const plan = async (server, command) => {
      const session = server.sessions.get(command);
      const started = process.hrtime.bigint();
      const args = session === undefined ? { command } : { command, session_id: session };
      const answer = toolResult(
        await server.rpc.request('tools/call', { name: 'terminal_plan', arguments: args }),
        'terminal_plan',
      );
      const ms = hrtimeMs(started);
      server.sessions.set(command, answer.session_id);
      return { ms, verdict: answer.policy.verdict };
    };
    const entries = Object.entries(PLAN_LINES);
    for (let index = 0; index < WARM_UP; index += 1)
      for (const server of servers) for (const [, command] of entries) await plan(server, command);
    const samples = new Map(servers.flatMap(({ build }) => entries.map(([name]) => [`${build}\0${name}`, []])));
    const verdicts = new Map();
    for (let round = 0; round < rounds; round += 1) {
      for (const server of servers) {
        for (const [name, command] of entries) {
          const { ms, verdict } = await plan(server, command);
          samples.get(`${server.build}\0${name}`).push(ms);
          verdicts.set(`${server.build}\0${name}`, verdict);
        }
      }
    }
    return servers.flatMap(({ build }) => {
      const base = summarize(samples.get(`${build}\0echo a`)).p50;
      return entries.map(([name, command]) => {
        const stats = summarize(samples.get(`${build}\0${name}`));
        return {
          build,
          name,
          length: command.length,
          verdict: verdicts.get(`${build}\0${name}`),
          ...stats,
          ratio: stats.p50 / base,
        };
      });
    });
  } finally {
    for (const { rpc } of servers) await rpc.close();
    removeDir(workspace);
  }
}

export function planStdioMarkdown(rows) {
  return [
    '| server | terminal_plan of | characters | verdict | samples | p50 ms | p99 ms | p50 ÷ `echo a` on the same server |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.build} | \`${r.name}\` | ${r.length} | ${r.verdict} | ${r.n} | ${fixed(r.p50, 3)} | ${fixed(r.p99, 3)} | ${fixed(r.ratio, 2)}x |`,
    ),
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const option = (name) => {
    const at = process.argv.indexOf(name);
    return at === -1 ? undefined : process.argv[at + 1];
  };
  const rounds = Number(option('--rounds') ?? 300);
  process.stdout.write(
    `${planStdioMarkdown(await runPlanStdioBench({ rounds, baseline: option('--baseline') ?? null }))}\n`,
  );
}
