import {
  REDACTED_FOR_SHARING,
  ReceiptInspection,
  summarizeReceipt,
} from '../../../src/application/receipts/receipt-inspection';
import { receiptJsonSchema } from '../../../src/application/receipts/receipt-document';
import { HmacReceiptSigner } from '../../../src/adapters/receipts/hmac-receipt-signer';
import { ReceiptNotRedactable } from '../../../src/domain/terminal/receipt-errors';
import type { ExecutionReceipt } from '../../../src/domain/terminal/receipt-types';
import { jsonSchemaValidator, SEED_KEY, SEED_REDACTED_SIGNATURE, seedReceipt } from '../../support/receipt-fixtures';
import { RECEIPT_KEY, TerminalFixture } from '../terminal/terminal-fixture';

describe('ReceiptInspection', () => {
  const seed = new ReceiptInspection(new HmacReceiptSigner(SEED_KEY));

  test('a seed receipt signed by the seed (CPython) checks out: schema and signature', () => {
    expect(seed.report(seedReceipt())).toEqual({ schema_valid: true, signature_valid: true, errors: [] });
  });

  test('any changed field breaks the signature but not the schema', () => {
    expect(seed.report({ ...seedReceipt(), stdout: 'forged\n' })).toEqual({
      schema_valid: true,
      signature_valid: false,
      errors: [],
    });
    expect(seed.report({ ...seedReceipt(), sharing_redacted: false })).toEqual({
      schema_valid: true,
      signature_valid: false,
      errors: [],
    });
  });

  test('another key does not verify it; no key verifies nothing', () => {
    expect(new ReceiptInspection(new HmacReceiptSigner('another-key')).report(seedReceipt()).signature_valid).toBe(
      false,
    );
    const keyless = new ReceiptInspection(undefined);
    expect(keyless.canVerify).toBe(false);
    expect(keyless.report(seedReceipt())).toEqual({ schema_valid: true, signature_valid: false, errors: [] });
  });

  test('schema errors name the field, and a schema-invalid receipt never has a valid signature', () => {
    const { signature: _s, ...unsigned } = seedReceipt();
    const report = seed.report({ ...unsigned, exit_code: 'zero' });
    expect(report.schema_valid).toBe(false);
    expect(report.signature_valid).toBe(false);
    expect(report.errors).toEqual(
      expect.arrayContaining([expect.stringMatching(/^exit_code: /), expect.stringMatching(/^signature: /)]),
    );
    expect(
      seed.report({
        ...seedReceipt(),
        id: 'r-1',
        started_at: '2026-08-27 12:34:56',
        finished_at: '2026-13-01T00:00:00Z',
      }).errors,
    ).toEqual([
      'id: must be a UUID',
      'started_at: must be an RFC 3339 date-time with a zone',
      'finished_at: must be an RFC 3339 date-time with a zone',
    ]);
    expect(seed.report([1, 2]).errors).toEqual([expect.stringMatching(/^receipt: /)]);
    expect(seed.report(null).schema_valid).toBe(false);
  });

  test('redacts for sharing exactly as the seed does, to the byte of the signature', () => {
    const original = seedReceipt();
    const redacted = seed.redactForSharing(original);
    expect(redacted).toEqual({
      ...original,
      sharing_redacted: true,
      command: REDACTED_FOR_SHARING,
      cwd: REDACTED_FOR_SHARING,
      stdout: REDACTED_FOR_SHARING,
      stderr: REDACTED_FOR_SHARING,
      policy: { ...(original.policy as object), argv: [] },
      signature: SEED_REDACTED_SIGNATURE,
    });
    expect(seed.report(redacted)).toEqual({ schema_valid: true, signature_valid: true, errors: [] });
    expect(jsonSchemaValidator(receiptJsonSchema())(redacted).valid).toBe(true);
    // The input is left as it was.
    expect(original).toEqual(seedReceipt());
  });

  test('refuses to redact a receipt whose signature or schema does not check out', () => {
    expect(() => seed.redactForSharing({ ...seedReceipt(), stdout: 'forged' })).toThrow(ReceiptNotRedactable);
    expect(() => seed.redactForSharing({ ...seedReceipt(), extra: true })).toThrow(
      'only a valid signed receipt can be redacted for sharing',
    );
    expect(() => new ReceiptInspection(undefined).redactForSharing(seedReceipt())).toThrow(ReceiptNotRedactable);
  });

  test('redacts a receipt of this server (our fields kept, the secrets gone) and it verifies with the same key', async () => {
    const fixture = new TerminalFixture();
    try {
      const receipt = (await fixture.ok('terminal_execute', { command: 'echo hello' })) as unknown as ExecutionReceipt;
      const ours = new ReceiptInspection(new HmacReceiptSigner(RECEIPT_KEY));
      const redacted = ours.redactForSharing(receipt);
      expect(redacted).toMatchObject({
        command_id: receipt.command_id,
        stdout: REDACTED_FOR_SHARING,
        policy: { verdict: 'allow', argv: [] },
      });
      expect(ours.report(redacted).signature_valid).toBe(true);
      expect(fixture.signer.verify(redacted)).toBe(true);
    } finally {
      await fixture.dispose();
    }
  });

  test('summarizes the fields `receipt show` prints, in the seed order', () => {
    const check = seed.checkStructure(seedReceipt());
    if (!check.valid) throw new Error(check.errors.join('; '));
    expect(Object.keys(summarizeReceipt(check.receipt))).toEqual([
      'id',
      'status',
      'command',
      'cwd',
      'risk',
      'approved',
      'started_at',
      'finished_at',
      'duration_ms',
      'exit_code',
      'signal',
      'output_truncated',
    ]);
  });
});
