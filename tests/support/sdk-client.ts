import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI_PATH } from './workspace';

export type Era = 'legacy' | 'modern';

/** The official TypeScript SDK client, spawning the built `term-mcp stdio`, in the requested era. */
export async function connectSdkOverStdio(era: Era, env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
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
