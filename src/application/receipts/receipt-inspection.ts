import type { z } from 'zod';
import { ReceiptNotRedactable } from '../../domain/terminal/receipt-errors.js';
import type { ReceiptSigner } from '../../domain/terminal/receipt-signer.js';
import { receiptSchema } from '../terminal/terminal-output-schemas.js';
import type { ReceiptDocument } from './receipt-document.js';

/** Seed `receipt_report`: the wire shape of `POST /receipts/validate` and `term-mcp receipt validate --json`. */
export interface ReceiptReport {
  readonly schema_valid: boolean;
  readonly signature_valid: boolean;
  readonly errors: readonly string[];
}

/** What replaces the private fields of a receipt shared outside (seed wording). */
export const REDACTED_FOR_SHARING = '[REDACTED FOR SHARING]';

export type StructureCheck =
  | { readonly valid: true; readonly receipt: ReceiptDocument }
  | { readonly valid: false; readonly errors: readonly string[] };

/**
 * Checks, verifies and share-redacts receipt documents (seed `receipts.py`). The signer holds the configured key;
 * without one (`undefined`) no signature verifies and nothing can be redacted.
 */
export class ReceiptInspection {
  constructor(private readonly signer: ReceiptSigner | undefined) {}

  get canVerify(): boolean {
    return this.signer !== undefined;
  }

  /** The schema check alone (`--structure-only`). */
  checkStructure(payload: unknown): StructureCheck {
    const parsed = receiptSchema.safeParse(payload);
    return parsed.success
      ? { valid: true, receipt: parsed.data }
      : { valid: false, errors: describeIssues(parsed.error) };
  }

  /** Schema, then signature (only a schema-valid receipt can have a valid signature). */
  report(payload: unknown): ReceiptReport {
    const structure = this.checkStructure(payload);
    if (!structure.valid) return { schema_valid: false, signature_valid: false, errors: structure.errors };
    // The signature covers the document exactly as it was given (the parse above neither adds nor drops a field).
    const signatureValid = this.signer?.verify(payload as ReceiptDocument) ?? false;
    return { schema_valid: true, signature_valid: signatureValid, errors: [] };
  }

  /**
   * Seed `redact_receipt_for_sharing`: command, cwd, stdout and stderr replaced, `policy.argv` emptied,
   * `sharing_redacted: true`, re-signed. The digest `command_sha256` and the policy reasons stay, as in the seed.
   */
  redactForSharing(payload: unknown): ReceiptDocument {
    const report = this.report(payload);
    if (!report.schema_valid || !report.signature_valid || this.signer === undefined) {
      throw new ReceiptNotRedactable(
        report.schema_valid ? ['the signature does not verify with the configured key'] : report.errors,
      );
    }
    const { signature: _original, ...fields } = payload as ReceiptDocument;
    const redacted = {
      ...fields,
      sharing_redacted: true,
      command: REDACTED_FOR_SHARING,
      cwd: REDACTED_FOR_SHARING,
      stdout: REDACTED_FOR_SHARING,
      stderr: REDACTED_FOR_SHARING,
      policy: { ...fields.policy, argv: [] },
    };
    return { ...redacted, signature: this.signer.signatureOf(redacted) };
  }
}

/** Seed `receipt_summary`: the fields `term-mcp receipt show` prints, in this order. */
export interface ReceiptSummary {
  readonly id: string;
  readonly status: ReceiptDocument['status'];
  readonly command: string;
  readonly cwd: string;
  readonly risk: ReceiptDocument['risk'];
  readonly approved: boolean;
  readonly started_at: string;
  readonly finished_at: string;
  readonly duration_ms: number;
  readonly exit_code: number | null;
  readonly signal: number | null;
  readonly output_truncated: boolean;
}

export function summarizeReceipt(receipt: ReceiptDocument): ReceiptSummary {
  return {
    id: receipt.id,
    status: receipt.status,
    command: receipt.command,
    cwd: receipt.cwd,
    risk: receipt.risk,
    approved: receipt.approved,
    started_at: receipt.started_at,
    finished_at: receipt.finished_at,
    duration_ms: receipt.duration_ms,
    exit_code: receipt.exit_code,
    signal: receipt.signal,
    output_truncated: receipt.output_truncated,
  };
}

function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.length === 0 ? 'receipt' : issue.path.join('.')}: ${issue.message}`);
}
