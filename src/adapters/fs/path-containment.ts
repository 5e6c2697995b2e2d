import path from 'node:path';

/** The `/`-separated path of `absolute` relative to `root` (which must contain it). */
export function toWorkspaceRelative(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join('/');
}
