import { DEMO_SCENARIOS } from '../../../application/demo/demo-scenarios.js';
import type { CliContext } from '../cli-context.js';
import { CommandUsageError, EXIT, parseBooleanFlags, type CommandIo } from './command-io.js';

export const DEMO_USAGE = `Usage: term-mcp demo [--json]

Lists the model-free demo scenarios (also served at GET /demo/scenarios): the command to plan and what it shows.
`;

/** `term-mcp demo [--json]` (seed `demo`): one scenario per line, or `{"scenarios": [...]}` with --json. */
export async function runDemoCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let json: boolean;
  try {
    const { positionals, flags } = parseBooleanFlags(argv, ['json', 'help']);
    if (flags.has('help')) {
      io.stdout.write(DEMO_USAGE);
      return EXIT.ok;
    }
    if (positionals.length > 0) throw new CommandUsageError(`unexpected argument: ${positionals[0] ?? ''}`);
    json = flags.has('json');
  } catch (error) {
    if (!(error instanceof CommandUsageError)) throw error;
    io.stderr.write(`term-mcp demo: ${error.message}\n\n${DEMO_USAGE}`);
    return EXIT.usage;
  }
  if (json) {
    io.stdout.write(`${JSON.stringify({ scenarios: DEMO_SCENARIOS }, null, 2)}\n`);
    return EXIT.ok;
  }
  for (const scenario of DEMO_SCENARIOS) {
    io.stdout.write(`${scenario.id}: ${scenario.command} — ${scenario.description}\n    ${scenario.shows}\n`);
  }
  return EXIT.ok;
}

/** The command table's entry point (cli-commands.ts): the table has checked the flags; this reads the rest. */
export function run(context: CliContext): Promise<number> {
  return runDemoCommand(context.argv, {
    stdin: process.stdin,
    stdout: context.stdout,
    stderr: context.stderr,
    env: context.env,
    cwd: context.cwd,
    services: context.services,
  });
}
