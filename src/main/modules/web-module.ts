import { DeepSeekChatModel } from '../../adapters/deepseek/deepseek-chat-model.js';
import type { ChatModel } from '../../domain/chat/chat-model.js';
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
  bind<ChatModel>(TYPES.ChatModel).toResolvedValue(
    (config: Config) =>
      new DeepSeekChatModel({
        apiKey: config.deepseekApiKey,
        baseUrl: config.deepseekBaseUrl,
        model: config.deepseekModel,
        timeoutMs: config.deepseekTimeoutSeconds * 1000,
        maxRetries: config.deepseekMaxRetries,
        backoffMs: config.deepseekBackoffSeconds * 1000,
        maxTokens: config.deepseekMaxTokens,
      }),
    [TYPES.Config],
  );
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
      model: ChatModel,
    ) => mountWeb({ config, logger, sessions, events, workspace, settings, approvals, plans, model }),
    [
      TYPES.Config,
      TYPES.Logger,
      TYPES.TerminalSessionStore,
      TYPES.TerminalEvents,
      TYPES.WorkspaceFS,
      TYPES.TerminalSettings,
      TYPES.ApprovalService,
      TYPES.PlanService,
      TYPES.ChatModel,
    ],
  );
});
