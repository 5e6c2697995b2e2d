// term-mcp head to head with two peer terminal MCP servers over STDIO (issue 15): DesktopCommander
// (`@wonderwhy-er/desktop-commander`) and `mcp-server-commands`. The peers are not dependencies of this project
// (DesktopCommander pulls puppeteer, whose install script breaks `npm ci`): they are installed on demand into a temp
// directory with install scripts disabled, and each runs with a temp HOME (its configuration lives there) and its
// telemetry switched off.
//
// Every server is driven by the same client (newline JSON-RPC, the 2025 `initialize` handshake all three accept), and
// the rows are measured in interleaved rounds: in each round every server (in a rotated order) is started cold, then
// timed on `echo hi` against a bare spawn of echo from this process (alternated call by call), then on 50 MB of output.
//
//   node bench/peers.mjs [--rounds 5] [--echo-runs 40] [--peers-dir DIR] [--json FILE] [--cli FILE]
//
// --peers-dir reuses an install (default: a fresh temp dir, removed at the end); --cli runs another build of term-mcp
// (default dist/main/cli.js, the bundled CLI that `npm run build` writes).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  assertBuilt,
  BENCH_DIR,
  CLI,
  fixed,
  hrtimeMs,
  isMain,
  makeTempDir,
  median,
  mib,
  removeDir,
  rssOf,
  sleep,
  startChild,
  StdioRpc,
  summarize,
  table,
} from './support.mjs';

export const PEERS = {
  desktopCommander: {
    pkg: '@wonderwhy-er/desktop-commander',
    version: '0.2.52',
    bin: 'dist/index.js',
    label: 'DesktopCommander 0.2.52',
  },
  serverCommands: {
    pkg: 'mcp-server-commands',
    version: '0.5.0',
    bin: 'build/index.js',
    label: 'mcp-server-commands 0.5.0',
  },
};
export const PEERS_DEFAULTS = { rounds: 5, echoRuns: 40, warmupRuns: 5, outputBytes: 50 * 1024 * 1024 };
const LEGACY_VERSION = '2025-06-18';
const CALL_TIMEOUT_MS = 120_000;
/** When idle RSS is read, after the first answer: past V8's first idle-time memory-reducer check (~8 s). */
const SETTLE_MS = 12_000;

/** Installs both peers (no install scripts, nothing saved) under `dir`; reuses an existing install. */
export function installPeers(dir) {
  const missing = Object.values(PEERS).filter(({ pkg, bin }) => !existsSync(path.join(dir, 'node_modules', pkg, bin)));
  if (missing.length === 0) return;
  mkdirSync(dir, { recursive: true });
  const specs = missing.map(({ pkg, version }) => `${pkg}@${version}`);
  process.stderr.write(`installing ${specs.join(' ')} into ${dir} ...\n`);
  execFileSync(
    'npm',
    ['install', '--ignore-scripts', '--no-save', '--no-audit', '--no-fund', '--prefix', dir, ...specs],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

/** The 2025 handshake: every peer is an SDK 1.x server; term-mcp serves the same legacy session on stdio. */
class LegacyRpc extends StdioRpc {
  request(method, params = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${method}: no answer in ${CALL_TIMEOUT_MS} ms:\n${this.child.stderrText}`)),
        CALL_TIMEOUT_MS,
      );
      this.pending.set(id, {
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  notify(method, params = {}) {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
  }

  async handshake() {
    const init = await this.request('initialize', {
      protocolVersion: LEGACY_VERSION,
      capabilities: {},
      clientInfo: { name: 'term-mcp-peers-bench', version: '1.0.0' },
    });
    if (init.error) throw new Error(`initialize: ${JSON.stringify(init.error)}`);
    this.notify('notifications/initialized');
    const list = await this.request('tools/list');
    if (list.error || !Array.isArray(list.result?.tools))
      throw new Error(`tools/list: ${JSON.stringify(list.error ?? list.result)}`);
    return list.result.tools;
  }
}

/** Text of every text block of a tool result, joined. */
function textOf(result) {
  return (result?.content ?? [])
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

/** How each server is started and how its tool is called; `check` throws unless the answer shows the command's output. */
function targets(peersDir, cli = CLI) {
  const peerBin = (peer) => path.join(peersDir, 'node_modules', peer.pkg, peer.bin);
  return [
    {
      name: 'term-mcp',
      label: 'term-mcp',
      start: (home, workspace) =>
        startChild('node', [cli, 'stdio'], {
          cwd: workspace,
          stdin: 'pipe',
          env: { HOME: home, WORKSPACE_ROOT: workspace, TERM_MCP_SANDBOX: 'off', LOG_LEVEL: 'error' },
        }),
      call: (rpc, command) => rpc.request('tools/call', { name: 'terminal_execute', arguments: { command } }),
      check: (message, expected) => {
        const receipt = message.result?.structuredContent;
        if (receipt?.status !== 'succeeded' || !receipt.stdout.startsWith(expected))
          throw new Error(`term-mcp: ${JSON.stringify(message).slice(0, 400)}`);
      },
    },
    {
      name: 'desktopCommander',
      label: PEERS.desktopCommander.label,
      start: (home, workspace) => {
        // Its configuration lives in HOME; telemetry off, no onboarding, commands run in the workspace.
        const configDir = path.join(home, '.claude-server-commander');
        mkdirSync(configDir, { recursive: true });
        writeFileSync(
          path.join(configDir, 'config.json'),
          JSON.stringify({
            telemetryEnabled: false,
            pendingWelcomeOnboarding: false,
            welcomeOnboardingEligible: false,
            blockedCommands: [],
            defaultShell: '/bin/sh',
            allowedDirectories: [workspace],
          }),
        );
        return startChild('node', [peerBin(PEERS.desktopCommander)], {
          cwd: workspace,
          stdin: 'pipe',
          env: { HOME: home, SHELL: '/bin/sh', DO_NOT_TRACK: '1' },
        });
      },
      call: (rpc, command) =>
        rpc.request('tools/call', { name: 'start_process', arguments: { command, timeout_ms: CALL_TIMEOUT_MS } }),
      check: (message, expected) => {
        if (message.error || message.result?.isError || !textOf(message.result).includes(expected.trim())) {
          throw new Error(`DesktopCommander: ${JSON.stringify(message).slice(0, 400)}`);
        }
      },
    },
    {
      name: 'serverCommands',
      label: PEERS.serverCommands.label,
      start: (home, workspace) =>
        startChild('node', [peerBin(PEERS.serverCommands)], { cwd: workspace, stdin: 'pipe', env: { HOME: home } }),
      call: (rpc, command) => rpc.request('tools/call', { name: 'run_command', arguments: { command } }),
      check: (message, expected) => {
        if (message.error || message.result?.isError || !textOf(message.result).includes(expected.trim())) {
          throw new Error(`mcp-server-commands: ${JSON.stringify(message).slice(0, 400)}`);
        }
      },
    },
  ];
}

function spawnToCloseMs(command, args) {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(hrtimeMs(start)) : reject(new Error(`${command} exited ${code}`)),
    );
  });
}

/** Samples a process's RSS every 10 ms until stopped; returns the peak seen (bytes). */
function rssPeakSampler(pid) {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      // the process is gone
    }
  }, 10);
  return () => {
    clearInterval(timer);
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      // the process is gone
    }
    return peak;
  };
}

/** One server, one round: cold start, idle RSS, echo against bare spawns, then 50 MB of output. */
async function measureServer(target, { echoRuns, warmupRuns, outputBytes }, workspace) {
  const home = makeTempDir(`term-mcp-peers-home-${target.name}-`);
  // The reference for this cold start, measured right before it (the machine's load drifts between servers).
  const bareNodeMs = median([
    await spawnToCloseMs(process.execPath, ['-e', '']),
    await spawnToCloseMs(process.execPath, ['-e', '']),
  ]);
  const started = process.hrtime.bigint();
  const child = target.start(home, workspace);
  const rpc = new LegacyRpc(child);
  try {
    await rpc.handshake();
    const coldStartMs = hrtimeMs(started);
    // Two readings: 1 s after the answer (start-up's young generation still grown), and once V8's idle-time memory
    // reducer has run (its first check comes ~8 s after allocation stops), which is what an idle server holds.
    await sleep(1000);
    const startRss = rssOf(child.pid);
    await sleep(SETTLE_MS - 1000);
    const idleRss = rssOf(child.pid);

    const echo = [];
    const bare = [];
    for (let run = 0; run < warmupRuns + echoRuns; run += 1) {
      const bareMs = await spawnToCloseMs('echo', ['hi']);
      const t = process.hrtime.bigint();
      const answer = await target.call(rpc, 'echo hi');
      const echoMs = hrtimeMs(t);
      target.check(answer, 'hi\n');
      if (run < warmupRuns) continue;
      echo.push(echoMs);
      bare.push(bareMs);
    }

    const before = rssOf(child.pid);
    const stopSampling = rssPeakSampler(child.pid);
    const t = process.hrtime.bigint();
    let output;
    try {
      const answer = await target.call(rpc, 'cat big.txt');
      const ms = hrtimeMs(t);
      const failure = answer.error
        ? JSON.stringify(answer.error)
        : answer.result?.isError
          ? textOf(answer.result).slice(0, 200)
          : undefined;
      output = { ms, ok: failure === undefined, failure, answerBytes: JSON.stringify(answer).length };
    } catch (error) {
      output = {
        ms: hrtimeMs(t),
        ok: false,
        failure: error instanceof Error ? error.message.split('\n')[0] : String(error),
      };
    }
    const peak = stopSampling();
    output.rssGrowth = peak - before;
    output.bytes = outputBytes;
    return { coldStartMs, bareNodeMs, startRss, idleRss, echo, bare, output };
  } finally {
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await child.exited;
    clearTimeout(timer);
    removeDir(home);
  }
}

/**
 * The whole benchmark in a fresh `node bench/peers.mjs` child: the bare spawn of echo is this process's reference,
 * and a fork costs more the larger the forking process, so a benchmark runner that has loaded autocannon and the
 * other benchmarks would make every server look faster than a bare spawn.
 */
export async function runPeersBench(options = {}) {
  assertBuilt();
  const scratch = makeTempDir('term-mcp-peers-run-');
  try {
    const json = path.join(scratch, 'run.json');
    const args = [path.join(BENCH_DIR, 'peers.mjs'), '--json', json];
    for (const [flag, key] of [
      ['--rounds', 'rounds'],
      ['--echo-runs', 'echoRuns'],
      ['--peers-dir', 'peersDir'],
      ['--cli', 'cli'],
    ]) {
      if (options[key] !== undefined) args.push(flag, String(options[key]));
    }
    // The whole environment: the peers' install runs npm, which needs the machine's registry and CA settings.
    const child = startChild('node', args, { env: { ...process.env } });
    child.stdout.resume();
    child.stderr.on('data', (chunk) => process.stderr.write(chunk));
    const { code } = await child.exited;
    if (code !== 0) throw new Error(`peers benchmark failed (${code}):\n${child.stderrText.slice(-2000)}`);
    return JSON.parse(readFileSync(json, 'utf8'));
  } finally {
    removeDir(scratch);
  }
}

/** The benchmark itself, in this process (the bare spawns of echo are made from here). */
async function measurePeers(options = {}) {
  const settings = { ...PEERS_DEFAULTS, ...options };
  const ownPeersDir = settings.peersDir === undefined;
  const peersDir = settings.peersDir ?? makeTempDir('term-mcp-peers-');
  const workspace = makeTempDir('term-mcp-peers-ws-');
  try {
    installPeers(peersDir);
    const line = `${'a'.repeat(1023)}\n`;
    writeFileSync(path.join(workspace, 'big.txt'), line.repeat(settings.outputBytes / 1024));
    const all = targets(peersDir, settings.cli);
    const rounds = [];
    for (let round = 0; round < settings.rounds; round += 1) {
      const order = all.map((_, i) => all[(i + round) % all.length]);
      const results = {};
      for (const target of order) {
        process.stderr.write(`round ${round + 1}/${settings.rounds}: ${target.label}\n`);
        results[target.name] = await measureServer(target, settings, workspace);
      }
      rounds.push({ loadAverage: os.loadavg()[0], results });
    }
    return {
      settings,
      date: new Date().toISOString(),
      targets: all.map(({ name, label }) => ({ name, label })),
      rounds,
    };
  } finally {
    removeDir(workspace);
    if (ownPeersDir) removeDir(peersDir);
  }
}

// -------------------------------------------------------------------------------------------------------------
// Figures: per round, then the median of the rounds with their spread (max - min).

function perRound(run, name, pick) {
  return run.rounds.map((round) => pick(round.results[name], round));
}

function spreadOf(values) {
  return {
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    spread: Math.max(...values) - Math.min(...values),
  };
}

/** Every row of the issue, for each server: median over rounds, spread, and the pooled p99 for echo. */
export function peersFigures(run) {
  const figures = {};
  for (const { name } of run.targets) {
    const echoP50 = perRound(run, name, (r) => summarize(r.echo).p50);
    const bareP50 = perRound(run, name, (r) => summarize(r.bare).p50);
    const pooledEcho = summarize(run.rounds.flatMap((round) => round.results[name].echo));
    const pooledBare = summarize(run.rounds.flatMap((round) => round.results[name].bare));
    figures[name] = {
      echoRatio: spreadOf(echoP50.map((value, i) => value / bareP50[i])),
      echoP50: spreadOf(echoP50),
      echoP99OverP50: spreadOf(perRound(run, name, (r) => summarize(r.echo).p99 / summarize(r.echo).p50)),
      bareP99OverP50: spreadOf(perRound(run, name, (r) => summarize(r.bare).p99 / summarize(r.bare).p50)),
      pooledEcho,
      pooledBare,
      outputMs: spreadOf(perRound(run, name, (r) => r.output.ms)),
      outputOk: perRound(run, name, (r) => r.output.ok),
      outputFailure: perRound(run, name, (r) => r.output.failure).find((failure) => failure !== undefined),
      outputRssGrowth: spreadOf(perRound(run, name, (r) => mib(r.output.rssGrowth))),
      coldStartMs: spreadOf(perRound(run, name, (r) => r.coldStartMs)),
      coldStartRatio: spreadOf(perRound(run, name, (r) => r.coldStartMs / r.bareNodeMs)),
      bareNodeMs: spreadOf(perRound(run, name, (r) => r.bareNodeMs)),
      startRss: spreadOf(perRound(run, name, (r) => mib(r.startRss))),
      idleRss: spreadOf(perRound(run, name, (r) => mib(r.idleRss))),
    };
  }
  return figures;
}

const range = (s, digits = 2, unit = '') =>
  `${fixed(s.median, digits)}${unit} (${fixed(s.min, digits)}–${fixed(s.max, digits)})`;

/** "met" only when the median clears the bound by more than the spread of the rounds. */
function judgeAtMost(stats, bound) {
  if (stats.median + stats.spread < bound) return 'met';
  if (stats.median > bound) return '**not met**';
  return 'not clear (within the spread)';
}

/** Ours against a peer, round by round: ahead when our figure is lower in the median by more than the spread. */
function headToHead(run, peer, pick) {
  const ratios = run.rounds.map((round) => pick(round.results['term-mcp'], round) / pick(round.results[peer], round));
  return spreadOf(ratios);
}

export function peersVerdicts(run) {
  const f = peersFigures(run)['term-mcp'];
  const verdicts = [
    [
      'STDIO `echo hi` p50 within 1.3x of a bare spawn (sandbox off, one-shot `terminal_execute {command}`)',
      judgeAtMost(f.echoRatio, 1.3),
      `${range(f.echoRatio)}x`,
    ],
    [
      'STDIO `echo hi` p99 within 2x of its p50',
      judgeAtMost(f.echoP99OverP50, 2),
      `p99/p50 per round ${range(f.echoP99OverP50)}x (the bare spawn's own, same rounds: ${range(f.bareP99OverP50)}x)`,
    ],
    [
      "STDIO cold start to the first tools/list within 2x of `node -e ''`",
      judgeAtMost(f.coldStartRatio, 2),
      `${range(f.coldStartRatio)}x (${range(f.coldStartMs, 0, ' ms')})`,
    ],
    ['STDIO idle RSS at most 60 MiB', judgeAtMost(f.idleRss, 60), `${range(f.idleRss, 1, ' MiB')}`],
  ];
  const rows = [
    ['echo p50', (r) => summarize(r.echo).p50 / summarize(r.bare).p50],
    ['50 MB time', (r) => (r.output.ok ? r.output.ms : Infinity)],
    ['50 MB RSS growth', (r) => Math.max(r.output.rssGrowth, 1)],
    ['cold start', (r) => r.coldStartMs],
    ['idle RSS', (r) => r.idleRss],
  ];
  for (const peer of run.targets.filter(({ name }) => name !== 'term-mcp')) {
    for (const [what, pick] of rows) {
      const ratio = headToHead(run, peer.name, pick);
      if (what.startsWith('50 MB') && run.rounds.every((round) => !round.results[peer.name].output.ok)) {
        // A server that fails the call has no time and no memory figure to be compared with.
        const verdict = what === '50 MB time' ? 'ahead' : 'n/a';
        verdicts.push([`${what}: first against ${peer.label}`, verdict, 'the peer fails the call in every round']);
        continue;
      }
      const verdict =
        ratio.median + ratio.spread < 1 ? 'ahead' : ratio.median > 1 ? '**behind**' : 'not clear (within the spread)';
      verdicts.push([`${what}: first against ${peer.label}`, verdict, `term-mcp ÷ peer ${range(ratio)}x`]);
    }
  }
  return verdicts;
}

/** The verdicts as bench/run.mjs lists them (met or not; rows that cannot be compared are left out). */
export function peersRunVerdicts(run) {
  return peersVerdicts(run)
    .filter(([, verdict]) => verdict !== 'n/a')
    .map(([target, verdict, evidence]) => ({
      met: verdict === 'met' || verdict === 'ahead',
      target,
      evidence: verdict.startsWith('not clear') ? `${evidence}; ${verdict}` : evidence,
    }));
}

export function peersMarkdown(run) {
  const figures = peersFigures(run);
  const header = ['', ...run.targets.map(({ label }) => label)];
  const cell = (name, render) => render(figures[name]);
  const row = (title, render) => [title, ...run.targets.map(({ name }) => cell(name, render))];
  const outputCell = (f) =>
    f.outputOk.every(Boolean)
      ? `${range(f.outputMs, 0, ' ms')}; +${range(f.outputRssGrowth, 0, ' MiB')}`
      : `fails in ${f.outputOk.filter((ok) => !ok).length}/${f.outputOk.length} rounds (${(f.outputFailure ?? '').split('\n')[0].slice(0, 60).replace(/\|/g, '\\|')}); +${range(f.outputRssGrowth, 0, ' MiB')}`;
  const rows = [
    row('`echo hi` to completion, p50 ÷ a bare spawn of echo', (f) => `${range(f.echoRatio)}x`),
    row(
      '`echo hi` p50 / p99 ms (pooled over rounds)',
      (f) => `${fixed(f.pooledEcho.p50)} / ${fixed(f.pooledEcho.p99)}`,
    ),
    row(
      'bare spawn of echo p50 / p99 ms (pooled, same rounds)',
      (f) => `${fixed(f.pooledBare.p50)} / ${fixed(f.pooledBare.p99)}`,
    ),
    row('50 MB of output: time; server RSS growth', outputCell),
    row(
      'cold start to the first tools/list answer',
      (f) => `${range(f.coldStartMs, 0, ' ms')} = ${range(f.coldStartRatio)}x \`node -e ''\``,
    ),
    row("`node -e ''` just before (the cold start reference)", (f) => range(f.bareNodeMs, 0, ' ms')),
    row('RSS 1 s after the first answer', (f) => range(f.startRss, 1, ' MiB')),
    row(`idle RSS (${SETTLE_MS / 1000} s after the first answer)`, (f) => range(f.idleRss, 1, ' MiB')),
  ];
  const load = run.rounds.map((round) => fixed(round.loadAverage, 2)).join(' / ');
  return [
    `${run.settings.rounds} rounds; in each, every server in a rotated order: started cold, ${run.settings.echoRuns} \`echo hi\` calls ` +
      `(after ${run.settings.warmupRuns} warm-up calls) each alternated with a bare \`spawn('echo', ['hi'])\` from the benchmark process, ` +
      `then one call printing ${fixed(mib(run.settings.outputBytes), 0)} MiB (\`cat\` of a file of 1 KiB lines). Cells: median over rounds ` +
      `(min–max of the rounds). Each cold start is divided by a bare \`node -e ''\` start (median of two) measured just before it. ` +
      `1-minute load average after each round: ${load}.`,
    '',
    table(header, rows),
  ].join('\n');
}

function parseArgs(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--rounds') options.rounds = Number(value);
    else if (flag === '--echo-runs') options.echoRuns = Number(value);
    else if (flag === '--peers-dir') options.peersDir = path.resolve(value);
    else if (flag === '--json') options.json = path.resolve(value);
    else if (flag === '--cli') options.cli = path.resolve(value);
    else throw new Error(`unknown argument ${flag}`);
    i += 1;
  }
  return options;
}

if (isMain(import.meta.url)) {
  const { json, ...options } = parseArgs(process.argv.slice(2));
  const run = await measurePeers(options);
  if (json) writeFileSync(json, JSON.stringify(run, null, 2));
  process.stdout.write(`${peersMarkdown(run)}\n\n${table(['target', 'verdict', 'measured'], peersVerdicts(run))}\n`);
}
