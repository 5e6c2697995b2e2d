import type { CapturedOutput } from '../../../src/domain/execution/captured-output';
import { jsonCost, share, viewOutput, type OutputBudget } from '../../../src/application/terminal/output-view';

function captured(text: string | Buffer): CapturedOutput {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  return {
    totalBytes: bytes.length,
    keptBytes: bytes.length,
    sha256: '0'.repeat(64),
    readBytes: async (offset, length) => bytes.subarray(offset, offset + length),
    discard: () => undefined,
  };
}

const budget = (maxBytes: number, maxLines = 1000, stripAnsi = false): OutputBudget => ({
  maxBytes,
  maxLines,
  stripAnsi,
});

describe('viewOutput', () => {
  test('shows a stream that fits whole, with nothing omitted', async () => {
    const view = await viewOutput({ stdout: captured('a\nb\n'), stderr: captured('warn\n') }, budget(100));
    expect(view.stdout).toMatchObject({ text: 'a\nb\n', omittedBytes: 0 });
    expect(view.stderr).toMatchObject({ text: 'warn\n', omittedBytes: 0 });
  });

  test('keeps head and tail at line ends around a marker that counts the omitted bytes', async () => {
    const lines = Array.from({ length: 1000 }, (_, index) => `line ${index + 1}`).join('\n') + '\n';
    const view = await viewOutput({ stdout: captured(lines), stderr: captured('') }, budget(200));
    const [head, tail] = view.stdout.text.split(/\[\.\.\. \d+ bytes omitted \.\.\.\]\n/);
    expect(head?.startsWith('line 1\nline 2\n')).toBe(true);
    expect(head?.endsWith('\n')).toBe(true);
    expect(tail?.endsWith('line 999\nline 1000\n')).toBe(true);
    expect(Buffer.byteLength(head ?? '') + Buffer.byteLength(tail ?? '') + view.stdout.omittedBytes).toBe(
      Buffer.byteLength(lines),
    );
    expect(jsonCost(Buffer.from(`${head ?? ''}${tail ?? ''}`))).toBeLessThanOrEqual(200);
  });

  test('never cuts inside a UTF-8 sequence, at any budget', async () => {
    const text = '€𝄞é'.repeat(100);
    for (let maxBytes = 8; maxBytes < 60; maxBytes += 1) {
      const view = await viewOutput({ stdout: captured(text), stderr: captured('') }, budget(maxBytes));
      expect(view.stdout.text).not.toContain('\ufffd');
    }
  });

  test('caps lines beside bytes: the first and the last lines', async () => {
    const view = await viewOutput(
      { stdout: captured('1\n2\n3\n4\n5\n6\n7\n8\n'), stderr: captured('') },
      budget(1000, 4),
    );
    expect(view.stdout.text).toBe('1\n2\n[... 8 bytes omitted ...]\n7\n8\n');
  });

  test('counts JSON escapes against the budget, and strips terminal escapes when asked', async () => {
    const coloured = '\u001b[31mred\u001b[0m\n';
    expect(jsonCost(Buffer.from(coloured))).toBe(6 + 4 + 3 + 6 + 3 + 2);
    const stripped = await viewOutput({ stdout: captured(coloured), stderr: captured('') }, budget(100, 10, true));
    expect(stripped.stdout.text).toBe('red\n');
  });

  test('shares the budget: a short stream whole, the rest to the other', () => {
    expect(share(10, 20, 100)).toEqual([10, 20]);
    expect(share(500, 20, 100)).toEqual([80, 20]);
    expect(share(20, 500, 100)).toEqual([20, 80]);
    expect(share(500, 500, 100)).toEqual([50, 50]);
  });
});
