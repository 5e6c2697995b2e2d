import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChildProcessSessionFactory } from '../../../src/adapters/process/child-process-session-factory';
import { SessionRegistry } from '../../../src/application/sessions/session-registry';
import { SessionLimitReached, SessionNotFound } from '../../../src/domain/execution/execution-errors';
import type { CommandLaunch } from '../../../src/domain/execution/execution-types';
import { isAlive, waitFor } from '../../adapters/process/process-probe';
import { sandboxFor } from '../../support/sandbox';

const IDLE_TIMEOUT_MS = 1000;

let workspace: string;
let clock: number;
let registry: SessionRegistry;

function sleepLaunch(): CommandLaunch {
  return { launch: { kind: 'argv', argv: ['/bin/sleep', '30'] }, cwd: workspace, timeoutMs: 10_000, maxOutputBytes: 1024 };
}

function createRegistry(maxSessions = 2): SessionRegistry {
  let counter = 0;
  const now = (): number => clock;
  return new SessionRegistry({
    factory: new ChildProcessSessionFactory({ killGraceMs: 200, now, confinement: sandboxFor(workspace) }),
    maxSessions,
    idleTimeoutMs: IDLE_TIMEOUT_MS,
    now,
    newId: () => `session-${(counter += 1)}`,
  });
}

beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'term-mcp-registry-'));
  clock = 1_000_000;
  registry = createRegistry();
});

afterEach(async () => {
  await registry.closeAll();
  fs.rmSync(workspace, { recursive: true, force: true });
});

describe('SessionRegistry', () => {
  it('creates sessions with minted ids and finds them again', () => {
    const session = registry.create(workspace);

    expect(session.id).toBe('session-1');
    expect(session.cwd).toBe(workspace);
    expect(registry.get('session-1')).toBe(session);
    expect(registry.find('session-1')).toBe(session);
    expect(registry.list()).toEqual([session]);
  });

  it('reports an unknown id as an unknown or expired session', async () => {
    expect(() => registry.get('nope')).toThrow(new SessionNotFound('nope').message);
    expect(registry.find('nope')).toBeUndefined();
    await expect(registry.close('nope')).rejects.toThrow(SessionNotFound);
  });

  it('refuses a session beyond the maximum until one is closed', async () => {
    registry.create(workspace);
    registry.create(workspace);

    expect(() => registry.create(workspace)).toThrow(SessionLimitReached);
    await registry.close('session-1');
    expect(registry.create(workspace).id).toBe('session-3');
  });

  it('expires a session idle for longer than the timeout and closes it', () => {
    const session = registry.create(workspace);
    clock += IDLE_TIMEOUT_MS + 1;

    expect(() => registry.get(session.id)).toThrow(SessionNotFound);
    expect(session.closed).toBe(true);
  });

  it('keeps a session alive while it is used', () => {
    const session = registry.create(workspace);
    clock += 600;
    registry.get(session.id);
    clock += 600;

    expect(registry.get(session.id)).toBe(session);
  });

  it('does not expire a session while its command runs', async () => {
    const session = registry.create(workspace);
    const command = session.start(sleepLaunch(), 'sleep 30');
    clock += IDLE_TIMEOUT_MS * 10;

    expect(await registry.sweepIdle()).toBe(0);
    expect(registry.find(session.id)).toBe(session);

    command.cancel();
    await command.finished();
    clock += IDLE_TIMEOUT_MS + 1;
    expect(await registry.sweepIdle()).toBe(1);
    expect(registry.list()).toEqual([]);
  });

  it('frees the slot of an expired session for a new one', () => {
    registry.create(workspace);
    registry.create(workspace);
    clock += IDLE_TIMEOUT_MS + 1;

    expect(registry.create(workspace).id).toBe('session-3');
    expect(registry.list().map((session) => session.id)).toEqual(['session-3']);
  });

  it('closes a session on request and kills its running command', async () => {
    const session = registry.create(workspace);
    const pid = session.start(sleepLaunch(), 'sleep 30').pid ?? 0;

    await registry.close(session.id);

    expect(session.closed).toBe(true);
    expect(isAlive(pid)).toBe(false);
    expect(registry.find(session.id)).toBeUndefined();
  });

  it('closes every session and their processes on closeAll', async () => {
    const sessions = [registry.create(workspace), registry.create(workspace)];
    const pids = sessions.map((session) => session.start(sleepLaunch(), 'sleep 30').pid ?? 0);

    await registry.closeAll();

    expect(sessions.every((session) => session.closed)).toBe(true);
    expect(pids.some(isAlive)).toBe(false);
    expect(registry.list()).toEqual([]);
  });

  it('sweeps idle sessions on a timer until stopped', async () => {
    const session = registry.create(workspace);
    const stop = registry.startSweeper(10);
    try {
      clock += IDLE_TIMEOUT_MS + 1;
      await waitFor(() => session.closed, 'the sweeper to close the idle session');
    } finally {
      stop();
    }
  });
});
