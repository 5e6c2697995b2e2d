import { randomBytes } from 'node:crypto';
import { InFlightRequests, LegacyHandshake } from '../../application/mcp/connection-state.js';

/** One 2025-11-25 transport session: the handshake it negotiated, who opened it, and its requests in flight. */
export interface LegacySession {
  readonly id: string;
  readonly principal: string;
  readonly handshake: LegacyHandshake;
  /** So `notifications/cancelled`, DELETE and expiry can abort the session's requests. */
  readonly inFlight: InFlightRequests;
  lastSeen: number;
}

export interface LegacySessionStoreOptions {
  /** TERM_MCP_MAX_LEGACY_SESSIONS. */
  maxSessions: number;
  /** SESSION_TIMEOUT in ms: a session with nothing in flight for this long is gone. */
  idleTimeoutMs: number;
  now?: () => number;
}

/** 2025-11-25 transports: a session id is cryptographically random and only visible ASCII (base64url is). */
export function mintLegacySessionId(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The `Mcp-Session-Id` store of legacy HTTP clients. Sessions are bound to the principal that opened them:
 * to anyone else an id does not exist (404, not 403, so an id's existence never leaks). Idle sessions expire
 * (swept lazily, no timers), and the store is capped.
 */
export class LegacySessionStore {
  private readonly sessions = new Map<string, LegacySession>();
  private readonly now: () => number;

  constructor(private readonly options: LegacySessionStoreOptions) {
    this.now = options.now ?? Date.now;
  }

  /** A new session for `principal`, or undefined when the store is full of live sessions. */
  open(principal: string): LegacySession | undefined {
    this.sweepExpired();
    if (this.sessions.size >= this.options.maxSessions) return undefined;
    const session: LegacySession = {
      id: mintLegacySessionId(),
      principal,
      handshake: new LegacyHandshake(),
      inFlight: new InFlightRequests(),
      lastSeen: this.now(),
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

  /** Marks a session used now (after a request ends: the idle clock starts from the last answer). */
  touch(session: LegacySession): void {
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

  private sweepExpired(): void {
    for (const [id, session] of this.sessions) if (this.isExpired(session)) this.close(id);
  }

  /** A session serving a long request is busy, not idle. */
  private isExpired(session: LegacySession): boolean {
    return session.inFlight.size === 0 && this.now() - session.lastSeen > this.options.idleTimeoutMs;
  }
}
