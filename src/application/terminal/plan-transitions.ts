import type { ApprovalChannel } from '../../domain/terminal/approval-types.js';
import type { TerminalPlan } from '../../domain/terminal/plan-types.js';
import {
  ApprovalRequired,
  InvalidPlanTransition,
  PlanBlocked,
  RunningPlanNotRetryable,
} from '../../domain/terminal/terminal-errors.js';

/*
 * The plan state machine of seed §3.3, as guards that throw the typed error of the refused transition:
 *   planned -> approved -> running <-> paused -> succeeded | failed | cancelled | timed_out; blocked is final.
 */

export function requiresApproval(plan: TerminalPlan): boolean {
  return plan.decision.verdict === 'approval_required';
}

export function assertApprovable(plan: TerminalPlan): void {
  if (plan.status === 'blocked') throw new PlanBlocked(plan.id, 'approved', plan.decision.reasons);
  if (plan.status !== 'planned') throw new InvalidPlanTransition(plan.id, plan.status, 'approve');
}

/**
 * Seed order, except that a plan that already ran reports "cannot execute from <status>" even when it needed
 * approval (the seed says "requires explicit approval", which sends the model to approve a finished plan).
 */
export function assertExecutable(plan: TerminalPlan, channel: ApprovalChannel): void {
  if (plan.status === 'blocked') throw new PlanBlocked(plan.id, 'executed', plan.decision.reasons);
  if (plan.status !== 'planned' && plan.status !== 'approved') throw new InvalidPlanTransition(plan.id, plan.status, 'execute');
  if (requiresApproval(plan) && plan.status !== 'approved') {
    throw new ApprovalRequired(plan.id, plan.sessionId, plan.approval?.id, approvalNextStep(plan, channel));
  }
}

export function assertRetryable(plan: TerminalPlan): void {
  if (plan.status === 'running' || plan.status === 'paused') throw new RunningPlanNotRetryable(plan.id, plan.status);
}

/** What the model should do about a plan that waits for approval, per approval channel. */
export function approvalNextStep(plan: TerminalPlan, channel: ApprovalChannel): string {
  const approvalId = plan.approval?.id ?? 'of this plan';
  if (channel === 'operator') {
    return `Ask the user to have an operator approve approval_id ${approvalId} in the term-mcp web UI, then call terminal_execute with session_id and plan_id.`;
  }
  return 'Show the user this exact command and ask them to confirm; call terminal_approve with session_id and plan_id only after they agree, then terminal_execute.';
}
