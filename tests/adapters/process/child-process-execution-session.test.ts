import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChildProcessSessionFactory } from '../../../src/adapters/process/child-process-session-factory';
import {
  CommandNotRunning,
  InputClosed,
  OutputRangeInvalid,
  ProcessLimitReached,
  SessionNotFound,
} from '../../../src/domain/execution/execution-errors';
import type { ExecutionSession, RunningCommand } from '../../../src/domain/execution/execution-session';
import type { CommandLaunch, ExecutionEvent } from '../../../src/domain/execution/execution-types';
import { UnconfinedLaunch } from '../../../src/adapters/sandbox/unconfined-launch';
import { sandboxFor } from '../../support/sandbox';
import { hostPidOf, isAlive, processState, waitFor } from './process-probe';

let workspace: string;
let session: ExecutionSession;

/** Plain child processes (TERM_MCP_SANDBOX=off): the process-group mechanics on their own. */
const unconfined = new UnconfinedLaunch();

type SessionOptions = Partial<ConstructorParameters<typeof ChildProcessSessionFactory>[0]>;

function openSession(options: SessionOptions = {}): ExecutionSession {
  return new ChildProcessSessionFactory({ killGraceMs: 200, confinement: sandboxFor(workspace), ...options }).create({
    id: 'session-1',
    cwd: workspace,
  });
}

function argv(args: string[], limits: Partial<CommandLaunch> = {}): CommandLaunch {
  return {
    launch: { kind: 'argv', argv: args },
    cwd: workspace,
    timeoutMs: 10_000,
    maxOutputBytes: 1_000_000,
    ...limits,
  };
}

function shell(script: string, limits: Partial<CommandLaunch> = {}): CommandLaunch {
  return { launch: { kind: 'shell', script }, cwd: workspace, timeoutMs: 10_000, maxOutputBytes: 1_000_000, ...limits };
}

function stdoutOf(command: RunningCommand): string {
  return command.read('stdout', 0, 10_000_000).text;
}

/** Starts a script that prints the shell's pid and a background sleep's pid, then waits on a foreground sleep. */
async function startGroupWithBackgroundMember(limits: Partial<CommandLaunch> = {}): Promise<{
  command: RunningCommand;
  pids: number[];
}> {
  const command = session.start(shell('echo $$; sleep 30 & echo $!; sleep 30', limits), 'two sleeps');
  await waitFor(() => stdoutOf(command).split('\n').length === 3, 'both pids on stdout');
  // The command runs in its own PID namespace: the pids it prints are translated to the host's.
  const leader = command.pid ?? 0;
  return {
    command,
    pids: stdoutOf(command)
      .trim()
      .split('\n')
      .map((pid) => hostPidOf(Number(pid), leader)),
  };
}

beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'term-mcp-session-'));
  session = openSession();
});

afterEach(async () => {
  await session.close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

describe('ChildProcessExecutionSession', () => {
  it('runs an argv command without a shell and reads its output incrementally by byte offsets', async () => {
    const command = session.start(argv(['/bin/echo', 'hello', '$HOME;']), 'echo hello $HOME;');
    const outcome = await command.finished();

    expect(outcome).toMatchObject({ status: 'succeeded', exitCode: 0, signal: null, truncated: false });
    const first = command.read('stdout', 0, 5);
    expect(first).toEqual({
      stream: 'stdout',
      text: 'hello',
      offset: 0,
      nextOffset: 5,
      capturedBytes: 13,
      truncated: false,
      complete: false,
    });
    expect(command.read('stdout', first.nextOffset, 100)).toMatchObject({
      text: ' $HOME;\n',
      nextOffset: 13,
      complete: true,
    });
  });

  it('captures stdout and stderr separately and reports a non-zero exit as failed', async () => {
    const command = session.start(shell('echo out; echo err >&2; exit 3'), 'exit 3');
    const outcome = await command.finished();

    expect(outcome).toMatchObject({ status: 'failed', exitCode: 3, signal: null });
    expect(stdoutOf(command)).toBe('out\n');
    expect(command.read('stderr', 0, 100).text).toBe('err\n');
  });

  it('runs in the requested working directory', async () => {
    const command = session.start(argv(['/bin/pwd']), 'pwd');
    await command.finished();
    expect(stdoutOf(command)).toBe(`${workspace}\n`);
  });

  it('keeps exactly maxOutputBytes, flags the truncation and keeps draining so the process ends', async () => {
    const command = session.start(
      argv(['/usr/bin/head', '-c', '200000', '/dev/zero'], { maxOutputBytes: 1000 }),
      'head',
    );
    const outcome = await command.finished();

    expect(outcome).toMatchObject({ status: 'succeeded', exitCode: 0, truncated: true });
    const chunk = command.read('stdout', 0, 1_000_000);
    expect(chunk).toMatchObject({ capturedBytes: 1000, nextOffset: 1000, truncated: true, complete: true });
    expect(chunk.text).toBe('\0'.repeat(1000));
  });

  it('captures a 20 MB stream whole and reads it back in slices', async () => {
    const size = 20_000_000;
    const command = session.start(
      argv(['/usr/bin/head', '-c', String(size), '/dev/zero'], { maxOutputBytes: size }),
      'big',
    );
    await command.finished();

    let chunk = command.read('stdout', 0, 1_048_576);
    let characters = chunk.text.length;
    while (!chunk.complete) {
      chunk = command.read('stdout', chunk.nextOffset, 1_048_576);
      characters += chunk.text.length;
    }
    expect(chunk).toMatchObject({ capturedBytes: size, nextOffset: size, truncated: false });
    expect(characters).toBe(size);
  });

  it('never ends a read inside a multi-byte character', async () => {
    const command = session.start(argv(['/usr/bin/printf', '%s', 'é€😀']), 'printf');
    await command.finished();

    expect(command.read('stdout', 0, 3)).toMatchObject({ text: 'é', nextOffset: 2 });
    expect(command.read('stdout', 2, 4)).toMatchObject({ text: '€', nextOffset: 5 });
    expect(command.read('stdout', 5, 2)).toMatchObject({ text: '😀', nextOffset: 9, complete: true });
  });

  it('rejects a read beyond the captured bytes', async () => {
    const command = session.start(argv(['/bin/echo', 'hi']), 'echo hi');
    await command.finished();
    expect(() => command.read('stdout', 4, 10)).toThrow(OutputRangeInvalid);
    expect(() => command.read('stdout', 0, 0)).toThrow(OutputRangeInvalid);
  });

  it('reports a missing executable as failed with the reason on stderr', async () => {
    const command = session.start(argv(['/nonexistent/tool', '--help']), 'tool');
    const outcome = await command.finished();

    // The sandbox starts; the exec inside it fails (prlimit reports it and exits 127, like a shell).
    expect(outcome).toMatchObject({ status: 'failed', exitCode: 127, signal: null });
    expect(command.read('stderr', 0, 1000)).toMatchObject({
      text: expect.stringContaining('No such file or directory'),
      complete: true,
    });
  });

  it('reports a launcher that cannot be spawned as failed with the spawn error on stderr', async () => {
    const broken = new ChildProcessSessionFactory({ confinement: unconfined }).create({
      id: 'session-2',
      cwd: workspace,
    });
    const command = broken.start(argv(['/nonexistent/tool', '--help']), 'tool');
    const outcome = await command.finished();

    expect(command.pid).toBeUndefined();
    expect(outcome).toMatchObject({ status: 'failed', exitCode: null, signal: null });
    expect(command.read('stderr', 0, 1000)).toMatchObject({ text: expect.stringContaining('ENOENT'), complete: true });
  });

  it('times out and kills every process of the group, background members included', async () => {
    const { command, pids } = await startGroupWithBackgroundMember({ timeoutMs: 300 });
    const outcome = await command.finished();

    expect(outcome).toMatchObject({ status: 'timed_out', exitCode: null, signal: 'SIGTERM' });
    await waitFor(() => pids.every((pid) => !isAlive(pid)), 'the group to be gone', 2000);
  });

  it('ends a command that ignores SIGTERM at its deadline: the sandbox dies with its launcher', async () => {
    const command = session.start(shell("trap '' TERM; echo $$; sleep 30", { timeoutMs: 300 }), 'stubborn');
    await waitFor(() => stdoutOf(command) !== '', 'the pid on stdout');
    const pid = hostPidOf(Number(stdoutOf(command).trim()), command.pid ?? 0);

    expect(await command.finished()).toMatchObject({ status: 'timed_out', exitCode: null });
    await waitFor(() => !isAlive(pid), 'the stubborn shell to be gone', 3000);
  });

  it('escalates to SIGKILL when the launcher ignores SIGTERM (unsandboxed)', async () => {
    const plain = new ChildProcessSessionFactory({ killGraceMs: 200, confinement: unconfined }).create({
      id: 'session-2',
      cwd: workspace,
    });
    const command = plain.start(shell("trap '' TERM; echo $$; sleep 30", { timeoutMs: 300 }), 'stubborn');
    await waitFor(() => stdoutOf(command) !== '', 'the pid on stdout');
    const pid = Number(stdoutOf(command).trim());

    expect(await command.finished()).toMatchObject({ status: 'timed_out', exitCode: null, signal: 'SIGKILL' });
    expect(isAlive(pid)).toBe(false);
    await plain.close();
  });

  it('kills background members as soon as the leader exits (the PID namespace ends with it)', async () => {
    const command = session.start(
      shell('sleep 30 & echo $!; setsid sleep 31 & echo $!; sleep 0.3'),
      'background sleeps',
    );
    await waitFor(() => stdoutOf(command).split('\n').length === 3, 'both pids on stdout');
    const pids = stdoutOf(command)
      .trim()
      .split('\n')
      .map((pid) => hostPidOf(Number(pid), command.pid ?? 0));
    expect(pids.every(isAlive)).toBe(true);

    expect(await command.finished()).toMatchObject({ status: 'succeeded', exitCode: 0 });
    await waitFor(() => !pids.some(isAlive), 'the background members to be gone', 3000);
    expect(command.read('stdout', 0, 100).complete).toBe(true);
  });

  it('cancels a running command', async () => {
    const command = session.start(argv(['/bin/sleep', '30']), 'sleep 30');
    expect(command.cancel()).toBe(true);
    const outcome = await command.finished();

    expect(outcome).toMatchObject({ status: 'cancelled', exitCode: null, signal: 'SIGTERM' });
    expect(command.cancel()).toBe(false);
    expect(isAlive(command.pid ?? 0)).toBe(false);
  });

  it('pauses and resumes the group, and a paused command can still be cancelled', async () => {
    const events: ExecutionEvent[] = [];
    session.subscribe((event) => events.push(event));
    const command = session.start(argv(['/bin/sleep', '30']), 'sleep 30');
    const pid = command.pid ?? 0;

    expect(command.pause()).toBe(true);
    expect(command.pause()).toBe(false);
    await waitFor(() => processState(pid) === 'T', 'the process to stop');
    expect(command.outcome().status).toBe('paused');

    expect(command.resume()).toBe(true);
    expect(command.resume()).toBe(false);
    await waitFor(() => processState(pid) === 'S', 'the process to continue');
    expect(command.outcome().status).toBe('running');

    expect(command.pause()).toBe(true);
    expect(command.cancel()).toBe(true);
    expect(await command.finished()).toMatchObject({ status: 'cancelled' });
    expect(isAlive(pid)).toBe(false);
    expect(events.map((event) => event.type)).toEqual([
      'command_started',
      'command_paused',
      'command_resumed',
      'command_paused',
      'command_finished',
    ]);
  });

  it('feeds written input to the command and ends it when input is closed', async () => {
    const command = session.start(argv(['/bin/cat'], { stdin: 'open' }), 'cat');
    await command.writeInput('hello\n');
    await waitFor(() => stdoutOf(command) === 'hello\n', 'cat to echo the input');

    command.closeInput();
    await expect(command.writeInput('late\n')).rejects.toThrow(InputClosed);
    expect(await command.finished()).toMatchObject({ status: 'succeeded', exitCode: 0 });
    await expect(command.writeInput('later\n')).rejects.toThrow(CommandNotRunning);
  });

  it('gives a command end-of-file on stdin unless stdin is open, and refuses input then', async () => {
    const command = session.start(argv(['/bin/cat']), 'cat');
    expect(await command.finished()).toMatchObject({ status: 'succeeded', exitCode: 0 });
    expect(stdoutOf(command)).toBe('');
    await expect(command.writeInput('nobody reads this\n')).rejects.toThrow(CommandNotRunning);
  });

  describe('environment', () => {
    const saved = { token: process.env.TERM_MCP_TOKEN, key: process.env.DEEPSEEK_API_KEY };

    afterEach(() => {
      for (const [name, value] of [
        ['TERM_MCP_TOKEN', saved.token],
        ['DEEPSEEK_API_KEY', saved.key],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });

    it('gives the command only the scrubbed environment, never the server secrets', async () => {
      process.env.TERM_MCP_TOKEN = 'secret-xyz';
      process.env.DEEPSEEK_API_KEY = 'sk-test-4242';
      const scrubbed = openSession();
      try {
        const command = scrubbed.start(argv(['/usr/bin/env']), 'env');
        await command.finished();
        const output = stdoutOf(command);

        for (const secret of ['TERM_MCP_TOKEN', 'secret-xyz', 'DEEPSEEK_API_KEY', 'sk-test-4242']) {
          expect(output).not.toContain(secret);
        }
        expect(output.split('\n')).toEqual(
          expect.arrayContaining([
            'PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin',
            `HOME=${workspace}`,
            `PWD=${workspace}`,
            'TERM_MCP_SANDBOX=1',
          ]),
        );
      } finally {
        await scrubbed.close();
      }
    });
  });

  it('kills the running group when the session closes', async () => {
    const events: ExecutionEvent[] = [];
    session.subscribe((event) => events.push(event));
    const { command, pids } = await startGroupWithBackgroundMember();

    await session.close();

    expect(pids.every((pid) => !isAlive(pid))).toBe(true);
    expect(command.outcome().status).toBe('cancelled');
    expect(events.at(-1)?.type).toBe('session_closed');
    expect(session.closed).toBe(true);
    expect(() => session.start(argv(['/bin/true']), 'true')).toThrow(SessionNotFound);
  });

  it('finishes when the leader exits, yet still kills background members on close (unsandboxed)', async () => {
    const plain = new ChildProcessSessionFactory({ killGraceMs: 200, confinement: unconfined }).create({
      id: 'session-2',
      cwd: workspace,
    });
    const command = plain.start(shell('sleep 30 & echo $!'), 'background sleep');
    const outcome = await command.finished();
    const backgroundPid = Number(stdoutOf(command).trim());

    expect(outcome).toMatchObject({ status: 'succeeded', exitCode: 0 });
    expect(isAlive(backgroundPid)).toBe(true);
    expect(command.read('stdout', 0, 100).complete).toBe(false);

    await plain.close();
    expect(isAlive(backgroundPid)).toBe(false);
  });

  it('refuses a second command while one runs, and accepts it once the first ended', async () => {
    const first = session.start(argv(['/bin/sleep', '30']), 'sleep 30');

    expect(() => session.start(argv(['/bin/true']), 'true')).toThrow(new ProcessLimitReached(1).message);
    first.cancel();
    await first.finished();
    const second = session.start(argv(['/bin/true']), 'true');
    expect(await second.finished()).toMatchObject({ status: 'succeeded' });
  });

  it('runs several commands at once when the limit allows it', async () => {
    const roomy = openSession({ maxProcessesPerSession: 2 });
    try {
      roomy.start(argv(['/bin/sleep', '30']), 'sleep 30');
      roomy.start(argv(['/bin/sleep', '30']), 'sleep 30');
      expect(() => roomy.start(argv(['/bin/true']), 'true')).toThrow(ProcessLimitReached);
    } finally {
      await roomy.close();
    }
  });

  it('publishes started, output and finished events, and survives a throwing listener', async () => {
    const events: ExecutionEvent[] = [];
    session.subscribe(() => {
      throw new Error('broken subscriber');
    });
    session.subscribe((event) => events.push(event));

    const command = session.start(shell('echo hi; echo oops >&2'), 'echo hi');
    expect(await command.finished()).toMatchObject({ status: 'succeeded' });

    expect(events[0]).toMatchObject({
      type: 'command_started',
      sessionId: 'session-1',
      commandId: command.id,
      command: 'echo hi',
    });
    expect(events.at(-1)).toMatchObject({ type: 'command_finished', outcome: { status: 'succeeded' } });
    const output = (stream: string): string =>
      events.map((event) => (event.type === 'output' && event.stream === stream ? event.text : '')).join('');
    expect(output('stdout')).toBe('hi\n');
    expect(output('stderr')).toBe('oops\n');
  });

  it('stops delivering events after unsubscribe', async () => {
    const events: ExecutionEvent[] = [];
    const unsubscribe = session.subscribe((event) => events.push(event));
    unsubscribe();
    await session.start(argv(['/bin/true']), 'true').finished();
    expect(events).toEqual([]);
  });

  it('keeps only the most recent finished commands', async () => {
    const small = openSession({ maxKeptCommands: 2 });
    try {
      const ids: string[] = [];
      for (let index = 0; index < 3; index += 1) {
        const command = small.start(argv(['/bin/true']), 'true');
        ids.push(command.id);
        await command.finished();
      }
      expect(small.commands().map((command) => command.id)).toEqual(ids.slice(1));
      expect(small.command(ids[0] ?? '')).toBeUndefined();
    } finally {
      await small.close();
    }
  });
});
