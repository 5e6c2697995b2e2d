import type { CliContext } from '../cli-commands.js';
import { loadConfig } from '../config.js';
import { withReceiptKey } from '../receipt-key.js';
import { runHttp } from '../run-http.js';

/** `term-mcp http [flags]`: the configuration is checked in full, then the port is bound, then the server serves. */
export function run(context: CliContext): Promise<number> {
  return runHttp(withReceiptKey(loadConfig(context.env, context.args.values, context.cwd), (line) => context.stderr.write(line)));
}
