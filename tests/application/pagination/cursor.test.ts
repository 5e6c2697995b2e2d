import { decodeCursor, encodeCursor } from '../../../src/application/pagination/cursor.js';
import { InvalidCursor } from '../../../src/domain/errors.js';

describe('pagination cursors', () => {
  test.each([['a.txt'], ['src/my résumé.txt'], ['terminal_plan'], ['😀/"quoted"\\path']])(
    'round-trips the key %j through an opaque URL-safe cursor',
    (after) => {
      const cursor = encodeCursor(after);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(cursor)).toBe(after);
    },
  );

  test('encodes the versioned JSON payload as base64url', () => {
    expect(Buffer.from(encodeCursor('a.txt'), 'base64url').toString('utf8')).toBe('{"v":1,"after":"a.txt"}');
  });

  const foreign = (payload: string): string => Buffer.from(payload, 'utf8').toString('base64url');

  test.each([
    ['an empty string', ''],
    ['text that is not base64url', 'not a cursor!'],
    ['padded base64', `${encodeCursor('a.txt')}=`],
    ['base64url that is not JSON', foreign('hello')],
    ['JSON that is not an object', foreign('"a.txt"')],
    ['another version', foreign('{"v":2,"after":"a.txt"}')],
    ['a missing key', foreign('{"v":1}')],
    ['an empty key', foreign('{"v":1,"after":""}')],
    ['a key that is not a string', foreign('{"v":1,"after":7}')],
    ['an extra field', foreign('{"v":1,"after":"a.txt","admin":true}')],
    ['re-spaced JSON', foreign('{"v": 1, "after": "a.txt"}')],
    ['a truncated cursor', encodeCursor('a.txt').slice(0, -3)],
  ])('refuses %s with InvalidCursor', (_label, cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(InvalidCursor);
  });
});
