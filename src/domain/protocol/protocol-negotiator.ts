import type { ProtocolEra } from './versions.js';

/** How a requested protocol version relates to what this server speaks. */
export type VersionClass = ProtocolEra | 'unsupported';

/**
 * Port: decides which protocol era and version a request is served under.
 * 2026-07-28 basic/versioning: modern `_meta` selects stateless semantics per request; `initialize` selects
 * legacy semantics for the connection (stdio) or the transport session (HTTP).
 */
export interface ProtocolNegotiator {
  /** Every version served, newest first (the `supported` list of -32022 and `server/discover`). */
  readonly supportedVersions: readonly string[];
  /** Classifies a version named in a modern request's `_meta`. */
  classify(version: string): VersionClass;
  /** The version to answer an `initialize` with: the requested one when served, else our latest legacy one. */
  negotiateLegacy(requested: string): string;
}
