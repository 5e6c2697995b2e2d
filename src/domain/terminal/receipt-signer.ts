import type { ExecutionReceipt, UnsignedReceipt } from './receipt-types.js';

/** Port: the receipt cryptography. Keys never leave the implementation. */
export interface ReceiptSigner {
  /** SHA-256 hex digest of a text (UTF-8), used for `command_sha256`. */
  digest(text: string): string;
  /** Adds the signature over the canonical form of every field. */
  sign(receipt: UnsignedReceipt): ExecutionReceipt;
  /** True when the signature matches the receipt's fields exactly (any change to any field breaks it). */
  verify(receipt: ExecutionReceipt): boolean;
}
