/** What the policy needs to know about one path argument, resolved the way the kernel would open it. */
export interface PathFacts {
  /** Absolute path with every existing symlink on the way followed. */
  readonly absolute: string;
  /** `absolute` is the workspace root or below it (a prefix sibling such as `/ws-evil` for `/ws` is outside). */
  readonly inside: boolean;
  readonly exists: boolean;
  readonly isDirectory: boolean;
  /** At least one symlink was followed while resolving. */
  readonly viaSymlink: boolean;
}

/** The symbolic links found in a file tree, without following any. */
export interface LinkListing {
  /** Each link: its absolute path (its directory resolved, itself not followed) and its target as written. */
  readonly links: readonly { readonly path: string; readonly target: string }[];
  /** Directory entries read. */
  readonly entries: number;
  /** More than the allowed number of entries: the listing is incomplete. */
  readonly truncated: boolean;
}

/**
 * Port: path facts for the policy engine, so the engine itself never touches the file system.
 * Implementations resolve symlinks (also dangling ones) and find executables on a fixed, trusted PATH only.
 */
export interface PathInspector {
  /** Real path of the workspace root. */
  readonly root: string;
  /** Resolves `token` (absolute, or relative to the absolute `cwd`); an empty token resolves `cwd` itself. */
  resolve(cwd: string, token: string): PathFacts;
  /** Absolute path of an executable named `name` on the trusted PATH, or null. Never a workspace directory. */
  findExecutable(name: string): string | null;
  /**
   * Optional: the links at or under `absolute` (the entry itself when it is a link, every link in the tree when it
   * is a directory; nothing is followed), reading at most `maxEntries` directory entries. Without it, commands that
   * carry links elsewhere (`cp -r`, `mv`) cannot be judged and are refused.
   */
  listLinks?(absolute: string, maxEntries: number): LinkListing;
  /**
   * Optional: a view for one evaluation that may remember what it has read of the file system (one line is judged
   * as one snapshot anyway) and is dropped afterwards. The engine asks for one per evaluation.
   */
  snapshot?(): PathInspector;
}
