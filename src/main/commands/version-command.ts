import type { CliContext } from '../cli-commands.js';
import { TERM_MCP_VERSION } from '../server-info.js';

/** `term-mcp version` (also `--version`, `-v`). */
export function run(context: CliContext): Promise<number> {
  context.stdout.write(`${TERM_MCP_VERSION}\n`);
  return Promise.resolve(0);
}
