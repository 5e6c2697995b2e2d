import { z } from 'zod';
import { InvalidCursor } from '../../domain/errors.js';

/*
 * 2026-07-28 utilities/pagination: cursors are opaque to clients. Ours is base64url (no padding) of
 * `{"v":1,"after":"<key of the last item served>"}`; the version lets a future format be told apart.
 */

const CURSOR_VERSION = 1;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const CursorPayloadSchema = z.strictObject({ v: z.literal(CURSOR_VERSION), after: z.string().min(1) });

export function encodeCursor(after: string): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, after }), 'utf8').toString('base64url');
}

/** The `after` key of a cursor this server minted; anything else (edited, truncated, foreign) is `InvalidCursor`. */
export function decodeCursor(cursor: string): string {
  if (!BASE64URL.test(cursor)) throw new InvalidCursor();
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursor();
  }
  const parsed = CursorPayloadSchema.safeParse(payload);
  // Re-encoding must give back the same text: rejects padding tricks, stray bits and re-ordered or spaced JSON.
  if (!parsed.success || encodeCursor(parsed.data.after) !== cursor) throw new InvalidCursor();
  return parsed.data.after;
}
