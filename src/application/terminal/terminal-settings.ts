import type { ConfinementSummary } from '../../domain/execution/command-confinement.js';
import type { PolicyMode } from '../../domain/policy/policy-types.js';
import type { ApprovalChannel } from '../../domain/terminal/approval-types.js';
import type { OutputBudget } from './output-view.js';

/** The terminal limits and switches, taken from the configuration once at start-up. */
export interface TerminalSettings {
  /** The effective APPROVAL_MODE the policy engine runs in (reported in plans and receipts). */
  readonly mode: PolicyMode;
  readonly approvalChannel: ApprovalChannel;
  readonly defaultTimeoutSeconds: number;
  /** Upper bound for `timeout_seconds` of a plan and for how long a tool call may wait. */
  readonly maxTimeoutSeconds: number;
  /** Per output stream. */
  readonly maxOutputBytes: number;
  /** How much output a receipt shows by default (OUTPUT_RESULT_BYTES, OUTPUT_RESULT_LINES; escapes kept). */
  readonly outputBudget?: OutputBudget;
  readonly maxProcessesPerSession: number;
  readonly approvalTtlSeconds: number;
  /** What commands run inside (reported in plan previews and receipts); absent when the embedder says nothing. */
  readonly confinement?: ConfinementSummary;
}
