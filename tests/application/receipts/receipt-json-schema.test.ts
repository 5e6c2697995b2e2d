import { readFileSync } from 'node:fs';
import { receiptJsonSchema } from '../../../src/application/receipts/receipt-document';
import type { ExecutionReceipt } from '../../../src/domain/terminal/receipt-types';
import { jsonSchemaValidator, seedReceipt, SHIPPED_SCHEMA_FILE } from '../../support/receipt-fixtures';
import { TerminalFixture } from '../terminal/terminal-fixture';

describe('the receipt JSON Schema', () => {
  const validate = jsonSchemaValidator(receiptJsonSchema());

  test('the copy shipped in schemas/ is the one derived from the zod schema (run `npm run schemas` after a change)', () => {
    expect(JSON.parse(readFileSync(SHIPPED_SCHEMA_FILE, 'utf8'))).toEqual(receiptJsonSchema());
  });

  test('is draft 2020-12, closed at the root and in the policy, like the seed schema', () => {
    const schema = receiptJsonSchema();
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.additionalProperties).toBe(false);
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    expect(properties.policy?.additionalProperties).toBe(false);
    expect(schema.required).toEqual([
      'schema_version',
      'id',
      'plan_id',
      'session_id',
      'command',
      'command_sha256',
      'cwd',
      'mode',
      'risk',
      'approved',
      'policy',
      'status',
      'started_at',
      'finished_at',
      'duration_ms',
      'exit_code',
      'signal',
      'stdout',
      'stderr',
      'output_truncated',
      'signature',
    ]);
  });

  test('accepts the seed receipt and a receipt from a real terminal_execute', async () => {
    expect(validate(seedReceipt())).toEqual({ valid: true, errors: [] });
    const fixture = new TerminalFixture();
    try {
      const receipt = (await fixture.ok('terminal_execute', { command: 'echo hello' })) as unknown as ExecutionReceipt;
      expect(validate(receipt)).toEqual({ valid: true, errors: [] });
    } finally {
      await fixture.dispose();
    }
  });

  test.each([
    ['an unknown field', { extra: 1 }],
    ['an unknown policy field', { policy: { ...(seedReceipt().policy as object), shell: true } }],
    ['a non-hex signature', { signature: 'not-a-signature' }],
    ['a negative duration', { duration_ms: -1 }],
    ['a signal 0', { signal: 0 }],
    ['a non-uuid id', { id: 'r-1' }],
    ['a timestamp without a zone', { started_at: '2026-08-27 12:34:56' }],
    ['another schema version', { schema_version: '2.0' }],
    ['a running status', { status: 'running' }],
  ])('rejects %s', (_name, change) => {
    expect(validate({ ...seedReceipt(), ...change }).valid).toBe(false);
  });
});
