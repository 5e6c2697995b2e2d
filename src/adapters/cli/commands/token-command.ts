import { randomBytes } from 'node:crypto';
import type { CliContext } from '../cli-context.js';

/** `term-mcp token`: 32 random bytes, base64url (43 characters), for TERM_MCP_TOKEN. */
export function run(context: CliContext): Promise<number> {
  context.stdout.write(`${randomBytes(32).toString('base64url')}\n`);
  return Promise.resolve(0);
}
