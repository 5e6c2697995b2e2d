import type { ExecutionReceipt, UnsignedReceipt } from './receipt-types.js';

/** Any signed receipt document: ours, the seed's, or a copy redacted for sharing. */
export interface SignedDocument {
  readonly signature: string;
}

/** Port: the receipt cryptography. Keys never leave the implementation. */
export interface ReceiptSigner {
  /** SHA-256 hex digest of a text (UTF-8), used for `command_sha256`. */
  digest(text: string): string;
  /** Adds the signature over the canonical form of every field. */
  sign(receipt: UnsignedReceipt): ExecutionReceipt;
  /** The signature of a document's fields (given without `signature`): re-signs a copy redacted for sharing. */
  signatureOf(fields: object): string;
  /** True when the signature matches the document's other fields exactly (any change to any field breaks it). */
  verify<Document extends SignedDocument>(receipt: Document): boolean;
}
