import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI_PATH } from './workspace';

export type Era = 'legacy' | 'modern';

/** The official TypeScript SDK client, spawning the built `term-mcp stdio`, in the requested era. */
export async function connectSdkOverStdio(
  era: Era,
  env: Record<string, string>,
): Promise<{ client: Client; stderr: () => string }> {
  const client = new Client(
    { name: 'term-mcp-tests', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_PATH, 'stdio'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** Calls a tool; returns whether it failed and its structured content. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; data: Record<string, unknown> }> {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, data: result.structuredContent as Record<string, unknown> };
}

/** Calls a tool that must succeed; returns its structured content. */
export async function callToolOk(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const { isError, data } = await callTool(client, name, args);
  if (isError) throw new Error(`${name} failed: ${JSON.stringify(data)}`);
  return data;
}
