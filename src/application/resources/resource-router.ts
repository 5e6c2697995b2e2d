import type { ResourceDescriptor, ResourceProvider } from '../mcp/capability-ports.js';
import { OUTPUT_RESOURCE_TEMPLATE, type OutputResources } from './output-resources.js';

/**
 * The server's resources: the workspace's files (listed), and the output of finished commands (not listed: a result
 * links them, and the template describes them). Reads go to the one that owns the URI's scheme.
 */
export class ResourceRouter implements ResourceProvider {
  constructor(
    private readonly workspace: ResourceProvider,
    private readonly outputs: OutputResources,
  ) {}

  list(
    cursor: string | undefined,
    pageSize: number,
  ): Promise<{ resources: ResourceDescriptor[]; nextCursor?: string }> {
    return this.workspace.list(cursor, pageSize);
  }

  templates(): ReadonlyArray<Record<string, unknown>> {
    return [...this.workspace.templates(), OUTPUT_RESOURCE_TEMPLATE];
  }

  read(uri: string, principal?: string): Promise<{ contents: Array<Record<string, unknown>> }> {
    return this.outputs.handles(uri) ? this.outputs.read(uri, principal) : this.workspace.read(uri, principal);
  }
}
