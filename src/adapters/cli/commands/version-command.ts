import type { CliContext } from '../cli-context.js';

/** `term-mcp version` (also `--version`, `-v`). */
export function run(context: CliContext): Promise<number> {
  context.stdout.write(`${context.services.version}\n`);
  return Promise.resolve(0);
}
