/** A file offered as a resource. `path` is relative to the workspace root, with `/` separators. */
export interface WorkspaceEntry {
  readonly path: string;
  readonly size: number;
}

export interface WorkspaceText {
  readonly path: string;
  readonly text: string;
  readonly size: number;
}

/**
 * Port: the UTF-8 text files under WORKSPACE_ROOT. Every path is resolved (symlinks included) and must stay
 * inside the root at open time; escapes throw `PathOutsideWorkspace`.
 */
export interface WorkspaceFS {
  readonly root: string;
  /** Files in a deterministic order (byte order of `path`), strictly after `afterPath` when given, at most `limit`. */
  list(afterPath: string | undefined, limit: number): Promise<{ entries: WorkspaceEntry[]; more: boolean }>;
  readText(relativePath: string): Promise<WorkspaceText>;
  /** Resolves a working directory (relative to the root, or absolute) to an absolute path inside the root. */
  resolveDirectory(path: string | undefined): Promise<string>;
}
