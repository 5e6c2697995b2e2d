// Terminal sessions (issue 24), every figure against a reference measured in the same run:
//
// - keystroke-to-echo latency: a token and Enter typed at `cat` in a terminal session through term-mcp over STDIO
//   (`terminal_screen` with `keys` and a `wait` for the token's echo on the screen), against the same typed at
//   `script -qfec cat /dev/null` spawned bare on pipes (unsandboxed, no server) and read until the echo arrives,
//   interleaved run by run;
// - memory per open session: the server's RSS and the RSS of each session's sandbox processes (bwrap, script, cat)
//   with SESSIONS sessions open, against the server with none.
//   node bench/terminal-session.mjs [--runs 200] [--sessions 20]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import {
  assertBuilt,
  fixed,
  hrtimeMs,
  isMain,
  makeTempDir,
  mib,
  removeDir,
  rssOf,
  startStdioTarget,
  StdioRpc,
  stopChild,
  summarize,
  toolResult,
} from './support.mjs';

function argument(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
}

function descendants(pid) {
  const children = (() => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  })();
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** `script -qfec cat` on pipes: resolves the time from writing a token to reading its echo. */
function bareScript() {
  const child = spawn('script', ['-qfec', 'cat', '/dev/null'], {
    stdio: ['pipe', 'pipe', 'ignore'],
    env: { PATH: '/usr/bin:/bin', TERM: 'xterm-256color' },
  });
  let seen = '';
  let waiting;
  child.stdout.on('data', (chunk) => {
    seen += chunk.toString('utf8');
    if (waiting && seen.includes(waiting.token)) {
      const { resolve } = waiting;
      waiting = undefined;
      resolve();
    }
  });
  return {
    async type(token) {
      seen = '';
      const start = process.hrtime.bigint();
      await new Promise((resolve) => {
        waiting = { token, resolve };
        child.stdin.write(`${token}\r`);
      });
      return hrtimeMs(start);
    },
    stop: () => stopChild(child),
  };
}

export async function runTerminalSessionBench({
  runs = argument('runs', 200),
  sessions = argument('sessions', 20),
} = {}) {
  assertBuilt();
  const workspace = makeTempDir('term-mcp-bench-pty-');
  const server = startStdioTarget('term-mcp', workspace, {
    APPROVAL_MODE: 'sandboxed',
    MAX_CONCURRENT_SESSIONS: String(sessions + 5),
  });
  const rpc = new StdioRpc(server);
  const bare = bareScript();
  try {
    const call = async (name, args) => toolResult(await rpc.request('tools/call', { name, arguments: args }), name);
    const opened = await call('terminal_open', { command: 'cat', wait: { timeout_ms: 0 } });
    const target = { session_id: opened.session_id, command_id: opened.command_id };
    const viaServer = [];
    const viaScript = [];
    for (let run = 0; run < runs; run += 1) {
      const token = `k${run}x`;
      const start = process.hrtime.bigint();
      const answer = await call('terminal_screen', {
        ...target,
        keys: [{ text: token }, { key: 'enter' }],
        wait: { pattern: `^${token}$`, timeout_ms: 10_000 },
      });
      if (answer.waited !== 'pattern') throw new Error(`no echo of ${token}: ${answer.waited}`);
      viaServer.push(hrtimeMs(start));
      viaScript.push(await bare.type(`b${run}x`));
    }
    await call('terminal_cancel', target);

    const serverRssBefore = rssOf(server.pid);
    const open = [];
    for (let index = 0; index < sessions; index += 1)
      open.push(await call('terminal_open', { command: 'cat', wait: { timeout_ms: 0 } }));
    const serverRssWith = rssOf(server.pid);
    const sandboxRss = descendants(server.pid).reduce(
      (sum, pid) => sum + (Number.isFinite(rssOf(pid)) ? rssOf(pid) : 0),
      0,
    );
    for (const each of open)
      await call('terminal_cancel', { session_id: each.session_id, command_id: each.command_id });

    const server50 = summarize(viaServer);
    const script50 = summarize(viaScript);
    return {
      runs,
      sessions,
      load: os.loadavg()[0],
      echo: { termMcp: server50, script: script50 },
      memory: {
        serverPerSession: (serverRssWith - serverRssBefore) / sessions,
        sandboxPerSession: sandboxRss / sessions,
        serverBefore: serverRssBefore,
      },
    };
  } finally {
    await bare.stop();
    await stopChild(server);
    removeDir(workspace);
  }
}

if (isMain(import.meta.url)) {
  const result = await runTerminalSessionBench();
  const { termMcp, script } = result.echo;
  process.stdout.write(
    [
      `keystroke-to-echo over ${result.runs} runs (load ${fixed(result.load)}):`,
      `  term-mcp terminal_screen (sandboxed cat, STDIO): p50 ${fixed(termMcp.p50)} ms, p99 ${fixed(termMcp.p99)} ms`,
      `  script -qfec cat alone (pipes, no sandbox):      p50 ${fixed(script.p50)} ms, p99 ${fixed(script.p99)} ms`,
      `  ratio p50 ${fixed(termMcp.p50 / script.p50)}x, p99 ${fixed(termMcp.p99 / script.p99)}x`,
      `memory with ${result.sessions} open sessions: server +${fixed(mib(result.memory.serverPerSession))} MiB per session (from ${fixed(mib(result.memory.serverBefore))} MiB), sandbox processes ${fixed(mib(result.memory.sandboxPerSession))} MiB per session`,
      '',
    ].join('\n'),
  );
}
