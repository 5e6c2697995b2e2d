import type { ConfinementReadiness } from '../../domain/execution/command-confinement.js';
import type { ApprovalService } from './approval-service.js';
import type { CommandInput } from './command-input.js';
import type { CommandReader } from './command-reader.js';
import type { CommandSignals } from './command-signals.js';
import type { ExecutionService } from './execution-service.js';
import type { PlanService } from './plan-service.js';
import type { SessionOverview } from './session-overview.js';
import type { TerminalSettings } from './terminal-settings.js';
import type { TerminalScreens } from './interactive/terminal-screens.js';

/** Everything the terminal tools call. */
export interface TerminalToolkit {
  readonly settings: TerminalSettings;
  readonly plans: PlanService;
  readonly approvals: ApprovalService;
  readonly execution: ExecutionService;
  /** Pause, resume, cancel. */
  readonly signals: CommandSignals;
  readonly reader: CommandReader;
  /** Writes to a command's stdin. */
  readonly stdin: CommandInput;
  readonly sessions: SessionOverview;
  /** Terminal sessions: keys, resize, waits, screens. */
  readonly terminals: TerminalScreens;
  /** Number of a signal name on this platform (`SIGTERM` -> 15), null when unknown. */
  readonly signalNumber: (name: string) => number | null;
  /** The whole output of finished commands (issue 24): deleted with a session the client closes. */
  readonly outputs?: { discardSession(sessionId: string): void };
  /** Whether commands can be confined here (a plan's next step must not send a model to a certain refusal). */
  readonly sandboxReadiness?: () => ConfinementReadiness;
}
