import { assertGrantUsable, grantExpired } from '../../domain/terminal/approval-grant.js';
import type { ApprovalBinding, ApprovalChannel, ApprovalGrant } from '../../domain/terminal/approval-types.js';
import type { TerminalPlan } from '../../domain/terminal/terminal-plan.js';
import type { TerminalSession } from '../../domain/terminal/terminal-session.js';
import { ApprovalMismatch, ApprovalNotFound, OperatorApprovalRequired } from '../../domain/terminal/terminal-errors.js';
import { isoAt, type Clock } from './clock.js';
import type { TerminalSessionStore } from './terminal-session-store.js';

export interface ApprovalServiceOptions {
  readonly sessions: TerminalSessionStore;
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
 * on its plan, in its terminal session (the aggregate replaces it when it is approved and when it is used): when the
 * session ends, its approvals are gone with it.
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
    const { terminal, plan } = this.options.sessions.plan(sessionId, planId);
    const grant = plan.approval;
    if (approvalId !== undefined && grant?.id !== approvalId) throw new ApprovalMismatch(approvalId, plan.id, 'plan');
    plan.assertApprovable();
    if (grant && this.options.channel === 'operator') throw new OperatorApprovalRequired(plan.id, grant.id);
    terminal.approve(plan, 'client', this.options.now());
    return plan;
  }

  /** The operator route: a human approved this approval id. Works in either channel. */
  approveAsOperator(approvalId: string): TerminalPlan {
    const { terminal, plan } = this.planOf(approvalId);
    terminal.approve(plan, 'operator', this.options.now());
    return plan;
  }

  /** Approvals that can still be approved, oldest first. */
  pending(): PendingApproval[] {
    const pending: PendingApproval[] = [];
    for (const plan of this.options.sessions.plans()) {
      const grant = plan.approval;
      if (!grant || plan.status !== 'planned' || grantExpired(grant, this.options.now())) continue;
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
    assertGrantUsable(plan.approval, plan.id, current, this.options.now());
  }

  private planOf(approvalId: string): { readonly terminal: TerminalSession; readonly plan: TerminalPlan } {
    const found = this.options.sessions.withApproval(approvalId);
    // A used approval is gone, as far as anyone presenting it can tell.
    if (!found || found.plan.approval?.consumedAtMs !== null) throw new ApprovalNotFound(approvalId);
    return found;
  }
}
