import { unknownCommandError } from '../cli-args.js';
import { CLI_COMMANDS, type CliContext } from '../cli-commands.js';
import { commandUsage, generalUsage } from '../cli-usage.js';

/** `term-mcp help [command]` (also `--help`, `-h`): the general usage, or one command's. */
export function run(context: CliContext): Promise<number> {
  const [topic] = context.args.positionals;
  if (topic === undefined) {
    context.stdout.write(generalUsage());
    return Promise.resolve(0);
  }
  const command = CLI_COMMANDS[topic];
  if (command === undefined) throw unknownCommandError(topic, Object.keys(CLI_COMMANDS));
  context.stdout.write(commandUsage(topic, command));
  return Promise.resolve(0);
}
