import type { CapturedOutput } from '../../domain/execution/captured-output.js';
import type { OutputStream } from '../../domain/execution/execution-types.js';

/**
 * How much of a command's output a result carries (both streams together): bytes as the result's JSON spells them
 * (a line end costs two), lines, and whether terminal escapes are stripped.
 */
export interface OutputBudget {
  readonly maxBytes: number;
  readonly maxLines: number;
  readonly stripAnsi: boolean;
}

/** TERM_MCP_RESULT_MAX_BYTES and TERM_MCP_RESULT_MAX_LINES unset: a receipt of about 4k tokens at most. */
export const DEFAULT_OUTPUT_BUDGET: OutputBudget = Object.freeze({ maxBytes: 16_384, maxLines: 400, stripAnsi: false });

/** What a result shows of one stream: its head and tail around a marker, and what it left out. */
export interface StreamView {
  readonly text: string;
  /** Bytes of the stream the text leaves out (between head and tail, and beyond what was kept). */
  readonly omittedBytes: number;
  readonly totalBytes: number;
  readonly keptBytes: number;
  /** SHA-256 of the kept bytes: what a reader of the whole output gets back. */
  readonly sha256: string;
}

const NEWLINE = 0x0a;

/**
 * Head and tail of each stream within one budget for both (issue 24: a model pays per token for every result). A
 * stream that fits is shown whole; a longer one keeps its first and last bytes and lines, cut at line ends where one
 * is near and never inside a UTF-8 sequence, with a marker naming the bytes left out. The bytes budget counts the
 * output as JSON text (before escapes are stripped), so a view's JSON is never larger than the budget plus its markers.
 */
export async function viewOutput(
  outputs: Readonly<Record<OutputStream, CapturedOutput>>,
  budget: OutputBudget,
): Promise<Record<OutputStream, StreamView>> {
  // One snapshot per stream: a background process may still be writing, and the view and digest must agree.
  const stdout = snapshot(outputs.stdout);
  const stderr = snapshot(outputs.stderr);
  // Each stream cut to the whole budget first; then the budget is shared by what each one's cut costs.
  const [stdoutFull, stderrFull] = await Promise.all([
    cutToBytes(stdout, budget.maxBytes),
    cutToBytes(stderr, budget.maxBytes),
  ]);
  const [stdoutBytes, stderrBytes] = share(costOf(stdoutFull), costOf(stderrFull), budget.maxBytes);
  const stdoutCut = shrink(stdoutFull, stdoutBytes);
  const stderrCut = shrink(stderrFull, stderrBytes);
  const [stdoutLines, stderrLines] = share(lineCount(stdoutCut), lineCount(stderrCut), budget.maxLines);
  return {
    stdout: render(stdout, cutToLines(stdoutCut, stdoutLines), budget.stripAnsi),
    stderr: render(stderr, cutToLines(stderrCut, stderrLines), budget.stripAnsi),
  };
}

/** The output as it is now: its counts and digest frozen, reads limited to the bytes the digest covers. */
function snapshot(output: CapturedOutput): CapturedOutput {
  const { totalBytes, keptBytes, sha256 } = output;
  return {
    totalBytes,
    keptBytes,
    sha256,
    readBytes: (offset, length) => output.readBytes(offset, Math.max(0, Math.min(length, keptBytes - offset))),
    discard: () => output.discard(),
  };
}

/** Splits a budget between two needs: both whole when they fit, else the smaller whole up to half, the rest to the other. */
export function share(first: number, second: number, budget: number): [number, number] {
  if (first + second <= budget) return [first, second];
  const half = Math.floor(budget / 2);
  if (second <= half) return [budget - second, second];
  if (first <= half) return [first, budget - first];
  return [budget - half, half];
}

/** The bytes shown of a stream: `head` alone when it is everything kept, else `head` and `tail` around a gap. */
interface Cut {
  readonly head: Buffer;
  readonly tail: Buffer;
  readonly whole: boolean;
}

async function cutToBytes(output: CapturedOutput, maxBytes: number): Promise<Cut> {
  const kept = output.keptBytes;
  const headBudget = Math.ceil(maxBytes / 2);
  const tailBudget = maxBytes - headBudget;
  if (kept <= maxBytes) {
    const all = Buffer.from(await output.readBytes(0, kept));
    if (jsonCost(all) <= maxBytes) return { head: all, tail: Buffer.alloc(0), whole: true };
    return {
      head: alignHead(prefixWithin(all, headBudget)),
      tail: alignTail(suffixWithin(all, tailBudget)),
      whole: false,
    };
  }
  const [head, tail] = await Promise.all([
    output.readBytes(0, headBudget),
    output.readBytes(kept - tailBudget, tailBudget),
  ]);
  return {
    head: alignHead(prefixWithin(Buffer.from(head), headBudget)),
    tail: alignTail(suffixWithin(Buffer.from(tail), tailBudget)),
    whole: false,
  };
}

function costOf(cut: Cut): number {
  return jsonCost(cut.head) + jsonCost(cut.tail);
}

/** A cut within a smaller budget: its head and tail (or a whole stream's start and end) shortened. */
function shrink(cut: Cut, maxBytes: number): Cut {
  if (costOf(cut) <= maxBytes) return cut;
  const headBudget = Math.ceil(maxBytes / 2);
  const tailBudget = maxBytes - headBudget;
  return {
    head: alignHead(prefixWithin(cut.head, headBudget)),
    tail: alignTail(suffixWithin(cut.whole ? cut.head : cut.tail, tailBudget)),
    whole: false,
  };
}

/**
 * What a byte costs in the result's JSON: a line end, a tab, a quote or a backslash is escaped in two bytes, another
 * control character in six (`\u001b`), anything else is itself (JSON keeps UTF-8 as it is).
 */
function byteCost(byte: number): number {
  if (
    byte === 0x22 ||
    byte === 0x5c ||
    byte === 0x08 ||
    byte === 0x09 ||
    byte === 0x0a ||
    byte === 0x0c ||
    byte === 0x0d
  )
    return 2;
  return byte < 0x20 ? 6 : 1;
}

export function jsonCost(bytes: Buffer): number {
  let cost = 0;
  for (const byte of bytes) cost += byteCost(byte);
  return cost;
}

/** The longest start of `bytes` whose JSON costs at most `budget`. */
function prefixWithin(bytes: Buffer, budget: number): Buffer {
  let cost = 0;
  for (let index = 0; index < bytes.length; index += 1) {
    cost += byteCost(bytes[index] ?? 0);
    if (cost > budget) return bytes.subarray(0, index);
  }
  return bytes;
}

/** The longest end of `bytes` whose JSON costs at most `budget`. */
function suffixWithin(bytes: Buffer, budget: number): Buffer {
  let cost = 0;
  for (let index = bytes.length - 1; index >= 0; index -= 1) {
    cost += byteCost(bytes[index] ?? 0);
    if (cost > budget) return bytes.subarray(index + 1);
  }
  return bytes;
}

/** Ends at the last line end when it is in the second half, and never inside a UTF-8 sequence. */
function alignHead(head: Buffer): Buffer {
  const lineEnd = head.lastIndexOf(NEWLINE);
  if (lineEnd >= head.length / 2) return head.subarray(0, lineEnd + 1);
  return head.subarray(0, completeUtf8End(head));
}

/** Starts after the first line end when it is in the first half, and never inside a UTF-8 sequence. */
function alignTail(tail: Buffer): Buffer {
  const lineEnd = tail.indexOf(NEWLINE);
  if (lineEnd >= 0 && lineEnd < tail.length / 2) return tail.subarray(lineEnd + 1);
  let start = 0;
  while (start < Math.min(3, tail.length) && isContinuationByte(tail[start] ?? 0)) start += 1;
  return tail.subarray(start);
}

function isContinuationByte(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** The length of the longest prefix that does not end inside a UTF-8 sequence. */
export function completeUtf8End(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back] ?? 0;
    if (isContinuationByte(byte)) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

function lineCount(cut: Cut): number {
  return linesIn(cut.head) + linesIn(cut.tail);
}

function linesIn(bytes: Buffer): number {
  if (bytes.length === 0) return 0;
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE); at >= 0; at = bytes.indexOf(NEWLINE, at + 1)) count += 1;
  return bytes[bytes.length - 1] === NEWLINE ? count : count + 1;
}

/** At most `maxLines` lines: the first half of them from the head, the rest from the tail. */
function cutToLines(cut: Cut, maxLines: number): Cut {
  if (lineCount(cut) <= maxLines) return cut;
  const headLines = Math.ceil(maxLines / 2);
  const tailLines = maxLines - headLines;
  const source = cut.whole ? cut.head : undefined;
  const head = firstLines(cut.head, headLines);
  const tail = lastLines(source ?? cut.tail, tailLines);
  // A whole stream cut by lines: the tail must not reach back into the head.
  const overlap = source === undefined ? 0 : Math.max(0, head.length - (source.length - tail.length));
  return { head, tail: tail.subarray(overlap), whole: false };
}

function firstLines(bytes: Buffer, count: number): Buffer {
  let at = -1;
  for (let line = 0; line < count; line += 1) {
    at = bytes.indexOf(NEWLINE, at + 1);
    if (at < 0) return bytes;
  }
  return bytes.subarray(0, at + 1);
}

function lastLines(bytes: Buffer, count: number): Buffer {
  if (count <= 0) return bytes.subarray(bytes.length);
  // The final line end closes the last line; it does not start an empty one.
  let at = bytes[bytes.length - 1] === NEWLINE ? bytes.length - 1 : bytes.length;
  for (let line = 0; line < count; line += 1) {
    if (at <= 0) return bytes;
    at = bytes.lastIndexOf(NEWLINE, at - 1);
    if (at < 0) return bytes;
  }
  return bytes.subarray(at + 1);
}

function render(output: CapturedOutput, cut: Cut, stripAnsi: boolean): StreamView {
  const shown = cut.head.length + cut.tail.length;
  const omittedBytes = output.totalBytes - shown;
  const clean = (bytes: Buffer): string =>
    stripAnsi ? stripTerminalEscapes(bytes.toString('utf8')) : bytes.toString('utf8');
  let text = clean(cut.head);
  if (omittedBytes > 0) {
    text += `${text === '' || text.endsWith('\n') ? '' : '\n'}[... ${omittedBytes} bytes omitted ...]\n${clean(cut.tail)}`;
  }
  return { text, omittedBytes, totalBytes: output.totalBytes, keptBytes: output.keptBytes, sha256: output.sha256 };
}

/**
 * ECMA-48 escapes a terminal interprets and a model only pays for: CSI (colours, cursor moves), OSC (titles,
 * hyperlinks) ended by BEL or ST, and the two-byte escapes. Carriage returns stay (they are text to a model).
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this pattern removes.
const TERMINAL_ESCAPE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

export function stripTerminalEscapes(text: string): string {
  return text.replace(TERMINAL_ESCAPE, '');
}
