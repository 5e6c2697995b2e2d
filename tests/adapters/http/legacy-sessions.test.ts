import { LegacySessionStore, mintLegacySessionId } from '../../../src/adapters/http/legacy-sessions';

describe('LegacySessionStore', () => {
  let now: number;
  const clock = (): number => now;

  beforeEach(() => {
    now = 1_000_000;
  });

  function store(maxSessions = 10, idleTimeoutMs = 60_000): LegacySessionStore {
    return new LegacySessionStore({ maxSessions, idleTimeoutMs, now: clock });
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

    now += 60_001;

    expect(sessions.find(session?.id ?? '', 'alice')).toBeUndefined();
    expect(sessions.size).toBe(0);
  });

  it('keeps a session alive while it is used', () => {
    const sessions = store(10, 60_000);
    const session = sessions.open('alice');

    now += 50_000;
    sessions.find(session?.id ?? '', 'alice');
    now += 50_000;

    expect(sessions.find(session?.id ?? '', 'alice')).toBe(session);
  });

  it('does not expire a session with a request still in flight', () => {
    const sessions = store(10, 60_000);
    const session = sessions.open('alice');
    session?.inFlight.begin('long-running');

    now += 120_000;

    expect(sessions.find(session?.id ?? '', 'alice')).toBe(session);
  });

  it('refuses a session over the cap, counting only live ones', () => {
    const sessions = store(2, 60_000);
    sessions.open('alice');
    sessions.open('bob');

    expect(sessions.open('carol')).toBeUndefined();
    now += 60_001;
    expect(sessions.open('carol')).toBeDefined();
    expect(sessions.size).toBe(1);
  });

  it('closes every session at once', () => {
    const sessions = store();
    sessions.open('alice');
    sessions.open('bob');

    sessions.closeAll();

    expect(sessions.size).toBe(0);
  });
});
