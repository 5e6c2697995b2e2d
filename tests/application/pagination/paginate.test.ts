import { InvalidCursor } from '../../../src/domain/errors';
import { paginate } from '../../../src/application/pagination/paginate';

describe('paginate', () => {
  const items = ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name }));
  const key = (item: { name: string }) => item.name;

  test('walks the catalog in order, page by page, ending without a cursor', () => {
    const first = paginate(items, key, undefined, 2);
    expect(first.items.map(key)).toEqual(['a', 'b']);
    const second = paginate(items, key, first.nextCursor, 2);
    expect(second.items.map(key)).toEqual(['c', 'd']);
    const third = paginate(items, key, second.nextCursor, 2);
    expect(third.items.map(key)).toEqual(['e']);
    expect(third.nextCursor).toBeUndefined();
  });

  test('a single page has no nextCursor', () => {
    expect(paginate(items, key, undefined, 10)).toEqual({ items });
  });

  test.each(['garbage', '', 'eyJ2IjoxfQ'])('rejects the cursor %j', (cursor) => {
    expect(() => paginate(items, key, cursor, 2)).toThrow(InvalidCursor);
  });
});
