import type { FileHandle } from 'node:fs/promises';

const READ_CHUNK_BYTES = 64 * 1024;

/**
 * Reads from the start of `handle` until EOF or until `maxBytes` bytes are in hand, whichever comes first. Reading
 * one byte past a limit tells "exactly at the limit" from "grew past it since fstat".
 */
export async function readAtMost(handle: FileHandle, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < maxBytes) {
    const chunk = Buffer.alloc(Math.min(READ_CHUNK_BYTES, maxBytes - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}

/** The text of `bytes` when they are valid UTF-8 without NUL bytes (a NUL marks a binary file), else undefined. */
export function decodeUtf8Text(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
