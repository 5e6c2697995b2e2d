import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The read limit every fixture workspace is opened with: small, so the "large" file stays small too. */
export const FIXTURE_MAX_READ_BYTES = 1024;
export const OUTSIDE_SECRET = 'TOP-SECRET-OUTSIDE-THE-WORKSPACE';
export const SIBLING_SECRET = 'TOP-SECRET-IN-THE-PREFIX-SIBLING';

/**
 * A real temp tree: `<parent>/ws` is the workspace; next to it sit `<parent>/secret.txt` and the prefix sibling
 * `<parent>/ws-evil/secret.txt`, which nothing may ever read through the workspace.
 */
export interface HostileWorkspace {
  readonly parent: string;
  readonly root: string;
  readonly outsideSecretPath: string;
  readonly siblingSecretPath: string;
  remove(): void;
}

export function makeHostileWorkspace(): HostileWorkspace {
  const parent = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'term-mcp-fs-')));
  const root = path.join(parent, 'ws');
  const outsideSecretPath = path.join(parent, 'secret.txt');
  const siblingSecretPath = path.join(parent, 'ws-evil', 'secret.txt');
  writeFileSync(outsideSecretPath, OUTSIDE_SECRET);
  mkdirSync(path.dirname(siblingSecretPath));
  writeFileSync(siblingSecretPath, SIBLING_SECRET);

  const files: Record<string, string | Buffer> = {
    'README.md': '# Readme\n',
    'a.txt': 'alpha\n',
    'empty.txt': '',
    'my résumé.txt': 'curriculum vitae\n',
    '..notes.txt': 'two leading dots, still inside\n',
    'data.json': '{"ok":true}\n',
    'src/index.ts': 'export const x = 1;\n',
    'src/lib/util.js': 'module.exports = {};\n',
    'src/styles.css': 'body {}\n',
    'binary.bin': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]),
    'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), // "café" in Latin-1: not valid UTF-8
    'at-limit.txt': 'x'.repeat(FIXTURE_MAX_READ_BYTES),
    'large.txt': 'y'.repeat(FIXTURE_MAX_READ_BYTES * 2),
    '.git/config': '[remote "origin"]\n',
    'node_modules/pkg/index.js': 'module.exports = 1;\n',
    'nested/node_modules/deep.js': 'module.exports = 2;\n',
    'nested/kept.txt': 'kept\n',
  };
  for (const [relative, content] of Object.entries(files)) {
    const absolute = path.join(root, relative);
    mkdirSync(path.dirname(absolute), { recursive: true });
    writeFileSync(absolute, content);
  }
  execFileSync('mkfifo', [path.join(root, 'pipe.fifo')]);
  symlinkSync('a.txt', path.join(root, 'link-inside.txt'));
  symlinkSync(outsideSecretPath, path.join(root, 'link-out.txt'));
  symlinkSync(path.join(parent, 'ws-evil'), path.join(root, 'linkdir-out'));
  symlinkSync('src', path.join(root, 'linkdir-in'));

  return {
    parent,
    root,
    outsideSecretPath,
    siblingSecretPath,
    remove: () => rmSync(parent, { recursive: true, force: true }),
  };
}

/** The regular files of the hostile workspace that a listing must return, in byte order of their path. */
export const LISTED_FILES = [
  '..notes.txt',
  'README.md',
  'a.txt',
  'at-limit.txt',
  'binary.bin',
  'data.json',
  'empty.txt',
  'large.txt',
  'latin1.txt',
  'my résumé.txt',
  'nested/kept.txt',
  'src/index.ts',
  'src/lib/util.js',
  'src/styles.css',
];

/** A plain workspace holding exactly the given files (relative path → content). */
export function makeWorkspaceWith(files: Record<string, string>): { root: string; remove(): void } {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'term-mcp-ws-')));
  for (const [relative, content] of Object.entries(files)) {
    const absolute = path.join(root, relative);
    mkdirSync(path.dirname(absolute), { recursive: true });
    writeFileSync(absolute, content);
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
