import type { ParsedArguments } from './cli-args.js';
import type { CliServices } from './cli-services.js';

/** Where a command writes. Usage errors and diagnostics go to stderr: for `stdio`, stdout is the protocol. */
export interface CliOutput {
  write(text: string): unknown;
}

/**
 * The process surroundings the CLI runs in, and the services it drives: the composition root (src/main/cli.ts)
 * passes the real ones; tests pass their own streams.
 */
export interface CliEnvironment {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  readonly services: CliServices;
}

/** The summary and usage of the commands, for `help` (handed in, so no command module imports the command table). */
export interface CliHelp {
  /** The general usage: every command. */
  general(): string;
  /** One command's usage, or undefined when there is no such command. */
  command(name: string): string | undefined;
  /** Every command's name, to suggest the closest to a typo. */
  readonly names: readonly string[];
}

/** What the CLI hands a command: the process's surroundings, its own argv, and that argv already checked. */
export interface CliContext extends CliEnvironment {
  /** The command's name as typed (`stdio`, `receipt`...). */
  readonly name: string;
  /** The arguments after the command name, as given. */
  readonly argv: readonly string[];
  /** `argv` parsed against the command's table entry (unknown flags were refused before the module loaded). */
  readonly args: ParsedArguments;
  readonly help: CliHelp;
}

/** A command's module, imported only when that command runs. Resolves with the exit code. */
export interface CliCommandModule {
  run(context: CliContext): Promise<number>;
}
