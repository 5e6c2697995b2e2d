import { InvalidCursor } from '../../domain/errors.js';
import { decodeCursor, encodeCursor } from './cursor.js';

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * Pages through an in-memory catalog that keeps a stable order. The cursor names the last key served, so a page
 * boundary survives restarts; a key that is no longer in the catalog makes the cursor invalid.
 */
export function paginate<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  cursor: string | undefined,
  pageSize: number,
): Page<T> {
  let start = 0;
  if (cursor !== undefined) {
    const after = decodeCursor(cursor);
    const index = items.findIndex((item) => keyOf(item) === after);
    if (index < 0) throw new InvalidCursor();
    start = index + 1;
  }
  const slice = items.slice(start, start + pageSize);
  const last = slice[slice.length - 1];
  const hasMore = start + pageSize < items.length;
  return hasMore && last !== undefined ? { items: slice, nextCursor: encodeCursor(keyOf(last)) } : { items: slice };
}
