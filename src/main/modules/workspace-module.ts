import { typedModule } from '../typed-module.js';
import type { PromptProvider, ResourceProvider } from '../../application/mcp/capability-ports.js';
import { PromptCatalog } from '../../application/prompts/prompt-catalog.js';
import { WorkspaceResources } from '../../application/resources/workspace-resources.js';
import { OutputResources } from '../../application/resources/output-resources.js';
import { ResourceRouter } from '../../application/resources/resource-router.js';
import type { OutputArchive } from '../../application/terminal/output-archive.js';
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
  // The workspace's files, and (issue 24) the whole output of finished commands.
  bind<ResourceProvider>(TYPES.ResourceProvider).toResolvedValue(
    (fs: WorkspaceFS, archive: OutputArchive, config: Config) =>
      new ResourceRouter(new WorkspaceResources({ fs }), new OutputResources(archive, config.maxResourceBytes)),
    [TYPES.WorkspaceFS, TYPES.OutputArchive, TYPES.Config],
  );
  bind<PromptProvider>(TYPES.PromptProvider).toResolvedValue(() => new PromptCatalog());
});
