import { typedModule } from '../typed-module.js';
import type { Logger } from '../../application/logging/logger.js';
import type { PromptProvider, ResourceProvider } from '../../application/mcp/capability-ports.js';
import { McpDispatcher } from '../../application/mcp/dispatcher.js';
import { featureHandlers } from '../../application/mcp/feature-handlers.js';
import { DEFAULT_CACHE_POLICY, SERVER_INSTRUCTIONS, type ServerInfo } from '../../application/mcp/server-identity.js';
import { VersionNegotiator } from '../../application/mcp/version-negotiator.js';
import type { SecretRedactor } from '../../application/terminal/secret-redactor.js';
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
    (tools: ToolDefinition[], logger: Logger, redactor: SecretRedactor) => new ToolCatalog(tools, new ToolCallLog(logger, redactor)),
    [TYPES.Tools, TYPES.Logger, TYPES.SecretRedactor],
  );
  bind<McpDispatcher>(TYPES.Dispatcher).toResolvedValue(
    (config: Config, negotiator: ProtocolNegotiator, serverInfo: ServerInfo, logger: Logger, tools: ToolCatalog, resources: ResourceProvider, prompts: PromptProvider) =>
      new McpDispatcher({
        negotiator,
        serverInfo,
        instructions: SERVER_INSTRUCTIONS,
        cache: DEFAULT_CACHE_POLICY,
        logger,
        features: featureHandlers({ tools, resources, prompts, pageSize: config.pageSize, cache: DEFAULT_CACHE_POLICY }),
      }),
    [TYPES.Config, TYPES.ProtocolNegotiator, TYPES.ServerInfo, TYPES.Logger, TYPES.ToolCatalog, TYPES.ResourceProvider, TYPES.PromptProvider],
  );
});
