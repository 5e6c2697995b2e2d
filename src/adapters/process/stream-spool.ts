import { createHash, type Hash } from 'node:crypto';
import { closeSync, constants, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { CapturedOutput } from '../../domain/execution/captured-output.js';

/** Where a session's commands spool their output, and how much of each stream is kept. */
export interface SpoolSettings {
  /** A directory of the server outside the workspace (made on first use, mode 0700). */
  readonly directory: string;
  readonly maxBytesPerStream: number;
}

/** Reads bytes the spool does not hold in a file: the command's in-memory capture (no spool directory configured). */
export type CaptureReader = (offset: number, length: number) => Uint8Array;

/**
 * Every byte of one output stream, appended to a file of the server's own (outside the workspace: commands never see
 * it), up to a cap, and hashed as it is written, so the digest is of exactly the bytes a reader can get back. Writes
 * are synchronous: a pipe delivers at most 64 KiB per chunk, which the page cache takes in microseconds, and nothing
 * queues in memory (an asynchronous stream would buffer a fast producer's whole output while the disk catches up).
 * Without a file (no spool directory, or it could not be made) the bytes kept are the in-memory capture's.
 */
export class StreamSpool implements CapturedOutput {
  private descriptor: number | undefined;
  private total = 0;
  private kept = 0;
  private readonly hash: Hash = createHash('sha256');
  private digest: string | undefined;
  private discarded = false;

  /** Only without a file: the command's capture, which this then holds (a spool file holds nothing of the command). */
  private capture: CaptureReader | undefined;

  private constructor(
    private readonly file: string | undefined,
    private readonly limit: number,
    capture: CaptureReader | undefined,
  ) {
    if (file !== undefined) this.descriptor = openSpoolFile(file);
    else this.capture = capture;
  }

  /** A spool file under `settings`, or (undefined settings) the capture only, limited like it. */
  static create(
    settings: SpoolSettings | undefined,
    name: string,
    captureLimit: number,
    capture: CaptureReader,
  ): StreamSpool {
    if (settings === undefined) return new StreamSpool(undefined, captureLimit, capture);
    const spool = new StreamSpool(path.join(settings.directory, name), settings.maxBytesPerStream, undefined);
    // A spool that could not be opened (disk full, directory gone) falls back to the capture: bounded, still exact.
    return spool.descriptor === undefined ? new StreamSpool(undefined, captureLimit, capture) : spool;
  }

  get totalBytes(): number {
    return this.total;
  }

  get keptBytes(): number {
    return this.kept;
  }

  /** Final once the stream ended; before that, the digest of what is kept so far (a background process may still write). */
  get sha256(): string {
    return this.digest ?? this.hash.copy().digest('hex');
  }

  append(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.digest !== undefined) return;
    const accepted = chunk.subarray(0, Math.max(0, Math.min(chunk.length, this.limit - this.kept)));
    if (accepted.length === 0) return;
    if (this.file === undefined) {
      this.keep(accepted);
      return;
    }
    if (this.descriptor === undefined) return;
    try {
      let written = 0;
      while (written < accepted.length)
        written += writeSync(this.descriptor, accepted, written, accepted.length - written);
      this.keep(accepted);
    } catch {
      // ENOSPC, EIO: what is in the file stays readable and hashed; the rest is counted in totalBytes only.
      this.closeFile();
    }
  }

  /** The stream ended: no byte will be kept any more, and the digest is final. */
  end(): void {
    if (this.digest !== undefined) return;
    this.digest = this.hash.digest('hex');
    this.closeFile();
  }

  async readBytes(offset: number, length: number): Promise<Uint8Array> {
    if (this.discarded) throw new Error('the output was discarded');
    const end = Math.min(this.kept, offset + Math.max(0, length));
    if (offset >= end) return new Uint8Array(0);
    if (this.file === undefined) {
      if (this.capture === undefined) throw new Error('the output was discarded');
      return this.capture(offset, end - offset);
    }
    const handle = await open(this.file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const buffer = Buffer.alloc(end - offset);
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, offset + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return buffer.subarray(0, filled);
    } finally {
      await handle.close();
    }
  }

  discard(): void {
    this.discarded = true;
    this.capture = undefined;
    this.closeFile();
    if (this.file !== undefined) rmSync(this.file, { force: true });
  }

  private keep(bytes: Buffer): void {
    this.hash.update(bytes);
    this.kept += bytes.length;
  }

  private closeFile(): void {
    if (this.descriptor === undefined) return;
    try {
      closeSync(this.descriptor);
    } catch {
      // Already closed.
    }
    this.descriptor = undefined;
  }
}

/**
 * A new file, never through a link and never an existing one; its directory is made private on first use. (Node opens
 * every file close-on-exec, so no command inherits it.)
 */
function openSpoolFile(file: string): number | undefined {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    return openSync(file, flags, 0o600);
  } catch {
    return undefined;
  }
}
