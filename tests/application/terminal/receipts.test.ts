import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { JsonlReceiptAuditLog } from '../../../src/adapters/receipts/jsonl-receipt-audit-log';
import type { ExecutionReceipt } from '../../../src/domain/terminal/receipt-types';
import { makeTempWorkspace } from '../../support/workspace';
import { TerminalFixture } from './terminal-fixture';

const API_KEY = 'sk-live-0123456789abcdef0123';

describe('receipts', () => {
  let fixture: TerminalFixture;

  afterEach(async () => {
    await fixture.dispose();
  });

  test('a receipt has the seed fields plus command_id and the confinement, and its signature verifies', async () => {
    fixture = new TerminalFixture();
    const receipt = (await fixture.ok('terminal_execute', { command: 'echo hello' })) as unknown as ExecutionReceipt;
    expect(Object.keys(receipt)).toEqual([
      'schema_version',
      'id',
      'plan_id',
      'session_id',
      'command_id',
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
      'confinement',
      'output',
      'signature',
    ]);
    expect(receipt).toMatchObject({
      schema_version: '1.0',
      command: 'echo hello',
      command_sha256: createHash('sha256').update('echo hello').digest('hex'),
      cwd: fixture.root,
      mode: 'inspect',
      risk: 'low',
      approved: true,
      status: 'succeeded',
      exit_code: 0,
      signal: null,
      stdout: 'hello\n',
      stderr: '',
      output_truncated: false,
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(receipt.duration_ms).toBeGreaterThanOrEqual(0);
    expect(fixture.signer.verify(receipt)).toBe(true);
  });

  test('a tampered receipt does not verify', async () => {
    fixture = new TerminalFixture();
    const receipt = (await fixture.ok('terminal_execute', { command: 'echo hello' })) as unknown as ExecutionReceipt;
    expect(fixture.signer.verify({ ...receipt, stdout: 'hacked\n' })).toBe(false);
    expect(fixture.signer.verify({ ...receipt, exit_code: 1 })).toBe(false);
    expect(fixture.signer.verify({ ...receipt, policy: { ...receipt.policy, reasons: [] } })).toBe(false);
    expect(fixture.signer.verify({ ...receipt, signature: '0'.repeat(64) })).toBe(false);
  });

  test("terminal_receipt returns {receipt: null} before any execution, then the latest receipt, or one plan's", async () => {
    fixture = new TerminalFixture();
    const plan = await fixture.ok('terminal_plan', { command: 'echo one' });
    const session_id = plan.session_id;
    expect(await fixture.ok('terminal_receipt', { session_id })).toEqual({ receipt: null });
    const first = await fixture.ok('terminal_execute', { session_id, plan_id: plan.id });
    const second = await fixture.ok('terminal_execute', { session_id, command: 'echo two' });
    expect(await fixture.ok('terminal_receipt', { session_id })).toEqual(second);
    expect(await fixture.ok('terminal_receipt', { session_id, plan_id: plan.id })).toEqual(first);
    const unexecuted = await fixture.ok('terminal_plan', { command: 'echo three', session_id });
    expect(await fixture.ok('terminal_receipt', { session_id, plan_id: unexecuted.id })).toEqual({ receipt: null });
  });

  test('configured secrets and secret assignments are redacted from command, policy and output; the digest is of the original', async () => {
    fixture = new TerminalFixture({ secrets: [API_KEY] });
    const command = `echo key ${API_KEY} password=hunter2 Token: abc`;
    const receipt = (await fixture.ok('terminal_execute', { command })) as unknown as ExecutionReceipt;
    expect(receipt.command).toBe('echo key [REDACTED] password=[REDACTED] Token: [REDACTED]');
    expect(receipt.stdout).toBe('key [REDACTED] password=[REDACTED] Token: [REDACTED]\n');
    expect(receipt.policy.argv).toEqual(['/usr/bin/echo', 'key', '[REDACTED]', 'password=[REDACTED]', 'Token:', 'abc']);
    expect(JSON.stringify(receipt)).not.toContain(API_KEY);
    expect(JSON.stringify(receipt)).not.toContain('hunter2');
    expect(receipt.command_sha256).toBe(createHash('sha256').update(command).digest('hex'));
    expect(fixture.signer.verify(receipt)).toBe(true);
    const read = await fixture.ok('terminal_read', { session_id: receipt.session_id });
    expect((read.stdout as { text: string }).text).toBe('key [REDACTED] password=[REDACTED] Token: [REDACTED]\n');
  });

  test('output over the limit is truncated per stream and flagged', async () => {
    fixture = new TerminalFixture({ maxOutputBytes: 1024 });
    writeFileSync(path.join(fixture.root, 'big.txt'), 'x'.repeat(5000));
    const receipt = (await fixture.ok('terminal_execute', { command: 'cat big.txt' })) as unknown as ExecutionReceipt;
    expect(receipt.output_truncated).toBe(true);
    // Without a spool only the capture (MAX_OUTPUT_BYTES) is kept: shown whole, and the rest counted as omitted.
    expect(receipt.stdout).toBe(`${'x'.repeat(1024)}\n[... 3976 bytes omitted ...]\n`);
    expect(receipt.output?.stdout).toMatchObject({ total_bytes: 5000, kept_bytes: 1024, omitted_bytes: 3976 });
  });

  test('every receipt is appended to the audit log as one JSON line', async () => {
    const auditDirectory = makeTempWorkspace('term-mcp-audit-');
    try {
      const logFile = path.join(auditDirectory.root, 'nested', 'receipts.jsonl');
      fixture = new TerminalFixture({ auditLog: new JsonlReceiptAuditLog(logFile) });
      const first = await fixture.ok('terminal_execute', { command: 'echo one' });
      const second = await fixture.ok('terminal_execute', { command: 'echo two' });
      const lines = await linesOnceWritten(logFile, 2);
      expect(lines.map((line) => JSON.parse(line))).toEqual([first, second]);
    } finally {
      auditDirectory.remove();
    }
  });
});

/** The audit append runs after the receipt is returned; waits (bounded) until the file has `count` lines. */
async function linesOnceWritten(file: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const lines = existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
      : [];
    if (lines.length >= count || Date.now() > deadline) return lines;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
