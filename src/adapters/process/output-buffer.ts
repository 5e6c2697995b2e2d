import { StringDecoder } from 'node:string_decoder';

/** The decoded text of a byte range and where the range really ended. */
export interface DecodedRange {
  readonly text: string;
  readonly nextOffset: number;
}

/**
 * Storage comes in fixed blocks allocated as bytes arrive: no re-copying as the buffer grows (fresh pages are the
 * main cost of a 100 MB stream), and the block of any offset is found by division.
 */
const BLOCK_SIZE = 64 * 1024;
/** Longest UTF-8 sequence, in bytes. */
const MAX_UTF8_SEQUENCE = 4;

function isContinuationByte(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** Length of the UTF-8 sequence a lead byte announces; invalid lead bytes count as one byte. */
function sequenceLength(leadByte: number): number {
  if ((leadByte & 0xe0) === 0xc0) return 2;
  if ((leadByte & 0xf0) === 0xe0) return 3;
  if ((leadByte & 0xf8) === 0xf0) return 4;
  return 1;
}

/**
 * Bytes of one output stream, captured up to a fixed limit (memory stays proportional to the captured bytes; text is
 * only decoded for the range a reader asks for). Bytes beyond the limit are dropped and counted as truncation.
 * Reads return UTF-8 text and never end inside a multi-byte character while that character may still complete.
 */
export class OutputBuffer {
  private readonly blocks: Buffer[] = [];
  private length = 0;
  private truncatedFlag = false;
  private endedFlag = false;

  constructor(private readonly limit: number) {}

  get capturedBytes(): number {
    return this.length;
  }

  get truncated(): boolean {
    return this.truncatedFlag;
  }

  /** The producer closed the stream: no byte will ever be appended again. */
  get ended(): boolean {
    return this.endedFlag;
  }

  /** Keeps what fits under the limit; the rest is dropped (the caller keeps draining its pipe regardless). */
  append(chunk: Buffer): void {
    if (this.endedFlag || chunk.length === 0) return;
    const accepted = Math.min(chunk.length, this.limit - this.length);
    if (accepted < chunk.length) this.truncatedFlag = true;
    let copied = 0;
    while (copied < accepted) {
      const within = this.length % BLOCK_SIZE;
      const block = this.blockFor(this.length);
      const count = chunk.copy(block, within, copied, Math.min(accepted, copied + block.length - within));
      copied += count;
      this.length += count;
    }
  }

  end(): void {
    this.endedFlag = true;
  }

  /**
   * Text of at most `maxBytes` bytes from `offset`. The range is shortened to the last complete character; when even
   * one character does not fit it is returned whole (so a reader always progresses). Once nothing more can arrive
   * (ended, or full), a trailing incomplete sequence is decoded as U+FFFD rather than withheld forever.
   */
  read(offset: number, maxBytes: number): DecodedRange {
    let end = Math.min(this.length, offset + maxBytes);
    if (!(end === this.length && this.sealed)) {
      end = this.lastCompleteCharacterEnd(offset, end);
      if (end === offset) end = this.firstCharacterEnd(offset);
    }
    return { text: this.decode(offset, end), nextOffset: end };
  }

  /** A copy of the captured bytes in [offset, offset + length), shorter at the end. */
  bytes(offset: number, length: number): Buffer {
    const end = Math.min(this.length, offset + length);
    const parts: Buffer[] = [];
    for (let at = offset; at < end;) {
      const index = Math.floor(at / BLOCK_SIZE);
      const within = at - index * BLOCK_SIZE;
      const count = Math.min(end - at, BLOCK_SIZE - within);
      parts.push(this.block(index).subarray(within, within + count));
      at += count;
    }
    return Buffer.concat(parts);
  }

  /** The end of the last complete character captured so far (the whole buffer once sealed). */
  completeEnd(): number {
    return this.sealed ? this.length : this.lastCompleteCharacterEnd(0, this.length);
  }

  private get sealed(): boolean {
    return this.endedFlag || this.length === this.limit;
  }

  private lastCompleteCharacterEnd(start: number, end: number): number {
    let lead = end - 1;
    while (lead > start && end - lead < MAX_UTF8_SEQUENCE && isContinuationByte(this.byteAt(lead))) lead -= 1;
    if (lead < start || isContinuationByte(this.byteAt(lead))) return end;
    return lead + sequenceLength(this.byteAt(lead)) > end ? lead : end;
  }

  private firstCharacterEnd(start: number): number {
    if (start >= this.length) return start;
    const end = start + sequenceLength(this.byteAt(start));
    if (end <= this.length) return end;
    return this.sealed ? this.length : start;
  }

  private decode(start: number, end: number): string {
    if (end <= start) return '';
    const first = Math.floor(start / BLOCK_SIZE);
    const last = Math.floor((end - 1) / BLOCK_SIZE);
    const startWithin = start - first * BLOCK_SIZE;
    if (first === last) return this.block(first).toString('utf8', startWithin, end - first * BLOCK_SIZE);
    // Characters may straddle blocks; the decoder carries their first bytes over to the next block.
    const decoder = new StringDecoder('utf8');
    let text = decoder.write(this.block(first).subarray(startWithin));
    for (let index = first + 1; index < last; index += 1) text += decoder.write(this.block(index));
    return text + decoder.write(this.block(last).subarray(0, end - last * BLOCK_SIZE)) + decoder.end();
  }

  private byteAt(offset: number): number {
    return this.block(Math.floor(offset / BLOCK_SIZE))[offset % BLOCK_SIZE] ?? 0;
  }

  private block(index: number): Buffer {
    const block = this.blocks[index];
    if (!block) throw new RangeError(`no output block ${index}`);
    return block;
  }

  /** The block that holds `offset`, allocated when the first byte reaches it (the last one only as big as needed). */
  private blockFor(offset: number): Buffer {
    const index = Math.floor(offset / BLOCK_SIZE);
    const existing = this.blocks[index];
    if (existing) return existing;
    const block = Buffer.allocUnsafe(Math.min(BLOCK_SIZE, this.limit - index * BLOCK_SIZE));
    this.blocks.push(block);
    return block;
  }
}
