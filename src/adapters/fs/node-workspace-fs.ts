import { constants, promises as fsp, realpathSync, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ConfigurationError, InvalidArgument, type DomainError } from '../../domain/errors.js';
import {
  FileNotReadable,
  PathOutsideWorkspace,
  ResourceNotText,
  ResourceTooLarge,
  WorkspaceFileNotFound,
} from '../../domain/workspace/workspace-errors.js';
import { isAtOrBelow } from '../../domain/workspace/path-containment.js';
import type { WorkspaceEntry, WorkspaceFS, WorkspaceText } from '../../domain/workspace/workspace-fs.js';
import { decodeUtf8Text, readAtMost } from './bounded-text-read.js';
import { errnoCode } from './errno-code.js';
import { toWorkspaceRelative } from './path-containment.js';
import { walkFilesInPathOrder } from './sorted-file-walk.js';

export interface NodeWorkspaceFSOptions {
  readonly root: string;
  /** Files larger than this are refused with `ResourceTooLarge`. */
  readonly maxReadBytes: number;
  /** Directory names never listed nor read, at any depth (`.git/config` can hold credentials). */
  readonly skipDirectories?: readonly string[];
}

export const DEFAULT_SKIPPED_DIRECTORIES: readonly string[] = ['.git', 'node_modules'];

/**
 * O_NOFOLLOW: a final component swapped for a symlink after we resolved the path fails instead of being followed.
 * O_NONBLOCK: a FIFO that slipped past the pre-check opens at once instead of waiting for a writer.
 * O_NOCTTY: a terminal device never becomes our controlling terminal.
 */
const SAFE_READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * The workspace on the local file system. Symlink policy: a symlink (or symlinked parent directory) is readable when
 * its fully resolved target is inside the root, because that exposes nothing a direct path would not; one that
 * resolves outside is refused. Listing never follows or reports symlinks. Containment is checked on the path, then
 * again on the opened handle itself (`/proc/self/fd` on Linux), so a swap between the check and the open is caught.
 */
export class NodeWorkspaceFS implements WorkspaceFS {
  readonly root: string;
  private readonly maxReadBytes: number;
  private readonly skipDirectories: ReadonlySet<string>;

  constructor(options: NodeWorkspaceFSOptions) {
    if (!Number.isSafeInteger(options.maxReadBytes) || options.maxReadBytes < 1) {
      throw new ConfigurationError('The workspace read limit must be a positive integer number of bytes.');
    }
    this.root = realDirectory(options.root);
    this.maxReadBytes = options.maxReadBytes;
    this.skipDirectories = new Set(options.skipDirectories ?? DEFAULT_SKIPPED_DIRECTORIES);
  }

  async list(afterPath: string | undefined, limit: number): Promise<{ entries: WorkspaceEntry[]; more: boolean }> {
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new InvalidArgument('The listing limit must be a positive integer.', { limit });
    }
    const entries: WorkspaceEntry[] = [];
    for await (const file of walkFilesInPathOrder(this.root, {
      after: afterPath,
      skipDirectories: this.skipDirectories,
    })) {
      if (entries.length === limit) return { entries, more: true };
      const size = await regularFileSize(file.absolutePath);
      if (size !== undefined) entries.push({ path: file.relativePath, size });
    }
    return { entries, more: false };
  }

  async readText(relativePath: string): Promise<WorkspaceText> {
    const resolved = await this.resolveExisting(relativePath);
    if (resolved === undefined || this.isInSkippedDirectory(resolved)) throw new WorkspaceFileNotFound(relativePath);
    const handle = await this.openRegularFile(resolved, relativePath);
    try {
      const opened = await this.assertHandleInside(handle, resolved, relativePath);
      const stats = await handle.stat();
      if (!stats.isFile()) throw new FileNotReadable(relativePath, 'not_a_regular_file');
      if (stats.size > this.maxReadBytes) throw new ResourceTooLarge(relativePath, stats.size, this.maxReadBytes);
      const bytes = await readAtMost(handle, this.maxReadBytes + 1);
      if (bytes.length > this.maxReadBytes) throw new ResourceTooLarge(relativePath, bytes.length, this.maxReadBytes);
      const text = decodeUtf8Text(bytes);
      if (text === undefined) throw new ResourceNotText(relativePath);
      return { path: toWorkspaceRelative(this.root, opened), text, size: bytes.length };
    } finally {
      await handle.close();
    }
  }

  /**
   * Synchronous on purpose: it sits on every plan and every execute, and two thread-pool round trips (realpath, stat)
   * cost about a millisecond there, while the system calls themselves take microseconds.
   */
  async resolveDirectory(directory: string | undefined): Promise<string> {
    if (directory === undefined) return this.root;
    const resolved = this.resolveExistingSync(directory);
    if (resolved === undefined) {
      throw new InvalidArgument(`Working directory does not exist: ${directory}`, { path: directory });
    }
    const stats = statSync(resolved);
    if (!stats.isDirectory()) {
      throw new InvalidArgument(`Working directory is not a directory: ${directory}`, { path: directory });
    }
    return resolved;
  }

  /**
   * The real path of `input` (relative to the root, or absolute), or undefined when nothing exists there. A path that
   * leaves the root lexically is refused before any system call, and one whose symlinks lead outside is refused the
   * same way, so a traversal cannot probe whether a file outside exists.
   */
  private async resolveExisting(input: string): Promise<string | undefined> {
    const lexical = this.lexicallyInside(input);
    let real: string;
    try {
      real = await fsp.realpath(lexical);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw translateOpenError(error, input);
    }
    if (!isAtOrBelow(this.root, real)) throw new PathOutsideWorkspace(input);
    return real;
  }

  /** Files under a skipped directory are not offered as resources, so reading them by path is refused too. */
  private isInSkippedDirectory(resolved: string): boolean {
    return toWorkspaceRelative(this.root, resolved)
      .split('/')
      .slice(0, -1)
      .some((segment) => this.skipDirectories.has(segment));
  }

  /** The absolute path of `input`, refused before any system call when it leaves the root lexically. */
  private lexicallyInside(input: string): string {
    if (input.includes('\0')) throw new InvalidArgument('Path contains a NUL byte.', { path: input });
    const lexical = path.resolve(this.root, input);
    if (!isAtOrBelow(this.root, lexical)) throw new PathOutsideWorkspace(input);
    return lexical;
  }

  /** `resolveExisting` without the thread pool (same checks, same errors). */
  private resolveExistingSync(input: string): string | undefined {
    const lexical = this.lexicallyInside(input);
    let real: string;
    try {
      real = realpathSync.native(lexical);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw translateOpenError(error, input);
    }
    if (!isAtOrBelow(this.root, real)) throw new PathOutsideWorkspace(input);
    return real;
  }

  /** Refuses directories, FIFOs, devices and sockets before opening them: opening a device can have side effects. */
  private async openRegularFile(resolved: string, input: string): Promise<FileHandle> {
    try {
      const stats = await fsp.lstat(resolved);
      if (!stats.isFile()) throw new FileNotReadable(input, 'not_a_regular_file');
      return await fsp.open(resolved, SAFE_READ_FLAGS);
    } catch (error) {
      if (error instanceof FileNotReadable) throw error;
      throw translateOpenError(error, input);
    }
  }

  /** The opened file's own path must be inside the root, whatever happened to the path since we resolved it. */
  private async assertHandleInside(handle: FileHandle, resolved: string, input: string): Promise<string> {
    const opened = (await kernelPathOf(handle)) ?? resolved;
    if (!isAtOrBelow(this.root, opened)) throw new PathOutsideWorkspace(input);
    return opened;
  }
}

function realDirectory(root: string): string {
  try {
    const real = realpathSync(root);
    if (statSync(real).isDirectory()) return real;
  } catch {
    // Reported below with the same message as "not a directory".
  }
  throw new ConfigurationError('The workspace root must be an existing directory.', { root });
}

/**
 * Where the kernel says an open descriptor points (Linux). Elsewhere there is no portable way from Node, so the
 * caller falls back to the path resolved before the open, with O_NOFOLLOW guarding its final component.
 */
async function kernelPathOf(handle: FileHandle): Promise<string | undefined> {
  try {
    return await fsp.readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    // No procfs (macOS, BSD, or a sandbox without /proc).
    return undefined;
  }
}

/** A file listed a moment ago may be gone or locked by now; it is left out of the page rather than failing it. */
const VANISHED_OR_FORBIDDEN = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM']);

async function regularFileSize(absolutePath: string): Promise<number | undefined> {
  try {
    const stats = await fsp.lstat(absolutePath);
    return stats.isFile() ? stats.size : undefined;
  } catch (error) {
    if (VANISHED_OR_FORBIDDEN.has(errnoCode(error))) return undefined;
    throw error;
  }
}

/** Maps a system error to a typed one whose message carries only what the client sent, never the host path. */
function translateOpenError(error: unknown, input: string): DomainError {
  // Anything unexpected (EIO, EMFILE…) is rethrown as is: an internal error, which the edge reports without details.
  switch (errnoCode(error)) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new WorkspaceFileNotFound(input);
    case 'EACCES':
    case 'EPERM':
      return new FileNotReadable(input, 'permission_denied');
    case 'ELOOP': // a symlink cycle, or a final component swapped for a symlink after resolving (O_NOFOLLOW)
    case 'EMLINK': // what some BSDs return for O_NOFOLLOW on a symlink
      return new FileNotReadable(input, 'unresolvable_symlink');
    case 'ENXIO': // a socket
      return new FileNotReadable(input, 'not_a_regular_file');
    case 'ENAMETOOLONG':
      return new InvalidArgument('Path is too long.', { path: input });
    default:
      throw error;
  }
}
