import 'reflect-metadata';
import { Container } from 'inversify';
import type { Logger } from '../application/logging/logger.js';
import type { PromptProvider, ResourceProvider } from '../application/mcp/capability-ports.js';
import { McpDispatcher } from '../application/mcp/dispatcher.js';
import { featureHandlers } from '../application/mcp/feature-handlers.js';
import { DEFAULT_CACHE_POLICY, SERVER_INSTRUCTIONS, type ServerInfo } from '../application/mcp/server-identity.js';
import { VersionNegotiator } from '../application/mcp/version-negotiator.js';
import { PromptCatalog } from '../application/prompts/prompt-catalog.js';
import { WorkspaceResources } from '../application/resources/workspace-resources.js';
import { ToolCatalog } from '../application/tools/tool-catalog.js';
import type { ToolDefinition } from '../application/tools/tool-definition.js';
import { NodeWorkspaceFS } from '../adapters/fs/node-workspace-fs.js';
import { StderrLogger } from '../adapters/logging/stderr-logger.js';
import type { ProtocolNegotiator } from '../domain/protocol/protocol-negotiator.js';
import type { WorkspaceFS } from '../domain/workspace/workspace-fs.js';
import type { Config } from './config.js';
import { SERVER_INFO } from './server-info.js';
import { bindTerminal } from './terminal-bindings.js';
import { TYPES } from './types.js';

/** Lets a host app replace any binding (its own PolicyEngine, WorkspaceFS, Logger...) before anything is resolved. */
export type ContainerOverrides = (container: Container) => void;

/**
 * The composition root: the only place that knows every concrete class. Everything is a singleton built
 * lazily from its ports, so an override of a port is picked up by everything that depends on it.
 */
export function buildContainer(config: Config, overrides?: ContainerOverrides): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind<Config>(TYPES.Config).toConstantValue(config);
  container.bind<ServerInfo>(TYPES.ServerInfo).toConstantValue(SERVER_INFO);
  container.bind<Logger>(TYPES.Logger).toDynamicValue(() => new StderrLogger(config.logLevel));
  container.bind<ProtocolNegotiator>(TYPES.ProtocolNegotiator).toDynamicValue(() => new VersionNegotiator());
  container
    .bind<WorkspaceFS>(TYPES.WorkspaceFS)
    .toDynamicValue(() => new NodeWorkspaceFS({ root: config.workspaceRoot, maxReadBytes: config.maxResourceBytes }));
  container
    .bind<ResourceProvider>(TYPES.ResourceProvider)
    .toDynamicValue((ctx) => new WorkspaceResources({ fs: ctx.get<WorkspaceFS>(TYPES.WorkspaceFS) }));
  container.bind<PromptProvider>(TYPES.PromptProvider).toDynamicValue(() => new PromptCatalog());
  bindTerminal(container, config);
  container.bind<ToolCatalog>(TYPES.ToolCatalog).toDynamicValue((ctx) => new ToolCatalog(ctx.get<ToolDefinition[]>(TYPES.Tools)));
  container.bind<McpDispatcher>(TYPES.Dispatcher).toDynamicValue(
    (ctx) =>
      new McpDispatcher({
        negotiator: ctx.get<ProtocolNegotiator>(TYPES.ProtocolNegotiator),
        serverInfo: ctx.get<ServerInfo>(TYPES.ServerInfo),
        instructions: SERVER_INSTRUCTIONS,
        cache: DEFAULT_CACHE_POLICY,
        logger: ctx.get<Logger>(TYPES.Logger),
        features: featureHandlers({
          tools: ctx.get<ToolCatalog>(TYPES.ToolCatalog),
          resources: ctx.get<ResourceProvider>(TYPES.ResourceProvider),
          prompts: ctx.get<PromptProvider>(TYPES.PromptProvider),
          pageSize: config.pageSize,
          cache: DEFAULT_CACHE_POLICY,
        }),
      }),
  );
  overrides?.(container);
  return container;
}
