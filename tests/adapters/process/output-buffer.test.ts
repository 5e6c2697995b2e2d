import { OutputBuffer } from '../../../src/adapters/process/output-buffer';

const SAMPLE = 'aé€😀'; // 1 + 2 + 3 + 4 bytes

function bufferWith(text: string, limit = 1024): OutputBuffer {
  const buffer = new OutputBuffer(limit);
  buffer.append(Buffer.from(text, 'utf8'));
  return buffer;
}

describe('OutputBuffer', () => {
  it('reads a byte range as text and reports where it ended', () => {
    const buffer = bufferWith('hello world');
    expect(buffer.read(0, 5)).toEqual({ text: 'hello', nextOffset: 5 });
    expect(buffer.read(5, 100)).toEqual({ text: ' world', nextOffset: 11 });
  });

  it('shortens a range that would end inside a multi-byte character', () => {
    const buffer = bufferWith(SAMPLE);
    expect(buffer.read(0, 2)).toEqual({ text: 'a', nextOffset: 1 });
    expect(buffer.read(1, 4)).toEqual({ text: 'é', nextOffset: 3 });
    expect(buffer.read(3, 6)).toEqual({ text: '€', nextOffset: 6 });
  });

  it('returns one whole character when maxBytes is smaller than it, so readers always progress', () => {
    expect(bufferWith(SAMPLE).read(6, 1)).toEqual({ text: '😀', nextOffset: 10 });
  });

  it('withholds a trailing partial character until the rest arrives', () => {
    const bytes = Buffer.from('x€', 'utf8');
    const buffer = new OutputBuffer(1024);
    buffer.append(bytes.subarray(0, 2));
    expect(buffer.read(0, 100)).toEqual({ text: 'x', nextOffset: 1 });
    expect(buffer.completeEnd()).toBe(1);
    buffer.append(bytes.subarray(2));
    expect(buffer.read(1, 100)).toEqual({ text: '€', nextOffset: 4 });
  });

  it('decodes a partial character that can never complete once the stream ended', () => {
    const buffer = new OutputBuffer(1024);
    buffer.append(Buffer.from('x€', 'utf8').subarray(0, 2));
    buffer.end();
    expect(buffer.read(0, 100)).toEqual({ text: 'x\ufffd', nextOffset: 2 });
  });

  it('keeps exactly the limit, drops the rest and marks the truncation', () => {
    const buffer = new OutputBuffer(10);
    buffer.append(Buffer.from('0123456'));
    buffer.append(Buffer.from('789abc'));
    buffer.append(Buffer.from('def'));
    expect(buffer.capturedBytes).toBe(10);
    expect(buffer.truncated).toBe(true);
    expect(buffer.read(0, 100)).toEqual({ text: '0123456789', nextOffset: 10 });
  });

  it('treats a full buffer as sealed: a character cut by the limit is decoded, not withheld', () => {
    const buffer = new OutputBuffer(2);
    buffer.append(Buffer.from('a€', 'utf8'));
    expect(buffer.read(0, 10)).toEqual({ text: 'a\ufffd', nextOffset: 2 });
  });

  it('spans several storage blocks without losing bytes', () => {
    const buffer = new OutputBuffer(300_000);
    for (let index = 0; index < 3; index += 1) buffer.append(Buffer.alloc(100_000, 65 + index));
    expect(buffer.capturedBytes).toBe(300_000);
    expect(buffer.truncated).toBe(false);
    expect(buffer.read(99_999, 2).text).toBe('AB');
    expect(buffer.read(299_999, 10).text).toBe('C');
    expect(buffer.read(0, 300_000).text).toBe('A'.repeat(100_000) + 'B'.repeat(100_000) + 'C'.repeat(100_000));
  });

  it('decodes a character that straddles two storage blocks', () => {
    const buffer = bufferWith(`${'a'.repeat(65_535)}€z`, 100_000);
    expect(buffer.read(65_535, 3)).toEqual({ text: '€', nextOffset: 65_538 });
    expect(buffer.read(65_534, 100).text).toBe('a€z');
    expect(buffer.read(65_535, 2)).toEqual({ text: '€', nextOffset: 65_538 });
  });

  it('ignores bytes appended after the end', () => {
    const buffer = bufferWith('done');
    buffer.end();
    buffer.append(Buffer.from('late'));
    expect(buffer.capturedBytes).toBe(4);
    expect(buffer.ended).toBe(true);
  });
});
