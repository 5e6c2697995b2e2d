import type { CliFlag } from './cli-args.js';
import { DEFAULT_COMMAND, type CliCommand } from './cli-commands.js';

/** `term-mcp --help`: every command of the table, then the flags of the default command. */
export function generalUsage(commands: Readonly<Record<string, CliCommand>>): string {
  const rows = Object.entries(commands).map(
    ([name, command]) => [`${name} ${command.synopsis}`.trim(), command.summary] as const,
  );
  const defaultCommand = commands[DEFAULT_COMMAND];
  return [
    'Usage: term-mcp [command] [flags]',
    '',
    'Commands:',
    ...table(rows),
    '',
    ...(defaultCommand && defaultCommand.flags.length > 0
      ? [
          `Flags of ${DEFAULT_COMMAND} (each sets the environment variable it names;`,
          'see docs/configuration.md):',
          ...flagRows(defaultCommand.flags),
          '',
        ]
      : []),
    'Run `term-mcp <command> --help` for the flags of any command.',
    'Default mode: inspect (read-only); choose another with --mode or APPROVAL_MODE.',
    '',
  ].join('\n');
}

/** `term-mcp <name> --help`: the command's usage line, summary and flags. */
export function commandUsage(name: string, command: CliCommand): string {
  return [
    `Usage: term-mcp ${`${name} ${command.synopsis}`.trim()}`,
    '',
    ...wrap(command.summary, HELP_WIDTH),
    '',
    ...(command.details === undefined ? [] : [...command.details, '']),
    'Flags:',
    ...table([...flagColumns(command.flags), ['-h, --help', 'print this help']]),
    '',
  ].join('\n');
}

function flagRows(flags: readonly CliFlag[]): string[] {
  return table(flagColumns(flags));
}

function flagColumns(flags: readonly CliFlag[]): Array<readonly [string, string]> {
  return flags.map(
    (flag) => [`--${flag.name}${flag.value === undefined ? '' : ` ${flag.value}`}`, flag.description] as const,
  );
}

/** Help fits an 80-column terminal: a description that does not fit beside its left column goes below it. */
export const HELP_WIDTH = 80;
const HANGING_INDENT = '      ';

function table(rows: ReadonlyArray<readonly [string, string]>): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  if (rows.every(([, right]) => 2 + width + 2 + right.length <= HELP_WIDTH))
    return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
  return rows.flatMap(([left, right]) => [
    `  ${left}`,
    ...wrap(right, HELP_WIDTH - HANGING_INDENT.length).map((line) => `${HANGING_INDENT}${line}`),
  ]);
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
