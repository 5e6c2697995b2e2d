/**
 * A principal's share of a session cap: as configured (never above the cap), by default half of it rounded up, so no
 * single principal can hold every session with work in flight and lock the others out.
 */
export function principalShare(cap: number, configured: number | undefined): number {
  return Math.min(cap, configured ?? Math.ceil(cap / 2));
}
