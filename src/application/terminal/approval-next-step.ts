import type { ApprovalChannel } from '../../domain/terminal/approval-types.js';
import type { TerminalPlan } from '../../domain/terminal/terminal-plan.js';

/** What the model should do about a plan that waits for approval, per approval channel. */
export function approvalNextStep(plan: TerminalPlan, channel: ApprovalChannel): string {
  const approvalId = plan.approval?.id ?? 'of this plan';
  if (channel === 'operator') {
    return `Ask the user to have an operator approve approval_id ${approvalId} in the term-mcp web UI, then call terminal_execute with session_id and plan_id.`;
  }
  return 'Show the user this exact command and ask them to confirm; call terminal_approve with session_id and plan_id only after they agree, then terminal_execute.';
}
