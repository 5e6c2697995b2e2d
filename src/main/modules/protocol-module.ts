import { randomBytes } from 'node:crypto';
import { typedModule } from '../typed-module.js';
import type { Logger } from '../../application/logging/logger.js';
import type { PromptProvider, ResourceProvider } from '../../application/mcp/capability-ports.js';
import { McpDispatcher } from '../../application/mcp/dispatcher.js';
import { featureHandlers } from '../../application/mcp/feature-handlers.js';
import { DEFAULT_CACHE_POLICY, SERVER_INSTRUCTIONS, type ServerInfo } from '../../application/mcp/server-identity.js';
import { VersionNegotiator } from '../../application/mcp/version-negotiator.js';
import type { SecretRedactor } from '../../application/terminal/secret-redactor.js';
import { taskHandlers } from '../../application/tasks/task-handlers.js';
import { TaskOffers } from '../../application/tasks/task-offers.js';
import { TaskStore } from '../../application/tasks/task-store.js';
import type { Clock } from '../../application/terminal/clock.js';
import { ToolCallLog } from '../../application/tools/tool-call-log.js';
import { ToolCatalog } from '../../application/tools/tool-catalog.js';
import type { ToolDefinition } from '../../application/tools/tool-definition.js';
import type { ProtocolNegotiator } from '../../domain/protocol/protocol-negotiator.js';
import type { Config } from '../config.js';
import { SERVER_INFO } from '../server-info.js';
import { TYPES } from '../types.js';

/** MCP itself: the server's identity, version negotiation, the tool catalog over `TYPES.Tools`, and the dispatcher. */
export const protocolModule = typedModule(({ bind }) => {
  bind<ServerInfo>(TYPES.ServerInfo).toConstantValue(SERVER_INFO);
  bind<ProtocolNegotiator>(TYPES.ProtocolNegotiator).toResolvedValue(() => new VersionNegotiator());
  bind<ToolCatalog>(TYPES.ToolCatalog).toResolvedValue(
    (tools: ToolDefinition[], logger: Logger, redactor: SecretRedactor) =>
      new ToolCatalog(tools, new ToolCallLog(logger, redactor)),
    [TYPES.Tools, TYPES.Logger, TYPES.SecretRedactor],
  );
  bind<McpDispatcher>(TYPES.Dispatcher).toResolvedValue(
    (
      config: Config,
      negotiator: ProtocolNegotiator,
      serverInfo: ServerInfo,
      logger: Logger,
      tools: ToolCatalog,
      resources: ResourceProvider,
      prompts: PromptProvider,
      now: Clock,
    ) => {
      const taskStore = newTaskStore(config, now);
      const tasks = new TaskOffers(taskStore, TASK_WAIT_SECONDS);
      return new McpDispatcher({
        negotiator,
        serverInfo,
        instructions: SERVER_INSTRUCTIONS,
        cache: DEFAULT_CACHE_POLICY,
        logger,
        features: new Map([
          ...featureHandlers({
            tools,
            resources,
            prompts,
            pageSize: config.pageSize,
            cache: DEFAULT_CACHE_POLICY,
            tasks,
          }),
          ...taskHandlers(taskStore),
        ]),
      });
    },
    [
      TYPES.Config,
      TYPES.ProtocolNegotiator,
      TYPES.ServerInfo,
      TYPES.Logger,
      TYPES.ToolCatalog,
      TYPES.ResourceProvider,
      TYPES.PromptProvider,
      TYPES.Clock,
    ],
  );
});

/**
 * How long `terminal_execute` waits before answering a task-taking client with a task, when the call names no
 * wait: long enough that a quick command answers with its receipt at once, short enough that no client timeout nears.
 */
const TASK_WAIT_SECONDS = 0.25;

/** Ended tasks stay readable as long as an idle execution session lives; the bound keeps a flood of them finite. */
function newTaskStore(config: Config, now: Clock): TaskStore {
  return new TaskStore({
    newTaskId: mintTaskId,
    now,
    ttlMs: config.sessionTimeoutSeconds * 1000,
    pollIntervalMs: 1000,
    maxTasks: 1000,
  });
}

/** 256 random bits (docs/security.md, "Task ids"): a task id is unguessable, and bound to its principal besides. */
function mintTaskId(): string {
  return `task_${randomBytes(32).toString('base64url')}`;
}
