// Sandbox cost (issue 22), every figure a ratio against a reference measured in the same run, in one worker process:
//
// - latency: `terminal_execute {command: "echo hi"}` over STDIO to a sandboxed server (the default) and to one with
//   TERM_MCP_SANDBOX=off, against bare launches of bubblewrap with the very argv, environment and directory the server
//   uses (captured from an in-process server on the same workspace) and a bare `spawn('echo')`, all four interleaved
//   run by run from this small process;
// - server CPU per call: the servers' own utime+stime (/proc/PID/stat) over those runs, divided by the calls;
// - the host's process count: the same two measurements again with HOST_EXTRA_PROCESSES idle `sleep` processes
//   started (bounded, killed at the end), interleaved with runs without them;
// - concurrency: CLIENTS STDIO clients, each with its own sandboxed server, one call in flight each, against CLIENTS
//   loops of bare bubblewrap launches (the same argv), run back to back;
// - in-flight calls: IN_FLIGHT one-shot calls at once from one client with the default configuration (how many fail);
// - memory: a sandboxed server's RSS after 10 calls and after 1 000;
// - event-loop delay: `monitorEventLoopDelay` while the policy engine judges the costliest accepted lines in-process.
//
// Each section also notes the 1-minute load average when it ran (the machine is shared).
//   node bench/sandbox.mjs [--runs 100]
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { startInProcess } from './in-process.mjs';
import { costliestAcceptedLines, loadPolicyEngine } from './policy.mjs';
import {
  assertBuilt,
  BENCH_DIR,
  fixed,
  hrtimeMs,
  isMain,
  makeTempDir,
  mib,
  removeDir,
  rssOf,
  startChild,
  startStdioTarget,
  StdioRpc,
  summarize,
  table,
  toolResult,
} from './support.mjs';

export const SANDBOX_DEFAULTS = {
  runs: 100,
  warmupRuns: 10,
  clients: 8,
  callsPerClient: 60,
  hostExtraProcesses: 400,
  inFlight: 64,
  memoryCalls: 1000,
};

const load1 = () => fixed(os.loadavg()[0], 2);
const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime of a process, in ms (Linux /proc; the kernel's USER_HZ is 100 on every Linux this runs on). */
function cpuMsOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * One launch to its end. `setupInput` (the seccomp program) is fed on descriptor 3 and bwrap's set-up report read off
 * descriptor 4, as the server's process adapter does, so the bare launch is the same argv with the same descriptors.
 */
function launchMs(file, args, options, setupInput) {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const stdio = setupInput === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'];
    const child = spawn(file, args, { ...options, stdio });
    if (setupInput !== undefined) {
      child.stdio[3].end(setupInput);
      child.stdio[4].resume();
    }
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 && out === 'hi\n' ? resolve(hrtimeMs(start)) : reject(new Error(`${file} exited ${code}: ${out}`)),
    );
  });
}

/** The bubblewrap launch the server makes for `echo hi` on this workspace, captured from an in-process server. */
async function captureBubblewrapLaunch(workspace) {
  const server = await startInProcess(workspace, { APPROVAL_MODE: 'trusted' });
  try {
    const confinement = server.container.get(server.TYPES.CommandConfinement);
    const confine = confinement.confine.bind(confinement);
    let captured;
    confinement.confine = (request) => {
      captured = confine(request);
      return captured;
    };
    toolResult(await server.callTool('terminal_execute', { command: 'echo hi' }), 'terminal_execute');
    if (!captured) throw new Error('no bubblewrap launch was captured');
    return {
      file: captured.file,
      args: [...captured.args],
      options: { cwd: captured.cwd, env: { ...captured.environment }, detached: true },
      setupInput: captured.setupInput,
    };
  } finally {
    await server.close();
  }
}

async function echoCall(rpc, expectedSandbox) {
  const start = process.hrtime.bigint();
  const receipt = toolResult(
    await rpc.request('tools/call', { name: 'terminal_execute', arguments: { command: 'echo hi' } }),
    'terminal_execute',
  );
  const elapsed = hrtimeMs(start);
  if (receipt.status !== 'succeeded' || receipt.stdout !== 'hi\n') throw new Error(`echo: ${JSON.stringify(receipt)}`);
  if (receipt.confinement?.sandbox !== expectedSandbox)
    throw new Error(`expected sandbox ${expectedSandbox}, got ${JSON.stringify(receipt.confinement)}`);
  return elapsed;
}

function startServer(workspace, env = {}) {
  const child = startStdioTarget('term-mcp', workspace, { APPROVAL_MODE: 'trusted', ...env });
  return { child, rpc: new StdioRpc(child) };
}

/** Idle processes on the host, bounded by `count`, for the process-count runs; `stop` kills them all. */
async function startIdleProcesses(count) {
  const sleepers = [];
  for (let index = 0; index < count; index += 1) {
    const child = spawn('sleep', ['3600'], { stdio: 'ignore' });
    child.once('error', () => undefined);
    sleepers.push(child);
  }
  await Promise.all(
    sleepers.map((child) => new Promise((resolve) => (child.pid ? resolve() : child.once('spawn', resolve)))),
  );
  const stop = async () => {
    await Promise.all(
      sleepers.map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return undefined;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        return exited;
      }),
    );
  };
  return { stop };
}

const hostProcessCount = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ')[3].split('/')[1];
  } catch {
    return 'unknown';
  }
};

/** Latency and server CPU, four series interleaved run by run; with or without the idle processes. */
async function latencyAndCpu({ runs, warmupRuns }, workspace, bubblewrap, servers) {
  const samples = { bubblewrap: [], echo: [], sandboxed: [], unsandboxed: [] };
  let cpu = { sandboxed: 0, unsandboxed: 0 };
  for (let run = 0; run < warmupRuns + runs; run += 1) {
    if (run === warmupRuns)
      cpu = { sandboxed: cpuMsOf(servers.sandboxed.child.pid), unsandboxed: cpuMsOf(servers.unsandboxed.child.pid) };
    const bwrapMs = await launchMs(bubblewrap.file, bubblewrap.args, bubblewrap.options, bubblewrap.setupInput);
    const echoMs = await launchMs('echo', ['hi'], {});
    const sandboxedMs = await echoCall(servers.sandboxed.rpc, 'bubblewrap');
    const unsandboxedMs = await echoCall(servers.unsandboxed.rpc, 'off');
    if (run < warmupRuns) continue;
    samples.bubblewrap.push(bwrapMs);
    samples.echo.push(echoMs);
    samples.sandboxed.push(sandboxedMs);
    samples.unsandboxed.push(unsandboxedMs);
  }
  // Work a call leaves behind (closing its one-shot session, checking its process group) is part of its cost.
  await sleep(300);
  const cpuPerCall = {
    sandboxed: (cpuMsOf(servers.sandboxed.child.pid) - cpu.sandboxed) / runs,
    unsandboxed: (cpuMsOf(servers.unsandboxed.child.pid) - cpu.unsandboxed) / runs,
  };
  return {
    load: load1(),
    hostProcesses: hostProcessCount(),
    bubblewrap: summarize(samples.bubblewrap),
    echo: summarize(samples.echo),
    sandboxed: summarize(samples.sandboxed),
    unsandboxed: summarize(samples.unsandboxed),
    cpuPerCall,
  };
}

/** `clients` STDIO clients with a sandboxed server each, against `clients` loops of bare bubblewrap launches. */
async function concurrency({ clients, callsPerClient }, workspace, bubblewrap) {
  const servers = Array.from({ length: clients }, () => startServer(workspace));
  try {
    await Promise.all(servers.map(({ rpc }) => echoCall(rpc, 'bubblewrap')));
    const bareRate = async () => {
      const start = process.hrtime.bigint();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          for (let call = 0; call < callsPerClient; call += 1)
            await launchMs(bubblewrap.file, bubblewrap.args, bubblewrap.options, bubblewrap.setupInput);
        }),
      );
      return (clients * callsPerClient) / (hrtimeMs(start) / 1000);
    };
    const serverRate = async () => {
      const start = process.hrtime.bigint();
      await Promise.all(
        servers.map(async ({ rpc }) => {
          for (let call = 0; call < callsPerClient; call += 1) await echoCall(rpc, 'bubblewrap');
        }),
      );
      return (clients * callsPerClient) / (hrtimeMs(start) / 1000);
    };
    // bwrap, servers, bwrap, servers: drift hits both.
    const bare = [await bareRate()];
    const served = [await serverRate()];
    bare.push(await bareRate());
    served.push(await serverRate());
    const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
    return { load: load1(), clients, callsPerClient, bareLaunchesPerSecond: mean(bare), callsPerSecond: mean(served) };
  } finally {
    await Promise.all(servers.map(({ rpc }) => rpc.close()));
  }
}

/** `inFlight` one-shot calls at once from one client, default configuration: how many answered with an error. */
async function inFlightCalls({ inFlight }, workspace) {
  const server = startServer(workspace);
  try {
    const start = process.hrtime.bigint();
    const answers = await Promise.all(
      Array.from({ length: inFlight }, () =>
        server.rpc.request('tools/call', { name: 'terminal_execute', arguments: { command: 'echo hi' } }),
      ),
    );
    const elapsedMs = hrtimeMs(start);
    const failed = answers.filter(
      (answer) => answer.error || answer.result?.isError || answer.result?.structuredContent?.stdout !== 'hi\n',
    );
    const codes = [
      ...new Set(failed.map((answer) => answer.error?.message ?? answer.result?.structuredContent?.code ?? 'other')),
    ];
    return { load: load1(), inFlight, failed: failed.length, codes, elapsedMs };
  } finally {
    await server.rpc.close();
  }
}

/** RSS of a sandboxed server after 10 calls and after `memoryCalls`, one call at a time. */
async function memoryAfterCalls({ memoryCalls }, workspace) {
  const server = startServer(workspace);
  try {
    for (let call = 0; call < 10; call += 1) await echoCall(server.rpc, 'bubblewrap');
    await sleep(500);
    const after10 = rssOf(server.child.pid);
    for (let call = 10; call < memoryCalls; call += 1) await echoCall(server.rpc, 'bubblewrap');
    await sleep(500);
    const afterAll = rssOf(server.child.pid);
    return { load: load1(), calls: memoryCalls, after10, afterAll };
  } finally {
    await server.rpc.close();
  }
}

/**
 * The JavaScript heap (after two full collections) of an in-process sandboxed server after 10 calls and after
 * `memoryCalls`: whether what RSS gains is kept by the server or is the allocator's and V8's own.
 */
async function heapAfterCalls({ memoryCalls }, workspace) {
  const server = await startInProcess(workspace, { APPROVAL_MODE: 'trusted' });
  const heapUsed = async () => {
    await sleep(300);
    globalThis.gc?.();
    globalThis.gc?.();
    return process.memoryUsage().heapUsed;
  };
  try {
    const call = async () =>
      toolResult(await server.callTool('terminal_execute', { command: 'echo hi' }), 'terminal_execute');
    for (let index = 0; index < 10; index += 1) await call();
    const after10 = await heapUsed();
    for (let index = 10; index < memoryCalls; index += 1) await call();
    return { after10, afterAll: await heapUsed(), collected: typeof globalThis.gc === 'function' };
  } finally {
    await server.close();
  }
}

/**
 * The event loop while the policy engine judges the costliest accepted lines: each judged 20 times, one judgement
 * per macrotask, with `monitorEventLoopDelay` (1 ms resolution) running; its max is the longest pause.
 */
async function eventLoopWhileJudging() {
  const { engine, cwd, close } = await loadPolicyEngine();
  try {
    const rows = [];
    for (const { shape, line } of costliestAcceptedLines()) {
      for (let warm = 0; warm < 3; warm += 1) engine.evaluate({ command: line, cwd });
      const histogram = monitorEventLoopDelay({ resolution: 1 });
      histogram.enable();
      let verdict;
      for (let index = 0; index < 20; index += 1) {
        await new Promise((resolve) => setImmediate(resolve));
        verdict = engine.evaluate({ command: line, cwd }).verdict;
      }
      await sleep(5);
      histogram.disable();
      rows.push({
        shape,
        length: line.length,
        verdict,
        maxDelayMs: histogram.max / 1e6,
        p99DelayMs: histogram.percentile(99) / 1e6,
      });
    }
    return { load: load1(), rows };
  } finally {
    close();
  }
}

async function measure(settings) {
  const workspace = makeTempDir('term-mcp-bench-sandbox-');
  // The bare launches replay a server's argv in a workspace of their own: its protections of absent paths (mount
  // points bwrap creates) must not appear in, or vanish from, the workspace the measured servers protect.
  const bareWorkspace = makeTempDir('term-mcp-bench-sandbox-bare-');
  let idle;
  try {
    const bubblewrap = await captureBubblewrapLaunch(bareWorkspace);
    const servers = {
      sandboxed: startServer(workspace),
      unsandboxed: startServer(workspace, { TERM_MCP_SANDBOX: 'off' }),
    };
    const latency = { quiet: [], crowded: [] };
    try {
      // quiet, crowded, quiet, crowded: each condition twice, so drift in the machine's load hits both.
      for (let round = 0; round < 2; round += 1) {
        latency.quiet.push(await latencyAndCpu(settings, workspace, bubblewrap, servers));
        idle = await startIdleProcesses(settings.hostExtraProcesses);
        latency.crowded.push(await latencyAndCpu(settings, workspace, bubblewrap, servers));
        await idle.stop();
        idle = undefined;
      }
    } finally {
      await servers.sandboxed.rpc.close();
      await servers.unsandboxed.rpc.close();
    }
    const concurrent = await concurrency(settings, workspace, bubblewrap);
    const inFlight = await inFlightCalls(settings, workspace);
    const memory = await memoryAfterCalls(settings, workspace);
    const heap = await heapAfterCalls(settings, workspace);
    const eventLoop = await eventLoopWhileJudging();
    return { latency, concurrent, inFlight, memory: { ...memory, heap }, eventLoop };
  } finally {
    await idle?.stop();
    removeDir(workspace);
    removeDir(bareWorkspace);
  }
}

export async function runSandboxBench(options = {}) {
  assertBuilt();
  const settings = { ...SANDBOX_DEFAULTS, ...options };
  const child = startChild('node', [path.join(BENCH_DIR, 'sandbox.mjs'), '--worker', JSON.stringify(settings)], {
    nodeOptions: ['--expose-gc'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const { code } = await child.exited;
  if (code !== 0) throw new Error(`sandbox worker failed (${code}):\n${child.stderrText}`);
  return { settings, ...JSON.parse(output) };
}

/** Medians over the rounds of one condition. */
function pooled(rounds) {
  const mid = (pick) => {
    const values = rounds.map(pick).sort((a, b) => a - b);
    return values.length % 2 === 1
      ? values[(values.length - 1) / 2]
      : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
  };
  return {
    load: rounds.map((r) => r.load).join(', '),
    hostProcesses: rounds.map((r) => r.hostProcesses).join(', '),
    bubblewrap: mid((r) => r.bubblewrap.p50),
    echo: mid((r) => r.echo.p50),
    sandboxed: mid((r) => r.sandboxed.p50),
    unsandboxed: mid((r) => r.unsandboxed.p50),
    sandboxedP99: mid((r) => r.sandboxed.p99),
    cpuSandboxed: mid((r) => r.cpuPerCall.sandboxed),
    cpuUnsandboxed: mid((r) => r.cpuPerCall.unsandboxed),
  };
}

/** What the sandbox adds over an unsandboxed call, beyond what bubblewrap itself adds over a bare echo. */
const addedBeyondBubblewrap = (p) => p.sandboxed - p.unsandboxed - (p.bubblewrap - p.echo);

export function sandboxMarkdown({ settings, latency, concurrent, inFlight, memory, eventLoop }) {
  const quiet = pooled(latency.quiet);
  const crowded = pooled(latency.crowded);
  const row = (label, p) => [
    label,
    p.hostProcesses,
    p.load,
    fixed(p.echo),
    fixed(p.bubblewrap),
    fixed(p.unsandboxed),
    fixed(p.sandboxed),
    `+${fixed(p.sandboxed - p.unsandboxed)} (bwrap: +${fixed(p.bubblewrap - p.echo)}; beyond it: ${fixed(addedBeyondBubblewrap(p))})`,
    `${fixed(p.cpuSandboxed)} / ${fixed(p.cpuUnsandboxed)} = ${fixed(p.cpuSandboxed / p.cpuUnsandboxed)}x`,
  ];
  return [
    `Latency and server CPU: ${settings.runs} runs per round after ${settings.warmupRuns} warm-up runs, two rounds per condition in the order ` +
      `quiet, crowded (${settings.hostExtraProcesses} extra idle \`sleep\` processes), quiet, crowded; in each run a bare \`spawn("echo")\`, a bare ` +
      'bubblewrap launch with the argv, environment and directory the server uses, then `terminal_execute {command: "echo hi"}` over STDIO ' +
      "to the sandboxed server and to the one with TERM_MCP_SANDBOX=off. Cells: the median over the rounds of each round's p50; CPU is the " +
      "server's utime+stime per call (/proc/PID/stat, 10 ms ticks), leftover work of the last call included.",
    '',
    table(
      [
        'host',
        'tasks on the host (/proc/loadavg)',
        'load (1 min) per round',
        'echo p50 ms',
        'bwrap p50 ms',
        'execute, off p50 ms',
        'execute, sandboxed p50 ms',
        'added by the sandbox p50 ms',
        'server CPU per call ms, sandboxed / off',
      ],
      [row('as is', quiet), row(`+${settings.hostExtraProcesses} idle processes`, crowded)],
    ),
    '',
    `Concurrency (load ${concurrent.load}): ${concurrent.clients} STDIO clients, each with its own sandboxed server and one call in flight, ` +
      `${concurrent.callsPerClient} calls each, against ${concurrent.clients} loops of bare bubblewrap launches (same argv), alternated twice: ` +
      `**${fixed(concurrent.callsPerSecond, 1)} calls/s vs ${fixed(concurrent.bareLaunchesPerSecond, 1)} launches/s = ${fixed((100 * concurrent.callsPerSecond) / concurrent.bareLaunchesPerSecond, 0)}%**.`,
    '',
    `In flight (load ${inFlight.load}): ${inFlight.inFlight} one-shot \`terminal_execute\` calls at once from one STDIO client, default configuration: ` +
      `**${inFlight.failed} failed**${inFlight.failed ? ` (${inFlight.codes.join(', ')})` : ''}, all answered in ${fixed(inFlight.elapsedMs, 0)} ms.`,
    '',
    `Memory (load ${memory.load}): a sandboxed server's RSS after 10 calls ${fixed(mib(memory.after10), 1)} MiB, after ${memory.calls} ` +
      `${fixed(mib(memory.afterAll), 1)} MiB (**${memory.afterAll >= memory.after10 ? '+' : ''}${fixed(mib(memory.afterAll - memory.after10), 1)} MiB**)` +
      (memory.heap
        ? `; its JavaScript heap (in-process, after full collections${memory.heap.collected ? '' : ': not available, no --expose-gc'}) ` +
          `${fixed(mib(memory.heap.after10), 1)} → ${fixed(mib(memory.heap.afterAll), 1)} MiB (${memory.heap.afterAll >= memory.heap.after10 ? '+' : ''}${fixed(mib(memory.heap.afterAll - memory.heap.after10), 1)} MiB).`
        : '.'),
    '',
    `Event-loop delay while judging (load ${eventLoop.load}; in-process, \`monitorEventLoopDelay\` at 1 ms resolution, each line judged 20 times, one per macrotask):`,
    '',
    table(
      ['line', 'characters', 'verdict', 'max delay ms', 'p99 delay ms'],
      eventLoop.rows.map((r) => [
        `\`${r.shape}\``,
        String(r.length),
        r.verdict,
        fixed(r.maxDelayMs, 1),
        fixed(r.p99DelayMs, 1),
      ]),
    ),
  ].join('\n');
}

export function sandboxVerdicts({ latency, concurrent, inFlight, memory, eventLoop }) {
  const quiet = pooled(latency.quiet);
  const crowded = pooled(latency.crowded);
  const worstPause = eventLoop.rows
    .filter((r) => r.verdict !== 'blocked')
    .reduce((a, b) => (b.maxDelayMs > a.maxDelayMs ? b : a), { maxDelayMs: 0, shape: 'none' });
  return [
    {
      met: addedBeyondBubblewrap(quiet) <= 2,
      target: "the sandbox adds at most bubblewrap's own cost + 2 ms at p50 (bubblewrap with the same argv, same run)",
      evidence: `added ${fixed(quiet.sandboxed - quiet.unsandboxed)} ms vs bubblewrap's ${fixed(quiet.bubblewrap - quiet.echo)} ms over echo: ${fixed(addedBeyondBubblewrap(quiet))} ms beyond it (load ${quiet.load})`,
    },
    {
      met: quiet.cpuSandboxed <= 2 * quiet.cpuUnsandboxed,
      target: 'server CPU per sandboxed call within 2x of an unsandboxed one',
      evidence: `${fixed(quiet.cpuSandboxed)} vs ${fixed(quiet.cpuUnsandboxed)} ms (${fixed(quiet.cpuSandboxed / quiet.cpuUnsandboxed)}x; load ${quiet.load})`,
    },
    {
      met:
        crowded.cpuSandboxed <= quiet.cpuSandboxed * 1.5 + 1 &&
        addedBeyondBubblewrap(crowded) <= addedBeyondBubblewrap(quiet) + 2,
      target:
        'neither changes with 400 more processes on the host (within the noise: CPU within 1.5x + 1 ms, added latency within 2 ms)',
      evidence: `CPU per sandboxed call ${fixed(quiet.cpuSandboxed)} → ${fixed(crowded.cpuSandboxed)} ms; added beyond bubblewrap ${fixed(addedBeyondBubblewrap(quiet))} → ${fixed(addedBeyondBubblewrap(crowded))} ms (processes ${quiet.hostProcesses} → ${crowded.hostProcesses})`,
    },
    {
      met: concurrent.callsPerSecond >= 0.6 * concurrent.bareLaunchesPerSecond,
      target: `${concurrent.clients} concurrent STDIO clients, sandboxed: at least 60% of ${concurrent.clients} loops of bare bubblewrap launches`,
      evidence: `${fixed(concurrent.callsPerSecond, 1)} calls/s vs ${fixed(concurrent.bareLaunchesPerSecond, 1)}/s (${fixed((100 * concurrent.callsPerSecond) / concurrent.bareLaunchesPerSecond, 0)}%; load ${concurrent.load})`,
    },
    {
      met: inFlight.failed === 0,
      target: `${inFlight.inFlight} terminal_execute calls in flight from one client, default configuration: every one succeeds`,
      evidence: `${inFlight.failed} failed${inFlight.failed ? ` (${inFlight.codes.join(', ')})` : ''}`,
    },
    {
      met: Math.abs(memory.afterAll - memory.after10) <= 5 * 1_048_576,
      target: `memory (RSS) after ${memory.calls} sandboxed calls within 5 MiB of memory after 10`,
      evidence:
        `${fixed(mib(memory.after10), 1)} → ${fixed(mib(memory.afterAll), 1)} MiB` +
        (memory.heap
          ? `; JavaScript heap ${fixed(mib(memory.heap.after10), 1)} → ${fixed(mib(memory.heap.afterAll), 1)} MiB`
          : ''),
    },
    {
      met: worstPause.maxDelayMs <= 20,
      target: 'no event-loop pause over 20 ms while judging an accepted line (monitorEventLoopDelay)',
      evidence: `max ${fixed(worstPause.maxDelayMs, 1)} ms (\`${worstPause.shape}\`)`,
    },
  ];
}

if (isMain(import.meta.url)) {
  if (process.argv[2] === '--worker') {
    const result = await measure(JSON.parse(process.argv[3]));
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    const index = process.argv.indexOf('--runs');
    const options = index === -1 ? {} : { runs: Number(process.argv[index + 1]) };
    const outIndex = process.argv.indexOf('--json');
    const result = await runSandboxBench(options);
    if (outIndex !== -1) writeFileSync(process.argv[outIndex + 1], JSON.stringify(result, null, 2));
    console.log(sandboxMarkdown(result));
    for (const v of sandboxVerdicts(result)) console.log(`- ${v.met ? 'met' : 'NOT met'}: ${v.target}: ${v.evidence}`);
  }
}
