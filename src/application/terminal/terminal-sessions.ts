import type { ExecutionSession } from '../../domain/execution/execution-session.js';
import type { TerminalPlan } from '../../domain/terminal/terminal-plan.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import type { SessionLedger, SessionLedgers } from './session-ledger.js';

/**
 * The terminal's view of its execution sessions: each live session with its ledger (its plans, their approvals and
 * its receipts). The one way from a session id to a session's plans; the registry's errors (unknown, expired,
 * evicted) come through unchanged.
 */
export class TerminalSessions {
  constructor(
    private readonly registry: SessionRegistry,
    private readonly ledgers: SessionLedgers,
  ) {}

  /** The ledger of a live session. */
  live(sessionId: string): SessionLedger {
    return this.ledgers.of(this.registry.get(sessionId));
  }

  /** The ledger of the live session with this id, if any, without marking it as used. */
  find(sessionId: string): SessionLedger | undefined {
    const session = this.registry.find(sessionId);
    return session ? this.ledgers.of(session) : undefined;
  }

  /** A new session (the registry makes room for it), with its empty ledger. `pinned`: see `SessionRegistry.create`. */
  open(cwd: string, owner: string | undefined, options: { pinned?: boolean } = {}): SessionLedger {
    return this.ledgers.of(this.registry.create(cwd, owner, options));
  }

  /**
   * A new session, waiting for room when every session within a cap runs a command (see
   * `SessionRegistry.createWhenRoom`); `waited` says whether it had to.
   */
  async openWhenRoom(
    cwd: string,
    owner: string | undefined,
    options: { pinned?: boolean; signal?: AbortSignal } = {},
  ): Promise<{ ledger: SessionLedger; waited: boolean }> {
    const { session, waited } = await this.registry.createWhenRoom(cwd, owner, options);
    return { ledger: this.ledgers.of(session), waited };
  }

  /** Closes a session opened for a call that then failed before planning in it. */
  async discard(sessionId: string): Promise<void> {
    await this.registry.end(sessionId, 'one_shot_finished');
  }

  /** Lets a pinned session be idle (evictable) again. */
  unpin(sessionId: string): void {
    this.registry.unpin(sessionId);
  }

  /** Ends a one-shot session whose command finished; its ledger stays readable for a while (`readable`). */
  endOneShot(ledger: SessionLedger): void {
    this.ledgers.retain(ledger);
    void this.registry.end(ledger.session.id, 'one_shot_finished').catch(() => undefined);
  }

  /**
   * For reads (terminal_read, terminal_receipt): the ledger of the live session, or the retained ledger of a one-shot
   * session that ended when its command finished.
   */
  readable(sessionId: string): SessionLedger {
    return this.ledgers.findRetained(sessionId) ?? this.live(sessionId);
  }

  /** A plan of a live session (`plan_not_found` when the session has no such plan). */
  plan(sessionId: string, planId: string): { readonly ledger: SessionLedger; readonly plan: TerminalPlan } {
    const ledger = this.live(sessionId);
    return { ledger, plan: ledger.plan(planId) };
  }

  /** The plan of a live session that was issued this approval id. */
  planWithApproval(approvalId: string): TerminalPlan | undefined {
    for (const ledger of this.ledgers.live()) {
      const plan = ledger.plans().find((candidate) => candidate.approval?.id === approvalId);
      if (plan) return plan;
    }
    return undefined;
  }

  /** Plans of live sessions, session by session in the order they were opened. */
  *plans(): Iterable<TerminalPlan> {
    for (const ledger of this.ledgers.live()) yield* ledger.plans();
  }

  /** Tells the session's subscribers (the UI's event stream) something happened. */
  publish(sessionId: string, event: Parameters<ExecutionSession['publish']>[0]): void {
    this.registry.find(sessionId)?.publish(event);
  }
}
