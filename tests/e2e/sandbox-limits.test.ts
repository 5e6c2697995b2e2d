import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { waitFor } from '../adapters/process/process-probe';
import { PLANTED_PROGRAM, plantCleanFilterRepository } from '../support/sandbox-attack';
import { modern, StdioPeer } from '../support/stdio-peer';
import { makeTempWorkspace } from '../support/workspace';

/*
 * Issue 16: a fork bomb and a memory hog stop at their limits and the server keeps answering. Both run as the clean
 * filter a planted repository names for `git status` (trusted mode: no approval). RLIMIT_NPROC does not bind root (the kernel exempts uid 0), so the fork
 * bomb runs against a server started as `nobody` when the tests run as root (docs/security.md says so).
 */

jest.setTimeout(180_000);

const NOBODY = 65534;

/**
 * Processes of `uid` running the hook script (a forked sh keeps the script's name as its comm), zombies included:
 * they still count against RLIMIT_NPROC, and at the limit most of a fork bomb's processes are zombies.
 */
function hookProcesses(uid: number): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const name = /^Name:\s*(.*)$/m.exec(status)?.[1] ?? '';
      const realUid = Number(/^Uid:\s*(\d+)/m.exec(status)?.[1]);
      if (realUid === uid && PLANTED_PROGRAM.startsWith(name) && name.length > 0) count += 1;
    } catch {
      // Gone while we looked.
    }
  }
  return count;
}

/** The server still answers a request (the request's own deadline is the failure, not a measured latency). */
async function ping(peer: StdioPeer, id: string): Promise<void> {
  const answer = await peer.request(modern('tools/list', id), 30_000);
  expect(answer.result).toBeDefined();
}

interface CommandRead {
  status: string;
  exit_code: number | null;
  finished: boolean;
  stderr: { text: string; next_offset: number };
}

/** A brief account of a command for a failure message: never its whole output (a fork bomb's is kilobytes of errors). */
function brief(read: CommandRead | undefined, stderr: string): string {
  return `status ${read?.status ?? 'unknown'}, exit ${String(read?.exit_code)}, stderr …${JSON.stringify(stderr.slice(-200))}`;
}

/**
 * Long-polls `terminal_read` until the command's stderr matches `pattern` or the command ends, and returns its stderr
 * so far. The condition is the command's own output, not a count of processes sampled at a guessed moment: on a
 * loaded machine the bomb can take long to start, and it is seen whenever it gets there.
 */
async function readStderrUntil(
  peer: StdioPeer,
  ids: { session_id: string; command_id: string },
  pattern: RegExp,
): Promise<{ stderr: string; read: CommandRead }> {
  let stderr = '';
  let offset = 0;
  for (let poll = 0; ; poll += 1) {
    const answer = await peer.request(
      modern('tools/call', `read-${poll}`, {
        name: 'terminal_read',
        arguments: { ...ids, stderr_offset: offset, wait_seconds: 5 },
      }),
      30_000,
    );
    const read = (answer.result as { structuredContent: CommandRead }).structuredContent;
    stderr += read.stderr.text;
    offset = read.stderr.next_offset;
    if (pattern.test(stderr) || read.finished) return { stderr, read };
  }
}

describe('per-command limits', () => {
  it('stops a fork bomb at the process limit; the server keeps answering and nothing survives', async () => {
    const workspace = makeTempWorkspace('term-mcp-forkbomb-');
    // The hook waits on a sleep started before the bomb (a `sleep` started after it could fail to fork, letting the
    // hook, and with it the whole sandbox, end early).
    plantCleanFilterRepository(workspace.root, 'sleep 300 & bomb() { bomb | bomb & }; bomb; wait');
    const asRoot = process.getuid?.() === 0;
    if (asRoot) execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, workspace.root]);
    const uid = asRoot ? NOBODY : (process.getuid?.() ?? NOBODY);
    const launcher = asRoot ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'] : [];
    const peer = new StdioPeer(
      { WORKSPACE_ROOT: workspace.root, APPROVAL_MODE: 'trusted', TERM_MCP_SANDBOX_PROCESSES: '64' },
      ['stdio'],
      launcher,
    );
    try {
      // The command's timeout only ends a run this test forgot to cancel: the test cancels it once it has seen enough.
      const started = await peer.request(
        modern('tools/call', 'bomb', {
          name: 'terminal_execute',
          arguments: { command: 'git status', wait_seconds: 0, timeout_seconds: 300 },
        }),
        30_000,
      );
      expect(started.result).toMatchObject({ isError: false, structuredContent: { status: 'running' } });
      const { session_id, command_id } = (
        started.result as { structuredContent: { session_id: string; command_id: string } }
      ).structuredContent;
      // dash says "Cannot fork" when RLIMIT_NPROC refuses a fork: the limit has been reached.
      const { stderr, read } = await readStderrUntil(peer, { session_id, command_id }, /Cannot fork/);
      if (!/Cannot fork/.test(stderr))
        throw new Error(`the fork bomb ended without reaching the process limit: ${brief(read, stderr)}`);
      // At the limit, the bomb's processes (zombies included) never exceed it. RLIMIT_NPROC counts every process of
      // the sandbox's user namespace (bwrap's init and git included).
      expect(hookProcesses(uid)).toBeLessThanOrEqual(64);
      await ping(peer, 'during');
      expect(hookProcesses(uid)).toBeLessThanOrEqual(64);
      // Cancelling ends the whole sandbox: every process of the bomb goes with it.
      const cancelled = await peer.request(
        modern('tools/call', 'cancel', { name: 'terminal_cancel', arguments: { session_id, command_id } }),
        30_000,
      );
      expect(cancelled.result).toMatchObject({ isError: false });
      await waitFor(() => hookProcesses(uid) === 0, 'the fork bomb to be gone after the cancel', 60_000);
      await ping(peer, 'after');
    } finally {
      peer.kill();
      await peer.exited;
      workspace.remove();
    }
  });

  it('stops a memory hog at the memory limit and the server keeps answering', async () => {
    const workspace = makeTempWorkspace('term-mcp-memhog-');
    plantCleanFilterRepository(
      workspace.root,
      // Sizes come from the arguments: a constant would be folded (and fail) at compile time.
      `perl -e '$x = "a" x $ARGV[0]; print STDERR "SMALL-OK\\n"; $y = "b" x $ARGV[1]; print STDERR "BIG-OK\\n"' 67108864 1073741824; exit 1`,
    );
    const peer = new StdioPeer({
      WORKSPACE_ROOT: workspace.root,
      APPROVAL_MODE: 'trusted',
      TERM_MCP_SANDBOX_MEMORY_MB: '512',
    });
    try {
      const answer = await peer.request(
        modern('tools/call', 'hog', { name: 'terminal_execute', arguments: { command: 'git status' } }),
        30_000,
      );
      const receipt = (answer.result as { structuredContent: { stderr: string; confinement: unknown } })
        .structuredContent;
      expect(receipt.stderr).toContain('SMALL-OK');
      expect(receipt.stderr).toContain('Out of memory');
      expect(receipt.stderr).not.toContain('BIG-OK');
      expect(receipt.confinement).toMatchObject({ limits: { memory_bytes: 512 * 1024 * 1024 } });
      await ping(peer, 'after');
    } finally {
      await peer.end();
      workspace.remove();
    }
  });
});
