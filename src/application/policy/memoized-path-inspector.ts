import type { LinkListing, PathFacts, PathInspector } from '../../domain/policy/path-inspector.js';

/** Directory entries one evaluation may read to find the links a copy or move would carry. */
export const MAX_LISTED_ENTRIES = 10_000;

/**
 * Remembers path facts for the span of one evaluation. A line is judged as one snapshot of the file system
 * anyway, and the same names come back (the working directory for every command, `ls` in `ls;ls;ls`, repeated
 * operands), so each is looked up once per line instead of once per use. Never shared between evaluations: the
 * execute-time re-check gets a fresh one and sees the file system as it is then.
 */
export class MemoizedPathInspector implements PathInspector {
  /** By working directory, then by token: no key is built per look-up (a long line asks for hundreds of words). */
  private readonly resolved = new Map<string, Map<string, PathFacts>>();
  private readonly executables = new Map<string, string | null>();

  /**
   * Links carried by a copy or move (present when the inner inspector can list them). Directory entries are
   * counted over the whole evaluation, so a line naming many trees, or one huge tree, stops at
   * MAX_LISTED_ENTRIES (the listing says it is truncated and the command is refused) instead of being read in full.
   */
  readonly listLinks?: (absolute: string) => LinkListing;
  private entriesLeft = MAX_LISTED_ENTRIES;
  private listed = 0;

  constructor(private readonly inner: PathInspector) {
    const list = inner.listLinks?.bind(inner);
    if (list) {
      this.listLinks = (absolute) => {
        this.listed += 1;
        const listing = list(absolute, this.entriesLeft);
        this.entriesLeft = Math.max(0, this.entriesLeft - listing.entries);
        return listing;
      };
    }
  }

  /**
   * How many listings this evaluation made. A judgement that listed spent budget a later judgement of the same
   * command must spend again (simple-command-memo.ts keeps only judgements that listed nothing).
   */
  get listings(): number {
    return this.listed;
  }

  get root(): string {
    return this.inner.root;
  }

  resolve(cwd: string, token: string): PathFacts {
    let inCwd = this.resolved.get(cwd);
    if (inCwd === undefined) {
      inCwd = new Map();
      this.resolved.set(cwd, inCwd);
    }
    let facts = inCwd.get(token);
    if (facts === undefined) {
      facts = this.inner.resolve(cwd, token);
      inCwd.set(token, facts);
    }
    return facts;
  }

  findExecutable(name: string): string | null {
    if (!this.executables.has(name)) this.executables.set(name, this.inner.findExecutable(name));
    return this.executables.get(name) ?? null;
  }
}
