import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROTECTED_CONFIGURATION } from '../../../src/adapters/sandbox/bubblewrap-profile';
import { findRepositories, RUN_ON_OPEN_AT_ROOT } from '../../../src/adapters/sandbox/run-on-open-paths';
import { snapshotSurface, surfaceChanges } from '../../../src/adapters/sandbox/run-on-open-surface';
import { planProtection } from '../../../src/adapters/sandbox/workspace-protection';

let root: string;
const SOURCES = { commondir: '/var/empty/commondir', emptyDir: '/var/empty' };

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'term-mcp-protect-'));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** The destination of each `--ro-bind SRC DEST` / `--tmpfs DEST` in an argument list. */
function destinations(args: readonly string[]): string[] {
  const found: string[] = [];
  args.forEach((arg, index) => {
    if (arg === '--ro-bind') found.push(args[index + 2] ?? '');
    if (arg === '--tmpfs') found.push(args[index + 1] ?? '');
  });
  return found;
}

describe('the run-on-open paths', () => {
  it('cover every file and directory @anthropic-ai/sandbox-runtime protects (PROTECTED_CONFIGURATION)', () => {
    const names = RUN_ON_OPEN_AT_ROOT.map(({ name }) => name);
    for (const entry of PROTECTED_CONFIGURATION) {
      expect(names.some((name) => entry === name || entry.startsWith(`${name}/`))).toBe(true);
    }
  });
});

describe('planProtection', () => {
  it('pins a nested repository and each of its ancestors, and binds its config and hooks read-only', () => {
    mkdirSync(path.join(root, 'lib', 'vendor', '.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(root, 'lib', 'vendor', '.git', 'config'), '[core]\n');
    const plan = planProtection(root, findRepositories(root), SOURCES);
    expect(destinations(plan.pins)).toEqual([
      path.join(root, 'lib'),
      path.join(root, 'lib', 'vendor'),
      path.join(root, 'lib', 'vendor', '.git'),
    ]);
    expect(destinations(plan.binds)).toEqual(
      expect.arrayContaining([
        path.join(root, 'lib', 'vendor', '.git', 'config'),
        path.join(root, 'lib', 'vendor', '.git', 'hooks'),
      ]),
    );
    expect(plan.placeholders).toEqual(
      expect.arrayContaining([{ path: path.join(root, 'lib', 'vendor', '.git', 'commondir'), kind: 'file' }]),
    );
    expect(plan.binds.join(' ')).toContain(
      `${SOURCES.commondir} ${path.join(root, 'lib', 'vendor', '.git', 'commondir')}`,
    );
  });

  it('never binds a link: a link out of the workspace is left alone, a link into it protects its target', () => {
    symlinkSync('/etc', path.join(root, '.vscode'));
    mkdirSync(path.join(root, 'shared'));
    symlinkSync('shared', path.join(root, '.claude'));
    const plan = planProtection(root, findRepositories(root), SOURCES);
    const all = destinations([...plan.pins, ...plan.binds]);
    expect(all).not.toContain(path.join(root, '.vscode'));
    expect(all).not.toContain(path.join(root, '.claude'));
    expect(all).not.toContain('/etc');
    expect(all).toContain(path.join(root, 'shared'));
    expect(plan.placeholders.map((placeholder) => placeholder.path)).not.toContain(path.join(root, '.vscode'));
  });

  it('holds absent names with placeholders of their kind, the root .git among them', () => {
    const plan = planProtection(root, findRepositories(root), SOURCES);
    expect(plan.placeholders).toEqual(
      expect.arrayContaining([
        { path: path.join(root, '.git'), kind: 'dir' },
        { path: path.join(root, '.mcp.json'), kind: 'file' },
        { path: path.join(root, '.claude'), kind: 'dir' },
      ]),
    );
  });
});

describe('the run-on-open surface', () => {
  it('names a new nested repository and a changed .vscode file, not git writing its own index', () => {
    mkdirSync(path.join(root, '.git'));
    mkdirSync(path.join(root, '.vscode'));
    writeFileSync(path.join(root, '.vscode', 'tasks.json'), '{}');
    const before = snapshotSurface(root);
    writeFileSync(path.join(root, '.git', 'index'), 'x');
    mkdirSync(path.join(root, 'sub', '.git'), { recursive: true });
    writeFileSync(path.join(root, 'sub', '.git', 'config'), '[core]\n');
    writeFileSync(path.join(root, '.vscode', 'tasks.json'), '{"tasks":[1]}');
    expect(surfaceChanges(before, snapshotSurface(root))).toEqual([
      '.vscode/tasks.json',
      'sub/.git',
      'sub/.git/config',
    ]);
  });
});
