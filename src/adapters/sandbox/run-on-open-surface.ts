import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { walkBreadthFirst } from './bounded-walk.js';
import {
  findRepositories,
  GIT_DIR_PROTECTED,
  RUN_ON_OPEN_AT_ROOT,
  type RepositoryLayout,
} from './run-on-open-paths.js';

/** Workspace-relative path -> what lstat says about it (kind, mode, size, mtime in ns, inode; a link's target). */
export type SurfaceSnapshot = ReadonlyMap<string, string>;

/** Entries read below one protected directory; a tree larger than this is summarised by its first entries. */
const MAX_ENTRIES_PER_TREE = 500;
/** Changed paths named per command; the rest are counted in one last item. */
export const MAX_REPORTED_CHANGES = 50;

/**
 * Defence in depth behind the sandbox's protection (issue 26): the run-on-open surface of the workspace (the
 * protected root files and directories, every repository's `.git` entry and its config, hooks, commondir and
 * submodule git directories) as it is before a command, to compare with what it is after. Never follows a link.
 */
export function snapshotSurface(
  workspaceRoot: string,
  layout: RepositoryLayout = findRepositories(workspaceRoot),
): SurfaceSnapshot {
  const snapshot = new Map<string, string>();
  const record = (target: string, tree: boolean, identityOnly = false): void => {
    const relative = path.relative(workspaceRoot, target) || '.';
    if (snapshot.has(relative)) return;
    const print = fingerprint(target, identityOnly);
    if (print === undefined) return;
    snapshot.set(relative, print);
    if (tree && print.startsWith('dir:')) recordTree(target, workspaceRoot, snapshot);
  };
  // A git directory changes with every commit (index, objects, refs): only its identity counts (moved, replaced).
  for (const gitDir of layout.gitDirs) {
    record(gitDir, false, true);
    for (const { name } of GIT_DIR_PROTECTED) record(path.join(gitDir, name), name !== 'modules');
  }
  for (const entry of [...layout.gitFiles, ...layout.gitLinks]) record(entry, false);
  for (const { name } of RUN_ON_OPEN_AT_ROOT) record(path.join(workspaceRoot, name), name !== '.git');
  return snapshot;
}

/** The workspace-relative paths added, removed or changed between two snapshots, sorted, at most MAX_REPORTED_CHANGES. */
export function surfaceChanges(
  before: SurfaceSnapshot,
  after: SurfaceSnapshot,
  ignored: ReadonlySet<string> = new Set(),
): string[] {
  const changed = [...new Set([...before.keys(), ...after.keys()])]
    .filter((key) => !ignored.has(key) && before.get(key) !== after.get(key))
    .sort();
  if (changed.length <= MAX_REPORTED_CHANGES) return changed;
  return [
    ...changed.slice(0, MAX_REPORTED_CHANGES - 1),
    `... and ${String(changed.length - MAX_REPORTED_CHANGES + 1)} more`,
  ];
}

function fingerprint(target: string, identityOnly = false): string | undefined {
  try {
    const stats = lstatSync(target, { bigint: true });
    if (identityOnly && stats.isDirectory()) return `dir:${stats.dev.toString()}:${stats.ino.toString()}`;
    const common = `${stats.mode.toString(8)}:${stats.size.toString()}:${stats.mtimeNs.toString()}:${stats.ino.toString()}`;
    if (stats.isSymbolicLink()) return `link:${common}:${readlinkSync(target)}`;
    return `${stats.isDirectory() ? 'dir' : stats.isFile() ? 'file' : 'other'}:${common}`;
  } catch {
    return undefined;
  }
}

function recordTree(root: string, workspaceRoot: string, snapshot: Map<string, string>): void {
  let seen = 0;
  for (const { full } of walkBreadthFirst(root, () => true, MAX_ENTRIES_PER_TREE)) {
    if (seen >= MAX_ENTRIES_PER_TREE) break;
    seen += 1;
    const print = fingerprint(full);
    if (print !== undefined) snapshot.set(path.relative(workspaceRoot, full), print);
  }
}
