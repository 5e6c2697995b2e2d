/** Milliseconds since the epoch; injected so tests can move time (approval expiry). */
export type Clock = () => number;

/** The wire form of every timestamp: ISO 8601 UTC with milliseconds. */
export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}
