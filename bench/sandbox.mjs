// Sandbox overhead: `terminal_execute {command: "echo hi"}` with the bubblewrap sandbox (the default), with
// TERM_MCP_SANDBOX=off, and a bare `child_process.spawn('echo', ['hi'])`, p50 / p99 over N runs. The three series run
// in one fresh worker process, interleaved run by run, so drift and the forking process's size hit them equally.
// Both servers are in-process (the dispatcher called directly), so the difference is the sandbox alone.
//
//   node bench/sandbox.mjs [--runs 200]
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startInProcess } from './in-process.mjs';
import { assertBuilt, BENCH_DIR, fixed, hrtimeMs, isMain, makeTempDir, removeDir, startChild, summarize, table, toolResult } from './support.mjs';

export const SANDBOX_DEFAULTS = { runs: 200, warmupRuns: 20 };

function bareSpawnMs() {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn('echo', ['hi'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(hrtimeMs(start)) : reject(new Error(`echo exited ${code}`))));
  });
}

async function executeMs(server, sessionId, expectedSandbox) {
  const start = process.hrtime.bigint();
  const receipt = toolResult(await server.callTool('terminal_execute', { command: 'echo hi', session_id: sessionId }), 'terminal_execute');
  const elapsed = hrtimeMs(start);
  if (receipt.status !== 'succeeded' || receipt.stdout !== 'hi\n') throw new Error(`echo: ${JSON.stringify(receipt)}`);
  if (receipt.confinement?.sandbox !== expectedSandbox) throw new Error(`expected sandbox ${expectedSandbox}, got ${JSON.stringify(receipt.confinement)}`);
  return elapsed;
}

async function measure({ runs, warmupRuns }) {
  const workspace = makeTempDir('term-mcp-bench-sandbox-');
  const sandboxed = await startInProcess(workspace, { APPROVAL_MODE: 'trusted' });
  const unsandboxed = await startInProcess(workspace, { APPROVAL_MODE: 'trusted', TERM_MCP_SANDBOX: 'off' });
  try {
    const sessionOf = async (server) => toolResult(await server.callTool('terminal_plan', { command: 'echo hi' }), 'terminal_plan').session_id;
    const sessions = { sandboxed: await sessionOf(sandboxed), unsandboxed: await sessionOf(unsandboxed) };
    const samples = { spawn: [], sandboxed: [], unsandboxed: [] };
    for (let run = 0; run < warmupRuns + runs; run += 1) {
      const spawnMs = await bareSpawnMs();
      const sandboxedMs = await executeMs(sandboxed, sessions.sandboxed, 'bubblewrap');
      const unsandboxedMs = await executeMs(unsandboxed, sessions.unsandboxed, 'off');
      if (run < warmupRuns) continue;
      samples.spawn.push(spawnMs);
      samples.sandboxed.push(sandboxedMs);
      samples.unsandboxed.push(unsandboxedMs);
    }
    return { spawn: summarize(samples.spawn), sandboxed: summarize(samples.sandboxed), unsandboxed: summarize(samples.unsandboxed) };
  } finally {
    await sandboxed.close();
    await unsandboxed.close();
    removeDir(workspace);
  }
}

export async function runSandboxBench(options = {}) {
  assertBuilt();
  const settings = { ...SANDBOX_DEFAULTS, ...options };
  const child = startChild('node', [path.join(BENCH_DIR, 'sandbox.mjs'), '--worker', String(settings.runs), String(settings.warmupRuns)]);
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const { code } = await child.exited;
  if (code !== 0) throw new Error(`sandbox worker failed (${code}):\n${child.stderrText}`);
  return { settings, ...JSON.parse(output) };
}

export function sandboxMarkdown({ settings, spawn: bare, sandboxed, unsandboxed }) {
  const rows = [
    ['bare spawn(`echo hi`)', bare, ''],
    ['terminal_execute, TERM_MCP_SANDBOX=off', unsandboxed, ''],
    ['terminal_execute, sandboxed (bubblewrap)', sandboxed, `${fixed(sandboxed.p50 - unsandboxed.p50)} / ${fixed(sandboxed.p99 - unsandboxed.p99)}`],
  ].map(([what, stats, added]) => [what, fixed(stats.p50), fixed(stats.p99), fixed(stats.mean), added]);
  return [
    `${settings.runs} runs each after ${settings.warmupRuns} warm-up runs, the three series interleaved run by run, in one process.`,
    '',
    table(['what', 'p50 ms', 'p99 ms', 'mean ms', 'added by the sandbox p50 / p99 ms'], rows),
  ].join('\n');
}

export function sandboxVerdicts({ sandboxed, unsandboxed }) {
  const added = sandboxed.p50 - unsandboxed.p50;
  return [
    {
      met: added < 15,
      target: 'the sandbox adds < 15 ms at p50 to `terminal_execute` of `echo`',
      evidence: `+${fixed(added)} ms p50 (${fixed(sandboxed.p50)} sandboxed vs ${fixed(unsandboxed.p50)} off)`,
    },
  ];
}

if (isMain(import.meta.url)) {
  if (process.argv[2] === '--worker') {
    const result = await measure({ runs: Number(process.argv[3]), warmupRuns: Number(process.argv[4]) });
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    const index = process.argv.indexOf('--runs');
    const runs = index === -1 ? SANDBOX_DEFAULTS.runs : Number(process.argv[index + 1]);
    console.log(sandboxMarkdown(await runSandboxBench({ runs })));
  }
}
