import type { CliContext } from '../cli-commands.js';
import { HTTP_LISTEN_SETTINGS, loadConfig } from '../config.js';
import { withReceiptKey } from '../receipt-key.js';
import { runStdio } from '../run-stdio.js';

/**
 * `term-mcp stdio [flags]`: the configuration (environment, then flags) is checked in full before serving, except
 * HOST and PORT, which STDIO never binds (a PORT set for another server in the same environment must not stop it).
 */
export function run(context: CliContext): Promise<number> {
  return runStdio(withReceiptKey(loadConfig(context.env, context.args.values, context.cwd, HTTP_LISTEN_SETTINGS), (line) => context.stderr.write(line)));
}
