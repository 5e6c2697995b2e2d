import { DeepSeekChatModel } from '../../adapters/deepseek/deepseek-chat-model.js';
import type { ChatModel } from '../../domain/chat/chat-model.js';
import { typedModule } from '../typed-module.js';
import type { Logger } from '../../application/logging/logger.js';
import type { SessionRegistry } from '../../application/sessions/session-registry.js';
import type { ApprovalService } from '../../application/terminal/approval-service.js';
import type { PlanService } from '../../application/terminal/plan-service.js';
import type { TerminalSessions } from '../../application/terminal/terminal-sessions.js';
import type { TerminalSettings } from '../../application/terminal/terminal-settings.js';
import type { WorkspaceFS } from '../../domain/workspace/workspace-fs.js';
import type { Config } from '../config.js';
import { TYPES } from '../types.js';
import { mountWeb, type WebMounts } from '../web-mounts.js';

/** HTTP only: the deprecated web API, the planning chat, the operator route and the browser UI, over the terminal. */
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
      registry: SessionRegistry,
      terminalSessions: TerminalSessions,
      workspace: WorkspaceFS,
      settings: TerminalSettings,
      approvals: ApprovalService,
      plans: PlanService,
      model: ChatModel,
    ) => mountWeb({ config, logger, registry, terminalSessions, workspace, settings, approvals, plans, model }),
    [
      TYPES.Config,
      TYPES.Logger,
      TYPES.SessionRegistry,
      TYPES.TerminalSessions,
      TYPES.WorkspaceFS,
      TYPES.TerminalSettings,
      TYPES.ApprovalService,
      TYPES.PlanService,
      TYPES.ChatModel,
    ],
  );
});
