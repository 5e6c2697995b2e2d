import fs from 'node:fs';
import path from 'node:path';
import type { PathFacts, PathInspector } from '../../domain/policy/path-inspector.js';

/** The only directories executables are taken from: never the server's PATH, never the workspace. */
export const TRUSTED_EXECUTABLE_DIRECTORIES: readonly string[] = ['/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/sbin'];

/** Linux MAXSYMLINKS: beyond this many links the kernel answers ELOOP, and so do we (as "outside"). */
const MAX_SYMLINK_HOPS = 40;

/**
 * Path facts from the real file system. Resolution walks the path one component at a time like the kernel:
 * a symlink (even a dangling one) is replaced by its target before `..` is applied, so `link/../x` and links
 * pointing out of the workspace land where the command would really land.
 */
export class NodePathInspector implements PathInspector {
  readonly root: string;

  constructor(
    workspaceRoot: string,
    /** Where executables are looked up, in order; tests point it at directories of stand-in programs. */
    private readonly trustedDirectories: readonly string[] = TRUSTED_EXECUTABLE_DIRECTORIES,
  ) {
    this.root = fs.realpathSync(path.resolve(workspaceRoot));
  }

  resolve(cwd: string, token: string): PathFacts {
    const walked = walk(path.isAbsolute(token) ? token : `${cwd}/${token}`);
    if (walked === null) return { absolute: path.resolve(cwd, token), inside: false, exists: false, isDirectory: false, viaSymlink: true };
    const stats = walked.exists ? statOrNull(walked.absolute) : null;
    return {
      absolute: walked.absolute,
      inside: this.contains(walked.absolute),
      exists: walked.exists,
      isDirectory: stats?.isDirectory() ?? false,
      viaSymlink: walked.viaSymlink,
    };
  }

  findExecutable(name: string): string | null {
    if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) return null;
    for (const directory of this.trustedDirectories) {
      const candidate = `${directory}/${name}`;
      try {
        if (!fs.statSync(candidate).isFile()) continue;
        fs.accessSync(candidate, fs.constants.X_OK);
        // A trusted directory entry that links back into the workspace is workspace code, not a system tool.
        if (this.contains(fs.realpathSync(candidate))) continue;
      } catch {
        continue;
      }
      // The link itself, not its target: multi-call binaries (busybox, coreutils) dispatch on argv[0].
      return candidate;
    }
    return null;
  }

  private contains(absolute: string): boolean {
    return absolute === this.root || absolute.startsWith(this.root === '/' ? '/' : `${this.root}/`);
  }
}

/** Resolves an absolute path component by component; null on a symlink loop. */
function walk(absolutePath: string): { absolute: string; exists: boolean; viaSymlink: boolean } | null {
  const pending = absolutePath.split('/');
  let current = '/';
  let missing = false;
  let viaSymlink = false;
  let hops = 0;
  while (pending.length > 0) {
    const component = pending.shift() as string;
    if (component === '' || component === '.') continue;
    if (component === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = current === '/' ? `/${component}` : `${current}/${component}`;
    const stats = missing ? null : lstatOrNull(next);
    if (stats?.isSymbolicLink()) {
      hops += 1;
      if (hops > MAX_SYMLINK_HOPS) return null;
      viaSymlink = true;
      const target = fs.readlinkSync(next);
      pending.unshift(...target.split('/'));
      if (target.startsWith('/')) current = '/';
      continue;
    }
    // Below a missing component nothing exists; `..` there is lexical (the kernel would fail with ENOENT anyway).
    if (!stats) missing = true;
    current = next;
  }
  return { absolute: current, exists: !missing, viaSymlink };
}

function lstatOrNull(target: string): fs.Stats | null {
  try {
    return fs.lstatSync(target);
  } catch {
    return null;
  }
}

function statOrNull(target: string): fs.Stats | null {
  try {
    return fs.statSync(target);
  } catch {
    return null;
  }
}
