import {
  chmodSync,
  mkdtempSync,
  promises as fsPromises,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NodeWorkspaceFS } from '../../../src/adapters/fs/node-workspace-fs.js';
import { ConfigurationError, InvalidArgument } from '../../../src/domain/errors.js';
import {
  FileNotReadable,
  PathOutsideWorkspace,
  ResourceNotText,
  ResourceTooLarge,
  WorkspaceFileNotFound,
} from '../../../src/domain/workspace/workspace-errors.js';
import { FIXTURE_MAX_READ_BYTES, makeHostileWorkspace, type HostileWorkspace } from './workspace-fixture.js';

describe('NodeWorkspaceFS.readText', () => {
  let ws: HostileWorkspace;
  let fs: NodeWorkspaceFS;

  // Read-only tests share one fixture; the few that add files use names no other test looks at.
  beforeAll(() => {
    ws = makeHostileWorkspace();
    fs = new NodeWorkspaceFS({ root: ws.root, maxReadBytes: FIXTURE_MAX_READ_BYTES });
  });

  afterEach(() => jest.restoreAllMocks());
  afterAll(() => ws.remove());

  test('reads a UTF-8 file by its relative path', async () => {
    await expect(fs.readText('src/index.ts')).resolves.toEqual({
      path: 'src/index.ts',
      text: 'export const x = 1;\n',
      size: 20,
    });
  });

  test('reads an empty file as empty text', async () => {
    await expect(fs.readText('empty.txt')).resolves.toEqual({ path: 'empty.txt', text: '', size: 0 });
  });

  test('reads a file whose name has spaces and non-ASCII letters', async () => {
    await expect(fs.readText('my résumé.txt')).resolves.toMatchObject({ text: 'curriculum vitae\n' });
  });

  test('reads a file whose name merely starts with two dots', async () => {
    await expect(fs.readText('..notes.txt')).resolves.toMatchObject({ path: '..notes.txt' });
  });

  test('reads a file of exactly the size limit', async () => {
    const file = await fs.readText('at-limit.txt');
    expect(file.size).toBe(FIXTURE_MAX_READ_BYTES);
  });

  test('refuses a file over the size limit, naming its size and the limit', async () => {
    const error = await fs.readText('large.txt').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResourceTooLarge);
    expect((error as ResourceTooLarge).details).toEqual({
      path: 'large.txt',
      size: FIXTURE_MAX_READ_BYTES * 2,
      limit: FIXTURE_MAX_READ_BYTES,
    });
  });

  test('refuses a binary file containing NUL bytes', async () => {
    await expect(fs.readText('binary.bin')).rejects.toBeInstanceOf(ResourceNotText);
  });

  test('refuses a file that is not valid UTF-8', async () => {
    await expect(fs.readText('latin1.txt')).rejects.toBeInstanceOf(ResourceNotText);
  });

  test('refuses a FIFO at once instead of blocking on it', async () => {
    const error = await fs.readText('pipe.fifo').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FileNotReadable);
    expect((error as FileNotReadable).details).toEqual({ path: 'pipe.fifo', reason: 'not_a_regular_file' });
  });

  test('refuses a directory, including the root itself', async () => {
    await expect(fs.readText('src')).rejects.toBeInstanceOf(FileNotReadable);
    await expect(fs.readText('')).rejects.toBeInstanceOf(FileNotReadable);
  });

  test('reports a missing file as WorkspaceFileNotFound with its relative path', async () => {
    const error = await fs.readText('nope/missing.txt').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WorkspaceFileNotFound);
    expect((error as WorkspaceFileNotFound).details).toEqual({ path: 'nope/missing.txt' });
  });

  test('reports a path through a regular file as missing', async () => {
    await expect(fs.readText('a.txt/child')).rejects.toBeInstanceOf(WorkspaceFileNotFound);
  });

  test('follows a symlink whose target is inside the workspace and reports the target path', async () => {
    await expect(fs.readText('link-inside.txt')).resolves.toEqual({ path: 'a.txt', text: 'alpha\n', size: 6 });
    await expect(fs.readText('linkdir-in/index.ts')).resolves.toMatchObject({ path: 'src/index.ts' });
  });

  test('refuses a symlink that points outside the workspace', async () => {
    await expect(fs.readText('link-out.txt')).rejects.toBeInstanceOf(PathOutsideWorkspace);
  });

  test('refuses a path through a symlinked parent directory that points outside', async () => {
    await expect(fs.readText('linkdir-out/secret.txt')).rejects.toBeInstanceOf(PathOutsideWorkspace);
  });

  test('refuses parent traversal, even into the prefix sibling', async () => {
    await expect(fs.readText('../secret.txt')).rejects.toBeInstanceOf(PathOutsideWorkspace);
    await expect(fs.readText('../ws-evil/secret.txt')).rejects.toBeInstanceOf(PathOutsideWorkspace);
    await expect(fs.readText('src/../../secret.txt')).rejects.toBeInstanceOf(PathOutsideWorkspace);
  });

  test('refuses an outside path the same way whether or not it exists (no existence oracle)', async () => {
    await expect(fs.readText('../does-not-exist.txt')).rejects.toBeInstanceOf(PathOutsideWorkspace);
  });

  test('refuses an absolute path elsewhere but reads an absolute path inside', async () => {
    await expect(fs.readText(ws.outsideSecretPath)).rejects.toBeInstanceOf(PathOutsideWorkspace);
    await expect(fs.readText('/etc/passwd')).rejects.toBeInstanceOf(PathOutsideWorkspace);
    await expect(fs.readText(path.join(ws.root, 'a.txt'))).resolves.toMatchObject({ path: 'a.txt' });
  });

  test('checks the opened file itself, so a parent swapped for an outside symlink after resolving is caught', async () => {
    // Simulates the race: resolution saw a plain directory, but by open time `linkdir-out` leads outside.
    jest.spyOn(fsPromises, 'realpath').mockResolvedValueOnce(path.join(ws.root, 'linkdir-out', 'secret.txt'));
    await expect(fs.readText('innocent.txt')).rejects.toBeInstanceOf(PathOutsideWorkspace);
  });

  test('refuses a path containing a NUL byte', async () => {
    await expect(fs.readText('a.txt\0.md')).rejects.toBeInstanceOf(InvalidArgument);
  });

  test('resolves an upper-case detour through `..` lexically before touching the disk', async () => {
    await expect(fs.readText('SRC/../a.txt')).resolves.toMatchObject({ path: 'a.txt' });
    await expect(fs.readText('WS/../../secret.txt')).rejects.toBeInstanceOf(PathOutsideWorkspace);
  });

  test('reports a symlink cycle as unreadable', async () => {
    symlinkSync('loop-b', path.join(ws.root, 'loop-a'));
    symlinkSync('loop-a', path.join(ws.root, 'loop-b'));
    const error = await fs.readText('loop-a').catch((caught: unknown) => caught);
    expect((error as FileNotReadable).details).toEqual({ path: 'loop-a', reason: 'unresolvable_symlink' });
  });

  const runningAsRoot = process.getuid?.() === 0;
  (runningAsRoot ? test.skip : test)('reports a file it may not open as permission denied', async () => {
    writeFileSync(path.join(ws.root, 'locked.txt'), 'locked');
    chmodSync(path.join(ws.root, 'locked.txt'), 0o000);
    const error = await fs.readText('locked.txt').catch((caught: unknown) => caught);
    expect((error as FileNotReadable).details).toEqual({ path: 'locked.txt', reason: 'permission_denied' });
  });

  test('never puts the host path of the workspace into an error message', async () => {
    const inputs = ['../secret.txt', 'link-out.txt', 'missing.txt', 'large.txt', 'binary.bin', 'pipe.fifo', 'a\0'];
    for (const input of inputs) {
      const error = (await fs.readText(input).catch((caught: unknown) => caught)) as Error;
      expect(error.message).not.toContain(ws.parent);
    }
  });
});

describe('NodeWorkspaceFS.resolveDirectory', () => {
  let ws: HostileWorkspace;
  let fs: NodeWorkspaceFS;

  beforeAll(() => {
    ws = makeHostileWorkspace();
    fs = new NodeWorkspaceFS({ root: ws.root, maxReadBytes: FIXTURE_MAX_READ_BYTES });
  });

  afterAll(() => ws.remove());

  test('resolves no directory, an empty path and `.` to the root', async () => {
    await expect(fs.resolveDirectory(undefined)).resolves.toBe(ws.root);
    await expect(fs.resolveDirectory('')).resolves.toBe(ws.root);
    await expect(fs.resolveDirectory('.')).resolves.toBe(ws.root);
  });

  test('joins a relative directory to the root and accepts an absolute one inside', async () => {
    await expect(fs.resolveDirectory('src/lib')).resolves.toBe(path.join(ws.root, 'src', 'lib'));
    await expect(fs.resolveDirectory(path.join(ws.root, 'src'))).resolves.toBe(path.join(ws.root, 'src'));
  });

  test('returns the real path of a symlinked directory inside the workspace', async () => {
    await expect(fs.resolveDirectory('linkdir-in')).resolves.toBe(path.join(ws.root, 'src'));
  });

  test.each([['..'], ['../ws-evil'], ['linkdir-out'], ['/etc'], ['src/../../ws-evil']])(
    'refuses %j as outside the workspace',
    async (directory) => {
      await expect(fs.resolveDirectory(directory)).rejects.toBeInstanceOf(PathOutsideWorkspace);
    },
  );

  test('refuses a missing directory, a file and a NUL byte as invalid arguments', async () => {
    await expect(fs.resolveDirectory('missing')).rejects.toBeInstanceOf(InvalidArgument);
    await expect(fs.resolveDirectory('a.txt')).rejects.toBeInstanceOf(InvalidArgument);
    await expect(fs.resolveDirectory('src\0')).rejects.toBeInstanceOf(InvalidArgument);
  });
});

describe('NodeWorkspaceFS construction', () => {
  let scratch: string;

  beforeEach(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'term-mcp-root-'));
  });

  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  test('resolves the root through symlinks once, at construction', () => {
    symlinkSync(scratch, path.join(scratch, 'alias'));
    const fs = new NodeWorkspaceFS({ root: path.join(scratch, 'alias', 'alias'), maxReadBytes: 10 });
    expect(fs.root).toBe(realpathSync(scratch));
  });

  test('refuses a root that is missing or not a directory', () => {
    writeFileSync(path.join(scratch, 'file'), '');
    expect(() => new NodeWorkspaceFS({ root: path.join(scratch, 'missing'), maxReadBytes: 10 })).toThrow(
      ConfigurationError,
    );
    expect(() => new NodeWorkspaceFS({ root: path.join(scratch, 'file'), maxReadBytes: 10 })).toThrow(
      ConfigurationError,
    );
  });

  test('refuses a read limit that is not a positive integer', () => {
    expect(() => new NodeWorkspaceFS({ root: scratch, maxReadBytes: 0 })).toThrow(ConfigurationError);
    expect(() => new NodeWorkspaceFS({ root: scratch, maxReadBytes: 1.5 })).toThrow(ConfigurationError);
  });
});

describe('NodeWorkspaceFS.readText in skipped directories', () => {
  let ws: HostileWorkspace;
  beforeAll(() => {
    ws = makeHostileWorkspace();
  });
  afterAll(() => ws.remove());

  test.each(['.git/config', 'node_modules/pkg/index.js'])(
    'refuses %s as not found (they are never offered)',
    async (file) => {
      const fs = new NodeWorkspaceFS({ root: ws.root, maxReadBytes: FIXTURE_MAX_READ_BYTES });
      await expect(fs.readText(file)).rejects.toBeInstanceOf(WorkspaceFileNotFound);
    },
  );
});
