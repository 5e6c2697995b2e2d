import express, { Router, type Express } from 'express';
import type { Logger } from '../../application/logging/logger.js';
import { accessLog } from './access-log.js';
import { bearerAuth } from './bearer-auth.js';
import { bodyLimit } from './body-limit.js';
import { errorHandler } from './error-handler.js';
import { healthRoute, type HealthInfo } from './health-route.js';
import type { HttpSettings } from './http-settings.js';
import { createJwtVerifier } from './jwt-verifier.js';
import { DEFAULT_EVICTABLE_AFTER_SECONDS, LegacySessionStore } from './legacy-sessions.js';
import { mcpRoutes, type McpMessageHandler } from './mcp-route.js';
import { originGuard } from './origin-guard.js';
import { protectedResourceMetadata } from './protected-resource-metadata.js';
import { authFailureRateLimit, principalRateLimit } from './rate-limit.js';
import { securityHeaders } from './security-headers.js';
import { wellKnownNotFound } from './well-known-not-found.js';

export type { HttpSettings } from './http-settings.js';
export type { McpMessageHandler } from './mcp-route.js';
export type { HealthInfo } from './health-route.js';
export { isLoopbackHost } from './loopback.js';
export { LegacySessionStore } from './legacy-sessions.js';

export interface McpHttpAppOptions {
  /** The application dispatcher (`McpDispatcher` fits). */
  dispatcher: McpMessageHandler;
  logger: Logger;
  settings: HttpSettings;
  /** Name and version reported by `GET /health`. */
  serverInfo: HealthInfo;
  /** More routes behind the same origin check, rate limit, body limit and bearer auth (e.g. the legacy web API). */
  mountProtected?: (router: Router) => void;
  /** Unauthenticated routes (e.g. the static web UI), still behind headers, origin/host check and the 401 budget. */
  mountPublic?: (router: Router) => void;
  /** Paths whose routes (in `mountProtected`) read their own bodies after auth, with their own limit. */
  ownBodyPaths?: readonly string[];
  /** Legacy session store; one is built from the settings when omitted. */
  sessions?: LegacySessionStore;
}

/**
 * The Streamable HTTP app. The middleware chain, in this one order (docs/http.md explains each step):
 *
 *   1. GET /health              public, before everything, so monitors need no token and are never rate limited
 *   2. security headers         helmet
 *   3. access log               one JSON line per request (no query string, tokens or bodies)
 *   4. origin / host guard      403 for a foreign Origin, or a non-loopback Host on a loopback bind; CORS preflight
 *   5. auth-failure rate limit  429 + Retry-After once a client address has had RATE_LIMIT_PER_MINUTE 401s
 *   6. body limit               413 over MAX_REQUEST_BYTES, 400 -32700 for invalid JSON
 *                               (not `ownBodyPaths`: their routes read bodies after auth, with their own limit)
 *      (public)                 RFC 9728 metadata (when JWTs are accepted); 404 for every other `.well-known`
 *                               path (never 401: no OAuth discovery exists); then `mountPublic` routes
 *   7. bearer auth              401 + WWW-Authenticate; sets res.locals.principal
 *   8. principal rate limit     429 + Retry-After, RATE_LIMIT_PER_MINUTE per authenticated principal
 *   9. MCP routes               POST/DELETE /mcp (405 otherwise), then `mountProtected` routes
 *      error handler            500 -32603, details only in the log
 *
 * Throws `ConfigurationError` (naming the variable) for a wildcard origin or an incomplete JWT configuration.
 */
export function createMcpHttpApp(options: McpHttpAppOptions): Express {
  const { settings, logger } = options;
  const jwt = createJwtVerifier(settings);
  const sessions =
    options.sessions ??
    new LegacySessionStore({
      maxSessions: settings.maxLegacySessions,
      maxSessionsPerPrincipal: settings.maxLegacySessionsPerPrincipal,
      idleTimeoutMs: settings.sessionTimeoutSeconds * 1000,
      evictableAfterMs: (settings.legacySessionEvictableAfterSeconds ?? DEFAULT_EVICTABLE_AFTER_SECONDS) * 1000,
    });

  const app = express();
  app.disable('x-powered-by');
  // JSON-RPC answers to POSTs are never revalidated; Express would otherwise hash every body (26 KB for tools/list).
  app.disable('etag');
  // One proxy hop at most: `true` would trust a client-supplied X-Forwarded-For and let it pick its rate-limit key.
  app.set('trust proxy', settings.trustProxy ? 1 : false);

  app.use(healthRoute(options.serverInfo));
  app.use(securityHeaders());
  app.use(accessLog(logger));
  app.use(originGuard({ host: settings.host, allowedOrigins: settings.allowedOrigins, publicUrl: settings.publicUrl }));
  const limits = { perMinute: settings.rateLimitPerMinute, logger };
  app.use(authFailureRateLimit(limits));
  app.use(bodyLimit(settings.maxRequestBytes, options.ownBodyPaths));
  if (jwt) app.use(protectedResourceMetadata({ issuer: jwt.issuer, publicUrl: settings.publicUrl }));
  app.use(wellKnownNotFound());
  if (options.mountPublic) app.use(routerFrom(options.mountPublic));
  app.use(bearerAuth({ staticToken: settings.token, jwt, publicUrl: settings.publicUrl }));
  app.use(principalRateLimit(limits));
  app.use(mcpRoutes({ dispatcher: options.dispatcher, sessions }));
  if (options.mountProtected) app.use(routerFrom(options.mountProtected));
  app.use(errorHandler(logger));
  return app;
}

function routerFrom(mount: (router: Router) => void): Router {
  const router = Router();
  mount(router);
  return router;
}
