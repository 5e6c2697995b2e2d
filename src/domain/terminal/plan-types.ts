import type { ConfinementSummary } from '../execution/command-confinement.js';
import type { PolicyDecision, PolicyMode } from '../policy/policy-types.js';
import type { ApprovalGrant } from './approval-types.js';

/** Seed §3.3: the life of a plan. `blocked` plans never leave it; a plan executes at most once. */
export type PlanStatus =
  | 'planned'
  | 'blocked'
  | 'approved'
  | 'running'
  | 'paused'
  | 'succeeded'
  | 'failed'
  | 'cancelled'
  | 'timed_out';

/** The bounds a plan will run under, fixed when it is planned. */
export interface PlanLimits {
  readonly timeoutSeconds: number;
  /** Per output stream. */
  readonly maxOutputBytes: number;
  readonly maxProcessesPerSession: number;
}

/**
 * One command judged by the policy in one session. Planning never executes anything. The command, cwd and decision
 * are fixed at planning time; only the status, the approval time and the started command change afterwards.
 */
export interface TerminalPlan {
  readonly id: string;
  readonly sessionId: string;
  readonly command: string;
  /** Absolute and resolved (no symlinks), inside the workspace. */
  readonly cwd: string;
  readonly mode: PolicyMode;
  readonly createdAt: string;
  readonly decision: PolicyDecision;
  readonly limits: PlanLimits;
  /** The OS confinement the command will run in (copied into its receipt). */
  readonly confinement: ConfinementSummary | undefined;
  /** Issued with the plan, only when the decision requires approval. */
  readonly approval: ApprovalGrant | undefined;
  status: PlanStatus;
  approvedAt: string | null;
  /** The command started from this plan, once it executed. */
  commandId: string | null;
}
