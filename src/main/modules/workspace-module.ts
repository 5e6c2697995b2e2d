import { typedModule } from '../typed-module.js';
import type { PromptProvider, ResourceProvider } from '../../application/mcp/capability-ports.js';
import { PromptCatalog } from '../../application/prompts/prompt-catalog.js';
import { WorkspaceResources } from '../../application/resources/workspace-resources.js';
import { NodeWorkspaceFS } from '../../adapters/fs/node-workspace-fs.js';
import type { WorkspaceFS } from '../../domain/workspace/workspace-fs.js';
import type { Config } from '../config.js';
import { TYPES } from '../types.js';

/** The workspace's files (read by resources, plans and executions), the MCP resources over them, and the prompt. */
export const workspaceModule = typedModule(({ bind }) => {
  bind<WorkspaceFS>(TYPES.WorkspaceFS).toResolvedValue(
    (config: Config) => new NodeWorkspaceFS({ root: config.workspaceRoot, maxReadBytes: config.maxResourceBytes }),
    [TYPES.Config],
  );
  bind<ResourceProvider>(TYPES.ResourceProvider).toResolvedValue((fs: WorkspaceFS) => new WorkspaceResources({ fs }), [TYPES.WorkspaceFS]);
  bind<PromptProvider>(TYPES.PromptProvider).toResolvedValue(() => new PromptCatalog());
});
