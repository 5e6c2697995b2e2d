// Execute overhead: how much longer `terminal_execute` of `true` takes than a bare `child_process.spawn('true')`
// (stdout and stderr piped, timed until 'close'), p50 / p99 over N runs. Measured two ways, each against a baseline
// taken in the same process and interleaved run by run, so drift hits both equally:
//   - in-process: term-mcp's dispatcher called directly (no transport): the server's own cost, and the fair
//     comparison, since both spawns happen in the same process (fork/exec time grows with the forking process's size);
//   - via stdio: a `term-mcp stdio` child, timed from the request line written to the answer line read; the baseline
//     spawns from the client process instead.
// Each series runs in a fresh worker process, so the benchmark runner's own heap does not slow its spawns.
// Each run first plans `true` (not timed), then times `terminal_execute {session_id, plan_id}`; a second row times
// the one-call form `terminal_execute {command: "true"}` (plan + execute).
//
//   node bench/execute.mjs [--runs 200]
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startInProcess } from './in-process.mjs';
import {
  assertBuilt,
  BENCH_DIR,
  fixed,
  hrtimeMs,
  isMain,
  makeTempDir,
  removeDir,
  startChild,
  startStdioTarget,
  StdioRpc,
  summarize,
  table,
  toolResult,
} from './support.mjs';

export const EXECUTE_DEFAULTS = { runs: 200, warmupRuns: 20 };

function bareSpawnMs() {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn('true', [], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(hrtimeMs(start)) : reject(new Error(`true exited ${code}`))));
  });
}

/** `call(name, args)` resolves with a JSON-RPC answer; runs the three interleaved series. */
async function measure(call, { runs, warmupRuns }) {
  const session = toolResult(await call('terminal_plan', { command: 'true' }), 'terminal_plan');
  const sessionId = session.session_id;
  const samples = { spawn: [], execute: [], planAndExecute: [] };
  for (let run = 0; run < warmupRuns + runs; run += 1) {
    const keep = run >= warmupRuns;
    const spawnMs = await bareSpawnMs();

    const plan = toolResult(await call('terminal_plan', { command: 'true', session_id: sessionId }), 'terminal_plan');
    let start = process.hrtime.bigint();
    const receipt = toolResult(
      await call('terminal_execute', { session_id: sessionId, plan_id: plan.id }),
      'terminal_execute',
    );
    const executeMs = hrtimeMs(start);
    if (receipt.status !== 'succeeded') throw new Error(`terminal_execute: status ${receipt.status}`);

    start = process.hrtime.bigint();
    toolResult(
      await call('terminal_execute', { command: 'true', session_id: sessionId }),
      'terminal_execute {command}',
    );
    const planAndExecuteMs = hrtimeMs(start);

    if (keep) {
      samples.spawn.push(spawnMs);
      samples.execute.push(executeMs);
      samples.planAndExecute.push(planAndExecuteMs);
    }
  }
  return {
    spawn: summarize(samples.spawn),
    execute: summarize(samples.execute),
    planAndExecute: summarize(samples.planAndExecute),
  };
}

async function measureInProcess(settings) {
  const workspace = makeTempDir('term-mcp-bench-exec-');
  const server = await startInProcess(workspace);
  try {
    return await measure((name, args) => server.callTool(name, args), settings);
  } finally {
    await server.close();
    removeDir(workspace);
  }
}

async function measureViaStdio(settings) {
  const workspace = makeTempDir('term-mcp-bench-exec-');
  const rpc = new StdioRpc(startStdioTarget('term-mcp', workspace));
  try {
    return await measure((name, args) => rpc.request('tools/call', { name, arguments: args }), settings);
  } finally {
    await rpc.close();
    removeDir(workspace);
  }
}

/** Runs one series (`in-process` or `stdio`) in a fresh worker process and returns its statistics. */
async function inWorker(mode, settings) {
  const args = [
    path.join(BENCH_DIR, 'execute.mjs'),
    '--worker',
    mode,
    String(settings.runs),
    String(settings.warmupRuns),
  ];
  const child = startChild('node', args);
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const { code } = await child.exited;
  if (code !== 0) throw new Error(`execute worker (${mode}) failed (${code}):\n${child.stderrText}`);
  return JSON.parse(output);
}

export async function runExecuteBench(options = {}) {
  assertBuilt();
  const settings = { ...EXECUTE_DEFAULTS, ...options };
  const inProcess = await inWorker('in-process', settings);
  const viaStdio = await inWorker('stdio', settings);
  return { settings, inProcess, viaStdio };
}

export function executeMarkdown({ settings, inProcess, viaStdio }) {
  const rows = [];
  for (const [label, result] of [
    ['in-process (dispatcher)', inProcess],
    ['via stdio (child)', viaStdio],
  ]) {
    for (const [what, stats] of [
      ['bare spawn(`true`)', result.spawn],
      ['terminal_execute {plan_id}', result.execute],
      ['terminal_execute {command}', result.planAndExecute],
    ]) {
      const overhead =
        stats === result.spawn ? '' : `${fixed(stats.p50 - result.spawn.p50)} / ${fixed(stats.p99 - result.spawn.p99)}`;
      rows.push([label, what, fixed(stats.p50), fixed(stats.p99), fixed(stats.mean), overhead]);
    }
  }
  return [
    `${settings.runs} runs each after ${settings.warmupRuns} warm-up runs, the three series interleaved run by run.`,
    '',
    table(['path', 'what', 'p50 ms', 'p99 ms', 'mean ms', 'overhead over spawn p50 / p99 ms'], rows),
  ].join('\n');
}

if (isMain(import.meta.url)) {
  if (process.argv[2] === '--worker') {
    const settings = { runs: Number(process.argv[4]), warmupRuns: Number(process.argv[5]) };
    const result = process.argv[3] === 'stdio' ? await measureViaStdio(settings) : await measureInProcess(settings);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    const index = process.argv.indexOf('--runs');
    const runs = index === -1 ? EXECUTE_DEFAULTS.runs : Number(process.argv[index + 1]);
    console.log(executeMarkdown(await runExecuteBench({ runs })));
  }
}
