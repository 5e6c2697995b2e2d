import type { ApprovalService } from './approval-service.js';
import type { CommandControl } from './command-control.js';
import type { ExecutionService } from './execution-service.js';
import type { PlanService } from './plan-service.js';
import type { SessionOverview } from './session-overview.js';
import type { TerminalSettings } from './terminal-settings.js';

/** Everything the terminal tools call. */
export interface TerminalToolkit {
  readonly settings: TerminalSettings;
  readonly plans: PlanService;
  readonly approvals: ApprovalService;
  readonly execution: ExecutionService;
  readonly control: CommandControl;
  readonly sessions: SessionOverview;
  /** Number of a signal name on this platform (`SIGTERM` -> 15), null when unknown. */
  readonly signalNumber: (name: string) => number | null;
}
