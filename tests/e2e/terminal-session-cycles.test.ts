import { readdirSync, readFileSync, statSync } from 'node:fs';
import { makeOutsideDir } from '../support/sandbox-attack';
import { pollUntil } from '../support/live-processes';
import { findTerminal } from '../../src/adapters/process/pty-launch';
import { call, connectTerminalClient, screenCall } from '../support/terminal-session-client';

/*
 * Issue 24: opening and closing terminal sessions leaks nothing. The terminals are allocated inside each sandbox's own
 * devpts, never on the host's /dev/pts (checked on the device itself: other programs on this shared machine open host
 * terminals while the test runs, so comparing the host's /dev/pts listing before and after would test them); the
 * server's descriptors must come back to what they were, and no process may outlive its session. 60 cycles by default (about 45 s here, ~0.75 s a cycle on a loaded machine);
 * TERMINAL_SESSION_CYCLES=500 runs the 500.
 */

const CYCLES = Number(process.env.TERMINAL_SESSION_CYCLES ?? 60);

jest.setTimeout(600_000);

function descriptorCount(pid: number): number {
  return readdirSync(`/proc/${String(pid)}/fd`).length;
}

function childrenOf(pid: number): string {
  return readFileSync(`/proc/${String(pid)}/task/${String(pid)}/children`, 'utf8').trim();
}

test(`terminal sessions are not on the host's /dev/pts, and ${String(CYCLES)} opened and closed leave the server's descriptors and processes as they were`, async () => {
  const workspace = makeOutsideDir('term-mcp-terminal-cycles-');
  const server = await connectTerminalClient('root', workspace.root, { APPROVAL_MODE: 'sandboxed' });
  try {
    const pid = server.serverPid();
    if (pid === null) throw new Error('the server did not start');
    // One session first: what is opened once and kept (the sandbox probe, lazily loaded modules) is not a leak.
    const warm = await screenCall(server.client, 'terminal_open', { command: 'cat', wait: { timeout_ms: 0 } });
    let terminal: string | undefined;
    await pollUntil(() => (terminal = findTerminal(pid)) !== undefined, 'the sandbox terminal to be open');
    expect(statSync(String(terminal)).dev).not.toBe(statSync('/dev/pts/ptmx').dev);
    await call(server.client, 'terminal_cancel', { session_id: warm.session_id, command_id: warm.command_id });
    await pollUntil(() => childrenOf(pid) === '', 'the warm-up session to end');
    const descriptorsBefore = descriptorCount(pid);

    for (let cycle = 0; cycle < CYCLES; cycle += 1) {
      const opened = await screenCall(server.client, 'terminal_open', { command: 'cat', wait: { timeout_ms: 0 } });
      expect(opened.status).toBe('running');
      const closed = await call(server.client, 'terminal_cancel', {
        session_id: opened.session_id,
        command_id: opened.command_id,
      });
      expect(closed.structuredContent).toEqual({ cancelled: true });
    }

    await pollUntil(() => childrenOf(pid) === '', 'every sandbox of the closed sessions to be gone', 60_000);
    await pollUntil(
      () => descriptorCount(pid) <= descriptorsBefore,
      `the server's descriptors to come back to ${String(descriptorsBefore)}`,
      60_000,
    );
    expect(descriptorCount(pid)).toBe(descriptorsBefore);
    expect(childrenOf(pid)).toBe('');
  } finally {
    await server.close();
    workspace.remove();
  }
});
