import { readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { JsonlReceiptAuditLog } from '../../../src/adapters/receipts/jsonl-receipt-audit-log';
import type { ExecutionReceipt } from '../../../src/domain/terminal/receipt-types';
import { makeTempWorkspace } from '../../support/workspace';

function receipt(id: string): ExecutionReceipt {
  return { id, stdout: `out ${id}\nwith newline` } as unknown as ExecutionReceipt;
}

describe('JsonlReceiptAuditLog', () => {
  let directory: ReturnType<typeof makeTempWorkspace>;

  beforeEach(() => {
    directory = makeTempWorkspace('term-mcp-audit-');
  });

  afterEach(() => {
    directory.remove();
  });

  test('creates missing parent directories and appends one compact JSON line per receipt, in order', async () => {
    const file = path.join(directory.root, 'logs', 'deep', 'receipts.jsonl');
    const log = new JsonlReceiptAuditLog(file);
    await Promise.all([log.append(receipt('a')), log.append(receipt('b')), log.append(receipt('c'))]);
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(
      `${JSON.stringify(receipt('a'))}\n${JSON.stringify(receipt('b'))}\n${JSON.stringify(receipt('c'))}\n`,
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test('a failed append rejects without blocking the appends after it', async () => {
    const parent = path.join(directory.root, 'logs');
    writeFileSync(parent, 'a file where the directory should be');
    const log = new JsonlReceiptAuditLog(path.join(parent, 'receipts.jsonl'));
    await expect(log.append(receipt('x'))).rejects.toThrow();
    rmSync(parent);
    await log.append(receipt('y'));
    expect(readFileSync(path.join(parent, 'receipts.jsonl'), 'utf8')).toBe(`${JSON.stringify(receipt('y'))}\n`);
  });

  test("never writes through a link put in the log file's place (a shell rc file, say)", async () => {
    const target = path.join(directory.root, 'bashrc');
    writeFileSync(target, '# mine\n');
    const file = path.join(directory.root, 'audit.jsonl');
    symlinkSync(target, file);
    await expect(new JsonlReceiptAuditLog(file).append(receipt('z'))).rejects.toMatchObject({ code: 'ELOOP' });
    expect(readFileSync(target, 'utf8')).toBe('# mine\n');
  });
});
