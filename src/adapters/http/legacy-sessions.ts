import { randomBytes } from 'node:crypto';
import { InFlightRequests, LegacyHandshake } from '../../application/mcp/connection-state.js';
import { principalShare } from '../../application/sessions/principal-share.js';

/** One 2025-11-25 transport session: the handshake it negotiated, who opened it, and its requests in flight. */
export interface LegacySession {
  readonly id: string;
  readonly principal: string;
  readonly handshake: LegacyHandshake;
  /** So `notifications/cancelled`, DELETE and expiry can abort the session's requests. */
  readonly inFlight: InFlightRequests;
  lastSeen: number;
  /** HTTP requests of this session being served right now (any message, notifications included). */
  busy: number;
}

export interface LegacySessionStoreOptions {
  /** TERM_MCP_MAX_LEGACY_SESSIONS. */
  maxSessions: number;
  /** TERM_MCP_MAX_LEGACY_SESSIONS_PER_PRINCIPAL; default: half of `maxSessions`, rounded up. */
  maxSessionsPerPrincipal?: number;
  /** SESSION_TIMEOUT in ms: a session with nothing in flight for this long is gone. */
  idleTimeoutMs: number;
  /**
   * TERM_MCP_LEGACY_SESSION_EVICTABLE_AFTER in ms: at the cap, only a session idle for longer than this may be ended
   * to make room. None of the official clients initializes again after a 404, so a session used recently is kept
   * and the new initialize is refused (503) instead.
   */
  evictableAfterMs?: number;
  now?: () => number;
}

/** The documented default of TERM_MCP_LEGACY_SESSION_EVICTABLE_AFTER (docs/configuration.md). */
export const DEFAULT_EVICTABLE_AFTER_SECONDS = 900;

/** 2025-11-25 transports: a session id is cryptographically random and only visible ASCII (base64url is). */
export function mintLegacySessionId(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The `Mcp-Session-Id` store of legacy HTTP clients. Sessions are bound to the principal that opened them:
 * to anyone else an id does not exist (404, not 403, so an id's existence never leaks). Idle sessions expire
 * (swept lazily, no timers). The store is capped per principal and in total, with caps far above normal use (a
 * session costs a few hundred bytes). Many clients (the Inspector CLI, LangChain, mcp-remote) never send DELETE, so
 * at the cap the least recently used session idle for longer than `evictableAfterMs` is ended to make room
 * (2025-11-25 transports: the server may end a session at any time). A session serving a request, or used within
 * `evictableAfterMs`, is never ended: the official clients do not initialize again after a 404 (issue 23), so a
 * long-lived host keeps its session while others come and go; the new initialize is refused (503) instead.
 */
/** How many ids of sessions ended to make room are remembered, so their 404 can say why. */
const MAX_REMEMBERED_EVICTIONS = 1000;

export class LegacySessionStore {
  private readonly sessions = new Map<string, LegacySession>();
  /** Ids of sessions ended to make room, with their principal (told only to it), oldest first. */
  private readonly evicted = new Map<string, string>();
  private readonly now: () => number;
  private readonly maxPerPrincipal: number;
  private readonly evictableAfterMs: number;

  constructor(private readonly options: LegacySessionStoreOptions) {
    this.now = options.now ?? Date.now;
    this.evictableAfterMs = options.evictableAfterMs ?? DEFAULT_EVICTABLE_AFTER_SECONDS * 1000;
    this.maxPerPrincipal = principalShare(options.maxSessions, options.maxSessionsPerPrincipal);
  }

  /**
   * A new session for `principal`, held busy until `release` (its initialize is being served); undefined when every
   * session within the principal's share, or within the whole cap, is serving a request.
   */
  open(principal: string): LegacySession | undefined {
    this.sweepExpired();
    if (!this.makeRoomFor(principal)) return undefined;
    const session: LegacySession = {
      id: mintLegacySessionId(),
      principal,
      handshake: new LegacyHandshake(),
      inFlight: new InFlightRequests(),
      lastSeen: this.now(),
      busy: 1,
    };
    this.sessions.set(session.id, session);
    return session;
  }

  /** The live session with this id opened by this principal (and marks it used), else undefined. */
  find(id: string, principal: string): LegacySession | undefined {
    const session = this.sessions.get(id);
    if (session === undefined) return undefined;
    if (this.isExpired(session)) {
      this.close(id);
      return undefined;
    }
    if (session.principal !== principal) return undefined;
    session.lastSeen = this.now();
    return session;
  }

  /** `find`, and holds the session busy (never evicted) until `release`. */
  acquire(id: string, principal: string): LegacySession | undefined {
    const session = this.find(id, principal);
    if (session) session.busy += 1;
    return session;
  }

  /** Ends a hold taken by `open` or `acquire`; the idle clock starts from now (the last answer). */
  release(session: LegacySession): void {
    session.busy = Math.max(0, session.busy - 1);
    session.lastSeen = this.now();
  }

  /** Ends a session: its id is unknown from now on and its requests in flight are cancelled. */
  close(id: string): void {
    const session = this.sessions.get(id);
    if (session === undefined) return;
    this.sessions.delete(id);
    session.inFlight.cancelAll('the MCP session ended');
  }

  closeAll(): void {
    for (const id of [...this.sessions.keys()]) this.close(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Whether this principal's session with this id was ended to make room (remembered for the last 1000). */
  wasEvicted(id: string, principal: string): boolean {
    return this.evicted.get(id) === principal;
  }

  private evict(session: LegacySession): void {
    this.close(session.id);
    this.evicted.set(session.id, session.principal);
    for (const oldest of this.evicted.keys()) {
      if (this.evicted.size <= MAX_REMEMBERED_EVICTIONS) break;
      this.evicted.delete(oldest);
    }
  }

  /**
   * Under the principal's share, then under the total cap, by ending one idle session each time: the principal's own
   * least recently used one, or at the total cap the least recently used one of the principal holding the most.
   */
  private makeRoomFor(principal: string): boolean {
    const own = [...this.sessions.values()].filter((session) => session.principal === principal);
    if (own.length >= this.maxPerPrincipal) {
      const victim = this.leastRecentlyUsedEvictable(own);
      if (!victim) return false;
      this.evict(victim);
    }
    if (this.sessions.size < this.options.maxSessions) return true;
    const byPrincipal = new Map<string, LegacySession[]>();
    for (const session of this.sessions.values())
      byPrincipal.set(session.principal, [...(byPrincipal.get(session.principal) ?? []), session]);
    for (const held of [...byPrincipal.values()].sort((a, b) => b.length - a.length)) {
      const victim = this.leastRecentlyUsedEvictable(held);
      if (victim) {
        this.evict(victim);
        return true;
      }
    }
    return false;
  }

  /** The least recently used session idle for longer than `evictableAfterMs`, if any. */
  private leastRecentlyUsedEvictable(sessions: readonly LegacySession[]): LegacySession | undefined {
    const victim = leastRecentlyUsedIdle(sessions);
    return victim !== undefined && this.now() - victim.lastSeen >= this.evictableAfterMs ? victim : undefined;
  }

  private sweepExpired(): void {
    for (const [id, session] of this.sessions) if (this.isExpired(session)) this.close(id);
  }

  /** A session serving a long request is busy, not idle. */
  private isExpired(session: LegacySession): boolean {
    return isIdle(session) && this.now() - session.lastSeen > this.options.idleTimeoutMs;
  }
}

function isIdle(session: LegacySession): boolean {
  return session.busy === 0 && session.inFlight.size === 0;
}

function leastRecentlyUsedIdle(sessions: readonly LegacySession[]): LegacySession | undefined {
  let victim: LegacySession | undefined;
  for (const session of sessions) {
    if (!isIdle(session)) continue;
    if (!victim || session.lastSeen < victim.lastSeen) victim = session;
  }
  return victim;
}
