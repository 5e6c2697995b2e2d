import { HmacReceiptSigner } from '../../../src/adapters/receipts/hmac-receipt-signer';
import type { UnsignedReceipt } from '../../../src/domain/terminal/receipt-types';

const RECEIPT: UnsignedReceipt = {
  schema_version: '1.0',
  id: 'r-1',
  plan_id: 'p-1',
  session_id: 's-1',
  command_id: 'c-1',
  command: 'echo héllo',
  command_sha256: 'abc',
  cwd: '/ws',
  mode: 'inspect',
  risk: 'low',
  approved: true,
  policy: {
    allowed: true,
    risk: 'low',
    requires_approval: false,
    reasons: ['read-only command'],
    argv: ['/usr/bin/echo', 'héllo'],
    verdict: 'allow',
    matched_rule: 'read_only_command',
  },
  status: 'succeeded',
  started_at: '2026-01-01T00:00:00.000Z',
  finished_at: '2026-01-01T00:00:00.010Z',
  duration_ms: 10,
  exit_code: 0,
  signal: null,
  stdout: 'héllo\n',
  stderr: '',
  output_truncated: false,
};

describe('HmacReceiptSigner', () => {
  const signer = new HmacReceiptSigner('seed-key');

  test('signs like the seed: HMAC-SHA256 hex over the canonical JSON, signature appended last', () => {
    const signed = signer.sign(RECEIPT);
    // Computed by CPython: hmac.new(b"seed-key", json.dumps(receipt, sort_keys=True, separators=(",", ":")).encode(), sha256)
    expect(signed.signature).toBe('4923cb8686e0f53be012587a1941e92f0356fafecd15eee271287071ea5a02f6');
    expect(Object.keys(signed).at(-1)).toBe('signature');
    expect({ ...signed, signature: undefined }).toEqual({ ...RECEIPT, signature: undefined });
  });

  test('verifies its own receipts and rejects any change', () => {
    const signed = signer.sign(RECEIPT);
    expect(signer.verify(signed)).toBe(true);
    expect(signer.verify({ ...signed, status: 'failed' })).toBe(false);
    expect(signer.verify({ ...signed, policy: { ...signed.policy, argv: [] } })).toBe(false);
    expect(signer.verify({ ...signed, extra: 1 } as typeof signed)).toBe(false);
    expect(signer.verify({ ...signed, signature: 'not-hex' })).toBe(false);
  });

  test('signs the confinement when present, and a receipt without it keeps the seed signature', () => {
    const confinement = {
      sandbox: 'bubblewrap',
      writable_roots: ['/ws', '/tmp'],
      network: 'off',
      limits: { memory_bytes: 4294967296, processes: 1024, file_size_bytes: 1073741824, cpu_seconds: 600 },
    } as const;
    const signed = signer.sign({ ...RECEIPT, confinement });
    expect(signed.signature).not.toBe('4923cb8686e0f53be012587a1941e92f0356fafecd15eee271287071ea5a02f6');
    expect(signer.verify(signed)).toBe(true);
    expect(signer.verify({ ...signed, confinement: { sandbox: 'off' } })).toBe(false);
    const { confinement: _dropped, ...withoutConfinement } = signed;
    expect(signer.verify(withoutConfinement)).toBe(false);
    // An absent (or undefined) field is not part of the payload: the seed's signature, unchanged.
    expect(signer.sign({ ...RECEIPT, confinement: undefined }).signature).toBe(
      '4923cb8686e0f53be012587a1941e92f0356fafecd15eee271287071ea5a02f6',
    );
  });

  test('a receipt signed with another key does not verify', () => {
    expect(new HmacReceiptSigner('other-key').verify(signer.sign(RECEIPT))).toBe(false);
  });

  test('digest is the SHA-256 hex of the UTF-8 text', () => {
    expect(signer.digest('echo héllo')).toBe('9c3ce8dbf1aab93cb9fa1fdc7fd09760a0d3c44e2d5d62672de61051226f0fe2');
  });
});
