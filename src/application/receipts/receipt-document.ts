import { z } from 'zod';
import type { ExecutionReceipt } from '../../domain/terminal/receipt-types.js';
import { receiptSchema } from '../terminal/terminal-output-schemas.js';

/** A receipt 1.0 document as the schema accepts it: ours, the seed's, or a copy redacted for sharing. */
export type ReceiptDocument = z.infer<typeof receiptSchema>;

/** Where the JSON Schema is published: `schemas/receipt-1.0.json` in the package, `GET /schemas/receipt-1.0.json`. */
export const RECEIPT_SCHEMA_FILE = 'receipt-1.0.json';
export const RECEIPT_SCHEMA_ID = 'urn:term-mcp:schema:receipt-1.0';

/**
 * The receipt JSON Schema (draft 2020-12), derived from the zod schema so the two cannot drift. The copy shipped in
 * `schemas/` is checked equal to this by tests/application/receipts/receipt-json-schema.test.ts
 * (`npm run schemas` rewrites it).
 */
export function receiptJsonSchema(): Record<string, unknown> {
  const { $schema, ...generated } = z.toJSONSchema(receiptSchema, { target: 'draft-2020-12', io: 'output' });
  return {
    $schema,
    $id: RECEIPT_SCHEMA_ID,
    title: 'term-mcp execution receipt 1.0',
    description:
      'A signed record of one command execution. `signature` is HMAC-SHA256 (hex) over the canonical JSON of every other field (keys sorted, no spaces, non-ASCII escaped as \\uXXXX).',
    ...generated,
  };
}

// Compile-time guards: every receipt this server signs is a receipt document, and the schema names each of its
// fields (a field added to ExecutionReceipt but not to the schema fails the typecheck here).
type DeepReadonly<T> = T extends readonly (infer Item)[]
  ? readonly DeepReadonly<Item>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
type Assert<Condition extends true> = Condition;
type NoKeysBeyond<T, Known> = [Exclude<keyof T, keyof Known>] extends [never] ? true : false;
export type _ProducedReceiptsAreDocuments = Assert<
  ExecutionReceipt extends DeepReadonly<ReceiptDocument> ? true : false
>;
export type _SchemaNamesEveryReceiptField = Assert<NoKeysBeyond<ExecutionReceipt, ReceiptDocument>>;
export type _SchemaNamesEveryPolicyField = Assert<NoKeysBeyond<ExecutionReceipt['policy'], ReceiptDocument['policy']>>;
