import type { ApprovalBinding, ApprovalChannel, ApprovalGrant } from '../../domain/terminal/approval-types.js';
import type { TerminalPlan } from '../../domain/terminal/terminal-plan.js';
import {
  ApprovalExpired,
  ApprovalMismatch,
  ApprovalNotFound,
  OperatorApprovalRequired,
} from '../../domain/terminal/terminal-errors.js';
import { isoAt, type Clock } from './clock.js';
import type { TerminalSessions } from './terminal-sessions.js';

export interface ApprovalServiceOptions {
  readonly sessions: TerminalSessions;
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
 * only through the operator route). Nothing here lets a caller create, extend or choose an approval. The grant lives
 * on its plan, in its session's ledger: when the session ends, its approvals are gone with it.
 */
export class ApprovalService {
  constructor(private readonly options: ApprovalServiceOptions) {}

  get channel(): ApprovalChannel {
    return this.options.channel;
  }

  /** A fresh grant for a plan that needs approval. */
  issue(binding: ApprovalBinding): ApprovalGrant {
    const issuedAtMs = this.options.now();
    return {
      ...binding,
      id: this.options.newApprovalId(),
      issuedAtMs,
      expiresAtMs: issuedAtMs + this.options.ttlSeconds * 1000,
      approvedAtMs: null,
      approvedVia: null,
      consumedAtMs: null,
    };
  }

  /**
   * `terminal_approve` (seed `approve`). In the operator channel a plan that needs approval is refused: the model
   * cannot approve its own plans. `approvalId`, when given, must be the one issued with this plan.
   */
  approveFromClient(sessionId: string, planId: string, approvalId?: string): TerminalPlan {
    const { plan } = this.options.sessions.plan(sessionId, planId);
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
    const pending: PendingApproval[] = [];
    for (const plan of this.options.sessions.plans()) {
      const grant = plan.approval;
      if (!grant || plan.status !== 'planned' || this.expired(grant)) continue;
      pending.push({
        approvalId: grant.id,
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
    if (!grant || grant.approvedAtMs === null || grant.consumedAtMs !== null) throw new ApprovalNotFound(grant?.id ?? plan.id);
    if (this.expired(grant)) throw new ApprovalExpired(grant.id, plan.id, isoAt(grant.expiresAtMs));
    if (grant.sessionId !== current.sessionId) throw new ApprovalMismatch(grant.id, plan.id, 'session');
    if (grant.planId !== current.planId) throw new ApprovalMismatch(grant.id, plan.id, 'plan');
    if (grant.command !== current.command) throw new ApprovalMismatch(grant.id, plan.id, 'command');
    if (grant.cwd !== current.cwd) throw new ApprovalMismatch(grant.id, plan.id, 'cwd');
  }

  /** Single use: once its execution started, the approval can never be presented again. */
  consume(plan: TerminalPlan): void {
    if (plan.approval) plan.approval.consumedAtMs = this.options.now();
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
    this.options.sessions.publish(plan.sessionId, { type: 'approved', sessionId: plan.sessionId, planId: plan.id, at });
  }

  private planOf(approvalId: string): TerminalPlan {
    const plan = this.options.sessions.planWithApproval(approvalId);
    // A used approval is gone, as far as anyone presenting it can tell.
    if (!plan || plan.approval?.consumedAtMs !== null) throw new ApprovalNotFound(approvalId);
    return plan;
  }

  private expired(grant: ApprovalGrant): boolean {
    return this.options.now() >= grant.expiresAtMs;
  }
}
