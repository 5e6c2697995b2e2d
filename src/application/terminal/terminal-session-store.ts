import {
  SessionEvicted,
  SessionExpired,
  SessionLimitReached,
  SessionNotFound,
  type SessionEndReason,
} from '../../domain/execution/execution-errors.js';
import type { ExecutionSessionFactory } from '../../domain/execution/execution-session.js';
import type { ExecutionEvent } from '../../domain/execution/execution-types.js';
import type { TerminalEvents } from '../../domain/terminal/terminal-events.js';
import type { TerminalPlan } from '../../domain/terminal/terminal-plan.js';
import { TerminalSession } from '../../domain/terminal/terminal-session.js';
import { principalShare } from '../sessions/principal-share.js';
import { RoomQueue } from './room-queue.js';
import { TerminalEventHub } from './terminal-event-hub.js';

export interface TerminalSessionStoreOptions {
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
  /** How many ended one-shot sessions stay readable (receipts, command output). */
  readonly maxRetained?: number;
  /** How long they stay readable. */
  readonly retentionMs?: number;
}

/** A live terminal session as listed: who owns it, and its creation rank (stable order for paging). */
export interface StoredSession {
  readonly terminal: TerminalSession;
  /** The principal that created it; undefined when there is none (STDIO). */
  readonly owner: string | undefined;
  readonly ordinal: number;
}

interface Entry extends StoredSession {
  /** Held by a call that has created it and not yet started its command: not idle, whatever it runs. */
  pinned: boolean;
}

const DEFAULT_MAX_REMEMBERED = 1000;
/** Small on purpose: each retained session holds its command's output (up to MAX_OUTPUT_BYTES per stream). */
const DEFAULT_MAX_RETAINED = 32;
const DEFAULT_RETENTION_MS = 3_600_000;
/** Default bound of the waiting calls: 32 per session of the cap (320 for the default cap of 10). */
export const WAITING_PER_SESSION = 32;

/**
 * The one store of terminal sessions (the `TerminalSession` aggregates) and the only map of them: every reader goes
 * through it. A session that runs nothing is idle; an idle one expires after `idleTimeoutMs`, and when a new session
 * would pass a cap the least recently used idle one makes room (evicted), so a client that never closes its sessions
 * never meets the cap. A session with a running or paused command is never expired or evicted. Caps are per owner
 * (principal) and per server, and at the server cap the owner holding the most sessions gives one up first, so one
 * principal cannot lock the others out. One sweeper (`startSweeper`; `create`, `createWhenRoom` and the waiting
 * queue's rounds too, since they need the room) ends idle sessions; lookups do not sweep, but a session past its
 * idle deadline is never handed out (the lookup that meets it ends it). An ended one-shot session stays readable for
 * a while (`readable`). A removed session is closed, which kills its processes; `closeAll` also waits for closes
 * started earlier, so nothing survives a shutdown. Its `events` (the `TerminalEvents` port) carry each session's
 * plan and command events to subscribers.
 */
export class TerminalSessionStore {
  private readonly sessions = new Map<string, Entry>();
  /** Ended sessions' ids and why they ended, oldest first (bounded). */
  private readonly ended = new Map<string, SessionEndReason>();
  /** Ended one-shot sessions that stay readable, oldest first; their retention clock is their `endedAtMs`. */
  private readonly retained = new Map<string, TerminalSession>();
  /** Closes under way, with their sessions (a shutdown hurries them). */
  private readonly closing = new Map<Promise<void>, TerminalSession>();
  private readonly hub: TerminalEventHub;
  private readonly now: () => number;
  private readonly maxPerOwner: number;
  /** Calls waiting for room (`createWhenRoom`). */
  private readonly queue: RoomQueue<TerminalSession>;
  private nextOrdinal = 1;

  constructor(private readonly options: TerminalSessionStoreOptions) {
    this.now = options.now ?? Date.now;
    this.maxPerOwner = principalShare(options.maxSessions, options.maxSessionsPerOwner);
    const maxWaiting = options.maxWaiting ?? options.maxSessions * WAITING_PER_SESSION;
    this.queue = new RoomQueue(maxWaiting, principalShare(maxWaiting, undefined), () => this.removeIdle());
    this.hub = new TerminalEventHub((sessionId) => this.find(sessionId)?.execution);
  }

  /** The plan and command events of the live sessions (the UI's event stream subscribes here). */
  get events(): TerminalEvents {
    return this.hub;
  }

  /**
   * A new session for `owner`, after making room by evicting an idle session when a cap is reached. A `pinned`
   * session is never evicted until `unpin`: the caller is about to start a command in it.
   */
  create(cwd: string, owner?: string, options: { pinned?: boolean } = {}): TerminalSession {
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
  ): Promise<{ terminal: TerminalSession; waited: boolean }> {
    const pinned = options.pinned ?? false;
    this.removeIdle();
    // Calls already waiting go first: a newcomer takes room at once only when nobody of its owner waits for it.
    if (!this.queue.hasWaiting(owner) && this.makeRoomFor(owner) === undefined) {
      return { terminal: this.add(cwd, owner, pinned), waited: false };
    }
    options.signal?.throwIfAborted();
    if (this.queue.isFull(owner)) {
      throw new SessionLimitReached(
        this.maxPerOwner,
        'queue',
        Math.min(this.queue.maxWaiting, this.queue.maxWaitingPerOwner),
      );
    }
    const place = (): TerminalSession | undefined =>
      this.makeRoomFor(owner) === undefined ? this.add(cwd, owner, pinned) : undefined;
    return { terminal: await this.queue.wait(owner, place, options.signal), waited: true };
  }

  /** Lets a pinned session be idle again (its command started, or the call that pinned it failed). */
  unpin(id: string): void {
    const entry = this.sessions.get(id);
    if (!entry) return;
    entry.pinned = false;
    this.queue.serveSoon();
  }

  /** Calls waiting in `createWhenRoom` now. */
  get waiting(): number {
    return this.queue.size;
  }

  /** The live session with this id, marked as used now; an ended one says why it ended. */
  get(id: string): TerminalSession {
    const terminal = this.find(id);
    if (!terminal) throw this.missing(id);
    terminal.execution.touch();
    return terminal;
  }

  /** The live session with this id, if any, without marking it as used. */
  find(id: string): TerminalSession | undefined {
    const entry = this.sessions.get(id);
    if (!entry) return undefined;
    if (this.isExpired(entry, this.idleCutoff())) {
      this.expire(entry.terminal);
      return undefined;
    }
    return entry.terminal;
  }

  /**
   * For reads (terminal_read, terminal_receipt): the live session, or a one-shot session that ended when its command
   * finished, while it is retained.
   */
  readable(id: string): TerminalSession {
    this.dropStaleRetained();
    return this.retained.get(id) ?? this.get(id);
  }

  /** A plan of a live session (`plan_not_found` when the session has no such plan). */
  plan(sessionId: string, planId: string): { readonly terminal: TerminalSession; readonly plan: TerminalPlan } {
    const terminal = this.get(sessionId);
    return { terminal, plan: terminal.planById(planId) };
  }

  /** The live session holding the plan that was issued this approval id. */
  withApproval(approvalId: string): { readonly terminal: TerminalSession; readonly plan: TerminalPlan } | undefined {
    for (const { terminal } of this.entries()) {
      const plan = terminal.planWithApproval(approvalId);
      if (plan) return { terminal, plan };
    }
    return undefined;
  }

  /** Plans of live sessions, session by session in the order they were opened. */
  *plans(): Iterable<TerminalPlan> {
    for (const { terminal } of this.entries()) yield* terminal.plans();
  }

  /** Why the session with this id ended, when the store still remembers it. */
  endReason(id: string): SessionEndReason | undefined {
    this.find(id);
    return this.ended.get(id);
  }

  list(): readonly TerminalSession[] {
    return this.entries().map((entry) => entry.terminal);
  }

  /** Live sessions with their owner, in creation order (those past their idle deadline are left out). */
  entries(): readonly StoredSession[] {
    const cutoff = this.idleCutoff();
    return [...this.sessions.values()]
      .filter((entry) => !this.isExpired(entry, cutoff))
      .map(({ terminal, owner, ordinal }) => ({ terminal, owner, ordinal }));
  }

  /** Closes a session on request; its id is unknown from then on. */
  async close(id: string): Promise<void> {
    const entry = this.sessions.get(id);
    if (!entry) throw this.missing(id);
    await this.remove(entry.terminal);
  }

  /** Ends a session that finished its job (a one-shot session); its id then answers `session_expired`. */
  async end(id: string, reason: Exclude<SessionEndReason, 'evicted'>): Promise<void> {
    const entry = this.sessions.get(id);
    if (!entry) return;
    await this.remove(entry.terminal, reason);
  }

  /** Ends a one-shot session whose command finished; it stays readable for a while (`readable`). */
  endOneShot(terminal: TerminalSession): void {
    void this.end(terminal.id, 'one_shot_finished').catch(() => undefined);
    this.retained.delete(terminal.id);
    this.retained.set(terminal.id, terminal);
    this.dropStaleRetained();
  }

  async closeAll(): Promise<void> {
    // Nothing is created for a call still waiting: the server is closing.
    this.queue.rejectAll(new SessionLimitReached(this.options.maxSessions, 'server'));
    // The server is going: closes look their process groups up at once instead of waiting for them to empty.
    for (const terminal of this.closing.values()) void terminal.close(this.now(), 'closed', { promptly: true });
    await Promise.all(
      [...this.sessions.values()].map((entry) => this.remove(entry.terminal, undefined, { promptly: true })),
    );
    await Promise.all(this.closing.keys());
  }

  /** Closes every idle session; resolves with how many were closed once their processes are gone. */
  async sweepIdle(): Promise<number> {
    const idle = this.expiredSessions();
    await Promise.all(idle.map((terminal) => this.remove(terminal, 'idle_timeout')));
    return idle.length;
  }

  /** The one sweeper: every `intervalMs`, without keeping the process alive; returns the function that stops it. */
  startSweeper(intervalMs: number): () => void {
    const timer = setInterval(() => {
      this.removeIdle();
      this.dropStaleRetained();
    }, intervalMs);
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

  private add(cwd: string, owner: string | undefined, pinned: boolean): TerminalSession {
    const execution = this.options.factory.create({ id: this.options.newId(), cwd });
    const terminal = new TerminalSession(execution, (event: ExecutionEvent) => this.hub.publish(event));
    this.sessions.set(terminal.id, { terminal, owner, ordinal: this.nextOrdinal++, pinned });
    return terminal;
  }

  /** The least recently used idle session among the owners holding the most sessions that have an idle one. */
  private fairVictim(): TerminalSession | undefined {
    const byOwner = new Map<string | undefined, Entry[]>();
    for (const entry of this.sessions.values()) byOwner.set(entry.owner, [...(byOwner.get(entry.owner) ?? []), entry]);
    const owners = [...byOwner.values()].sort((a, b) => b.length - a.length);
    for (const held of owners) {
      const victim = leastRecentlyUsedIdle(held);
      if (victim) return victim;
    }
    return undefined;
  }

  private evict(terminal: TerminalSession): void {
    // Nobody awaits an eviction; a failed close still surfaces in `closeAll`.
    this.remove(terminal, 'evicted').catch(() => undefined);
  }

  private removeIdle(): void {
    for (const terminal of this.expiredSessions()) this.expire(terminal);
  }

  private expire(terminal: TerminalSession): void {
    // Nobody awaits a background expiry; a failed close still surfaces in `closeAll`.
    this.remove(terminal, 'idle_timeout').catch(() => undefined);
  }

  private idleCutoff(): number {
    return this.now() - this.options.idleTimeoutMs;
  }

  private isExpired(entry: Entry, cutoff: number): boolean {
    return !entry.pinned && entry.terminal.execution.lastActivityMs() < cutoff && !entry.terminal.hasLiveCommand();
  }

  private expiredSessions(): TerminalSession[] {
    const cutoff = this.idleCutoff();
    return [...this.sessions.values()].filter((entry) => this.isExpired(entry, cutoff)).map((entry) => entry.terminal);
  }

  private dropStaleRetained(): void {
    const max = this.options.maxRetained ?? DEFAULT_MAX_RETAINED;
    const cutoff = this.now() - (this.options.retentionMs ?? DEFAULT_RETENTION_MS);
    for (const [id, terminal] of this.retained) {
      if (this.retained.size > max || (terminal.endedAtMs ?? 0) < cutoff) this.retained.delete(id);
    }
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
  private remove(
    terminal: TerminalSession,
    reason?: SessionEndReason,
    options: { promptly?: boolean } = {},
  ): Promise<void> {
    this.sessions.delete(terminal.id);
    this.queue.serveSoon();
    if (reason !== undefined) this.remember(terminal.id, reason);
    const closing = terminal.close(this.now(), reason ?? 'closed', options);
    this.closing.set(closing, terminal);
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

function leastRecentlyUsedIdle(entries: readonly Entry[]): TerminalSession | undefined {
  let victim: TerminalSession | undefined;
  for (const { terminal, pinned } of entries) {
    if (pinned || terminal.hasLiveCommand()) continue;
    if (!victim || terminal.execution.lastActivityMs() < victim.execution.lastActivityMs()) victim = terminal;
  }
  return victim;
}
