import {
  SessionEvicted,
  SessionExpired,
  SessionLimitReached,
  SessionNotFound,
  type SessionEndReason,
} from '../../domain/execution/execution-errors.js';
import type { ExecutionSession, ExecutionSessionFactory } from '../../domain/execution/execution-session.js';
import { principalShare } from './principal-share.js';
import { isLiveStatus } from '../../domain/execution/execution-types.js';

export interface SessionRegistryOptions {
  readonly factory: ExecutionSessionFactory;
  /** MAX_CONCURRENT_SESSIONS: live sessions of the whole server. */
  readonly maxSessions: number;
  /** Live sessions of one owner (principal), at most `maxSessions`; default: half of `maxSessions`, rounded up. */
  readonly maxSessionsPerOwner?: number;
  /** A session unused for longer than this (and running nothing) expires. */
  readonly idleTimeoutMs: number;
  /** Mints session ids; the composition root passes `crypto.randomUUID` (ids are capabilities: unguessable). */
  readonly newId: () => string;
  /** Milliseconds since the epoch; must be the clock the sessions use for `lastActivityMs`. */
  readonly now?: () => number;
  /** How many ended sessions are remembered, so their ids say why they ended instead of "unknown". */
  readonly maxRemembered?: number;
}

/** A live session as listed: who owns it, and its creation rank (stable order for paging). */
export interface RegisteredSession {
  readonly session: ExecutionSession;
  /** The principal that created it; undefined when there is none (STDIO). */
  readonly owner: string | undefined;
  readonly ordinal: number;
}

interface Entry extends RegisteredSession {
  /** Held by a call that has created it and not yet started its command: not idle, whatever it runs. */
  pinned: boolean;
}

const DEFAULT_MAX_REMEMBERED = 1000;

/**
 * The live execution sessions. A session that runs nothing is idle; an idle one expires after `idleTimeoutMs`, and
 * when a new session would pass a cap the least recently used idle one makes room (evicted), so a client that never
 * closes its sessions never meets the cap. A session with a running or paused command is never expired or evicted.
 * Caps are per owner (principal) and per server, and at the server cap the owner holding the most sessions gives one
 * up first, so one principal cannot lock the others out. Expiry is lazy (every create and lookup sweeps first) and
 * may also run on a timer (`startSweeper`). A removed session is closed, which kills its processes; `closeAll` also
 * waits for closes started earlier, so nothing survives a shutdown.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, Entry>();
  /** Ended sessions' ids and why they ended, oldest first (bounded). */
  private readonly ended = new Map<string, SessionEndReason>();
  private readonly closing = new Set<Promise<void>>();
  private readonly now: () => number;
  private readonly maxPerOwner: number;
  private nextOrdinal = 1;

  constructor(private readonly options: SessionRegistryOptions) {
    this.now = options.now ?? Date.now;
    this.maxPerOwner = principalShare(options.maxSessions, options.maxSessionsPerOwner);
  }

  /**
   * A new session for `owner`, after making room by evicting an idle session when a cap is reached. A `pinned`
   * session is never evicted until `unpin`: the caller is about to start a command in it.
   */
  create(cwd: string, owner?: string, options: { pinned?: boolean } = {}): ExecutionSession {
    this.removeIdle();
    this.makeRoomFor(owner);
    const session = this.options.factory.create({ id: this.options.newId(), cwd });
    this.sessions.set(session.id, { session, owner, ordinal: this.nextOrdinal++, pinned: options.pinned ?? false });
    return session;
  }

  /** Lets a pinned session be idle again (its command started, or the call that pinned it failed). */
  unpin(id: string): void {
    const entry = this.sessions.get(id);
    if (entry) entry.pinned = false;
  }

  /** The live session with this id, marked as used now; an ended one says why it ended. */
  get(id: string): ExecutionSession {
    const session = this.find(id);
    if (!session) throw this.missing(id);
    session.touch();
    return session;
  }

  /** The live session with this id, if any, without marking it as used. */
  find(id: string): ExecutionSession | undefined {
    this.removeIdle();
    return this.sessions.get(id)?.session;
  }

  /** Why the session with this id ended, when the registry still remembers it. */
  endReason(id: string): SessionEndReason | undefined {
    this.removeIdle();
    return this.ended.get(id);
  }

  list(): readonly ExecutionSession[] {
    return this.entries().map((entry) => entry.session);
  }

  /** Live sessions with their owner, in creation order. */
  entries(): readonly RegisteredSession[] {
    this.removeIdle();
    return [...this.sessions.values()].map(({ session, owner, ordinal }) => ({ session, owner, ordinal }));
  }

  /** Closes a session on request; its id is unknown from then on. */
  async close(id: string): Promise<void> {
    const entry = this.sessions.get(id);
    if (!entry) throw this.missing(id);
    await this.remove(entry.session);
  }

  /** Ends a session that finished its job (a one-shot session); its id then answers `session_expired`. */
  async end(id: string, reason: Exclude<SessionEndReason, 'evicted'>): Promise<void> {
    const entry = this.sessions.get(id);
    if (!entry) return;
    await this.remove(entry.session, reason);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((entry) => this.remove(entry.session)));
    await Promise.all(this.closing);
  }

  /** Closes every idle session; resolves with how many were closed once their processes are gone. */
  async sweepIdle(): Promise<number> {
    const idle = this.expiredSessions();
    await Promise.all(idle.map((session) => this.remove(session, 'idle_timeout')));
    return idle.length;
  }

  /** Sweeps every `intervalMs` without keeping the process alive; returns the function that stops it. */
  startSweeper(intervalMs: number): () => void {
    const timer = setInterval(() => this.removeIdle(), intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * Under the owner's cap, then under the server's, by evicting one idle session each time: the owner's own least
   * recently used one, or at the server cap the least recently used one of the owner holding the most sessions.
   */
  private makeRoomFor(owner: string | undefined): void {
    const own = [...this.sessions.values()].filter((entry) => entry.owner === owner);
    if (own.length >= this.maxPerOwner) {
      const victim = leastRecentlyUsedIdle(own);
      if (!victim) throw new SessionLimitReached(this.maxPerOwner, 'principal');
      this.evict(victim);
    }
    if (this.sessions.size >= this.options.maxSessions) {
      const victim = this.fairVictim();
      if (!victim) throw new SessionLimitReached(this.options.maxSessions, 'server');
      this.evict(victim);
    }
  }

  /** The least recently used idle session among the owners holding the most sessions that have an idle one. */
  private fairVictim(): ExecutionSession | undefined {
    const byOwner = new Map<string | undefined, Entry[]>();
    for (const entry of this.sessions.values()) byOwner.set(entry.owner, [...(byOwner.get(entry.owner) ?? []), entry]);
    const owners = [...byOwner.values()].sort((a, b) => b.length - a.length);
    for (const held of owners) {
      const victim = leastRecentlyUsedIdle(held);
      if (victim) return victim;
    }
    return undefined;
  }

  private evict(session: ExecutionSession): void {
    // Nobody awaits an eviction; a failed close still surfaces in `closeAll`.
    this.remove(session, 'evicted').catch(() => undefined);
  }

  private removeIdle(): void {
    for (const session of this.expiredSessions()) {
      // Nobody awaits a background expiry; a failed close still surfaces in `closeAll`.
      this.remove(session, 'idle_timeout').catch(() => undefined);
    }
  }

  private expiredSessions(): ExecutionSession[] {
    const cutoff = this.now() - this.options.idleTimeoutMs;
    return [...this.sessions.values()]
      .filter((entry) => !entry.pinned && entry.session.lastActivityMs() < cutoff && !hasLiveCommand(entry.session))
      .map((entry) => entry.session);
  }

  private missing(id: string): Error {
    const reason = this.ended.get(id);
    if (reason === 'evicted') return new SessionEvicted(id);
    if (reason !== undefined) return new SessionExpired(id, reason);
    return new SessionNotFound(id);
  }

  /**
   * Forgets the session at once (so it can no longer be found), remembers why it ended when it ended on its own,
   * and closes it, tracking the close for `closeAll`.
   */
  private remove(session: ExecutionSession, reason?: SessionEndReason): Promise<void> {
    this.sessions.delete(session.id);
    if (reason !== undefined) this.remember(session.id, reason);
    const closing = session.close();
    this.closing.add(closing);
    const forget = (): void => {
      this.closing.delete(closing);
    };
    void closing.then(forget, forget);
    return closing;
  }

  private remember(id: string, reason: SessionEndReason): void {
    this.ended.set(id, reason);
    const max = this.options.maxRemembered ?? DEFAULT_MAX_REMEMBERED;
    for (const oldest of this.ended.keys()) {
      if (this.ended.size <= max) break;
      this.ended.delete(oldest);
    }
  }
}

/** A running or paused command is activity, however long ago the session was last called. */
function hasLiveCommand(session: ExecutionSession): boolean {
  return session.commands().some((command) => isLiveStatus(command.outcome().status));
}

function leastRecentlyUsedIdle(entries: readonly Entry[]): ExecutionSession | undefined {
  let victim: ExecutionSession | undefined;
  for (const { session, pinned } of entries) {
    if (pinned || hasLiveCommand(session)) continue;
    if (!victim || session.lastActivityMs() < victim.lastActivityMs()) victim = session;
  }
  return victim;
}
