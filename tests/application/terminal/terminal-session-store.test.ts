import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChildProcessSessionFactory } from '../../../src/adapters/process/child-process-session-factory';
import { TerminalSessionStore } from '../../../src/application/terminal/terminal-session-store';
import {
  SessionEvicted,
  SessionExpired,
  SessionLimitReached,
  SessionNotFound,
} from '../../../src/domain/execution/execution-errors';
import type { CommandLaunch, ExecutionEvent } from '../../../src/domain/execution/execution-types';
import { isAlive, waitFor } from '../../adapters/process/process-probe';
import { sandboxFor } from '../../support/sandbox';

const IDLE_TIMEOUT_MS = 1000;

let workspace: string;
let clock: number;
let registry: TerminalSessionStore;

function sleepLaunch(): CommandLaunch {
  return {
    launch: { kind: 'argv', argv: ['/bin/sleep', '30'] },
    cwd: workspace,
    timeoutMs: 10_000,
    maxOutputBytes: 1024,
  };
}

/** `maxSessionsPerOwner: 'default'` leaves the share unconfigured. */
function createRegistry(
  maxSessions = 2,
  maxSessionsPerOwner: number | 'default' = maxSessions,
  maxRemembered?: number,
): TerminalSessionStore {
  let counter = 0;
  const now = (): number => clock;
  return new TerminalSessionStore({
    factory: new ChildProcessSessionFactory({ killGraceMs: 200, now, confinement: sandboxFor(workspace) }),
    maxSessions,
    maxSessionsPerOwner: maxSessionsPerOwner === 'default' ? undefined : maxSessionsPerOwner,
    maxRemembered,
    idleTimeoutMs: IDLE_TIMEOUT_MS,
    now,
    newId: () => `session-${(counter += 1)}`,
  });
}

beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'term-mcp-store-'));
  clock = 1_000_000;
  registry = createRegistry();
});

afterEach(async () => {
  await registry.closeAll();
  fs.rmSync(workspace, { recursive: true, force: true });
});

describe('TerminalSessionStore', () => {
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

  it('evicts the least recently used idle session at the cap, and its id then says it was evicted', async () => {
    const first = registry.create(workspace);
    const second = registry.create(workspace);
    clock += 10;
    registry.get(first.id);

    const third = registry.create(workspace);

    await waitFor(() => second.execution.closed, 'the evicted session to close');
    expect(registry.list()).toEqual([first, third]);
    expect(() => registry.get(second.id)).toThrow(SessionEvicted);
    expect(() => registry.get(second.id)).toThrow('session evicted');
    expect(registry.endReason(second.id)).toBe('evicted');
    expect(() => registry.get('never-minted')).toThrow(SessionNotFound);
  });

  it('never evicts a session whose command runs, and refuses only when every session runs one', () => {
    const busy = registry.create(workspace);
    busy.execution.start(sleepLaunch(), 'sleep 30');
    clock += 10;
    const idle = registry.create(workspace);

    const fresh = registry.create(workspace);

    expect(registry.list()).toEqual([busy, fresh]);
    expect(idle.execution.closed).toBe(true);
    fresh.execution.start(sleepLaunch(), 'sleep 30');
    expect(() => registry.create(workspace)).toThrow(SessionLimitReached);
    expect(registry.list()).toEqual([busy, fresh]);
  });

  it('never evicts a pinned session until it is unpinned', () => {
    const pinned = registry.create(workspace, undefined, { pinned: true });
    const other = registry.create(workspace);

    registry.create(workspace);
    expect(pinned.execution.closed).toBe(false);
    expect(other.execution.closed).toBe(true);

    registry.unpin(pinned.id);
    registry.create(workspace);
    expect(pinned.execution.closed).toBe(true);
  });

  it("evicts within the owner's own share and leaves other owners' sessions alone", () => {
    registry = createRegistry(4, 2);
    const bob = registry.create(workspace, 'bob');
    const aliceOld = registry.create(workspace, 'alice');
    clock += 10;
    const aliceNew = registry.create(workspace, 'alice');

    const aliceThird = registry.create(workspace, 'alice');

    expect(aliceOld.execution.closed).toBe(true);
    expect(bob.execution.closed).toBe(false);
    expect(registry.list()).toEqual([bob, aliceNew, aliceThird]);
  });

  it('one owner whose share runs commands does not lock another owner out', () => {
    registry = createRegistry(4, 2);
    const alice = [registry.create(workspace, 'alice'), registry.create(workspace, 'alice')];
    for (const session of alice) session.execution.start(sleepLaunch(), 'sleep 30');

    expect(() => registry.create(workspace, 'alice')).toThrow(SessionLimitReached);
    const bob = [
      registry.create(workspace, 'bob'),
      registry.create(workspace, 'bob'),
      registry.create(workspace, 'bob'),
    ];

    expect(bob.filter((session) => !session.execution.closed)).toHaveLength(2);
    expect(alice.every((session) => !session.execution.closed)).toBe(true);
  });

  it('at the server cap, takes the idle session of the owner holding the most', () => {
    registry = createRegistry(4, 3);
    const bob = registry.create(workspace, 'bob');
    clock += 10;
    const alice = [
      registry.create(workspace, 'alice'),
      registry.create(workspace, 'alice'),
      registry.create(workspace, 'alice'),
    ];

    registry.create(workspace, 'carol');

    expect(bob.execution.closed).toBe(false);
    expect(alice.map((session) => session.execution.closed)).toEqual([true, false, false]);
  });

  it('gives each owner half the cap, rounded up, when no share is configured', () => {
    registry = createRegistry(3, 'default');
    const first = registry.create(workspace, 'alice');
    registry.create(workspace, 'alice');

    registry.create(workspace, 'alice');

    expect(first.execution.closed).toBe(true);
    expect(registry.list()).toHaveLength(2);
  });

  it('remembers a bounded number of ended sessions; older ones are unknown again', () => {
    registry = createRegistry(1, 1, 2);
    const ids = [1, 2, 3, 4].map(() => registry.create(workspace).id);

    expect(() => registry.get(ids[0] ?? '')).toThrow(SessionNotFound);
    expect(() => registry.get(ids[1] ?? '')).toThrow(SessionEvicted);
    expect(() => registry.get(ids[2] ?? '')).toThrow(SessionEvicted);
  });

  it('ends a finished one-shot session: its id then says it ended', async () => {
    const session = registry.create(workspace);

    await registry.end(session.id, 'one_shot_finished');

    expect(session.execution.closed).toBe(true);
    expect(() => registry.get(session.id)).toThrow(SessionExpired);
    expect(() => registry.get(session.id)).toThrow('one-shot session ended');
  });

  it('forgets a session closed on request (its id is unknown, not expired)', async () => {
    const session = registry.create(workspace);

    await registry.close(session.id);

    expect(() => registry.get(session.id)).toThrow(SessionNotFound);
  });

  it('expires a session idle for longer than the timeout and closes it', () => {
    const session = registry.create(workspace);
    clock += IDLE_TIMEOUT_MS + 1;

    expect(() => registry.get(session.id)).toThrow(SessionExpired);
    expect(() => registry.get(session.id)).toThrow('session expired');
    expect(session.execution.closed).toBe(true);
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
    const command = session.execution.start(sleepLaunch(), 'sleep 30');
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
    const pid = session.execution.start(sleepLaunch(), 'sleep 30').pid ?? 0;

    await registry.close(session.id);

    expect(session.execution.closed).toBe(true);
    expect(isAlive(pid)).toBe(false);
    expect(registry.find(session.id)).toBeUndefined();
  });

  it('closes every session and their processes on closeAll', async () => {
    const sessions = [registry.create(workspace), registry.create(workspace)];
    const pids = sessions.map((session) => session.execution.start(sleepLaunch(), 'sleep 30').pid ?? 0);

    await registry.closeAll();

    expect(sessions.every((session) => session.execution.closed)).toBe(true);
    expect(pids.some(isAlive)).toBe(false);
    expect(registry.list()).toEqual([]);
  });

  it('sweeps idle sessions on a timer until stopped', async () => {
    // Only the interval timer is faked, so the test drives the sweeper's ticks itself (no guess at how long a tick
    // takes under load); sessions still close on real timers and I/O.
    jest.useFakeTimers({
      doNotFake: [
        'setTimeout',
        'clearTimeout',
        'setImmediate',
        'clearImmediate',
        'nextTick',
        'queueMicrotask',
        'Date',
        'performance',
        'hrtime',
      ],
    });
    try {
      const first = registry.create(workspace);
      const stop = registry.startSweeper(10);
      clock += IDLE_TIMEOUT_MS + 1;
      jest.advanceTimersByTime(10);
      await waitFor(() => first.execution.closed, 'the sweeper to close the idle session');

      stop();
      expect(jest.getTimerCount()).toBe(0);
      const second = registry.create(workspace);
      clock += IDLE_TIMEOUT_MS + 1;
      jest.advanceTimersByTime(10_000);
      // Nothing looked the session up and no tick ran: it is still open.
      expect(second.execution.closed).toBe(false);
      // It was due: listing leaves it out, and the lookup that meets it ends it (so "still open" above is the
      // stopped timer's doing).
      expect(registry.list()).toEqual([]);
      expect(() => registry.get(second.id)).toThrow(SessionExpired);
      await waitFor(() => second.execution.closed, 'the lookup to close the second idle session');
    } finally {
      jest.useRealTimers();
    }
  });

  describe('createWhenRoom (issue 22: a call that ends its session with its command waits instead of failing)', () => {
    it('takes room at once when there is some, without waiting', async () => {
      const { terminal: session, waited } = await registry.createWhenRoom(workspace, undefined);

      expect(waited).toBe(false);
      expect(registry.list()).toEqual([session]);
    });

    it('waits while every session runs a command, and gets the first session removed', async () => {
      const busy = [registry.create(workspace), registry.create(workspace)];
      for (const session of busy) session.execution.start(sleepLaunch(), 'sleep 30');

      const waiting = registry.createWhenRoom(workspace, undefined, { pinned: true });
      await waitFor(() => registry.waiting === 1, 'the call to wait');
      expect(registry.list()).toEqual(busy);

      await registry.close(busy[0]?.id ?? '');
      const { terminal: session, waited } = await waiting;

      expect(waited).toBe(true);
      expect(registry.waiting).toBe(0);
      expect(registry.list()).toEqual([busy[1], session]);
    });

    it('serves waiting calls in arrival order when commands finish in kept sessions', async () => {
      registry = createRegistry(1, 1);
      const busy = registry.create(workspace);
      const command = busy.execution.start({ ...sleepLaunch(), launch: { kind: 'argv', argv: ['/bin/true'] } }, 'true');

      // Pinned, as a one-shot call's session is: an unpinned idle session would make room for the next call at once.
      const first = registry.createWhenRoom(workspace, undefined, { pinned: true });
      const second = registry.createWhenRoom(workspace, undefined, { pinned: true });
      await command.finished();
      const { terminal: firstSession } = await first;
      expect(busy.execution.closed).toBe(true);
      expect(registry.list()).toEqual([firstSession]);
      expect(registry.waiting).toBe(1);

      await registry.close(firstSession.id);
      const { terminal: secondSession } = await second;
      expect(registry.list()).toEqual([secondSession]);
    });

    it('refuses at once past the bound of waiting calls, with scope "queue", and leaves the queue on abort', async () => {
      registry = new TerminalSessionStore({
        factory: new ChildProcessSessionFactory({
          killGraceMs: 200,
          now: () => clock,
          confinement: sandboxFor(workspace),
        }),
        maxSessions: 1,
        maxWaiting: 2,
        idleTimeoutMs: IDLE_TIMEOUT_MS,
        now: () => clock,
        newId: () => `session-${clock++}`,
      });
      registry.create(workspace).execution.start(sleepLaunch(), 'sleep 30');
      const abort = new AbortController();
      const waiting = registry.createWhenRoom(workspace, 'alice', { signal: abort.signal });

      await expect(registry.createWhenRoom(workspace, 'alice')).rejects.toMatchObject({
        code: 'session_limit_reached',
        details: { maxSessions: 1, scope: 'queue', maxWaiting: 1 },
      });
      abort.abort(new Error('call cancelled'));
      await expect(waiting).rejects.toThrow('call cancelled');
      expect(registry.waiting).toBe(0);
    });
  });

  describe('one-shot retention', () => {
    function storeWithRetention(retentionMs: number, maxRetained: number): TerminalSessionStore {
      let counter = 0;
      return new TerminalSessionStore({
        factory: new ChildProcessSessionFactory({
          killGraceMs: 200,
          now: () => clock,
          confinement: sandboxFor(workspace),
        }),
        maxSessions: 4,
        idleTimeoutMs: IDLE_TIMEOUT_MS,
        now: () => clock,
        newId: () => `one-shot-${(counter += 1)}`,
        retentionMs,
        maxRetained,
      });
    }

    it('keeps an ended one-shot session readable (not live) until its retention runs out', async () => {
      await registry.closeAll();
      registry = storeWithRetention(5000, 4);
      const terminal = registry.create(workspace);
      const command = terminal.execution.start(
        { ...sleepLaunch(), launch: { kind: 'argv', argv: ['/bin/echo', 'kept'] } },
        'echo kept',
      );
      await command.finished();

      registry.endOneShot(terminal);

      expect(() => registry.get(terminal.id)).toThrow('one-shot session ended');
      expect(registry.readable(terminal.id)).toBe(terminal);
      expect(registry.readable(terminal.id).execution.command(command.id)?.read('stdout', 0, 100).text).toBe('kept\n');
      clock += 5001;
      expect(() => registry.readable(terminal.id)).toThrow(SessionExpired);
    });

    it('keeps at most maxRetained ended one-shot sessions, the newest', async () => {
      await registry.closeAll();
      registry = storeWithRetention(60_000, 1);
      const first = registry.create(workspace);
      const second = registry.create(workspace);

      registry.endOneShot(first);
      registry.endOneShot(second);

      expect(registry.readable(second.id)).toBe(second);
      expect(() => registry.readable(first.id)).toThrow(SessionExpired);
    });
  });

  it('does not sweep on lookup: finding one expired session ends it and leaves the others to the sweeper', async () => {
    const first = registry.create(workspace);
    const second = registry.create(workspace);
    clock += IDLE_TIMEOUT_MS + 1;

    expect(registry.find(first.id)).toBeUndefined();
    await waitFor(() => first.execution.closed, 'the lookup to close the expired session it met');
    expect(second.execution.closed).toBe(false);
    expect(registry.list()).toEqual([]);

    expect(await registry.sweepIdle()).toBe(1);
    expect(second.execution.closed).toBe(true);
  });

  describe('events (the TerminalEvents port)', () => {
    /** Counts the store's subscriptions to this execution session's own listener set. */
    function countSubscriptions(terminal: ReturnType<TerminalSessionStore['create']>): { readonly count: number } {
      const counter = { count: 0 };
      const subscribe = terminal.execution.subscribe.bind(terminal.execution);
      terminal.execution.subscribe = (listener) => {
        counter.count += 1;
        const unsubscribe = subscribe(listener);
        return () => {
          counter.count -= 1;
          unsubscribe();
        };
      };
      return counter;
    }

    it('answers undefined for a session that is not live', () => {
      expect(registry.events.subscribe('never-minted', () => undefined)).toBeUndefined();
    });

    it("carries the command's events to every subscriber of its session, in order, then session_closed", async () => {
      const terminal = registry.create(workspace);
      const seen: ExecutionEvent[][] = [[], []];
      for (const events of seen) registry.events.subscribe(terminal.id, (event) => events.push(event));
      const command = terminal.execution.start(
        { ...sleepLaunch(), launch: { kind: 'argv', argv: ['/bin/echo', 'hello'] } },
        'echo hello',
      );
      await command.finished();
      await registry.close(terminal.id);

      for (const events of seen) {
        expect(events.map((event) => event.type)).toEqual([
          'command_started',
          'output',
          'command_finished',
          'session_closed',
        ]);
        expect(events[1]).toMatchObject({
          sessionId: terminal.id,
          commandId: command.id,
          stream: 'stdout',
          text: 'hello\n',
        });
      }
    });

    it('listens to the execution session only while someone subscribes, whatever the number of subscribers', () => {
      const terminal = registry.create(workspace);
      const subscriptions = countSubscriptions(terminal);

      const stopFirst = registry.events.subscribe(terminal.id, () => undefined);
      const stopSecond = registry.events.subscribe(terminal.id, () => undefined);
      expect(subscriptions.count).toBe(1);
      stopFirst?.();
      expect(subscriptions.count).toBe(1);
      stopSecond?.();
      expect(subscriptions.count).toBe(0);
    });

    it('hands a published event to the subscribers of its session only, past a subscriber that throws', () => {
      const terminal = registry.create(workspace);
      const other = registry.create(workspace);
      const mine: string[] = [];
      const theirs: string[] = [];
      registry.events.subscribe(terminal.id, () => {
        throw new Error('broken subscriber');
      });
      registry.events.subscribe(terminal.id, (event) => mine.push(event.type));
      registry.events.subscribe(other.id, (event) => theirs.push(event.type));

      registry.events.publish({
        type: 'plan',
        sessionId: terminal.id,
        planId: 'plan-1',
        at: new Date(clock).toISOString(),
      });

      expect(mine).toEqual(['plan']);
      expect(theirs).toEqual([]);
    });
  });
});
