import { DomainError } from '../errors.js';

/** Seed `redact_receipt_for_sharing`: only a receipt whose schema and signature both check out is re-signed. */
export class ReceiptNotRedactable extends DomainError {
  readonly code = 'receipt_not_redactable';
  constructor(errors: readonly string[]) {
    super(
      'only a valid signed receipt can be redacted for sharing',
      { errors: [...errors] },
      'Validate the receipt first (term-mcp receipt validate); redact it with the key that signed it.',
    );
  }
}
