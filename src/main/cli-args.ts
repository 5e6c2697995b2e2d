/** `term-mcp <command> [--flag value | --flag=value]...`, parsed without a framework. */
export interface CliArguments {
  command: string;
  flags: Record<string, string>;
}

export class CliUsageError extends Error {}

const FLAG_PATTERN = /^--([a-z][a-z-]*)(?:=(.*))?$/;

export function parseCliArguments(argv: readonly string[]): CliArguments {
  const [first, ...rest] = argv;
  const command = first === undefined || first.startsWith('--') ? 'stdio' : first;
  const tokens = first === undefined || first.startsWith('--') ? [...argv] : rest;
  const flags: Record<string, string> = {};
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] ?? '';
    const match = FLAG_PATTERN.exec(token);
    if (!match?.[1]) throw new CliUsageError(`unexpected argument: ${token}`);
    if (match[2] !== undefined) {
      flags[match[1]] = match[2];
      continue;
    }
    const value = tokens[index + 1];
    if (value === undefined || value.startsWith('--')) {
      flags[match[1]] = 'true';
      continue;
    }
    flags[match[1]] = value;
    index += 1;
  }
  return { command, flags };
}

export const USAGE = `Usage: term-mcp <command> [flags]

Commands:
  stdio            MCP over STDIO (newline-delimited JSON-RPC); the default
  http             MCP over Streamable HTTP at POST /mcp (plus the web UI)
  token            print a fresh random bearer token
  version          print the version

Flags (each also has an environment variable; see docs/configuration.md):
  --workspace DIR  WORKSPACE_ROOT (default: the current directory)
  --policy FILE    TERM_MCP_POLICY (JSON or YAML policy file)
  --mode MODE      APPROVAL_MODE: inspect (default) | confirm | trusted
  --approval CH    TERM_MCP_APPROVAL: client (default) | operator
  --host HOST      HOST (http; default 127.0.0.1)
  --port PORT      PORT (http; default 8000)
`;
