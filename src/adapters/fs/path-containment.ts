import path from 'node:path';

/**
 * True when `candidate` (absolute) is `root` itself or below it. Compares whole path segments, so `/ws-evil` is not
 * inside `/ws`, and a name that merely starts with two dots (`..notes`) is not mistaken for a parent reference.
 */
export function isInsideRoot(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  if (rel === '') return true;
  return rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/** The `/`-separated path of `absolute` relative to `root` (which must contain it). */
export function toWorkspaceRelative(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join('/');
}
