// Streaming 100 MiB of output through `terminal_read` polling, against a `term-mcp stdio` child, with the server's
// RSS sampled from /proc every 50 ms. The command is `cat` of a 100 MiB text file in the workspace (the policy
// denies /dev/zero as a path outside the workspace and `yes` is not on the command list).
// Each output stream is captured up to MAX_OUTPUT_BYTES and the rest is drained and dropped, so two runs:
//   - cap raised to 128 MiB: all 100 MiB are kept and read back (what terminal_read can stream end to end);
//   - default cap (1 MiB): the first MiB is kept and readable, the other 99 MiB are drained and dropped.
//
//   node bench/stream.mjs [--mib 100]
import { closeSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
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
  table,
  toolResult,
} from './support.mjs';

export const STREAM_DEFAULTS = { mebibytes: 100, readBytes: 1_048_576, sampleMs: 50 };
const FILE_NAME = 'stream-source.txt';

/** A text file of `mebibytes` MiB made of 64-byte ASCII lines. */
function writeSourceFile(file, mebibytes) {
  const line = `${'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'.slice(0, 63)}\n`;
  const block = Buffer.from(line.repeat(1_048_576 / line.length));
  const fd = openSync(file, 'w');
  try {
    for (let index = 0; index < mebibytes; index += 1) writeSync(fd, block);
  } finally {
    closeSync(fd);
  }
}

/** Samples the child's RSS until stopped; returns the samples as [ms since start, bytes]. */
function sampleRss(pid, everyMs) {
  const samples = [];
  const start = process.hrtime.bigint();
  const take = () => {
    try {
      samples.push([hrtimeMs(start), rssOf(pid)]);
    } catch {
      // the process is gone
    }
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

async function streamOnce(workspace, capBytes, settings) {
  const totalBytes = settings.mebibytes * 1_048_576;
  const rpc = new StdioRpc(
    startStdioTarget('term-mcp', workspace, { MAX_OUTPUT_BYTES: String(capBytes), COMMAND_TIMEOUT: '300' }),
  );
  try {
    // Warm the server up (and load the tool code) before sampling, so the baseline RSS is the steady one.
    toolResult(
      await rpc.request('tools/call', { name: 'terminal_execute', arguments: { command: 'true' } }),
      'warm-up',
    );
    const sampler = sampleRss(rpc.child.pid, settings.sampleMs);
    const start = process.hrtime.bigint();
    const started = toolResult(
      await rpc.request('tools/call', {
        name: 'terminal_execute',
        arguments: { command: `cat ${FILE_NAME}`, wait_seconds: 0 },
      }),
      'terminal_execute',
    );
    let offset = 0;
    let readBytes = 0;
    let reads = 0;
    let last;
    for (;;) {
      const args = {
        session_id: started.session_id,
        command_id: started.command_id,
        stdout_offset: offset,
        max_bytes: Math.min(settings.readBytes, capBytes),
        wait_seconds: 1,
      };
      last = toolResult(await rpc.request('tools/call', { name: 'terminal_read', arguments: args }), 'terminal_read');
      reads += 1;
      readBytes += Buffer.byteLength(last.stdout.text);
      offset = last.stdout.next_offset;
      if (last.finished && last.stdout.complete) break;
    }
    const elapsedMs = hrtimeMs(start);
    const samples = sampler.stop();
    if (last.status !== 'succeeded') throw new Error(`cat ended with status ${last.status}`);
    return {
      capBytes,
      producedBytes: totalBytes,
      readBytes,
      reads,
      truncated: last.output_truncated,
      elapsedMs,
      readMiBPerSecond: mib(readBytes) / (elapsedMs / 1000),
      producedMiBPerSecond: mib(totalBytes) / (elapsedMs / 1000),
      rssStart: samples[0][1],
      rssPeak: Math.max(...samples.map(([, rss]) => rss)),
      rssEnd: samples[samples.length - 1][1],
      samples,
    };
  } finally {
    await rpc.close();
  }
}

export async function runStreamBench(options = {}) {
  assertBuilt();
  const settings = { ...STREAM_DEFAULTS, ...options };
  const workspace = makeTempDir('term-mcp-bench-stream-');
  try {
    writeSourceFile(path.join(workspace, FILE_NAME), settings.mebibytes);
    const raised = await streamOnce(workspace, 128 * 1_048_576, settings);
    const capped = await streamOnce(workspace, 1_048_576, settings);
    return { settings, runs: [raised, capped] };
  } finally {
    removeDir(workspace);
  }
}

/** About ten evenly spaced RSS samples of a run, as "t s: N MiB". */
function rssTimeline(samples) {
  const step = Math.max(1, Math.floor(samples.length / 10));
  const picked = samples.filter((_, index) => index % step === 0 || index === samples.length - 1);
  return picked.map(([ms, rss]) => `${fixed(ms / 1000, 1)} s: ${fixed(mib(rss), 0)}`).join(', ');
}

export function streamMarkdown({ settings, runs }) {
  const rows = runs.map((r) => [
    `${fixed(mib(r.capBytes), 0)} MiB`,
    fixed(mib(r.producedBytes), 0),
    fixed(mib(r.readBytes), 1),
    String(r.reads),
    String(r.truncated),
    fixed(r.elapsedMs / 1000, 2),
    fixed(r.readMiBPerSecond, 1),
    fixed(r.producedMiBPerSecond, 1),
    `${fixed(mib(r.rssStart), 0)} / ${fixed(mib(r.rssPeak), 0)} / ${fixed(mib(r.rssEnd), 0)}`,
  ]);
  return [
    `\`cat\` of a ${settings.mebibytes} MiB file, polled with \`terminal_read\` (max_bytes ${settings.readBytes}, wait_seconds 1) over stdio ` +
      `until finished and fully read; server RSS sampled every ${settings.sampleMs} ms.`,
    '',
    table(
      [
        'MAX_OUTPUT_BYTES',
        'produced MiB',
        'read MiB',
        'reads',
        'truncated',
        'seconds',
        'read MiB/s',
        'produced MiB/s',
        'server RSS MiB start / peak / end',
      ],
      rows,
    ),
    '',
    'Server RSS over time (MiB):',
    '',
    ...runs.map((r) => `- cap ${fixed(mib(r.capBytes), 0)} MiB: ${rssTimeline(r.samples)}`),
  ].join('\n');
}

if (isMain(import.meta.url)) {
  const index = process.argv.indexOf('--mib');
  const mebibytes = index === -1 ? STREAM_DEFAULTS.mebibytes : Number(process.argv[index + 1]);
  console.log(streamMarkdown(await runStreamBench({ mebibytes })));
}
