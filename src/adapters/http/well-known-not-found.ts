import type { RequestHandler } from 'express';
import { refuse } from './json-rpc-reply.js';

/** A `.well-known` segment anywhere: `/.well-known/x`, `/.well-known/x/mcp` (RFC 8414 §3.1), `/mcp/.well-known/x` (OIDC). */
const WELL_KNOWN = /(^|\/)\.well-known(\/|$)/i;

/**
 * Public: discovery documents this server does not publish are 404, before bearer auth. A 401 here would tell an
 * OAuth-capable client (mcp-remote probes six such paths on every connect) that the server wants OAuth and send it
 * looking for an authorization server that does not exist; 404 tells it there is none, so it uses the static token.
 * Mounted after the RFC 9728 metadata route, which answers its own paths when JWTs are configured.
 */
export function wellKnownNotFound(): RequestHandler {
  return (req, res, next) => {
    if (!WELL_KNOWN.test(req.path)) {
      next();
      return;
    }
    refuse(res, 'discovery_not_found', 'Not Found: this server publishes no such discovery document');
  };
}
