import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { walkBreadthFirst } from '../../../src/adapters/sandbox/bounded-walk';

describe('walkBreadthFirst', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'bounded-walk-'));
    mkdirSync(path.join(root, 'a', 'b', 'c'), { recursive: true });
    writeFileSync(path.join(root, 'a', 'b', 'c', 'deep.txt'), 'x');
    writeFileSync(path.join(root, 'top.txt'), 'x');
    mkdirSync(path.join(root, 'skip'));
    writeFileSync(path.join(root, 'skip', 'hidden.txt'), 'x');
    symlinkSync('/etc', path.join(root, 'etc-link'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const names = (walk: Iterable<{ full: string }>): string[] =>
    [...walk].map(({ full }) => path.relative(root, full)).sort();

  test('yields every entry breadth first, never through a link, and not into refused directories', () => {
    const seen = names(walkBreadthFirst(root, ({ entry }) => entry.name !== 'skip', 100));
    expect(seen).toEqual(['a', 'a/b', 'a/b/c', 'a/b/c/deep.txt', 'etc-link', 'skip', 'top.txt']);
  });

  test('reads at most the given number of directories', () => {
    // root, then a: the entries of root and of a, nothing deeper.
    expect(names(walkBreadthFirst(root, () => true, 2))).toEqual(['a', 'a/b', 'etc-link', 'skip', 'top.txt']);
  });

  test('gives each entry the depth of the directory that holds it', () => {
    const depths = Object.fromEntries(
      [...walkBreadthFirst(root, () => true, 100)].map(({ full, depth }) => [path.relative(root, full), depth]),
    );
    expect(depths).toMatchObject({ a: 0, 'a/b': 1, 'a/b/c': 2, 'a/b/c/deep.txt': 3 });
  });
});
