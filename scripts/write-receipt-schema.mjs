// Rewrites schemas/receipt-1.0.json from the zod receipt schema (run after `npm run build`: `npm run schemas`).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { RECEIPT_SCHEMA_FILE, receiptJsonSchema } from '../dist/application/receipts/receipt-document.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const target = path.join(root, 'schemas', RECEIPT_SCHEMA_FILE);
writeFileSync(target, `${JSON.stringify(receiptJsonSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${path.relative(root, target)}\n`);
