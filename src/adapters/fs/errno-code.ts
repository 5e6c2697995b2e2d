/**
 * The `code` of a Node system error (`ENOENT`, `ELOOP`…), or '' for anything else. Checked structurally rather
 * than with `instanceof Error`, which fails for errors created in another realm (vm contexts, test runners).
 */
export function errnoCode(error: unknown): string {
  if (typeof error !== 'object' || error === null || !('code' in error)) return '';
  return typeof error.code === 'string' ? error.code : '';
}
