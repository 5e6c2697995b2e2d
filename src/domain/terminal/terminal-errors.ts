import { DomainError } from '../errors.js';
import { isLiveStatus } from '../execution/execution-types.js';
import type { PlanStatus } from './plan-types.js';

/*
 * Errors of plans, approvals and their execution. Messages keep the seed's wording (§3.3) where it has one, because
 * clients already match on them; `nextStep` tells the caller what to do instead, in words that name no MCP tool (the
 * tool layer attaches the tool-naming step: application/tools/tool-next-steps.ts).
 */

const DENIED_NEXT_STEP = 'This command is denied by policy; do not retry variants of it. Ask the user.';

/** Seed: "plan does not belong to this session" (also for a plan id that exists nowhere). */
export class PlanNotFound extends DomainError {
  readonly code = 'plan_not_found';
  constructor(sessionId: string, planId: string) {
    super(
      'plan does not belong to this session',
      { sessionId, planId },
      'Use a plan_id returned by planning in this session.',
    );
  }
}

/** A blocked plan is final: it can be neither approved nor executed. */
export class PlanBlocked extends DomainError {
  readonly code = 'plan_blocked';
  constructor(planId: string, action: 'approved' | 'executed', reasons: readonly string[]) {
    super(`blocked plans cannot be ${action}`, { planId, reasons: [...reasons] }, DENIED_NEXT_STEP);
  }
}

/** The policy denies the command outright (planned and executed in one call). */
export class PolicyDenied extends DomainError {
  readonly code = 'policy_denied';
  constructor(planId: string, sessionId: string, reasons: readonly string[]) {
    super(
      `command denied by policy: ${reasons.join('; ')}`,
      { planId, sessionId, reasons: [...reasons] },
      DENIED_NEXT_STEP,
    );
  }
}

export type PlanAction = 'approve' | 'execute' | 'finish';

/** A transition the plan state machine does not allow from the plan's current status. */
export class InvalidPlanTransition extends DomainError {
  readonly code = 'invalid_plan_transition';
  constructor(planId: string, status: PlanStatus, action: PlanAction) {
    super(
      action === 'approve'
        ? `plan cannot be approved from ${status}`
        : action === 'execute'
          ? `plan cannot execute from ${status}`
          : `plan cannot finish from ${status}`,
      { planId, status, action },
      nextStepFrom(status),
    );
  }
}

function nextStepFrom(status: PlanStatus): string {
  if (status === 'approved') return 'The plan is already approved: execute it.';
  if (isLiveStatus(status)) {
    return 'The plan is executing: read its output, or cancel it.';
  }
  return 'A plan executes at most once: retry it to create a fresh plan of the same command.';
}

/** Seed: "plan requires explicit approval". */
export class ApprovalRequired extends DomainError {
  readonly code = 'approval_required';
  constructor(planId: string, sessionId: string, approvalId: string | undefined, nextStep: string) {
    super('plan requires explicit approval', { planId, sessionId, approvalId: approvalId ?? null }, nextStep);
  }
}

/** Seed: "running plans cannot be retried". */
export class PlanRunning extends DomainError {
  readonly code = 'plan_running';
  constructor(planId: string, status: PlanStatus) {
    super('running plans cannot be retried', { planId, status }, 'Wait for it to finish, or cancel it, then retry.');
  }
}

/** At execute time the policy judged the command more strictly than when it was planned. */
export class PolicyChanged extends DomainError {
  readonly code = 'policy_changed';
  constructor(planId: string, planned: string, now: string, reasons: readonly string[]) {
    super(
      `the policy decision changed since planning (${planned} -> ${now}): ${reasons.join('; ')}`,
      { planId, planned, now, reasons: [...reasons] },
      'The workspace changed since planning: plan the command again and follow the new decision.',
    );
  }
}

/** The plan's working directory no longer resolves to the directory that was planned (and approved). */
export class CwdChanged extends DomainError {
  readonly code = 'cwd_changed';
  constructor(planId: string, plannedCwd: string) {
    super(
      'the working directory of this plan changed since planning',
      { planId, cwd: plannedCwd },
      'Plan the command again for the directory as it is now.',
    );
  }
}

/** `TERM_MCP_APPROVAL=operator`: approvals come only from a human operator, never through an MCP tool. */
export class OperatorApprovalRequired extends DomainError {
  readonly code = 'operator_approval_required';
  constructor(planId: string, approvalId: string) {
    super(
      'approvals are given by the operator, not through an MCP tool',
      { planId, approvalId },
      `Ask the user to have an operator approve approval_id ${approvalId} in the term-mcp web UI (operator approvals route), then execute the plan.`,
    );
  }
}

export class ApprovalExpired extends DomainError {
  readonly code = 'approval_expired';
  constructor(approvalId: string, planId: string, expiredAt: string) {
    super(
      'the approval of this plan expired',
      { approvalId, planId, expiredAt },
      'Retry the plan to create a fresh one (with a new approval_id), and have it approved again.',
    );
  }
}

/** No pending approval with this id: never issued, already used, expired and forgotten, or its session is gone. */
export class ApprovalNotFound extends DomainError {
  readonly code = 'approval_not_found';
  constructor(approvalId: string) {
    super(
      'unknown, used or expired approval',
      { approvalId },
      'Approve a pending approval_id; plan the command again if it is gone.',
    );
  }
}

/** An approval presented for something it was not issued for (another plan, session, command or directory). */
export class ApprovalMismatch extends DomainError {
  readonly code = 'approval_mismatch';
  constructor(approvalId: string, planId: string, field: 'session' | 'plan' | 'command' | 'cwd') {
    super(
      `the approval is bound to another ${field}`,
      { approvalId, planId, field },
      'Use the approval_id returned with this very plan.',
    );
  }
}

/** The session has not started any command yet, so there is nothing to read or control. */
export class NoCommand extends DomainError {
  readonly code = 'no_command';
  constructor(sessionId: string) {
    super('this session has not run a command yet', { sessionId }, 'Execute a plan first.');
  }
}

/** The plan exists but has not been executed, so it has no command. */
export class PlanNotStarted extends DomainError {
  readonly code = 'plan_not_started';
  constructor(planId: string, status: PlanStatus) {
    super(`plan has not been executed (status: ${status})`, { planId, status }, 'Execute this plan first.');
  }
}
