import { realpathSync } from 'node:fs';
import path from 'node:path';
import { isAtOrBelow } from '../../domain/workspace/path-containment.js';
import {
  entryKind,
  GIT_DIR_PROTECTED,
  RUN_ON_OPEN_AT_ROOT,
  type PathKind,
  type RepositoryLayout,
} from './run-on-open-paths.js';

/** An absent protected path, held by an empty read-only placeholder for one command (bwrap makes its mount point). */
export interface Placeholder {
  readonly path: string;
  readonly kind: PathKind;
}

/**
 * What an absent git `commondir` is covered with: a file that says ".", the git directory itself (what git assumes
 * when there is none). An empty one would stop git ("failed to read commondir"). Made by the confinement, outside the
 * workspace.
 */
export interface PlaceholderSources {
  readonly commondir: string;
  /** An empty read-only directory: bound over an absent protected directory (a bind costs less than a tmpfs). */
  readonly emptyDir: string;
}

/**
 * How one command's sandbox protects the run-on-open surface of a writable workspace:
 * - `pins`: every directory between a protected path and the workspace root (the git directories included), bound
 *   read-only over itself BEFORE the workspace is bound (and before /tmp is replaced), so the pin lies buried under
 *   the writable workspace: lookups never meet it, access is unchanged, but the kernel refuses to rename or remove a
 *   directory that is a mount point anywhere in the namespace. Moving `.git` aside to swap in a copy fails (EBUSY).
 *   As @anthropic-ai/sandbox-runtime pins ancestors (its ancestorPinArgs).
 * - `binds`, after the workspace: each existing protected file or directory read-only over itself; each absent one
 *   covered by /dev/null (a file) or an empty read-only directory, so it cannot be created either.
 * Never follows a link: a protected name that is a symbolic link is not bound (bwrap would follow it, and a link out
 * of the sandbox's tree would stop every command from starting, issue 26 item 5); its target is protected instead
 * when it lies in the workspace, and is read-only in the sandbox anyway when it does not.
 */
export interface ProtectionPlan {
  readonly pins: readonly string[];
  readonly binds: readonly string[];
  readonly placeholders: readonly Placeholder[];
}

export function planProtection(
  workspaceRoot: string,
  layout: RepositoryLayout,
  sources: PlaceholderSources,
  /** Placeholders this server made that may still be there: held again as placeholders, never taken for the real thing. */
  ownPlaceholders: ReadonlySet<string> = new Set(),
): ProtectionPlan {
  const readOnly = new Set<string>();
  const placeholders = new Map<string, PathKind>();
  const pinned = new Set<string>();

  const protect = (target: string, kind: PathKind): void => {
    if (ownPlaceholders.has(target) && entryKind(target) === kind) {
      placeholders.set(target, kind);
      return;
    }
    switch (entryKind(target)) {
      case undefined:
        placeholders.set(target, kind);
        return;
      case 'link': {
        const real = realTarget(target);
        if (real !== undefined && isAtOrBelow(workspaceRoot, real) && real !== workspaceRoot) readOnly.add(real);
        return;
      }
      case 'dir':
      case 'file':
      case 'other':
        readOnly.add(target);
    }
  };

  for (const { name, kind } of RUN_ON_OPEN_AT_ROOT) {
    const target = path.join(workspaceRoot, name);
    // A root .git directory is protected inside (below): git must still write its index, objects and refs.
    if (name === '.git' && entryKind(target) === 'dir' && !ownPlaceholders.has(target)) continue;
    protect(target, kind);
  }
  for (const gitDir of layout.gitDirs) {
    pinned.add(gitDir);
    for (const { name, kind } of GIT_DIR_PROTECTED) {
      const target = path.join(gitDir, name);
      // An existing modules/ stays writable (its submodules' git directories are protected one by one).
      if (name === 'modules' && entryKind(target) === 'dir') pinned.add(target);
      else protect(target, kind);
    }
  }
  for (const gitFile of layout.gitFiles) readOnly.add(gitFile);

  // Below a directory bound read-only nothing can be created anyway, and bwrap could not make a mount point there.
  const readOnlyDirs = [...readOnly].filter((target) => entryKind(target) === 'dir');
  for (const target of placeholders.keys()) {
    if (readOnlyDirs.some((dir) => target !== dir && isAtOrBelow(dir, target))) placeholders.delete(target);
  }
  for (const target of [...readOnly, ...placeholders.keys(), ...pinned]) {
    for (
      let dir = path.dirname(target);
      dir !== workspaceRoot && isAtOrBelow(workspaceRoot, dir);
      dir = path.dirname(dir)
    )
      pinned.add(dir);
  }
  const pins = [...pinned]
    .filter((dir) => entryKind(dir) === 'dir')
    .sort((a, b) => a.split('/').length - b.split('/').length)
    .flatMap((dir) => ['--ro-bind', dir, dir]);
  const binds = [
    ...[...readOnly].sort().flatMap((target) => ['--ro-bind', target, target]),
    ...[...placeholders]
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([target, kind]) =>
        kind === 'dir'
          ? ['--ro-bind', sources.emptyDir, target]
          : ['--ro-bind', path.basename(target) === 'commondir' ? sources.commondir : '/dev/null', target],
      ),
  ];
  return { pins, binds, placeholders: [...placeholders].map(([target, kind]) => ({ path: target, kind })) };
}

function realTarget(link: string): string | undefined {
  try {
    return realpathSync(link);
  } catch {
    return undefined;
  }
}
