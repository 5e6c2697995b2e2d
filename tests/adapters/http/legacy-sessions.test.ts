import { LegacySessionStore, mintLegacySessionId } from '../../../src/adapters/http/legacy-sessions';

describe('LegacySessionStore', () => {
  let now: number;
  const clock = (): number => now;

  beforeEach(() => {
    now = 1_000_000;
  });

  /** `evictableAfterMs` 0: any idle session may make room (the eviction order is what most tests here look at). */
  function store(
    maxSessions = 10,
    idleTimeoutMs = 60_000,
    maxSessionsPerPrincipal: number | undefined = maxSessions,
    evictableAfterMs = 0,
  ): LegacySessionStore {
    return new LegacySessionStore({
      maxSessions,
      maxSessionsPerPrincipal,
      idleTimeoutMs,
      evictableAfterMs,
      now: clock,
    });
  }

  /** Opens a session and ends its initialize hold, as the route does once initialize is answered. */
  function openIdle(sessions: LegacySessionStore, principal: string): string {
    const session = sessions.open(principal);
    if (!session) throw new Error('open refused');
    sessions.release(session);
    return session.id;
  }

  it('mints 256-bit ids of visible ASCII only', () => {
    const ids = new Set(Array.from({ length: 50 }, () => mintLegacySessionId()));

    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('finds a session by id for the principal that opened it', () => {
    const sessions = store();
    const session = sessions.open('alice');

    expect(session).toBeDefined();
    expect(sessions.find(session?.id ?? '', 'alice')).toBe(session);
  });

  it('hides a session from any other principal', () => {
    const sessions = store();
    const session = sessions.open('alice');

    expect(sessions.find(session?.id ?? '', 'mallory')).toBeUndefined();
    expect(sessions.find(session?.id ?? '', 'alice')).toBe(session);
  });

  it('forgets a closed session and cancels its requests in flight', () => {
    const sessions = store();
    const session = sessions.open('alice');
    const request = session?.inFlight.begin(1);

    sessions.close(session?.id ?? '');

    expect(sessions.find(session?.id ?? '', 'alice')).toBeUndefined();
    expect(request?.signal.aborted).toBe(true);
  });

  it('expires a session idle for longer than the timeout', () => {
    const sessions = store(10, 60_000);
    const session = sessions.open('alice');
    if (session) sessions.release(session);

    now += 60_001;

    expect(sessions.find(session?.id ?? '', 'alice')).toBeUndefined();
    expect(sessions.size).toBe(0);
  });

  it('keeps a session alive while it is used', () => {
    const sessions = store(10, 60_000);
    const session = sessions.open('alice');
    if (session) sessions.release(session);

    now += 50_000;
    sessions.find(session?.id ?? '', 'alice');
    now += 50_000;

    expect(sessions.find(session?.id ?? '', 'alice')).toBe(session);
  });

  it('does not expire a session with a request still in flight', () => {
    const sessions = store(10, 60_000);
    const session = sessions.open('alice');
    if (session) sessions.release(session);
    session?.inFlight.begin('long-running');

    now += 120_000;

    expect(sessions.find(session?.id ?? '', 'alice')).toBe(session);
  });

  it('counts only live sessions against the cap', () => {
    const sessions = store(2, 60_000);
    openIdle(sessions, 'alice');
    openIdle(sessions, 'bob');

    now += 60_001;
    expect(sessions.open('carol')).toBeDefined();
    expect(sessions.size).toBe(1);
  });

  it('ends the least recently used idle session to make room at the cap', () => {
    const sessions = store(2, 60_000);
    const first = openIdle(sessions, 'alice');
    now += 10;
    const second = openIdle(sessions, 'alice');
    now += 10;
    sessions.find(first, 'alice');

    const third = openIdle(sessions, 'alice');

    expect(sessions.find(second, 'alice')).toBeUndefined();
    expect(sessions.wasEvicted(second, 'alice')).toBe(true);
    expect(sessions.wasEvicted(second, 'mallory')).toBe(false);
    expect(sessions.wasEvicted(first, 'alice')).toBe(false);
    expect(sessions.find(first, 'alice')).toBeDefined();
    expect(sessions.find(third, 'alice')).toBeDefined();
  });

  it('never ends a session serving a request, and refuses only when every session is', () => {
    const sessions = store(2, 60_000);
    const serving = openIdle(sessions, 'alice');
    const held = sessions.acquire(serving, 'alice');
    const initializing = sessions.open('alice');

    expect(sessions.open('alice')).toBeUndefined();
    if (initializing) sessions.release(initializing);
    const next = sessions.open('alice');

    expect(next).toBeDefined();
    expect(sessions.find(serving, 'alice')).toBe(held);
    expect(sessions.find(initializing?.id ?? '', 'alice')).toBeUndefined();
  });

  it('never ends a session with a JSON-RPC request in flight', () => {
    const sessions = store(1, 60_000);
    const busy = openIdle(sessions, 'alice');
    sessions.find(busy, 'alice')?.inFlight.begin('long');

    expect(sessions.open('alice')).toBeUndefined();
  });

  it("keeps a principal within its share, taking its own idle sessions, never another principal's", () => {
    const sessions = store(4, 60_000, 2);
    const bob = openIdle(sessions, 'bob');
    const aliceOld = openIdle(sessions, 'alice');
    now += 10;
    const aliceNew = openIdle(sessions, 'alice');

    openIdle(sessions, 'alice');

    expect(sessions.find(bob, 'bob')).toBeDefined();
    expect(sessions.find(aliceOld, 'alice')).toBeUndefined();
    expect(sessions.find(aliceNew, 'alice')).toBeDefined();
  });

  it('one principal whose share is busy does not lock another out', () => {
    const sessions = store(4, 60_000, 2);
    expect(sessions.open('alice')).toBeDefined();
    expect(sessions.open('alice')).toBeDefined();

    expect(sessions.open('alice')).toBeUndefined();
    expect(sessions.open('bob')).toBeDefined();
    expect(sessions.open('bob')).toBeDefined();
  });

  it('gives each principal half the cap, rounded up, by default', () => {
    const sessions = new LegacySessionStore({ maxSessions: 3, idleTimeoutMs: 60_000, evictableAfterMs: 0, now: clock });
    const first = openIdle(sessions, 'alice');
    openIdle(sessions, 'alice');

    openIdle(sessions, 'alice');

    expect(sessions.find(first, 'alice')).toBeUndefined();
    expect(sessions.size).toBe(2);
  });

  it('at the cap, ends only a session idle past evictableAfterMs; a recently used one is kept and the new one refused', () => {
    const sessions = store(2, 3_600_000, 2, 900_000);
    const stale = openIdle(sessions, 'alice');
    now += 600_000;
    const recent = openIdle(sessions, 'alice');
    now += 400_000;

    // `stale` has been idle 1000 s (> 900 s): it makes room. `recent`, idle 400 s, does not.
    const third = openIdle(sessions, 'alice');
    expect(sessions.wasEvicted(stale, 'alice')).toBe(true);
    expect(sessions.open('alice')).toBeUndefined();
    expect(sessions.find(recent, 'alice')).toBeDefined();
    expect(sessions.find(third, 'alice')).toBeDefined();
  });

  it('defaults to 900 s before an idle session may be ended to make room', () => {
    const sessions = new LegacySessionStore({
      maxSessions: 1,
      maxSessionsPerPrincipal: 1,
      idleTimeoutMs: 3_600_000,
      now: clock,
    });
    const host = openIdle(sessions, 'alice');
    now += 899_000;
    expect(sessions.open('alice')).toBeUndefined();
    now += 2_000;
    expect(sessions.open('alice')).toBeDefined();
    expect(sessions.wasEvicted(host, 'alice')).toBe(true);
  });

  it('closes every session at once', () => {
    const sessions = store();
    sessions.open('alice');
    sessions.open('bob');

    sessions.closeAll();

    expect(sessions.size).toBe(0);
  });
});
