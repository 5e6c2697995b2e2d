import type { z } from 'zod';
import type { ConfinementReadiness, ConfinementSummary } from '../../domain/execution/command-confinement.js';
import type { ApprovalChannel } from '../../domain/terminal/approval-types.js';
import type { TerminalPlan } from '../../domain/terminal/terminal-plan.js';
import { approvalNextStep } from './approval-next-step.js';
import { summarizePolicy } from './policy-summary.js';
import { isoAt } from './clock.js';
import type { confinementSchema, planSchema } from './terminal-output-schemas.js';

export type PlanView = z.infer<typeof planSchema>;

/** The wire form of a plan: seed `ExecutionPlan.to_dict()` plus preview, approval id and next step. */
export function planView(plan: TerminalPlan, channel: ApprovalChannel, readiness?: ConfinementReadiness): PlanView {
  const { decision, limits } = plan;
  const policy = summarizePolicy(decision);
  return {
    schema_version: '1.0',
    id: plan.id,
    session_id: plan.sessionId,
    command: plan.command,
    cwd: plan.cwd,
    mode: plan.mode,
    status: plan.status,
    created_at: plan.createdAt,
    approved_at: plan.approvedAt,
    policy: { ...policy, reasons: [...policy.reasons], argv: [...policy.argv] },
    limits: {
      timeout_seconds: limits.timeoutSeconds,
      max_output_bytes: limits.maxOutputBytes,
      max_processes_per_session: limits.maxProcessesPerSession,
    },
    preview: {
      executable: decision.preview.executable,
      files_potentially_touched: [...decision.preview.filesPotentiallyTouched],
      network_requested: decision.preview.networkRequested,
      executes_project_code: decision.preview.executesProjectCode,
      max_duration_seconds: limits.timeoutSeconds,
      max_output_bytes: limits.maxOutputBytes,
      risk: decision.risk,
      ...(plan.confinement ? { confinement: confinementView(plan.confinement) } : {}),
    },
    ...(plan.approval ? { approval_id: plan.approval.id, approval_expires_at: isoAt(plan.approval.expiresAtMs) } : {}),
    next_step: planNextStep(plan, channel, readiness),
  };
}

function confinementView(confinement: ConfinementSummary): z.infer<typeof confinementSchema> {
  if (confinement.sandbox === 'off') return { sandbox: 'off' };
  const { allowed_domains: allowedDomains, ...rest } = confinement;
  return {
    ...rest,
    writable_roots: [...confinement.writable_roots],
    ...(allowedDomains === undefined ? {} : { allowed_domains: [...allowedDomains] }),
    limits: { ...confinement.limits },
  };
}

function planNextStep(
  plan: TerminalPlan,
  channel: ApprovalChannel,
  readiness: ConfinementReadiness | undefined,
): string {
  // An allowed plan is only worth executing where commands can be confined: otherwise say so, not "call terminal_execute".
  if ((plan.status === 'planned' || plan.status === 'approved') && readiness !== undefined && !readiness.ready) {
    return `The command sandbox is unavailable here (${readiness.reason}), so terminal_execute would refuse this plan with sandbox_unavailable. Tell the user: ${readiness.fix}`;
  }
  // The plan's own id is its `id` field: the next step names the arguments with their values, so `plan_id` is not
  // looked for in the plan (issue 23).
  const executeArguments = `{"session_id": "${plan.sessionId}", "plan_id": "${plan.id}"}`;
  switch (plan.status) {
    case 'blocked':
      // A refused `cd` (outside the workspace, through a link, not written out): the directory is an argument.
      if (plan.decision.matchedRule.startsWith('cd_')) {
        return 'Drop the cd: pass the directory as the cwd argument of terminal_plan or terminal_execute (a directory inside the workspace), then plan the rest of the line again.';
      }
      return 'This command is denied by policy; do not retry variants of it. Ask the user.';
    case 'planned':
      return plan.requiresApproval
        ? approvalNextStep(plan, channel)
        : `Call terminal_execute with ${executeArguments} to run it.`;
    case 'approved':
      return `Approved: call terminal_execute with ${executeArguments} to run it.`;
    case 'running':
    case 'paused':
      return 'Executing: poll terminal_read for its output; terminal_pause, terminal_resume and terminal_cancel control it.';
    case 'succeeded':
    case 'failed':
    case 'timed_out':
    case 'cancelled':
      return 'Finished: terminal_receipt returns its signed receipt; terminal_retry plans the same command again.';
  }
}
