import type { ExecutionEvent } from '../../domain/execution/execution-types.js';
import type { ApprovalBinding, ApprovalChannel, ApprovalGrant } from '../../domain/terminal/approval-types.js';
import type { TerminalPlan } from '../../domain/terminal/terminal-plan.js';
import {
  ApprovalExpired,
  ApprovalMismatch,
  ApprovalNotFound,
  OperatorApprovalRequired,
} from '../../domain/terminal/terminal-errors.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import type { SessionLedgers } from './session-ledger.js';
import { isoAt, type Clock } from './clock.js';

export interface ApprovalServiceOptions {
  readonly registry: SessionRegistry;
  readonly ledgers: SessionLedgers;
  readonly channel: ApprovalChannel;
  readonly ttlSeconds: number;
  readonly now: Clock;
  /** Mints approval ids: unguessable (128+ random bits), since knowing one is what the operator route acts on. */
  readonly newApprovalId: () => string;
}

/** An approval waiting for a human, as the operator UI lists it. */
export interface PendingApproval {
  readonly approvalId: string;
  readonly sessionId: string;
  readonly planId: string;
  readonly command: string;
  readonly cwd: string;
  readonly risk: string;
  readonly reasons: readonly string[];
  readonly expiresAt: string;
}

/**
 * Approvals of plans that need one. An approval is issued with the plan, bound to its session, plan, command and cwd,
 * expires after the TTL and is consumed by the one execution it allows. Only two things can approve it: the client
 * channel (`terminal_approve`, confirmed by the client's user) or the operator channel (`approveAsOperator`, reached
 * only through the operator route). Nothing here lets a caller create, extend or choose an approval.
 */
export class ApprovalService {
  /** approval id -> where its plan lives; the grant itself is on the plan. */
  private readonly index = new Map<string, { sessionId: string; planId: string }>();

  constructor(private readonly options: ApprovalServiceOptions) {}

  get channel(): ApprovalChannel {
    return this.options.channel;
  }

  /** A fresh grant for a plan that needs approval. */
  issue(binding: ApprovalBinding): ApprovalGrant {
    this.forgetStale();
    const issuedAtMs = this.options.now();
    const grant: ApprovalGrant = {
      ...binding,
      id: this.options.newApprovalId(),
      issuedAtMs,
      expiresAtMs: issuedAtMs + this.options.ttlSeconds * 1000,
      approvedAtMs: null,
      approvedVia: null,
    };
    this.index.set(grant.id, { sessionId: binding.sessionId, planId: binding.planId });
    return grant;
  }

  /**
   * `terminal_approve` (seed `approve`). In the operator channel a plan that needs approval is refused: the model
   * cannot approve its own plans. `approvalId`, when given, must be the one issued with this plan.
   */
  approveFromClient(sessionId: string, planId: string, approvalId?: string): TerminalPlan {
    const session = this.options.registry.get(sessionId);
    const plan = this.options.ledgers.of(session).plan(planId);
    const grant = plan.approval;
    if (approvalId !== undefined && grant?.id !== approvalId) throw new ApprovalMismatch(approvalId, plan.id, 'plan');
    plan.assertApprovable();
    if (grant && this.options.channel === 'operator') throw new OperatorApprovalRequired(plan.id, grant.id);
    this.approve(plan, 'client');
    return plan;
  }

  /** The operator route: a human approved this approval id. Works in either channel. */
  approveAsOperator(approvalId: string): TerminalPlan {
    const plan = this.planOf(approvalId);
    plan.assertApprovable();
    this.approve(plan, 'operator');
    return plan;
  }

  /** Approvals that can still be approved, oldest first. */
  pending(): PendingApproval[] {
    this.forgetStale();
    const pending: PendingApproval[] = [];
    for (const approvalId of this.index.keys()) {
      const plan = this.findPlan(approvalId);
      const grant = plan?.approval;
      if (!plan || !grant || plan.status !== 'planned' || this.expired(grant)) continue;
      pending.push({
        approvalId,
        sessionId: plan.sessionId,
        planId: plan.id,
        command: plan.command,
        cwd: plan.cwd,
        risk: plan.decision.risk,
        reasons: plan.decision.reasons,
        expiresAt: isoAt(grant.expiresAtMs),
      });
    }
    return pending;
  }

  /** Execute-time check: the approval is still valid and bound to exactly this session, plan, command and cwd. */
  assertUsable(plan: TerminalPlan, current: ApprovalBinding): void {
    const grant = plan.approval;
    if (!grant || grant.approvedAtMs === null || !this.index.has(grant.id)) throw new ApprovalNotFound(grant?.id ?? plan.id);
    if (this.expired(grant)) throw new ApprovalExpired(grant.id, plan.id, isoAt(grant.expiresAtMs));
    if (grant.sessionId !== current.sessionId) throw new ApprovalMismatch(grant.id, plan.id, 'session');
    if (grant.planId !== current.planId) throw new ApprovalMismatch(grant.id, plan.id, 'plan');
    if (grant.command !== current.command) throw new ApprovalMismatch(grant.id, plan.id, 'command');
    if (grant.cwd !== current.cwd) throw new ApprovalMismatch(grant.id, plan.id, 'cwd');
  }

  /** Single use: once its execution started, the approval can never be presented again. */
  consume(plan: TerminalPlan): void {
    if (plan.approval) this.index.delete(plan.approval.id);
  }

  private approve(plan: TerminalPlan, via: ApprovalChannel): void {
    const grant = plan.approval;
    const now = this.options.now();
    if (grant) {
      if (this.expired(grant)) throw new ApprovalExpired(grant.id, plan.id, isoAt(grant.expiresAtMs));
      grant.approvedAtMs = now;
      grant.approvedVia = via;
    }
    const at = isoAt(now);
    plan.approve(at);
    this.publish(plan, { type: 'approved', sessionId: plan.sessionId, planId: plan.id, at });
  }

  private planOf(approvalId: string): TerminalPlan {
    const plan = this.findPlan(approvalId);
    if (!plan) {
      this.index.delete(approvalId);
      throw new ApprovalNotFound(approvalId);
    }
    return plan;
  }

  private findPlan(approvalId: string): TerminalPlan | undefined {
    const location = this.index.get(approvalId);
    if (!location) return undefined;
    const session = this.options.registry.find(location.sessionId);
    if (!session) return undefined;
    const plan = this.options.ledgers.of(session).findPlan(location.planId);
    return plan?.approval?.id === approvalId ? plan : undefined;
  }

  private expired(grant: ApprovalGrant): boolean {
    return this.options.now() >= grant.expiresAtMs;
  }

  /** Drops index entries whose session or plan is gone; expired ones stay, so their error says "expired". */
  private forgetStale(): void {
    for (const approvalId of [...this.index.keys()]) {
      if (!this.findPlan(approvalId)) this.index.delete(approvalId);
    }
  }

  private publish(plan: TerminalPlan, event: ExecutionEvent): void {
    this.options.registry.find(plan.sessionId)?.publish(event);
  }
}
