import type { CliContext } from '../cli-context.js';
import type { CliRequest, CliServices } from '../cli-services.js';

/** What a CLI command may touch: its output streams, the environment and the working directory (given by cli.ts). */
export interface CommandIo {
  /** Read when a command is given `-` for a file. */
  readonly stdin: AsyncIterable<Buffer | string>;
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly services: CliServices;
}

/** A `term-mcp <word> ...` command with its own arguments. Resolves with the exit code. */
export type CliCommand = (argv: readonly string[], io: CommandIo) => Promise<number>;

/** Exit codes shared by the commands: 0 ok, 1 a negative verdict (invalid receipt), 2 usage, input or configuration. */
export const EXIT = Object.freeze({ ok: 0, negative: 1, usage: 2 });

export class CommandUsageError extends Error {}

export interface ParsedArguments {
  readonly positionals: readonly string[];
  readonly flags: ReadonlySet<string>;
}

/** Boolean flags only (`--json`); anything else starting with `-` is a usage error. */
export function parseBooleanFlags(argv: readonly string[], allowed: readonly string[]): ParsedArguments {
  const positionals: string[] = [];
  const flags = new Set<string>();
  for (const token of argv) {
    if (!token.startsWith('-') || token === '-') {
      positionals.push(token);
      continue;
    }
    const name = token.replace(/^--?/, '');
    if (!allowed.includes(name)) throw new CommandUsageError(`unknown flag: ${token}`);
    flags.add(name);
  }
  return { positionals, flags };
}

/** The service request of a command: its surroundings and its valued flags. */
export function requestOf(context: CliContext): CliRequest {
  return { env: context.env, cwd: context.cwd, flags: context.args.values, stderr: context.stderr };
}
