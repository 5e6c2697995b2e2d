import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serverUserLauncher } from './sandbox-attack';
import { CLI_PATH } from './workspace';

/** A tool result as the v1 SDK client returns it (it has checked `structuredContent` against the outputSchema). */
export interface ToolAnswer {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

export interface ScreenAnswer {
  session_id: string;
  command_id: string;
  plan_id: string | null;
  status: string;
  exit_code: number | null;
  finished: boolean;
  screen: { text: string; cols: number; rows: number; cursor: { row: number; col: number }; alternate_screen: boolean };
  scrollback: { text: string; lines: number; dropped: boolean };
  waited: string;
}

/**
 * The built server over STDIO as `who` (root, or nobody through setpriv), driven by the v1 SDK client, which lists
 * the tools once and checks every structured result against its tool's outputSchema.
 */
export async function connectTerminalClient(
  who: 'root' | 'nobody',
  workspaceRoot: string,
  env: Record<string, string> = {},
): Promise<{ client: Client; serverPid: () => number | null; close(): Promise<void> }> {
  const [launcher, ...launcherArgs] = serverUserLauncher(who);
  const transport = new StdioClientTransport({
    command: launcher ?? process.execPath,
    args: [...launcherArgs, ...(launcher ? [process.execPath] : []), CLI_PATH, 'stdio'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', WORKSPACE_ROOT: workspaceRoot, LOG_LEVEL: 'error', ...env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'term-mcp-tests-terminal-sessions', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  return { client, serverPid: () => transport.pid, close: () => client.close() };
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 90_000 })) as ToolAnswer;
}

/** A call that must succeed with a screen. */
export async function screenCall(
  client: Client,
  name: 'terminal_open' | 'terminal_screen',
  args: Record<string, unknown>,
): Promise<ScreenAnswer> {
  const answer = await call(client, name, args);
  if (answer.isError) throw new Error(`${name} failed: ${JSON.stringify(answer.structuredContent)}`);
  return answer.structuredContent as unknown as ScreenAnswer;
}

/** Types keys at the terminal and waits (up to 30 s, a loaded machine) for `pattern` on the screen. */
export async function typeAndWait(
  client: Client,
  at: ScreenAnswer,
  keys: unknown[],
  pattern: string,
): Promise<ScreenAnswer> {
  return screenCall(client, 'terminal_screen', {
    session_id: at.session_id,
    command_id: at.command_id,
    keys,
    wait: { pattern, timeout_ms: 30_000 },
  });
}
