import type { CliContext } from '../cli-context.js';
import { requestOf } from './command-io.js';

/**
 * `term-mcp stdio [flags]`: the configuration (environment, then flags) is checked in full before serving, except
 * HOST and PORT, which STDIO never binds (a PORT set for another server in the same environment must not stop it).
 */
export function run(context: CliContext): Promise<number> {
  return context.services.serveStdio(requestOf(context));
}
