import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from '../adapters/process/process-probe';
import { livePidsRunning } from '../support/live-processes';
import { plantCleanFilterRepository } from '../support/sandbox-attack';
import { modern, StdioPeer } from '../support/stdio-peer';
import { makeTempWorkspace } from '../support/workspace';

/*
 * Issue 16: every process a command starts ends when the command ends, whichever way it ends, including processes
 * that call setsid and double-fork (they leave the command's process group, which is all the unsandboxed server could
 * kill). The program is the clean filter a planted repository names for `git status` (trusted mode: no approval).
 */

jest.setTimeout(60_000);

let sequence = 0;

interface Run {
  peer: StdioPeer;
  markers: string[][];
  remove(): void;
}

/** A server whose `git status` leaves a setsid child and a double-forked grandchild, then waits `holdSeconds`. */
function start(holdSeconds: number): Run {
  const workspace = makeTempWorkspace('term-mcp-lifetime-');
  sequence += 1;
  // Durations no other process on the machine uses, so the /proc scan finds only ours.
  const base = 4000 + ((process.pid * 10 + sequence * 2) % 5000);
  const markers = [
    ['sleep', String(base)],
    ['sleep', String(base + 1)],
  ];
  plantCleanFilterRepository(
    workspace.root,
    // Their output goes elsewhere, so git (which reads the hook's stdout to its end) does not wait for them.
    [
      `setsid sleep ${base} >/dev/null 2>&1 &`,
      `(setsid sh -c 'sleep ${base + 1} &' >/dev/null 2>&1 &)`,
      `sleep ${holdSeconds}`,
      'exit 1',
    ].join('\n'),
  );
  writeFileSync(path.join(workspace.root, 'keep'), '');
  const peer = new StdioPeer({ WORKSPACE_ROOT: workspace.root, APPROVAL_MODE: 'trusted' });
  return { peer, markers, remove: () => workspace.remove() };
}

function liveMarkers(run: Run): number[] {
  return run.markers.flatMap((argv) => livePidsRunning(argv));
}

/** The fields of a terminal_read result that polling needs. */
interface ReadContent {
  status: string;
  stdout: { next_offset: number };
  stderr: { next_offset: number };
}

async function executeInBackground(run: Run): Promise<{ session_id: string; command_id: string }> {
  const answer = await run.peer.request(
    modern('tools/call', 'bg', { name: 'terminal_execute', arguments: { command: 'git status', wait_seconds: 0 } }),
  );
  const content = (answer.result as { structuredContent: { session_id: string; command_id: string } })
    .structuredContent;
  // Both escaped processes exist before the command is ended.
  await waitFor(
    () => run.markers.every((argv) => livePidsRunning(argv).length > 0),
    'the setsid and double-forked sleeps',
    15_000,
  );
  return content;
}

async function expectAllGone(run: Run): Promise<void> {
  await waitFor(() => liveMarkers(run).length === 0, 'every escaped process to be gone', 10_000);
}

describe('escaped (setsid, double-forked) processes end with their command', () => {
  let run: Run | undefined;

  afterEach(async () => {
    run?.peer.kill();
    await run?.peer.exited;
    run?.remove();
    run = undefined;
  });

  it('when it exits', async () => {
    run = start(1);
    const { session_id, command_id } = await executeInBackground(run);
    let status = 'running';
    // Each poll reads on from the last offsets, so it long-polls for the end instead of returning on old output.
    let offsets = { stdout_offset: 0, stderr_offset: 0 };
    for (let poll = 0; status === 'running' && poll < 20; poll += 1) {
      const read = await run.peer.request(
        modern('tools/call', `read-${poll}`, {
          name: 'terminal_read',
          arguments: { session_id, command_id, wait_seconds: 2, ...offsets },
        }),
        30_000,
      );
      const content = (read.result as { structuredContent: ReadContent }).structuredContent;
      status = content.status;
      offsets = { stdout_offset: content.stdout.next_offset, stderr_offset: content.stderr.next_offset };
    }
    expect(status).toBe('succeeded');
    await expectAllGone(run);
  });

  it('when it times out', async () => {
    run = start(60);
    const answer = await run.peer.request(
      modern('tools/call', 'to', {
        name: 'terminal_execute',
        arguments: { command: 'git status', timeout_seconds: 2 },
      }),
      30_000,
    );
    expect(answer.result).toMatchObject({ structuredContent: { status: 'timed_out' } });
    await expectAllGone(run);
  });

  it('when it is cancelled', async () => {
    run = start(60);
    const { session_id, command_id } = await executeInBackground(run);
    await run.peer.request(
      modern('tools/call', 'cancel', { name: 'terminal_cancel', arguments: { session_id, command_id } }),
    );
    await expectAllGone(run);
  });

  it('when its session is closed', async () => {
    run = start(60);
    const { session_id } = await executeInBackground(run);
    await run.peer.request(
      modern('tools/call', 'close', { name: 'terminal_session_close', arguments: { session_id } }),
    );
    await expectAllGone(run);
  });

  it('when the server reads end-of-file on stdin', async () => {
    run = start(60);
    await executeInBackground(run);
    expect(await run.peer.end()).toBe(0);
    await expectAllGone(run);
  });

  // SIGKILL runs no shutdown code at all: bwrap's --die-with-parent alone ends the sandbox.
  it.each(['SIGTERM', 'SIGINT', 'SIGKILL'] as const)('when the server gets %s', async (signal) => {
    run = start(60);
    await executeInBackground(run);
    run.peer.child.kill(signal);
    await run.peer.exited;
    await expectAllGone(run);
  });
});
