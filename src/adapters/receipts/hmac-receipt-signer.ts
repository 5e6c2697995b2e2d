import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiptSigner, SignedDocument } from '../../domain/terminal/receipt-signer.js';
import type { ExecutionReceipt, UnsignedReceipt } from '../../domain/terminal/receipt-types.js';
import { canonicalJson } from './canonical-json.js';

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** Seed `AuditLog`: HMAC-SHA256 (hex) over the canonical JSON of the receipt without its signature. */
export class HmacReceiptSigner implements ReceiptSigner {
  constructor(private readonly key: string | Buffer) {}

  digest(text: string): string {
    return createHash('sha256').update(text, 'utf8').digest('hex');
  }

  sign(receipt: UnsignedReceipt): ExecutionReceipt {
    return { ...receipt, signature: this.signatureOf(receipt) };
  }

  verify<Document extends SignedDocument>(receipt: Document): boolean {
    const { signature, ...fields } = receipt;
    if (typeof signature !== 'string' || !HEX_SHA256.test(signature)) return false;
    return timingSafeEqual(Buffer.from(signature, 'hex'), Buffer.from(this.signatureOf(fields), 'hex'));
  }

  signatureOf(fields: object): string {
    return createHmac('sha256', this.key).update(canonicalJson(fields), 'utf8').digest('hex');
  }
}
