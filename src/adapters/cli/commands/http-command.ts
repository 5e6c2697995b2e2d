import type { CliContext } from '../cli-context.js';
import { requestOf } from './command-io.js';

/** `term-mcp http [flags]`: the configuration is checked in full, then the port is bound, then the server serves. */
export function run(context: CliContext): Promise<number> {
  return context.services.serveHttp(requestOf(context));
}
