import type { CliCommand } from './command-io.js';
import { runDemoCommand } from './demo-command.js';
import { runReceiptCommand } from './receipt-command.js';

/** Commands that take their own arguments (not the server flags); cli.ts dispatches on the first word. */
export const STANDALONE_COMMANDS: ReadonlyMap<string, CliCommand> = new Map<string, CliCommand>([
  ['receipt', runReceiptCommand],
  ['demo', runDemoCommand],
]);
