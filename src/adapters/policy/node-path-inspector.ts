import fs from 'node:fs';
import path from 'node:path';
import { TRUSTED_EXECUTABLE_DIRECTORIES } from '../../domain/execution/trusted-launch.js';
import type { LinkListing, PathFacts, PathInspector } from '../../domain/policy/path-inspector.js';
import { isAtOrBelow } from '../../domain/workspace/path-containment.js';

/** Linux PATH_MAX. */
const PATH_MAX = 4096;

/** Linux MAXSYMLINKS: beyond this many links the kernel answers ELOOP, and so do we (as "outside"). */
const MAX_SYMLINK_HOPS = 40;

/**
 * Path facts from the real file system. Resolution walks the path one component at a time like the kernel:
 * a symlink (even a dangling one) is replaced by its target before `..` is applied, so `link/../x` and links
 * pointing out of the workspace land where the command would really land.
 */
export class NodePathInspector implements PathInspector {
  readonly root: string;
  /** What was read, kept only by a snapshot (one evaluation); null: always ask the file system. */
  private readonly cache: ReadCache | null;

  constructor(
    workspaceRoot: string,
    /** Where executables are looked up, in order; tests point it at directories of stand-in programs. */
    private readonly trustedDirectories: readonly string[] = TRUSTED_EXECUTABLE_DIRECTORIES,
    snapshotOf?: NodePathInspector,
  ) {
    this.root = snapshotOf?.root ?? fs.realpathSync(path.resolve(workspaceRoot));
    this.cache = snapshotOf ? { lstats: new Map(), links: new Map() } : null;
  }

  /**
   * The same inspector remembering every lstat for as long as it is kept: paths that share a prefix (every operand
   * under the working directory) walk the shared components once. The engine keeps it for one evaluation.
   */
  snapshot(): PathInspector {
    return new NodePathInspector(this.root, this.trustedDirectories, this);
  }

  resolve(cwd: string, token: string): PathFacts {
    // Longer than PATH_MAX: no single system call can open it. Reported as outside (the safe answer) without a
    // walk whose cost would grow with its length; the policy refuses such words before asking.
    if (token.length > PATH_MAX)
      return { absolute: path.resolve(cwd, token), inside: false, exists: false, isDirectory: false, viaSymlink: true };
    const walked = walk(path.isAbsolute(token) ? token : `${cwd}/${token}`, this.cache);
    if (walked === null)
      return { absolute: path.resolve(cwd, token), inside: false, exists: false, isDirectory: false, viaSymlink: true };
    // The walk's last lstat already describes the result unless the path ended in `..` or `.` (then ask again).
    const stats = walked.exists ? (walked.lastStats ?? statOrNull(walked.absolute)) : null;
    return {
      absolute: walked.absolute,
      inside: this.contains(walked.absolute),
      exists: walked.exists,
      isDirectory: stats?.isDirectory() ?? false,
      viaSymlink: walked.viaSymlink,
    };
  }

  listLinks(absolute: string, maxEntries: number): LinkListing {
    const links: { path: string; target: string }[] = [];
    const own = lstatOrNull(absolute);
    if (own?.isSymbolicLink())
      return { links: [{ path: absolute, target: fs.readlinkSync(absolute) }], entries: 1, truncated: false };
    if (!own?.isDirectory()) return { links, entries: 1, truncated: false };
    const directories = [absolute];
    let entries = 0;
    while (directories.length > 0) {
      const directory = directories.pop() as string;
      let listed: fs.Dirent[];
      try {
        listed = fs.readdirSync(directory, { withFileTypes: true });
      } catch {
        continue; // unreadable: the copy would not carry it either
      }
      entries += listed.length;
      if (entries > maxEntries) return { links, entries, truncated: true };
      for (const entry of listed) {
        const entryPath = `${directory}/${entry.name}`;
        if (entry.isSymbolicLink()) links.push({ path: entryPath, target: fs.readlinkSync(entryPath) });
        else if (entry.isDirectory()) directories.push(entryPath);
      }
    }
    return { links, entries, truncated: false };
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
    return isAtOrBelow(this.root, absolute);
  }
}

interface Walked {
  readonly absolute: string;
  readonly exists: boolean;
  readonly viaSymlink: boolean;
  /** lstat of `absolute` when the last step was an ordinary component (not a symlink, `..` or `.`), else null. */
  readonly lastStats: fs.Stats | null;
}

/** Resolves an absolute path component by component; null on a symlink loop. */
function walk(absolutePath: string, cache: ReadCache | null): Walked | null {
  // Components still to walk, last one first, so taking the next is O(1) (a symlink's target is pushed in front).
  const pending = absolutePath.split('/').reverse();
  let current = '/';
  let missing = false;
  let viaSymlink = false;
  let hops = 0;
  let lastStats: fs.Stats | null = null;
  while (pending.length > 0) {
    const component = pending.pop() as string;
    if (component === '' || component === '.') {
      if (component === '.') lastStats = null;
      continue;
    }
    lastStats = null;
    if (component === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = current === '/' ? `/${component}` : `${current}/${component}`;
    const stats = missing ? null : cachedLstat(next, cache);
    if (stats?.isSymbolicLink()) {
      hops += 1;
      if (hops > MAX_SYMLINK_HOPS) return null;
      viaSymlink = true;
      const target = readLink(next, cache);
      const targetComponents = target.split('/');
      for (let index = targetComponents.length - 1; index >= 0; index -= 1)
        pending.push(targetComponents[index] as string);
      if (target.startsWith('/')) current = '/';
      continue;
    }
    // Below a missing component nothing exists; `..` there is lexical (the kernel would fail with ENOENT anyway).
    if (!stats) missing = true;
    lastStats = stats;
    current = next;
  }
  return { absolute: current, exists: !missing, viaSymlink, lastStats };
}

/** What a snapshot has read: lstat answers and link targets by path. */
interface ReadCache {
  readonly lstats: Map<string, fs.Stats | null>;
  readonly links: Map<string, string>;
}

function readLink(link: string, cache: ReadCache | null): string {
  if (cache === null) return fs.readlinkSync(link);
  let target = cache.links.get(link);
  if (target === undefined) {
    target = fs.readlinkSync(link);
    cache.links.set(link, target);
  }
  return target;
}

function cachedLstat(target: string, cache: ReadCache | null): fs.Stats | null {
  if (cache === null) return lstatOrNull(target);
  let stats = cache.lstats.get(target);
  if (stats === undefined) {
    stats = lstatOrNull(target);
    cache.lstats.set(target, stats);
  }
  return stats;
}

function lstatOrNull(target: string): fs.Stats | null {
  try {
    // A missing entry answers undefined instead of throwing: building the error was most of the cost of a miss.
    return fs.lstatSync(target, { throwIfNoEntry: false }) ?? null;
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
