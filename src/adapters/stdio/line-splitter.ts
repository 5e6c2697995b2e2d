/**
 * Splits a byte stream into newline-delimited frames (2026-07-28 transports/stdio). A frame longer than
 * `maxLineBytes` is reported once as oversized and skipped up to its newline, so one bad line never costs memory
 * or the connection.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversized: () => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a, start); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      this.append(chunk.subarray(start, newline));
      this.flushLine();
      start = newline + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
  }

  /** End of input: a final line without a newline still counts. */
  end(): void {
    if (this.pendingBytes > 0 || this.discarding) this.flushLine();
  }

  private append(bytes: Buffer): void {
    if (this.discarding || bytes.length === 0) return;
    if (this.pendingBytes + bytes.length > this.maxLineBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      this.discarding = true;
      return;
    }
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
  }

  private flushLine(): void {
    if (this.discarding) {
      this.discarding = false;
      this.onOversized();
      return;
    }
    const line = Buffer.concat(this.pending, this.pendingBytes).toString('utf8');
    this.pending = [];
    this.pendingBytes = 0;
    this.onLine(line);
  }
}
