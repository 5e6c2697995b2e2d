/**
 * The argument grammar every `term-mcp` command shares, parsed without a framework:
 * `--flag value`, `--flag=value`, `--switch`, positional arguments, and `--` to end the flags.
 * Anything the command does not declare is refused (a typo such as `--worksapce` must never be ignored: the
 * server would then run in the current directory, a wider folder than meant).
 */

/** A flag a command accepts. `value` names its argument in the usage (`DIR`); a flag without one is a switch. */
export interface CliFlag {
  readonly name: string;
  readonly value?: string;
  readonly description: string;
}

/** What one command accepts: its flags, and how many positional arguments. */
export interface CliArgumentSpec {
  /** The command's name, for error messages (`term-mcp stdio: unknown flag --x`). */
  readonly command: string;
  readonly flags: readonly CliFlag[];
  /** Most positional arguments accepted (default 0). */
  readonly maxPositionals?: number;
}

export interface ParsedArguments {
  /** Flags that take a value, by name (without `--`). */
  readonly values: Readonly<Record<string, string>>;
  /** Switches that were given, by name. */
  readonly switches: ReadonlySet<string>;
  readonly positionals: readonly string[];
}

/** Bad command-line usage: the CLI prints `message` on one line, then the usage, and exits 2. */
export class CliUsageError extends Error {
  constructor(
    message: string,
    /** The command whose usage to print; the general usage when undefined. */
    readonly command?: string,
  ) {
    super(message);
    this.name = 'CliUsageError';
  }
}

const LONG_FLAG = /^--([^=]+)(?:=(.*))?$/s;

/** Parses `argv` (the arguments after the command name) against `spec`; throws `CliUsageError` on any misuse. */
export function parseArguments(argv: readonly string[], spec: CliArgumentSpec): ParsedArguments {
  const values: Record<string, string> = {};
  const switches = new Set<string>();
  const positionals: string[] = [];
  const misuse = (message: string): CliUsageError => new CliUsageError(message, spec.command);
  let flagsEnded = false;
  for (let index = 0; index < argv.length; index += 1) {
    const token = argv[index] ?? '';
    if (flagsEnded || token === '-' || !token.startsWith('-')) {
      positionals.push(token);
      continue;
    }
    if (token === '--') {
      flagsEnded = true;
      continue;
    }
    const match = LONG_FLAG.exec(token);
    const name = match?.[1];
    const flag = name === undefined ? undefined : spec.flags.find((candidate) => candidate.name === name);
    if (name === undefined || flag === undefined)
      throw misuse(unknownFlagMessage(name === undefined ? token : `--${name}`, spec));
    if (values[flag.name] !== undefined || switches.has(flag.name))
      throw misuse(`--${flag.name} is given more than once`);
    const inline = match?.[2];
    if (flag.value === undefined) {
      if (inline !== undefined) throw misuse(`--${flag.name} takes no value`);
      switches.add(flag.name);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = argv[index + 1];
      // A following flag is not a value: `--workspace --mode x` forgot the directory.
      if (next !== undefined && !(next.startsWith('-') && next !== '-')) {
        value = next;
        index += 1;
      }
    }
    if (value === undefined || value === '') throw misuse(`--${flag.name} needs a value (${flag.value})`);
    values[flag.name] = value;
  }
  const maxPositionals = spec.maxPositionals ?? 0;
  if (positionals.length > maxPositionals) {
    const extra = positionals[maxPositionals] ?? '';
    throw misuse(
      maxPositionals === 0
        ? `unexpected argument: ${extra}`
        : `too many arguments (at most ${maxPositionals}): ${extra}`,
    );
  }
  return { values, switches, positionals };
}

/** `--help` or `-h` among the flags (before any `--`) asks for the command's usage instead of running it. */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const flags = end === -1 ? argv : argv.slice(0, end);
  return flags.some((token) => token === '--help' || token === '-h');
}

/** The Python seed's commands that have another name here (its `serve` started the HTTP server). */
const SEED_COMMAND_NAMES: Readonly<Record<string, string>> = Object.freeze({ serve: 'http' });

/** `unknown command: htpp (did you mean http?)`, with the general usage. */
export function unknownCommandError(name: string, commandNames: readonly string[]): CliUsageError {
  const seedName = SEED_COMMAND_NAMES[name];
  if (seedName !== undefined && commandNames.includes(seedName)) {
    return new CliUsageError(`unknown command: ${name} (the seed's ${name} is term-mcp ${seedName} here)`);
  }
  const suggestion = closestName(name, commandNames);
  return new CliUsageError(
    `unknown command: ${name}${suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`}`,
  );
}

function unknownFlagMessage(flag: string, spec: CliArgumentSpec): string {
  const suggestion = closestName(
    flag.replace(/^-+/, ''),
    spec.flags.map((candidate) => candidate.name),
  );
  return `unknown flag ${flag}${suggestion === undefined ? '' : ` (did you mean --${suggestion}?)`}`;
}

/** The candidate nearest to `input` by edit distance, when it is close enough to be the likely intent. */
export function closestName(input: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(input.toLowerCase(), name);
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  if (best === undefined) return undefined;
  return best.distance <= Math.max(1, Math.floor(best.name.length / 3)) ? best.name : undefined;
}

/** Damerau-Levenshtein (optimal string alignment): a swapped pair of letters, the commonest typo, costs 1. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        distance = Math.min(distance, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = distance;
    }
  }
  return at(a.length, b.length);
}
