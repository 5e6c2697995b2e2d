import { appendFile, mkdir } from 'node:fs/promises';
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
    await appendFile(this.filePath, line, { encoding: 'utf8', mode: 0o600 });
  }
}
