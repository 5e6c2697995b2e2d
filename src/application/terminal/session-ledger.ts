import type { ExecutionSession } from '../../domain/execution/execution-session.js';
import type { TerminalPlan } from '../../domain/terminal/terminal-plan.js';
import type { ExecutionReceipt } from '../../domain/terminal/receipt-types.js';
import { PlanNotFound } from '../../domain/terminal/terminal-errors.js';

/** Bounds memory per session; the oldest idle plans and receipts are forgotten first. */
const MAX_PLANS_PER_SESSION = 200;
const MAX_RECEIPTS_PER_SESSION = 50;

/** The plans and receipts of one execution session (seed `SessionState.plans` / `.receipts`). */
export class SessionLedger {
  private readonly plansById = new Map<string, TerminalPlan>();
  /** By plan id, in the order the commands finished: the last one is the latest receipt. */
  private readonly receiptsByPlan = new Map<string, ExecutionReceipt>();
  private readonly pendingReceipts = new Map<string, Promise<ExecutionReceipt>>();

  constructor(readonly session: ExecutionSession) {}

  addPlan(plan: TerminalPlan): void {
    this.plansById.set(plan.id, plan);
    this.forgetOldPlans();
  }

  plan(planId: string): TerminalPlan {
    const plan = this.plansById.get(planId);
    if (!plan) throw new PlanNotFound(this.session.id, planId);
    return plan;
  }

  findPlan(planId: string): TerminalPlan | undefined {
    return this.plansById.get(planId);
  }

  plans(): readonly TerminalPlan[] {
    return [...this.plansById.values()];
  }

  planOfCommand(commandId: string): TerminalPlan | undefined {
    return this.plans().find((plan) => plan.commandId === commandId);
  }

  /** Remembers the receipt a started command will produce, so callers can wait for it. */
  commandStarted(commandId: string, receipt: Promise<ExecutionReceipt>): void {
    this.pendingReceipts.set(commandId, receipt);
    void receipt.finally(() => this.pendingReceipts.delete(commandId)).catch(() => undefined);
  }

  /** The receipt of a command: pending while it runs, undefined once recorded (read it with `receiptOfPlan`). */
  pendingReceipt(commandId: string): Promise<ExecutionReceipt> | undefined {
    return this.pendingReceipts.get(commandId);
  }

  addReceipt(receipt: ExecutionReceipt): void {
    this.receiptsByPlan.delete(receipt.plan_id);
    this.receiptsByPlan.set(receipt.plan_id, receipt);
    while (this.receiptsByPlan.size > MAX_RECEIPTS_PER_SESSION) {
      const oldest = this.receiptsByPlan.keys().next().value;
      if (oldest === undefined) break;
      this.receiptsByPlan.delete(oldest);
    }
  }

  latestReceipt(): ExecutionReceipt | undefined {
    return [...this.receiptsByPlan.values()].at(-1);
  }

  receiptOfPlan(planId: string): ExecutionReceipt | undefined {
    return this.receiptsByPlan.get(planId);
  }

  receiptCount(): number {
    return this.receiptsByPlan.size;
  }

  private forgetOldPlans(): void {
    for (const [id, plan] of this.plansById) {
      if (this.plansById.size <= MAX_PLANS_PER_SESSION) return;
      if (!plan.isLive) this.plansById.delete(id);
    }
  }
}

export interface SessionLedgersOptions {
  /** How many ended one-shot sessions keep their ledger readable (receipts, command output). */
  readonly maxRetained?: number;
  /** How long they stay readable. */
  readonly retentionMs?: number;
  readonly now?: () => number;
}

/** Small on purpose: each retained ledger holds its command's output (up to MAX_OUTPUT_BYTES per stream). */
const DEFAULT_MAX_RETAINED = 32;
const DEFAULT_RETENTION_MS = 3_600_000;

/**
 * One ledger per live execution session; ledgers of closed (or expired) sessions are dropped, except those of ended
 * one-shot sessions, which stay readable (bounded in number and age) so their receipt can still be fetched.
 */
export class SessionLedgers {
  private readonly ledgers = new Map<string, SessionLedger>();
  /** Ended one-shot sessions' ledgers with when they ended, oldest first. */
  private readonly retained = new Map<string, { ledger: SessionLedger; endedAtMs: number }>();
  private readonly now: () => number;

  constructor(private readonly options: SessionLedgersOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  /** The ledger of a session, created on first use. */
  of(session: ExecutionSession): SessionLedger {
    this.dropClosed();
    let ledger = this.ledgers.get(session.id);
    if (!ledger || ledger.session !== session) {
      ledger = new SessionLedger(session);
      this.ledgers.set(session.id, ledger);
    }
    return ledger;
  }

  find(sessionId: string): SessionLedger | undefined {
    this.dropClosed();
    return this.ledgers.get(sessionId);
  }

  /** The ledgers of live sessions (not the retained ones of ended one-shot sessions). */
  live(): SessionLedger[] {
    this.dropClosed();
    return [...this.ledgers.values()];
  }

  /** Keeps the ledger of an ended one-shot session readable for a while. */
  retain(ledger: SessionLedger): void {
    this.retained.delete(ledger.session.id);
    this.retained.set(ledger.session.id, { ledger, endedAtMs: this.now() });
    this.dropStaleRetained();
  }

  /** The retained ledger of an ended one-shot session, while it is kept. */
  findRetained(sessionId: string): SessionLedger | undefined {
    this.dropStaleRetained();
    return this.retained.get(sessionId)?.ledger;
  }

  private dropClosed(): void {
    for (const [id, ledger] of this.ledgers) if (ledger.session.closed) this.ledgers.delete(id);
  }

  private dropStaleRetained(): void {
    const max = this.options.maxRetained ?? DEFAULT_MAX_RETAINED;
    const cutoff = this.now() - (this.options.retentionMs ?? DEFAULT_RETENTION_MS);
    for (const [id, { endedAtMs }] of this.retained) {
      if (this.retained.size > max || endedAtMs < cutoff) this.retained.delete(id);
    }
  }
}
