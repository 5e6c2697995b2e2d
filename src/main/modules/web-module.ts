import { typedModule } from '../typed-module.js';
import type { Logger } from '../../application/logging/logger.js';
import type { ApprovalService } from '../../application/terminal/approval-service.js';
import type { PlanService } from '../../application/terminal/plan-service.js';
import type { TerminalSessionStore } from '../../application/terminal/terminal-session-store.js';
import type { TerminalSettings } from '../../application/terminal/terminal-settings.js';
import type { TerminalEvents } from '../../domain/terminal/terminal-events.js';
import type { WorkspaceFS } from '../../domain/workspace/workspace-fs.js';
import type { Config } from '../config.js';
import { TYPES } from '../types.js';
import { mountWeb, type WebMounts } from '../web-mounts.js';

/** HTTP only: the browser UI and its routes, the planning chat, the operator route and the deprecated web API. */
export const webModule = typedModule(({ bind }) => {
  bind<WebMounts>(TYPES.WebMounts).toResolvedValue(
    (
      config: Config,
      logger: Logger,
      sessions: TerminalSessionStore,
      events: TerminalEvents,
      workspace: WorkspaceFS,
      settings: TerminalSettings,
      approvals: ApprovalService,
      plans: PlanService,
    ) => mountWeb({ config, logger, sessions, events, workspace, settings, approvals, plans }),
    [
      TYPES.Config,
      TYPES.Logger,
      TYPES.TerminalSessionStore,
      TYPES.TerminalEvents,
      TYPES.WorkspaceFS,
      TYPES.TerminalSettings,
      TYPES.ApprovalService,
      TYPES.PlanService,
    ],
  );
});
