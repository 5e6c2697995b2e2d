import type { TerminalSession } from '../../domain/terminal/terminal-session.js';
import { settledWithin } from '../timing/within.js';

/** How long a read waits for the receipt of a command that has just ended (signed once its output is read back). */
const RECEIPT_SETTLE_MS = 3000;

/**
 * The one wait for receipts still being recorded: those of the session's commands that have ended, at most
 * RECEIPT_SETTLE_MS. A read that reports a command's end, or a receipt read after it, then finds the receipt.
 */
export function receiptsRecorded(terminal: TerminalSession): Promise<void> {
  return settledWithin(terminal.recordingSettled(), RECEIPT_SETTLE_MS);
}
