import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NodePathInspector } from '../../../src/adapters/policy/node-path-inspector';
import { TRUSTED_EXECUTABLE_DIRECTORIES } from '../../../src/domain/execution/trusted-launch';

describe('NodePathInspector', () => {
  let base: string;
  let root: string;
  let inspector: NodePathInspector;

  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'term-mcp-inspector-')));
    root = path.join(base, 'ws');
    fs.mkdirSync(path.join(root, 'src', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'a.txt'), 'a');
    fs.mkdirSync(path.join(base, 'ws-evil'));
    fs.writeFileSync(path.join(base, 'ws-evil', 'x'), 'x');
    fs.writeFileSync(path.join(base, 'outside.txt'), 'o');
    inspector = new NodePathInspector(root);
  });

  afterEach(() => {
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('resolves relative and absolute paths inside the root', () => {
    expect(inspector.resolve(root, 'src/a.txt')).toEqual({
      absolute: path.join(root, 'src', 'a.txt'),
      inside: true,
      exists: true,
      isDirectory: false,
      viaSymlink: false,
    });
    expect(inspector.resolve(path.join(root, 'src'), path.join(root, 'src', 'deep'))).toMatchObject({
      inside: true,
      isDirectory: true,
    });
    expect(inspector.resolve(root, '')).toMatchObject({ absolute: root, inside: true, isDirectory: true });
  });

  it('treats missing paths below the root as inside, and .. out of the root as outside', () => {
    expect(inspector.resolve(root, 'new/dir/file')).toMatchObject({
      absolute: path.join(root, 'new', 'dir', 'file'),
      inside: true,
      exists: false,
    });
    expect(inspector.resolve(root, '../outside.txt')).toMatchObject({
      absolute: path.join(base, 'outside.txt'),
      inside: false,
      exists: true,
    });
    expect(inspector.resolve(root, 'src/../..')).toMatchObject({ absolute: base, inside: false });
  });

  it('says a prefix sibling of the root is outside', () => {
    expect(inspector.resolve(root, '../ws-evil/x')).toMatchObject({
      absolute: path.join(base, 'ws-evil', 'x'),
      inside: false,
    });
    expect(inspector.resolve(root, path.join(base, 'ws-evil'))).toMatchObject({ inside: false });
  });

  it('follows a symlink that points out of the workspace', () => {
    fs.symlinkSync(base, path.join(root, 'up'));
    expect(inspector.resolve(root, 'up/outside.txt')).toMatchObject({
      absolute: path.join(base, 'outside.txt'),
      inside: false,
      viaSymlink: true,
    });
    expect(inspector.resolve(root, 'up')).toMatchObject({ absolute: base, inside: false, isDirectory: true });
  });

  it('applies .. after following a symlink, like the kernel', () => {
    fs.symlinkSync(path.join(base, 'ws-evil'), path.join(root, 'evil-dir'));
    // Lexically `evil-dir/../src` is `<root>/src`; the kernel lands in `<base>/src`.
    expect(inspector.resolve(root, 'evil-dir/../outside.txt')).toMatchObject({
      absolute: path.join(base, 'outside.txt'),
      inside: false,
    });
  });

  it('follows a dangling symlink to where a write would create the file', () => {
    fs.symlinkSync(path.join(base, 'created-later'), path.join(root, 'dangling'));
    expect(inspector.resolve(root, 'dangling')).toMatchObject({
      absolute: path.join(base, 'created-later'),
      inside: false,
      exists: false,
      viaSymlink: true,
    });
  });

  it('keeps relative symlinks that stay inside the workspace inside', () => {
    fs.symlinkSync('src', path.join(root, 'alias'));
    expect(inspector.resolve(root, 'alias/a.txt')).toMatchObject({
      absolute: path.join(root, 'src', 'a.txt'),
      inside: true,
      viaSymlink: true,
    });
  });

  it('answers outside for a symlink loop', () => {
    fs.symlinkSync('loop-b', path.join(root, 'loop-a'));
    fs.symlinkSync('loop-a', path.join(root, 'loop-b'));
    expect(inspector.resolve(root, 'loop-a/x')).toMatchObject({ inside: false, exists: false });
  });

  it('resolves the root itself through a symlink and a relative path', () => {
    const alias = path.join(base, 'root-alias');
    fs.symlinkSync(root, alias);
    const viaAlias = new NodePathInspector(alias);
    expect(viaAlias.root).toBe(root);
    expect(viaAlias.resolve(alias, 'src/a.txt')).toMatchObject({
      absolute: path.join(root, 'src', 'a.txt'),
      inside: true,
    });
    expect(new NodePathInspector(path.relative(process.cwd(), root)).root).toBe(root);
  });

  it('finds executables on the trusted PATH only', () => {
    const ls = inspector.findExecutable('ls');
    expect(ls).not.toBeNull();
    expect(TRUSTED_EXECUTABLE_DIRECTORIES).toContain(path.dirname(ls as string));
    expect(inspector.findExecutable('term-mcp-no-such-tool')).toBeNull();
  });

  it('never finds a path, a relative name or a workspace file', () => {
    fs.writeFileSync(path.join(root, 'evil'), '#!/bin/sh\n', { mode: 0o755 });
    for (const name of ['./evil', 'evil', '/bin/ls', 'src/../ls', '', '.', '..']) {
      expect(inspector.findExecutable(name)).toBeNull();
    }
  });

  it('skips trusted entries that resolve into the workspace', () => {
    const inUsrBin = new NodePathInspector('/usr');
    expect(inUsrBin.findExecutable('ls')).toBe(
      fs.existsSync('/bin/ls') && !fs.realpathSync('/bin/ls').startsWith('/usr/') ? '/bin/ls' : null,
    );
  });
});

describe('NodePathInspector snapshot: what one evaluation has read is read once', () => {
  it('walks the shared prefix of many paths once, and a fresh snapshot reads again', () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'term-mcp-snapshot-')));
    try {
      fs.mkdirSync(path.join(base, 'deep', 'er'), { recursive: true });
      fs.symlinkSync('er', path.join(base, 'deep', 'link'));
      const inspector = new NodePathInspector(base);
      const lstat = jest.spyOn(fs, 'lstatSync');
      try {
        const snapshot = inspector.snapshot();
        for (let index = 0; index < 50; index += 1)
          expect(snapshot.resolve(base, `deep/link/f${index}`).inside).toBe(true);
        const components = base.split('/').length - 1;
        // Each shared component (the root's, deep, link, er) once, then one per distinct file.
        expect(lstat.mock.calls.length).toBeLessThanOrEqual(components + 3 + 50);
        lstat.mockClear();
        inspector.snapshot().resolve(base, 'deep/link/f0');
        expect(lstat.mock.calls.length).toBe(components + 4);
        lstat.mockClear();
        fs.rmSync(path.join(base, 'deep', 'link'));
        fs.symlinkSync('/etc', path.join(base, 'deep', 'link'));
        expect(inspector.snapshot().resolve(base, 'deep/link/passwd').inside).toBe(false);
      } finally {
        lstat.mockRestore();
      }
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
