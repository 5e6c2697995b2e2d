import express, { Router, type ErrorRequestHandler, type Request } from 'express';
import type { ReceiptDocument } from '../../application/receipts/receipt-document.js';
import type { ReceiptReport } from '../../application/receipts/receipt-inspection.js';
import { ReceiptNotRedactable } from '../../domain/terminal/receipt-errors.js';

/** What the routes need from the receipt use case (`ReceiptInspection` fits), holding the server's receipt key. */
export interface ReceiptChecks {
  report(payload: unknown): ReceiptReport;
  redactForSharing(payload: unknown): ReceiptDocument;
}

export interface ReceiptRoutesOptions {
  readonly receipts: ReceiptChecks;
  /** Largest body read (the UI imports receipts of up to 2 MB). */
  readonly maxBodyBytes: number;
}

/** Paths whose bodies these routes read themselves (after auth, with their own limit): the transport skips them. */
export const RECEIPT_BODY_PATHS: readonly string[] = Object.freeze(['/receipts/validate', '/receipts/redact']);

const OBJECT_REQUIRED = Object.freeze({
  error: 'receipt_object_required',
  message: 'The body must be a receipt object, or {"receipt": {...}}',
});

/**
 * Seed §7 receipt API, behind the transport's auth, origin check and rate limit:
 * - `POST /receipts/validate` → `{schema_valid, signature_valid, errors}`, 200 when the schema holds, else 400;
 * - `POST /receipts/redact` → `{receipt}`: the copy redacted for sharing, re-signed; 400 unless valid and signed.
 * The body is a receipt or `{"receipt": ...}`; anything that is not an object is 400 `receipt_object_required`.
 */
export function createReceiptRouter(options: ReceiptRoutesOptions): Router {
  const router = Router();
  router.use([...RECEIPT_BODY_PATHS], express.raw({ type: () => true, limit: options.maxBodyBytes }));
  router.post('/receipts/validate', (req, res) => {
    const receipt = receiptFrom(req);
    if (receipt === undefined) {
      res.status(400).json(OBJECT_REQUIRED);
      return;
    }
    const report = options.receipts.report(receipt);
    res.status(report.schema_valid ? 200 : 400).json(report);
  });
  router.post('/receipts/redact', (req, res) => {
    const receipt = receiptFrom(req);
    if (receipt === undefined) {
      res.status(400).json(OBJECT_REQUIRED);
      return;
    }
    try {
      res.status(200).json({ receipt: options.receipts.redactForSharing(receipt) });
    } catch (error) {
      if (!(error instanceof ReceiptNotRedactable)) throw error;
      // Seed body: the message itself is the `error`; `errors` says why (ours).
      res.status(400).json({ error: error.message, errors: error.details.errors ?? [] });
    }
  });
  router.use([...RECEIPT_BODY_PATHS], receiptBodyErrors(options.maxBodyBytes));
  return router;
}

/** The receipt object of the body (bare or wrapped in `{receipt}`), or undefined when there is none. */
function receiptFrom(req: Request): Record<string, unknown> | undefined {
  const body = parseBody(req.body);
  const candidate = isPlainObject(body) && Object.hasOwn(body, 'receipt') ? body.receipt : body;
  return isPlainObject(candidate) ? candidate : undefined;
}

function parseBody(raw: unknown): unknown {
  // A body the transport already parsed arrives as a value; ours arrives as bytes.
  if (!Buffer.isBuffer(raw)) return raw;
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function receiptBodyErrors(maxBodyBytes: number): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
    if (res.headersSent || typeof status !== 'number' || status < 400 || status >= 500) {
      next(error);
      return;
    }
    if (type === 'entity.too.large') {
      res.status(413).json({ error: 'request_too_large', message: `The receipt exceeds ${maxBodyBytes} bytes` });
      return;
    }
    res.status(400).json(OBJECT_REQUIRED);
  };
}
