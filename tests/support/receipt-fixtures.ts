import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT } from './workspace';

/** The key the seed fixture (tests/fixtures/receipts/seed-receipt.json) was signed with, by CPython (seed algorithm). */
export const SEED_KEY = 'seed-auth-token-0123456789abcdefghijklmnopqrstuv';
/** CPython, seed `redact_receipt_for_sharing(seed_receipt, SEED_KEY)["signature"]`. */
export const SEED_REDACTED_SIGNATURE = '4029b5d9709b207b2a07d989d57c60e73efea81142e00e660e8860098928d2d7';
export const SEED_RECEIPT_FILE = path.join(REPO_ROOT, 'tests', 'fixtures', 'receipts', 'seed-receipt.json');
export const SHIPPED_SCHEMA_FILE = path.join(REPO_ROOT, 'schemas', 'receipt-1.0.json');

export function seedReceipt(): Record<string, unknown> {
  return JSON.parse(readFileSync(SEED_RECEIPT_FILE, 'utf8')) as Record<string, unknown>;
}

/** The part of ajv 8 used here (the top-level `ajv` is v6; ajv 8 comes with ajv-formats and the MCP SDK). */
interface Ajv8 {
  compile(
    schema: object,
  ): ((value: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string }> | null };
}
type Ajv8Constructor = new (options: { allErrors: boolean; strict: boolean }) => Ajv8;

const requireBesideAjvFormats = createRequire(require.resolve('ajv-formats'));
const Ajv2020 = (requireBesideAjvFormats('ajv/dist/2020') as { default: Ajv8Constructor }).default;
const addFormats = (requireBesideAjvFormats('ajv-formats') as { default: (ajv: Ajv8) => void }).default;

/** A real JSON Schema validator (ajv 8, draft 2020-12, formats checked), independent of zod. */
export function jsonSchemaValidator(
  schema: Record<string, unknown>,
): (value: unknown) => { valid: boolean; errors: string[] } {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  return (value) => {
    const valid = validate(value);
    return { valid, errors: (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`) };
  };
}
