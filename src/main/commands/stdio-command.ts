import type { CliContext } from '../cli-commands.js';
import { loadConfig } from '../config.js';
import { withReceiptKey } from '../receipt-key.js';
import { runStdio } from '../run-stdio.js';

/** `term-mcp stdio [flags]`: the configuration (environment, then flags) is checked in full before serving. */
export function run(context: CliContext): Promise<number> {
  return runStdio(withReceiptKey(loadConfig(context.env, context.args.values, context.cwd), (line) => context.stderr.write(line)));
}
