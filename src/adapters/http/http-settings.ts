/**
 * The settings the HTTP adapter reads. A structural subset of the composition root's `Config` (same names), so the
 * frozen config object can be passed as it is, and a host app can pass its own.
 */
export interface HttpSettings {
  /** The bound host: a loopback one turns on the DNS-rebinding (Host header) check. */
  readonly host: string;
  /** Static bearer token (>= 32 characters). */
  readonly token?: string;
  /** HS256 secret for JWT bearer tokens. */
  readonly jwtSecret?: string;
  /** JWKS for JWT bearer tokens: a file path, or an https URL. */
  readonly jwtJwks?: string;
  readonly jwtIssuer?: string;
  readonly jwtAudience?: string;
  /** The server's public base URL (behind a proxy): names the protected resource, and its origin and host are allowed. */
  readonly publicUrl?: string;
  readonly allowedOrigins?: readonly string[];
  readonly maxRequestBytes: number;
  readonly rateLimitPerMinute: number;
  readonly maxLegacySessions: number;
  /** Legacy transport sessions of one principal; default: half of `maxLegacySessions`, rounded up. */
  readonly maxLegacySessionsPerPrincipal?: number;
  /** At the cap, only a legacy session idle for longer than this may be ended to make room; default 900 s. */
  readonly legacySessionEvictableAfterSeconds?: number;
  readonly sessionTimeoutSeconds: number;
  /** Trust one reverse proxy hop for the client address and protocol (X-Forwarded-For / -Proto). */
  readonly trustProxy: boolean;
}
