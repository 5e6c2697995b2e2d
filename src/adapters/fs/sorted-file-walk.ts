import { promises as fsp, type Dirent } from 'node:fs';
import path from 'node:path';
import { errnoCode } from './errno-code.js';

export interface WalkedFile {
  /** Relative to the walk root, `/`-separated. */
  readonly relativePath: string;
  readonly absolutePath: string;
}

export interface WalkOptions {
  /** Only files whose relative path sorts strictly after this one (byte order) are yielded. */
  readonly after: string | undefined;
  /** Directory names skipped at any depth. */
  readonly skipDirectories: ReadonlySet<string>;
}

type ChildKind = 'file' | 'directory';

interface Child {
  readonly name: string;
  readonly kind: ChildKind;
  /** A directory sorts as `name/` so that the walk order equals the byte order of full paths (`a.txt` < `a/b`). */
  readonly sortKey: Buffer;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** Entries that vanish or deny access while walking are skipped, not fatal. */
const SKIPPABLE_WALK_ERRORS = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM']);

/**
 * Yields the regular files under `root` in byte order of their relative path, reading one directory at a time so a
 * short page never walks the whole tree. Symlinks (to files or directories) are neither yielded nor followed.
 */
export async function* walkFilesInPathOrder(root: string, options: WalkOptions): AsyncGenerator<WalkedFile> {
  yield* walkDirectory(root, '', options);
}

async function* walkDirectory(
  absoluteDir: string,
  relativePrefix: string,
  options: WalkOptions,
): AsyncGenerator<WalkedFile> {
  const { after } = options;
  for (const child of await readSortedChildren(absoluteDir, options.skipDirectories)) {
    const relativePath = relativePrefix + child.name;
    const absolutePath = path.join(absoluteDir, child.name);
    if (child.kind === 'file') {
      if (after === undefined || compareBytes(relativePath, after) > 0) yield { relativePath, absolutePath };
      continue;
    }
    const subtreePrefix = `${relativePath}/`;
    // Every path below starts with `subtreePrefix`: when `after` sorts past the prefix without entering it, the whole
    // subtree was already served and is not read at all.
    const subtreeAlreadyServed =
      after !== undefined && compareBytes(subtreePrefix, after) < 0 && !after.startsWith(subtreePrefix);
    if (!subtreeAlreadyServed) yield* walkDirectory(absolutePath, subtreePrefix, options);
  }
}

async function readSortedChildren(absoluteDir: string, skipDirectories: ReadonlySet<string>): Promise<Child[]> {
  let dirents: Dirent<Buffer>[];
  try {
    dirents = await fsp.readdir(absoluteDir, { withFileTypes: true, encoding: 'buffer' });
  } catch (error) {
    if (SKIPPABLE_WALK_ERRORS.has(errnoCode(error))) return [];
    throw error;
  }
  const children: Child[] = [];
  for (const dirent of dirents) {
    const name = decodeName(dirent.name);
    if (name === undefined) continue;
    const kind = await classify(dirent, path.join(absoluteDir, name));
    if (kind === undefined || (kind === 'directory' && skipDirectories.has(name))) continue;
    children.push({ name, kind, sortKey: Buffer.from(kind === 'directory' ? `${name}/` : name) });
  }
  return children.sort((a, b) => Buffer.compare(a.sortKey, b.sortKey));
}

/** Names that are not valid UTF-8 cannot be expressed as a workspace URI and round-trip back, so they are skipped. */
function decodeName(raw: Buffer): string | undefined {
  try {
    return strictUtf8.decode(raw);
  } catch {
    return undefined;
  }
}

async function classify(dirent: Dirent<Buffer>, absolutePath: string): Promise<ChildKind | undefined> {
  if (dirent.isFile()) return 'file';
  if (dirent.isDirectory()) return 'directory';
  if (hasKnownType(dirent)) return undefined;
  // Some file systems report no type in readdir; only then pay for an lstat.
  try {
    const stats = await fsp.lstat(absolutePath);
    if (stats.isFile()) return 'file';
    if (stats.isDirectory()) return 'directory';
    return undefined;
  } catch (error) {
    if (SKIPPABLE_WALK_ERRORS.has(errnoCode(error))) return undefined;
    throw error;
  }
}

function hasKnownType(dirent: Dirent<Buffer>): boolean {
  return (
    dirent.isSymbolicLink() ||
    dirent.isFIFO() ||
    dirent.isSocket() ||
    dirent.isBlockDevice() ||
    dirent.isCharacterDevice()
  );
}

function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
