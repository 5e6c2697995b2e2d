import { promises as fsPromises } from 'node:fs';
import path from 'node:path';
import { NodeWorkspaceFS } from '../../../src/adapters/fs/node-workspace-fs.js';
import { InvalidArgument } from '../../../src/domain/errors.js';
import {
  FIXTURE_MAX_READ_BYTES,
  LISTED_FILES,
  makeHostileWorkspace,
  makeWorkspaceWith,
  type HostileWorkspace,
} from './workspace-fixture.js';

describe('NodeWorkspaceFS.list on a workspace with traps', () => {
  let ws: HostileWorkspace;
  let fs: NodeWorkspaceFS;

  beforeAll(() => {
    ws = makeHostileWorkspace();
    fs = new NodeWorkspaceFS({ root: ws.root, maxReadBytes: FIXTURE_MAX_READ_BYTES });
  });

  afterAll(() => ws.remove());

  test('lists regular files only, in byte order, skipping .git, node_modules at any depth, symlinks and FIFOs', async () => {
    const { entries, more } = await fs.list(undefined, 100);
    expect(entries.map((entry) => entry.path)).toEqual(LISTED_FILES);
    expect(more).toBe(false);
  });

  test('reports each file size in bytes', async () => {
    const { entries } = await fs.list(undefined, 100);
    const sizes = Object.fromEntries(entries.map((entry) => [entry.path, entry.size]));
    expect(sizes).toMatchObject({
      'empty.txt': 0,
      'a.txt': 6,
      'my résumé.txt': 17,
      'large.txt': FIXTURE_MAX_READ_BYTES * 2,
    });
  });

  test('lists the skipped directories when the constructor option names none', async () => {
    const listAll = new NodeWorkspaceFS({ root: ws.root, maxReadBytes: 10, skipDirectories: [] });
    const { entries } = await listAll.list(undefined, 100);
    expect(entries.map((entry) => entry.path)).toEqual(
      expect.arrayContaining(['.git/config', 'node_modules/pkg/index.js', 'nested/node_modules/deep.js']),
    );
  });

  test('never lists anything outside the workspace', async () => {
    const { entries } = await fs.list(undefined, 100);
    expect(entries.some((entry) => entry.path.includes('secret'))).toBe(false);
  });
});

describe('NodeWorkspaceFS.list ordering and paging', () => {
  let workspace: { root: string; remove(): void };
  let fs: NodeWorkspaceFS;

  beforeEach(() => {
    workspace = makeWorkspaceWith({
      'a.txt': '1',
      'a/b.txt': '2',
      'B.txt': '3',
      'b/c/d.txt': '4',
      'b/c.txt': '5',
      'é.txt': '6',
      '😀.txt': '7',
      '\uFF5E.txt': '8',
    });
    fs = new NodeWorkspaceFS({ root: workspace.root, maxReadBytes: 10 });
  });

  afterEach(() => {
    jest.restoreAllMocks();
    workspace.remove();
  });

  test('orders by the bytes of the whole `/`-separated path, not by directory or UTF-16 code unit', async () => {
    const { entries } = await fs.list(undefined, 100);
    // `a.txt` < `a/b.txt` because '.' (0x2E) < '/' (0x2F); U+FF5E sorts before U+1F600 in UTF-8, not in UTF-16.
    expect(entries.map((entry) => entry.path)).toEqual([
      'B.txt',
      'a.txt',
      'a/b.txt',
      'b/c.txt',
      'b/c/d.txt',
      'é.txt',
      '\uFF5E.txt',
      '😀.txt',
    ]);
  });

  test('returns at most `limit` entries and says whether more follow', async () => {
    await expect(fs.list(undefined, 3)).resolves.toEqual({
      entries: [
        { path: 'B.txt', size: 1 },
        { path: 'a.txt', size: 1 },
        { path: 'a/b.txt', size: 1 },
      ],
      more: true,
    });
    await expect(fs.list('é.txt', 2)).resolves.toMatchObject({ more: false });
  });

  test('starts strictly after the given path, even one that no longer exists', async () => {
    const after = await fs.list('a/b.txt', 100);
    expect(after.entries.map((entry) => entry.path)).toEqual(['b/c.txt', 'b/c/d.txt', 'é.txt', '\uFF5E.txt', '😀.txt']);
    const afterGone = await fs.list('b/c/a-deleted.txt', 100);
    expect(afterGone.entries.map((entry) => entry.path)[0]).toBe('b/c/d.txt');
  });

  test('reads only the directories it needs for a short page', async () => {
    const readdir = jest.spyOn(fsPromises, 'readdir');
    await fs.list(undefined, 1);
    const firstPageDirs = readdir.mock.calls.map(([dir]) => path.relative(workspace.root, String(dir)));
    // `B.txt` is the page, `a.txt` proves there is more: no subdirectory is opened.
    expect(firstPageDirs).toEqual(['']);

    readdir.mockClear();
    await fs.list('b/c.txt', 1);
    const laterPageDirs = readdir.mock.calls.map(([dir]) => path.relative(workspace.root, String(dir)));
    // Directory `a` lies wholly before the cursor and is never opened.
    expect(laterPageDirs).toEqual(['', 'b', 'b/c']);
  });

  test('refuses a limit that is not a positive integer', async () => {
    await expect(fs.list(undefined, 0)).rejects.toBeInstanceOf(InvalidArgument);
    await expect(fs.list(undefined, 2.5)).rejects.toBeInstanceOf(InvalidArgument);
  });
});
