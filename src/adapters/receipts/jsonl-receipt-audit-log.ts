import { constants } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import type { ReceiptAuditLog } from '../../domain/terminal/receipt-audit-log.js';
import type { ExecutionReceipt } from '../../domain/terminal/receipt-types.js';

/**
 * AUDIT_LOG: one compact JSON receipt per line, appended in the order receipts are produced (writes are queued so
 * concurrent receipts never interleave). Parent directories are created; the file is private to the server's user.
 */
export class JsonlReceiptAuditLog implements ReceiptAuditLog {
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly filePath: string) {}

  append(receipt: ExecutionReceipt): Promise<void> {
    const line = `${JSON.stringify(receipt)}\n`;
    const write = this.queue.then(() => this.write(line));
    this.queue = write.catch(() => undefined);
    return write;
  }

  private async write(line: string): Promise<void> {
    await mkdir(path.dirname(this.filePath), { recursive: true });
    // O_NOFOLLOW: a link put in the log's place is never written through (issue 26 item 3: a receipt appended to a
    // shell rc file through a link ran the command's output).
    const file = await open(
      this.filePath,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      await file.write(line, null, 'utf8');
    } finally {
      await file.close();
    }
  }
}
