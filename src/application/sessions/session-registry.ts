import { SessionLimitReached, SessionNotFound } from '../../domain/execution/execution-errors.js';
import type { ExecutionSession, ExecutionSessionFactory } from '../../domain/execution/execution-session.js';

export interface SessionRegistryOptions {
  readonly factory: ExecutionSessionFactory;
  readonly maxSessions: number;
  /** A session unused for longer than this (and running nothing) expires. */
  readonly idleTimeoutMs: number;
  /** Mints session ids; the composition root passes `crypto.randomUUID` (ids are capabilities: unguessable). */
  readonly newId: () => string;
  /** Milliseconds since the epoch; must be the clock the sessions use for `lastActivityMs`. */
  readonly now?: () => number;
}

/**
 * The live execution sessions, bounded in number and expired when idle. Expiry is lazy (every create and lookup
 * sweeps first) and may also run on a timer (`startSweeper`). A removed session is closed, which kills its processes;
 * `closeAll` also waits for closes started by earlier sweeps, so nothing survives a shutdown.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, ExecutionSession>();
  private readonly closing = new Set<Promise<void>>();
  private readonly now: () => number;

  constructor(private readonly options: SessionRegistryOptions) {
    this.now = options.now ?? Date.now;
  }

  create(cwd: string): ExecutionSession {
    this.removeIdle();
    if (this.sessions.size >= this.options.maxSessions) throw new SessionLimitReached(this.options.maxSessions);
    const session = this.options.factory.create({ id: this.options.newId(), cwd });
    this.sessions.set(session.id, session);
    return session;
  }

  /** The live session with this id, marked as used now. */
  get(id: string): ExecutionSession {
    const session = this.find(id);
    if (!session) throw new SessionNotFound(id);
    session.touch();
    return session;
  }

  /** The live session with this id, if any, without marking it as used. */
  find(id: string): ExecutionSession | undefined {
    this.removeIdle();
    return this.sessions.get(id);
  }

  list(): readonly ExecutionSession[] {
    this.removeIdle();
    return [...this.sessions.values()];
  }

  async close(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) throw new SessionNotFound(id);
    await this.remove(session);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => this.remove(session)));
    await Promise.all(this.closing);
  }

  /** Closes every idle session; resolves with how many were closed once their processes are gone. */
  async sweepIdle(): Promise<number> {
    const idle = this.idleSessions();
    await Promise.all(idle.map((session) => this.remove(session)));
    return idle.length;
  }

  /** Sweeps every `intervalMs` without keeping the process alive; returns the function that stops it. */
  startSweeper(intervalMs: number): () => void {
    const timer = setInterval(() => this.removeIdle(), intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private removeIdle(): void {
    for (const session of this.idleSessions()) {
      // Nobody awaits a background expiry; a failed close still surfaces in `closeAll`.
      this.remove(session).catch(() => undefined);
    }
  }

  private idleSessions(): ExecutionSession[] {
    const cutoff = this.now() - this.options.idleTimeoutMs;
    return [...this.sessions.values()].filter(
      (session) => session.lastActivityMs() < cutoff && !hasLiveCommand(session),
    );
  }

  /** Forgets the session at once (so it can no longer be found) and closes it, tracking the close for `closeAll`. */
  private remove(session: ExecutionSession): Promise<void> {
    this.sessions.delete(session.id);
    const closing = session.close();
    this.closing.add(closing);
    const forget = (): void => {
      this.closing.delete(closing);
    };
    void closing.then(forget, forget);
    return closing;
  }
}

/** A running or paused command is activity, however long ago the session was last called. */
function hasLiveCommand(session: ExecutionSession): boolean {
  return session.commands().some((command) => {
    const { status } = command.outcome();
    return status === 'running' || status === 'paused';
  });
}
