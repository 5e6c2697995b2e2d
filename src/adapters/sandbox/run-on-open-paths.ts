import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { isAtOrBelow } from '../../domain/workspace/path-containment.js';
import { walkBreadthFirst, type WalkedEntry } from './bounded-walk.js';

/** What a protected path is when it is not there yet, so that a placeholder of the right kind can hold its place. */
export type PathKind = 'file' | 'dir';

export interface ProtectedName {
  readonly name: string;
  readonly kind: PathKind;
}

/**
 * At the workspace root: the files and directories that the user's editors, agent hosts, shells and tools read when
 * they open the project, each able to name a program they then run outside any sandbox (tasks, MCP servers, hooks,
 * direnv, devcontainer commands, npm's script-shell, yarnPath, git's filters and submodule URLs...). Protected whether
 * or not they exist before a command (docs/security.md "What a command cannot plant" says why each is there).
 */
export const RUN_ON_OPEN_AT_ROOT: readonly ProtectedName[] = Object.freeze([
  { name: '.git', kind: 'dir' },
  { name: '.gitconfig', kind: 'file' },
  { name: '.gitmodules', kind: 'file' },
  { name: '.gitattributes', kind: 'file' },
  { name: '.bashrc', kind: 'file' },
  { name: '.bash_profile', kind: 'file' },
  { name: '.zshrc', kind: 'file' },
  { name: '.zprofile', kind: 'file' },
  { name: '.profile', kind: 'file' },
  { name: '.ripgreprc', kind: 'file' },
  { name: '.envrc', kind: 'file' },
  { name: '.npmrc', kind: 'file' },
  { name: '.yarnrc', kind: 'file' },
  { name: '.yarnrc.yml', kind: 'file' },
  { name: '.mcp.json', kind: 'file' },
  { name: '.devcontainer.json', kind: 'file' },
  { name: '.claude', kind: 'dir' },
  { name: '.cursor', kind: 'dir' },
  { name: '.gemini', kind: 'dir' },
  { name: '.codex', kind: 'dir' },
  { name: '.vscode', kind: 'dir' },
  { name: '.idea', kind: 'dir' },
  { name: '.zed', kind: 'dir' },
  { name: '.devcontainer', kind: 'dir' },
]);

/**
 * Inside every git directory: what names a program git runs (config, hooks), where git reads more config from
 * (commondir, config.worktree), and the submodules' git directories (modules/<name>, each a git directory itself).
 */
export const GIT_DIR_PROTECTED: readonly ProtectedName[] = Object.freeze([
  { name: 'config', kind: 'file' },
  { name: 'config.worktree', kind: 'file' },
  { name: 'commondir', kind: 'file' },
  { name: 'hooks', kind: 'dir' },
  { name: 'modules', kind: 'dir' },
]);

/**
 * Bounds of the walk that finds nested repositories: directories read per walk, and depth. Dependency trees are not
 * entered (npm and its peers strip `.git` from what they install); symbolic links are never followed.
 */
const MAX_DIRECTORIES = 5000;
const MAX_DEPTH = 12;
const NOT_ENTERED = new Set(['node_modules', '.git']);
/** A gitdir or commondir file is one short line; anything longer is not read. */
const MAX_POINTER_BYTES = 4096;

/** The repositories of a workspace: git directories (to protect inside) and `.git` files (gitdir pointers). */
export interface RepositoryLayout {
  readonly gitDirs: readonly string[];
  readonly gitFiles: readonly string[];
  /** `.git` entries that are symbolic links: never followed, named in the run-on-open surface. */
  readonly gitLinks: readonly string[];
}

type EntryKind = 'file' | 'dir' | 'link' | 'other' | undefined;

export function entryKind(target: string): EntryKind {
  try {
    const stats = lstatSync(target);
    if (stats.isSymbolicLink()) return 'link';
    if (stats.isDirectory()) return 'dir';
    return stats.isFile() ? 'file' : 'other';
  } catch {
    return undefined;
  }
}

/** `.git` at any depth below the workspace root (bounded, see above), without following links. */
export function findRepositories(workspaceRoot: string): RepositoryLayout {
  const gitDirs: string[] = [];
  const gitFiles: string[] = [];
  const gitLinks: string[] = [];
  const enter = ({ entry, depth }: WalkedEntry): boolean => !NOT_ENTERED.has(entry.name) && depth < MAX_DEPTH;
  for (const { full, entry } of walkBreadthFirst(workspaceRoot, enter, MAX_DIRECTORIES)) {
    if (entry.name !== '.git') continue;
    if (entry.isDirectory()) gitDirs.push(full);
    else if (entry.isFile()) gitFiles.push(full);
    else if (entry.isSymbolicLink()) gitLinks.push(full);
  }
  const moduleDirs = gitDirs.flatMap((gitDir) => submoduleGitDirs(gitDir, 0));
  const pointed = [...gitFiles, ...gitDirs].flatMap((entry) => pointedGitDirs(entry, workspaceRoot));
  return { gitDirs: unique([...gitDirs, ...moduleDirs, ...pointed]), gitFiles, gitLinks };
}

/** `modules/<name>` (and their own `modules`, nested submodules): git directories of their own. */
function submoduleGitDirs(gitDir: string, depth: number): string[] {
  const modules = path.join(gitDir, 'modules');
  if (depth > 4 || entryKind(modules) !== 'dir') return [];
  let names: string[];
  try {
    names = readdirSync(modules, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const child = path.join(modules, name);
    return [child, ...submoduleGitDirs(child, depth + 1)];
  });
}

/**
 * Git directories inside the workspace that a `.git` file (`gitdir: <path>`) or a git directory's `commondir` points
 * at: git reads their config and runs their hooks too. Resolved to real paths; outside the workspace they are
 * read-only in the sandbox anyway.
 */
function pointedGitDirs(entry: string, workspaceRoot: string): string[] {
  const pointer =
    entryKind(entry) === 'file'
      ? readPointer(entry, /^gitdir:\s*(.+)$/m)
      : readPointer(path.join(entry, 'commondir'), /^(.+)$/m);
  if (pointer === undefined) return [];
  const base = entryKind(entry) === 'file' ? path.dirname(entry) : entry;
  try {
    const real = realpathSync(path.resolve(base, pointer));
    return isAtOrBelow(workspaceRoot, real) && entryKind(real) === 'dir' ? [real] : [];
  } catch {
    return [];
  }
}

function readPointer(file: string, pattern: RegExp): string | undefined {
  if (entryKind(file) !== 'file') return undefined;
  try {
    const text = readFileSync(file, 'utf8').slice(0, MAX_POINTER_BYTES);
    return pattern.exec(text)?.[1]?.trim() || undefined;
  } catch {
    return undefined;
  }
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}
