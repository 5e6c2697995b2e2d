import { unknownCommandError } from '../cli-args.js';
import type { CliContext } from '../cli-context.js';

/** `term-mcp help [command]` (also `--help`, `-h`): the general usage, or one command's. */
export function run(context: CliContext): Promise<number> {
  const [topic] = context.args.positionals;
  if (topic === undefined) {
    context.stdout.write(context.help.general());
    return Promise.resolve(0);
  }
  const usage = context.help.command(topic);
  if (usage === undefined) throw unknownCommandError(topic, context.help.names);
  context.stdout.write(usage);
  return Promise.resolve(0);
}
