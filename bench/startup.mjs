// Cold start and shutdown of `term-mcp stdio` (issue 22): from spawn to the answer of the first `tools/list` (a
// 2026-07-28 request, which needs no handshake), and from stdin's end (EOF) to the process's exit; against a bare
// `node -e ''` (spawn to exit) measured in the same round. Rounds alternate the two, so load drift hits both.
//   node bench/startup.mjs [--rounds 15]
import { spawn } from 'node:child_process';
import os from 'node:os';
import {
  CLI,
  assertBuilt,
  fixed,
  hrtimeMs,
  isMain,
  makeTempDir,
  median,
  modernRequest,
  removeDir,
  summarize,
  termMcpEnv,
} from './support.mjs';

export const STARTUP_DEFAULTS = { rounds: 15 };

function bareNodeMs() {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(hrtimeMs(start)));
  });
}

/**
 * Spawn → first tools/list answer → stdin end → exit; the three marks in ms. With `thenExecute`, a sandboxed
 * `terminal_execute {command: "echo hi"}` is answered between the tools/list answer and the EOF (the exit then also
 * ends what the command left: its one-shot session).
 */
function termMcpRun(workspace, extraEnv, thenExecute = false) {
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, [CLI, 'stdio'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? os.tmpdir(),
      ...termMcpEnv(workspace, extraEnv),
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    let answeredMs;
    let eofAt;
    let buffered = '';
    child.once('error', reject);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
        const answer = JSON.parse(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        if (answer.id === 1) {
          if (!answer.result?.tools?.length) reject(new Error(`tools/list: ${JSON.stringify(answer).slice(0, 300)}`));
          answeredMs = hrtimeMs(start);
          if (thenExecute) {
            child.stdin.write(
              `${JSON.stringify(modernRequest(2, 'tools/call', { name: 'terminal_execute', arguments: { command: 'echo hi' } }))}\n`,
            );
            continue;
          }
        } else if (answer.result?.structuredContent?.stdout !== 'hi\n') {
          reject(new Error(`terminal_execute: ${JSON.stringify(answer).slice(0, 300)}`));
        }
        eofAt = process.hrtime.bigint();
        child.stdin.end();
      }
    });
    child.once('exit', (code) => {
      if (answeredMs === undefined || eofAt === undefined) reject(new Error(`exited (${code}) before answering`));
      else resolve({ coldStartMs: answeredMs, exitAfterEofMs: hrtimeMs(eofAt), wholeMs: hrtimeMs(start) });
    });
    child.stdin.write(`${JSON.stringify(modernRequest(1, 'tools/list'))}\n`);
  });
}

export async function runStartupBench(options = {}) {
  assertBuilt();
  const { rounds } = { ...STARTUP_DEFAULTS, ...options };
  const workspace = makeTempDir('term-mcp-bench-startup-');
  try {
    const samples = { node: [], coldStart: [], exitAfterEof: [], exitAfterCommand: [], whole: [], ratio: [] };
    const loads = [];
    for (let round = 0; round < rounds + 2; round += 1) {
      const nodeMs = await bareNodeMs();
      const run = await termMcpRun(workspace, {});
      const withCommand = await termMcpRun(workspace, { APPROVAL_MODE: 'trusted' }, true);
      if (round < 2) continue; // the first rounds warm the page cache
      samples.node.push(nodeMs);
      samples.coldStart.push(run.coldStartMs);
      samples.exitAfterEof.push(run.exitAfterEofMs);
      samples.exitAfterCommand.push(withCommand.exitAfterEofMs);
      samples.whole.push(run.wholeMs);
      samples.ratio.push(run.coldStartMs / nodeMs);
      if (round % 5 === 0) loads.push(fixed(os.loadavg()[0], 2));
    }
    return {
      rounds,
      loads,
      node: summarize(samples.node),
      coldStart: summarize(samples.coldStart),
      exitAfterEof: summarize(samples.exitAfterEof),
      exitAfterCommand: summarize(samples.exitAfterCommand),
      whole: summarize(samples.whole),
      ratioMedian: median(samples.ratio),
      ratioMin: Math.min(...samples.ratio),
      ratioMax: Math.max(...samples.ratio),
    };
  } finally {
    removeDir(workspace);
  }
}

export function startupMarkdown(r) {
  return [
    `${r.rounds} rounds (after 2 warm-up rounds), each a bare \`node -e ''\`, then \`term-mcp stdio\`, then \`term-mcp stdio\` answering one sandboxed \`echo hi\` before its EOF; 1-minute load average during the run: ${r.loads.join(', ')}.`,
    '',
    '| what | p50 ms | min ms | max ms |',
    '| --- | --- | --- | --- |',
    `| \`node -e ''\`, spawn to exit | ${fixed(r.node.p50)} | ${fixed(r.node.min)} | ${fixed(r.node.max)} |`,
    `| term-mcp, spawn to the first tools/list answer | ${fixed(r.coldStart.p50)} | ${fixed(r.coldStart.min)} | ${fixed(r.coldStart.max)} |`,
    `| term-mcp, stdin EOF to exit | ${fixed(r.exitAfterEof.p50)} | ${fixed(r.exitAfterEof.min)} | ${fixed(r.exitAfterEof.max)} |`,
    `| term-mcp, spawn to exit | ${fixed(r.whole.p50)} | ${fixed(r.whole.min)} | ${fixed(r.whole.max)} |`,
    `| term-mcp, stdin EOF to exit right after a sandboxed \`echo hi\` was answered | ${fixed(r.exitAfterCommand.p50)} | ${fixed(r.exitAfterCommand.min)} | ${fixed(r.exitAfterCommand.max)} |`,
    '',
    `Cold start ÷ the same round's \`node -e ''\`: median ${fixed(r.ratioMedian)}x (${fixed(r.ratioMin)}–${fixed(r.ratioMax)}x).`,
  ].join('\n');
}

export function startupVerdicts(r) {
  return [
    {
      met: r.ratioMedian <= 1.5,
      target: "cold start ≤ 1.5x `node -e ''` to the first tools/list answer",
      evidence: `median ${fixed(r.ratioMedian)}x (${fixed(r.coldStart.p50)} vs ${fixed(r.node.p50)} ms p50; loads ${r.loads.join(', ')})`,
    },
    {
      met: r.exitAfterEof.p50 <= 20,
      target: 'exit on stdin EOF within 20 ms',
      evidence: `p50 ${fixed(r.exitAfterEof.p50)} ms (max ${fixed(r.exitAfterEof.max)}); right after a sandboxed command: p50 ${fixed(r.exitAfterCommand.p50)} ms`,
    },
  ];
}

if (isMain(import.meta.url)) {
  const index = process.argv.indexOf('--rounds');
  const result = await runStartupBench(index === -1 ? {} : { rounds: Number(process.argv[index + 1]) });
  console.log(startupMarkdown(result));
  for (const v of startupVerdicts(result)) console.log(`- ${v.met ? 'met' : 'NOT met'}: ${v.target}: ${v.evidence}`);
}
