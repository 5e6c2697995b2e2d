import { readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';

/** One entry met by the walk: its path, its directory entry, and the depth of the directory that holds it (root: 0). */
export interface WalkedEntry {
  readonly full: string;
  readonly entry: Dirent;
  readonly depth: number;
}

/**
 * The entries below `root`, breadth first, never through a link (directory entries are not followed), reading at most
 * `maxDirectories` directories and entering only those `enter` accepts. Unreadable directories are passed over. The
 * workspace is attacker data, so every walk of it is bounded; a caller that wants fewer entries stops iterating.
 */
export function* walkBreadthFirst(
  root: string,
  enter: (walked: WalkedEntry) => boolean,
  maxDirectories: number,
): Generator<WalkedEntry> {
  const queue: Array<{ dir: string; depth: number }> = [{ dir: root, depth: 0 }];
  for (let read = 0; read < queue.length && read < maxDirectories; read += 1) {
    const { dir, depth } = queue[read] as { dir: string; depth: number };
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const walked = { full: path.join(dir, entry.name), entry, depth };
      yield walked;
      if (entry.isDirectory() && enter(walked)) queue.push({ dir: walked.full, depth: depth + 1 });
    }
  }
}
