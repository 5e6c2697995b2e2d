/**
 * True when `candidate` is `root` itself or below it. Both must be absolute and normalized, as `path.resolve` and
 * `realpath` return them (no `.` or `..` segments, no doubled or trailing `/` except the root `/` itself). Compares
 * whole segments, so `/ws-evil` is not below `/ws`, and `/ws/..notes` (a name that starts with two dots) is.
 * The one containment check of the workspace file system, the policy's path inspector and the sandbox profile.
 */
export function isAtOrBelow(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith('/') ? root : `${root}/`);
}
