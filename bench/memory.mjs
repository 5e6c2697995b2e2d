// Memory per idle execution session: 1000 sessions in one term-mcp (MAX_CONCURRENT_SESSIONS raised), heap and RSS
// measured after a forced GC before and after, divided by the count. Two ways of making a session:
//   - `terminal_plan {command:"pwd"}` without session_id, through the dispatcher: what a client does (the session,
//     its terminal session aggregate and one plan);
//   - `TerminalSessionStore.create()`: a terminal session with no plan (the execution session and an empty aggregate).
// Runs in a child started with --expose-gc, so nothing else lives in that heap.
//
//   node bench/memory.mjs [--sessions 1000]
import path from 'node:path';
import { startInProcess } from './in-process.mjs';
import {
  assertBuilt,
  BENCH_DIR,
  fixed,
  isMain,
  makeTempDir,
  removeDir,
  startChild,
  table,
  toolResult,
} from './support.mjs';

export const MEMORY_DEFAULTS = { sessions: 1000 };

async function settledMemory() {
  for (let round = 0; round < 3; round += 1) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

async function measureWorker(count) {
  const workspace = makeTempDir('term-mcp-bench-mem-');
  const server = await startInProcess(workspace, { MAX_CONCURRENT_SESSIONS: String(count * 2 + 10) });
  try {
    // One session first, so lazily loaded code and caches are not counted as per-session memory.
    toolResult(await server.callTool('terminal_plan', { command: 'pwd' }), 'terminal_plan');
    const registry = server.container.get(server.TYPES.TerminalSessionStore);
    registry.create(workspace);
    const results = {};

    let before = await settledMemory();
    for (let index = 0; index < count; index += 1) {
      toolResult(await server.callTool('terminal_plan', { command: 'pwd' }), 'terminal_plan');
    }
    let after = await settledMemory();
    results.viaPlan = perSession(before, after, count);

    before = await settledMemory();
    for (let index = 0; index < count; index += 1) registry.create(workspace);
    after = await settledMemory();
    results.bare = perSession(before, after, count);
    results.liveSessions = registry.list().length;
    return results;
  } finally {
    await server.close();
    removeDir(workspace);
  }
}

function perSession(before, after, count) {
  return {
    heapBytesPerSession: (after.heapUsed - before.heapUsed) / count,
    rssBytesPerSession: (after.rss - before.rss) / count,
    heapBefore: before.heapUsed,
    heapAfter: after.heapUsed,
    rssBefore: before.rss,
    rssAfter: after.rss,
  };
}

export async function runMemoryBench(options = {}) {
  assertBuilt();
  const settings = { ...MEMORY_DEFAULTS, ...options };
  const child = startChild('node', [path.join(BENCH_DIR, 'memory.mjs'), '--worker', String(settings.sessions)], {
    nodeOptions: ['--expose-gc'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const { code } = await child.exited;
  if (code !== 0) throw new Error(`memory worker failed (${code}):\n${child.stderrText}`);
  return { settings, ...JSON.parse(output) };
}

export function memoryMarkdown({ settings, viaPlan, bare, liveSessions }) {
  const kib = (bytes) => fixed(bytes / 1024, 1);
  const mibOf = (bytes) => fixed(bytes / (1024 * 1024), 1);
  const row = (label, m) => [
    label,
    kib(m.heapBytesPerSession),
    kib(m.rssBytesPerSession),
    `${mibOf(m.heapBefore)} → ${mibOf(m.heapAfter)}`,
    `${mibOf(m.rssBefore)} → ${mibOf(m.rssAfter)}`,
  ];
  return [
    `${settings.sessions} sessions per row in one process (${liveSessions} live at the end), after a forced GC; ` +
      'RSS also counts memory the allocator keeps, so it is the noisier number.',
    '',
    table(
      [
        'how the session was made',
        'heap KiB / session',
        'RSS KiB / session',
        'heap MiB before → after',
        'RSS MiB before → after',
      ],
      [
        row('terminal_plan without session_id (session + 1 plan)', viaPlan),
        row('TerminalSessionStore.create (no plan)', bare),
      ],
    ),
  ].join('\n');
}

if (isMain(import.meta.url)) {
  if (process.argv[2] === '--worker') {
    process.stdout.write(`${JSON.stringify(await measureWorker(Number(process.argv[3])))}\n`);
  } else {
    const index = process.argv.indexOf('--sessions');
    const sessions = index === -1 ? MEMORY_DEFAULTS.sessions : Number(process.argv[index + 1]);
    console.log(memoryMarkdown(await runMemoryBench({ sessions })));
  }
}
