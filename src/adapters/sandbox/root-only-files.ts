import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { isAtOrBelow } from '../../domain/workspace/path-containment.js';
import type { MaskedEntry } from './bubblewrap-profile.js';

/**
 * The trees scanned at start-up for what only root may read: system configuration and state (shadow files, host ssh
 * keys, private TLS keys, daemons' data, logs, backups). /usr is left out: distribution files, world-readable, and
 * ten times as many entries. /root and the homes are hidden whole (host-homes.ts).
 */
export const ROOT_ONLY_SCAN_TREES = ['/etc', '/var', '/boot', '/opt', '/srv', '/usr/local', '/run', '/mnt', '/media'];
/** Bounds the start-up walk (and with it the masks every command's set-up mounts). */
const MAX_SCANNED_ENTRIES = 100_000;
const WORLD_READABLE = 0o004;
const WORLD_SEARCHABLE = 0o001;

export interface RootOnlyScan {
  readonly entries: MaskedEntry[];
  /** True when the walk stopped at its bound: entries past it are not masked. */
  readonly truncated: boolean;
}

/** Whom the masks are for: the uid and groups a sandboxed command keeps (those of the server). */
export interface Reader {
  readonly uid: number;
  readonly groups: readonly number[];
}

/**
 * The permission bits that apply to `reader` without capabilities (owner, else group, else others), as 0-7: the
 * kernel picks the first class that matches.
 */
function bitsFor(stats: { mode: number; uid: number; gid: number }, reader: Reader): number {
  if (stats.uid === reader.uid) return (stats.mode >> 6) & 0o7;
  if (reader.groups.includes(stats.gid)) return (stats.mode >> 3) & 0o7;
  return stats.mode & 0o7;
}

const READ = 0o4;
const SEARCH = 0o1;

/**
 * Every directory others may not list or enter, and every non-empty regular file others may not read, that `reader`
 * (uid 0 and its groups, without capabilities) can still read as owner or group, under `trees`: what the sandbox of a
 * server run as root must mask. A masked directory is not walked further. Links are not followed; `skip` (the workspace, hidden homes, the
 * allow list) and whatever holds them are left alone.
 */
export function findRootOnlyReadable(
  trees: readonly string[],
  skip: readonly string[],
  reader: Reader = { uid: 0, groups: [0] },
): RootOnlyScan {
  const entries: MaskedEntry[] = [];
  let scanned = 0;
  const holdsOrIsSkipped = (candidate: string): boolean =>
    skip.some((kept) => isAtOrBelow(candidate, kept) || isAtOrBelow(kept, candidate));
  const visit = (target: string): void => {
    scanned += 1;
    if (scanned > MAX_SCANNED_ENTRIES) return;
    let stats;
    try {
      stats = lstatSync(target);
    } catch {
      return;
    }
    if (stats.isDirectory()) {
      const skipped = skip.some((kept) => isAtOrBelow(kept, target));
      if (skipped) return;
      // Others may not list or enter it, but the reader (as owner or group) may: mask. What the reader cannot enter
      // either (another user's 0700 directory) needs no mask and is not walked.
      if ((stats.mode & WORLD_READABLE) === 0 || (stats.mode & WORLD_SEARCHABLE) === 0) {
        if ((bitsFor(stats, reader) & (READ | SEARCH)) === 0) return;
        if (!holdsOrIsSkipped(target)) {
          entries.push({ path: target, directory: true });
          return;
        }
      }
      let names: string[];
      try {
        names = readdirSync(target);
      } catch {
        return;
      }
      for (const name of names.sort()) visit(path.join(target, name));
    } else if (
      stats.isFile() &&
      stats.size > 0 &&
      (stats.mode & WORLD_READABLE) === 0 &&
      (bitsFor(stats, reader) & READ) !== 0 &&
      !holdsOrIsSkipped(target)
    ) {
      // Empty files (locks, mostly) hold nothing to read, and every mask costs each command's set-up a mount.
      entries.push({ path: target, directory: false });
    }
  };
  for (const tree of trees) visit(tree);
  return { entries, truncated: scanned > MAX_SCANNED_ENTRIES };
}
