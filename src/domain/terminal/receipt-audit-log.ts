import type { ExecutionReceipt } from './receipt-types.js';

/** Port: somewhere every signed receipt is appended for later audit (AUDIT_LOG). */
export interface ReceiptAuditLog {
  append(receipt: ExecutionReceipt): Promise<void>;
}
