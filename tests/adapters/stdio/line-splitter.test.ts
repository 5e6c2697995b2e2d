import { LineSplitter } from '../../../src/adapters/stdio/line-splitter';

describe('LineSplitter', () => {
  function collect(max = 64) {
    const lines: string[] = [];
    let oversized = 0;
    const splitter = new LineSplitter(
      max,
      (line) => lines.push(line),
      () => (oversized += 1),
    );
    return { splitter, lines, oversized: () => oversized };
  }

  test('joins a frame split across chunks and splits several frames in one chunk', () => {
    const { splitter, lines } = collect();
    splitter.push(Buffer.from('{"a":'));
    splitter.push(Buffer.from('1}\n{"b":2}\n{"c"'));
    splitter.push(Buffer.from(':3}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  test('does not split a multi-byte character cut between chunks', () => {
    const { splitter, lines } = collect();
    const bytes = Buffer.from('"résumé"\n');
    splitter.push(bytes.subarray(0, 3));
    splitter.push(bytes.subarray(3));
    expect(lines).toEqual(['"résumé"']);
  });

  test('reports an oversized frame once, skips it, and keeps the next one', () => {
    const { splitter, lines, oversized } = collect(8);
    splitter.push(Buffer.from('0123456789'));
    splitter.push(Buffer.from('abcdef\nok\n'));
    expect(oversized()).toBe(1);
    expect(lines).toEqual(['ok']);
  });

  test('a last line without a newline still counts at end of input', () => {
    const { splitter, lines } = collect();
    splitter.push(Buffer.from('tail'));
    splitter.end();
    expect(lines).toEqual(['tail']);
  });
});
