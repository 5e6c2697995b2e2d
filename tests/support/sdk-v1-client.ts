import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, TOKEN } from '../e2e/http-harness';
import { CLI_PATH, makeTempWorkspace } from './workspace';

export type V1Transport = 'stdio' | 'http';

export interface V1Connection {
  client: Client;
  workspaceRoot: string;
  close(): Promise<void>;
}

/**
 * `@modelcontextprotocol/sdk` 1.32.2's Client, the one most hosts are built on (legacy `initialize` only), connected
 * to the built `term-mcp stdio` child or to a real in-process HTTP server on 127.0.0.1. It lists the tools once, so
 * (like a host) it caches every tool's outputSchema and checks each structured result against it.
 */
export async function connectV1Client(transport: V1Transport, env: Record<string, string> = {}): Promise<V1Connection> {
  const client = new Client({ name: 'term-mcp-tests-sdk-v1', version: '1.0.0' });
  if (transport === 'stdio') {
    const workspace = makeTempWorkspace('term-mcp-v1-');
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI_PATH, 'stdio'],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', WORKSPACE_ROOT: workspace.root, ...env },
        stderr: 'ignore',
      }),
    );
    await client.listTools();
    return {
      client,
      workspaceRoot: workspace.root,
      close: async () => {
        await client.close();
        workspace.remove();
      },
    };
  }
  const server = await startTestServer(env);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
    }),
  );
  await client.listTools();
  return {
    client,
    workspaceRoot: server.workspaceRoot,
    close: async () => {
      await client.close();
      await server.stop();
    },
  };
}
