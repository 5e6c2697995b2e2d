import type { CapturedOutput } from '../../domain/execution/captured-output.js';
import type { OutputStream } from '../../domain/execution/execution-types.js';

export interface OutputArchiveOptions {
  /** How long a finished command's output stays readable: as long as its ended session's receipts do. */
  readonly retentionMs: number;
  /** Bytes kept for all finished commands together; past it the oldest outputs are discarded first. */
  readonly budgetBytes: number;
  readonly now: () => number;
}

/** What a receipt says of one stream's whole output: readers get exactly these bytes, whose digest it signed. */
export interface KeptOutput {
  readonly keptBytes: number;
  readonly sha256: string;
}

/**
 * Only the outputs are held, never the command: a finished command (its in-memory capture of up to MAX_OUTPUT_BYTES
 * per stream) is freed as before, and only the spool files stay.
 */
interface ArchivedCommand {
  readonly sessionId: string;
  readonly outputs: Readonly<Record<OutputStream, CapturedOutput>>;
  readonly kept: Readonly<Record<OutputStream, KeptOutput>>;
  readonly owner: string | undefined;
  readonly bytes: number;
  readonly expiresAtMs: number;
}

/**
 * The whole output of finished commands (their spool files), readable as resources after the result showed only a
 * head and a tail. Bounded twice: by time (it goes when the session's receipts stop being readable) and by bytes
 * (oldest first). What it drops is deleted (`discardOutput`), and everything is deleted when the server stops.
 * Outputs are found by session and command id, and only by the principal that ran the command.
 */
export class OutputArchive {
  /** In insertion (finishing) order, which is also expiry order: the oldest is first. */
  private readonly entries = new Map<string, ArchivedCommand>();
  private keptBytes = 0;

  constructor(private readonly options: OutputArchiveOptions) {}

  keep(
    sessionId: string,
    commandId: string,
    outputs: Readonly<Record<OutputStream, CapturedOutput>>,
    owner: string | undefined,
    kept: Readonly<Record<OutputStream, KeptOutput>>,
  ): void {
    const bytes = kept.stdout.keptBytes + kept.stderr.keptBytes;
    this.discard(commandId);
    this.entries.set(commandId, {
      sessionId,
      outputs,
      kept,
      owner,
      bytes,
      expiresAtMs: this.options.now() + this.options.retentionMs,
    });
    this.keptBytes += bytes;
    this.sweep();
  }

  /**
   * The kept output of one stream as its receipt describes it (reads end at the receipt's `kept_bytes`, even if a
   * background process wrote on), or undefined: unknown, expired, discarded, or another principal's.
   */
  find(
    sessionId: string,
    commandId: string,
    stream: OutputStream,
    principal: string | undefined,
  ): CapturedOutput | undefined {
    this.sweep();
    const entry = this.entries.get(commandId);
    if (entry === undefined || entry.sessionId !== sessionId || entry.owner !== principal) return undefined;
    const output = entry.outputs[stream];
    const { keptBytes, sha256 } = entry.kept[stream];
    return {
      totalBytes: output.totalBytes,
      keptBytes,
      sha256,
      readBytes: (offset, length) => output.readBytes(offset, Math.max(0, Math.min(length, keptBytes - offset))),
      discard: () => this.discard(commandId),
    };
  }

  /** Deletes every output of one session (the client closed it). */
  discardSession(sessionId: string): void {
    for (const [commandId, entry] of [...this.entries]) if (entry.sessionId === sessionId) this.discard(commandId);
  }

  /** Deletes everything (the server stops). */
  discardAll(): void {
    for (const commandId of [...this.entries.keys()]) this.discard(commandId);
  }

  private sweep(): void {
    const now = this.options.now();
    for (const [commandId, entry] of this.entries) {
      if (entry.expiresAtMs > now && this.keptBytes <= this.options.budgetBytes) break;
      this.discard(commandId);
    }
  }

  private discard(commandId: string): void {
    const entry = this.entries.get(commandId);
    if (entry === undefined) return;
    this.entries.delete(commandId);
    this.keptBytes -= entry.bytes;
    for (const output of [entry.outputs.stdout, entry.outputs.stderr]) {
      try {
        output.discard();
      } catch {
        // A spool file already gone: nothing left to delete.
      }
    }
  }
}
