import { ConfigurationError } from '../../domain/errors.js';
import { asksForHelp, CliUsageError, parseArguments, unknownCommandError } from './cli-args.js';
import { CLI_COMMANDS, DEFAULT_COMMAND, type CliCommand } from './cli-commands.js';
import type { CliEnvironment, CliHelp, CliOutput } from './cli-context.js';
import { commandUsage, generalUsage } from './cli-usage.js';

/** Exit codes: 0 ok, 1 runtime failure, 2 usage or configuration error (nothing was started). */
export const EXIT = Object.freeze({ ok: 0, failure: 1, usage: 2 });

/** Top-level spellings that stand for a command. */
const ALIASES: Readonly<Record<string, string>> = Object.freeze({
  '--help': 'help',
  '-h': 'help',
  '--version': 'version',
  '-v': 'version',
});

/**
 * `term-mcp [command] [args]`: finds the command in the table, answers `--help`, checks the arguments against the
 * command's declared flags, and only then loads and runs the command's module. Never throws: every failure becomes
 * one line on stderr (plus the usage for a usage error) and an exit code.
 */
export async function runCli(
  argv: readonly string[],
  environment: CliEnvironment,
  commands: Readonly<Record<string, CliCommand>> = CLI_COMMANDS,
): Promise<number> {
  const { name, rest } = splitCommand(argv);
  try {
    const command = commands[name];
    if (command === undefined) throw unknownCommandError(name, Object.keys(commands));
    if (asksForHelp(rest)) {
      environment.stdout.write(commandUsage(name, command));
      return EXIT.ok;
    }
    const args = parseArguments(rest, { command: name, flags: command.flags, maxPositionals: command.maxPositionals });
    const module = await command.load();
    return await module.run({ ...environment, name, argv: rest, args, help: helpOf(commands) });
  } catch (error) {
    return report(error, name, environment.stderr, commands);
  }
}

function helpOf(commands: Readonly<Record<string, CliCommand>>): CliHelp {
  return {
    general: () => generalUsage(commands),
    command: (name) => {
      const command = commands[name];
      return command === undefined ? undefined : commandUsage(name, command);
    },
    names: Object.keys(commands),
  };
}

function splitCommand(argv: readonly string[]): { name: string; rest: readonly string[] } {
  const [first, ...rest] = argv;
  if (first === undefined) return { name: DEFAULT_COMMAND, rest: [] };
  const alias = ALIASES[first];
  if (alias !== undefined) return { name: alias, rest };
  // `term-mcp --workspace /x` is `term-mcp stdio --workspace /x`.
  if (first.startsWith('-')) return { name: DEFAULT_COMMAND, rest: argv };
  return { name: first, rest };
}

function report(
  error: unknown,
  name: string,
  stderr: CliOutput,
  commands: Readonly<Record<string, CliCommand>>,
): number {
  if (error instanceof CliUsageError) {
    const command = error.command === undefined ? undefined : commands[error.command];
    const prefix = error.command === undefined ? 'term-mcp' : `term-mcp ${error.command}`;
    const usage =
      command === undefined || error.command === undefined
        ? generalUsage(commands)
        : commandUsage(error.command, command);
    stderr.write(`${prefix}: ${error.message}\n\n${usage}`);
    return EXIT.usage;
  }
  if (error instanceof ConfigurationError) {
    stderr.write(`term-mcp ${name}: configuration error: ${error.message}\n`);
    return EXIT.usage;
  }
  stderr.write(`term-mcp ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
  return EXIT.failure;
}
