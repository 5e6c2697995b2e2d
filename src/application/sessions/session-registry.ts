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
  /**
   * Calls waiting for room (`createWhenRoom`) at once, server-wide; one owner may hold half of them (rounded up).
   * Default: `WAITING_PER_SESSION` per session of `maxSessions`.
   */
  readonly maxWaiting?: number;
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
/** Default bound of the waiting calls: 32 per session of the cap (320 for the default cap of 10). */
export const WAITING_PER_SESSION = 32;
/**
 * While calls wait, room is looked for again this often, besides at once whenever a session is removed or unpinned:
 * a command that finishes in a kept session makes that session evictable without telling the registry.
 */
const WAITING_RETRY_MS = 50;

/** A call waiting for room for a new session; served in arrival order, each owner within its own share. */
interface Waiter {
  readonly cwd: string;
  readonly owner: string | undefined;
  readonly pinned: boolean;
  readonly resolve: (session: ExecutionSession) => void;
  readonly reject: (error: unknown) => void;
}

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
  /** Closes under way, with their sessions (a shutdown hurries them). */
  private readonly closing = new Map<Promise<void>, ExecutionSession>();
  private readonly now: () => number;
  private readonly maxPerOwner: number;
  private readonly maxWaiting: number;
  private readonly maxWaitingPerOwner: number;
  private readonly waiters: Waiter[] = [];
  private waitingRetry: NodeJS.Timeout | undefined;
  private nextOrdinal = 1;

  constructor(private readonly options: SessionRegistryOptions) {
    this.now = options.now ?? Date.now;
    this.maxPerOwner = principalShare(options.maxSessions, options.maxSessionsPerOwner);
    this.maxWaiting = options.maxWaiting ?? options.maxSessions * WAITING_PER_SESSION;
    this.maxWaitingPerOwner = principalShare(this.maxWaiting, undefined);
  }

  /**
   * A new session for `owner`, after making room by evicting an idle session when a cap is reached. A `pinned`
   * session is never evicted until `unpin`: the caller is about to start a command in it.
   */
  create(cwd: string, owner?: string, options: { pinned?: boolean } = {}): ExecutionSession {
    this.removeIdle();
    const full = this.makeRoomFor(owner);
    if (full === 'principal') throw new SessionLimitReached(this.maxPerOwner, 'principal');
    if (full === 'server') throw new SessionLimitReached(this.options.maxSessions, 'server');
    return this.add(cwd, owner, options.pinned ?? false);
  }

  /**
   * Like `create`, but where `create` would fail because every session within a cap runs a command (or is pinned),
   * waits for room instead, in arrival order: for a call whose session ends with its command (a one-shot execute),
   * room comes back as soon as another such command finishes. The waiting calls are bounded (`maxWaiting`, half of
   * it per owner); past the bound the call fails at once with `session_limit_reached` (scope `queue`). An aborted
   * `signal` leaves the queue with the signal's reason. Resolves with the session and whether the call had to wait.
   */
  async createWhenRoom(
    cwd: string,
    owner: string | undefined,
    options: { pinned?: boolean; signal?: AbortSignal } = {},
  ): Promise<{ session: ExecutionSession; waited: boolean }> {
    const pinned = options.pinned ?? false;
    this.removeIdle();
    // Calls already waiting go first: a newcomer takes room at once only when nobody of its owner waits for it.
    if (!this.waiters.some((waiter) => waiter.owner === owner) && this.makeRoomFor(owner) === undefined) {
      return { session: this.add(cwd, owner, pinned), waited: false };
    }
    options.signal?.throwIfAborted();
    const waitingOfOwner = this.waiters.filter((waiter) => waiter.owner === owner).length;
    if (this.waiters.length >= this.maxWaiting || waitingOfOwner >= this.maxWaitingPerOwner) {
      throw new SessionLimitReached(this.maxPerOwner, 'queue', Math.min(this.maxWaiting, this.maxWaitingPerOwner));
    }
    const session = await new Promise<ExecutionSession>((resolve, reject) => {
      const leave = (): void => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(options.signal?.reason);
      };
      const waiter: Waiter = {
        cwd,
        owner,
        pinned,
        resolve: (created) => {
          options.signal?.removeEventListener('abort', leave);
          resolve(created);
        },
        reject: (error) => {
          options.signal?.removeEventListener('abort', leave);
          reject(error);
        },
      };
      options.signal?.addEventListener('abort', leave, { once: true });
      this.waiters.push(waiter);
      this.armWaitingRetry();
    });
    return { session, waited: true };
  }

  /** Lets a pinned session be idle again (its command started, or the call that pinned it failed). */
  unpin(id: string): void {
    const entry = this.sessions.get(id);
    if (!entry) return;
    entry.pinned = false;
    this.serveWaitersSoon();
  }

  /** Calls waiting in `createWhenRoom` now. */
  get waiting(): number {
    return this.waiters.length;
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
    // Nothing is created for a call still waiting: the server is closing.
    for (const waiter of this.waiters.splice(0)) waiter.reject(new SessionLimitReached(this.options.maxSessions, 'server'));
    // The server is going: closes look their process groups up at once instead of waiting for them to empty.
    for (const session of this.closing.values()) void session.close({ promptly: true });
    await Promise.all([...this.sessions.values()].map((entry) => this.remove(entry.session, undefined, { promptly: true })));
    await Promise.all(this.closing.keys());
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
  private makeRoomFor(owner: string | undefined): 'principal' | 'server' | undefined {
    const own = [...this.sessions.values()].filter((entry) => entry.owner === owner);
    if (own.length >= this.maxPerOwner) {
      const victim = leastRecentlyUsedIdle(own);
      if (!victim) return 'principal';
      this.evict(victim);
    }
    if (this.sessions.size >= this.options.maxSessions) {
      const victim = this.fairVictim();
      if (!victim) return 'server';
      this.evict(victim);
    }
    return undefined;
  }

  private add(cwd: string, owner: string | undefined, pinned: boolean): ExecutionSession {
    const session = this.options.factory.create({ id: this.options.newId(), cwd });
    this.sessions.set(session.id, { session, owner, ordinal: this.nextOrdinal++, pinned });
    return session;
  }

  /** After the current turn (a removal may be part of a larger change), gives room to waiting calls. */
  private serveWaitersSoon(): void {
    if (this.waiters.length > 0) queueMicrotask(() => this.serveWaiters());
  }

  /** Each waiting call, oldest first, that fits now gets its session; the others keep their place. */
  private serveWaiters(): void {
    this.removeIdle();
    for (const waiter of [...this.waiters]) {
      if (!this.waiters.includes(waiter)) continue;
      if (this.makeRoomFor(waiter.owner) !== undefined) continue;
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      try {
        waiter.resolve(this.add(waiter.cwd, waiter.owner, waiter.pinned));
      } catch (error) {
        waiter.reject(error);
      }
    }
    if (this.waiters.length === 0) this.disarmWaitingRetry();
  }

  private armWaitingRetry(): void {
    if (this.waitingRetry) return;
    this.waitingRetry = setInterval(() => this.serveWaiters(), WAITING_RETRY_MS);
    this.waitingRetry.unref();
  }

  private disarmWaitingRetry(): void {
    clearInterval(this.waitingRetry);
    this.waitingRetry = undefined;
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
  private remove(session: ExecutionSession, reason?: SessionEndReason, options: { promptly?: boolean } = {}): Promise<void> {
    this.sessions.delete(session.id);
    this.serveWaitersSoon();
    if (reason !== undefined) this.remember(session.id, reason);
    const closing = session.close(options);
    this.closing.set(closing, session);
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
