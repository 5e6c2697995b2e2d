/**
 * The whole output of one stream of a command, kept so that any byte range can be read after the command ended
 * (issue 24: results carry a head and a tail; the rest stays readable as a resource). A stream may be longer than
 * what was kept (a bounded spool): `keptBytes` of `totalBytes` can be read, and `sha256` is the digest of those.
 */
export interface CapturedOutput {
  /** Bytes the command wrote to the stream so far. */
  readonly totalBytes: number;
  /** The first `keptBytes` of them can be read. */
  readonly keptBytes: number;
  /** SHA-256 (hex) of the `keptBytes` kept so far (final once the stream has ended). */
  readonly sha256: string;
  /** The kept bytes in [offset, offset + length), shorter at the end. Rejects once the output was discarded. */
  readBytes(offset: number, length: number): Promise<Uint8Array>;
  /** Deletes the kept bytes (a spool file); reads fail afterwards. Idempotent. */
  discard(): void;
}
