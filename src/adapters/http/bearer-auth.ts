import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { refuse } from './json-rpc-reply.js';
import type { JwtVerifier } from './jwt-verifier.js';
import { resourceMetadataUrl } from './public-url.js';

/** The principal a static token proves: there is one token, so there is one principal. */
export const STATIC_TOKEN_PRINCIPAL = 'static-token';

export interface BearerAuthOptions {
  /** TERM_MCP_TOKEN / AUTH_TOKEN. */
  staticToken?: string;
  jwt?: JwtVerifier;
  /** TERM_MCP_PUBLIC_URL, for the `resource_metadata` parameter of the challenge. */
  publicUrl?: string;
}

/**
 * `Authorization: Bearer <token>` (scheme case-insensitive, RFC 6750 §2.1). Only the header counts: a token in
 * the query string or body is ignored (RFC 6750 §2.3 is not supported, so tokens never reach URLs or logs).
 */
export function readBearerToken(req: Request): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

/**
 * Rejects requests without a valid bearer token with 401 and a `WWW-Authenticate: Bearer` challenge (plus
 * `resource_metadata`, RFC 9728 §5.1, when JWTs are accepted). On success `res.locals.principal` names the caller:
 * the JWT `sub`, or `static-token`. The static comparison hashes both sides first, so it takes the same time
 * whatever the length or content of the guess.
 */
export function bearerAuth(options: BearerAuthOptions): RequestHandler {
  const expectedDigest = options.staticToken === undefined ? undefined : sha256(options.staticToken);
  return async (req, res, next) => {
    const token = readBearerToken(req);
    if (token === undefined) {
      challenge(req, res, options, 'Unauthorized: send Authorization: Bearer <token>');
      return;
    }
    if (expectedDigest !== undefined && timingSafeEqual(sha256(token), expectedDigest)) {
      res.locals.principal = STATIC_TOKEN_PRINCIPAL;
      next();
      return;
    }
    const subject = options.jwt ? await options.jwt.verify(token) : undefined;
    // A JWT subject must never pass for the static-token principal (it would open that principal's sessions).
    if (subject === undefined || subject === STATIC_TOKEN_PRINCIPAL) {
      challenge(req, res, options, 'Unauthorized: the bearer token is not valid', 'invalid_token');
      return;
    }
    res.locals.principal = subject;
    next();
  };
}

/** The authenticated principal, set by `bearerAuth`. */
export function principalOf(res: Response): string {
  const principal: unknown = res.locals.principal;
  if (typeof principal !== 'string') throw new Error('bearerAuth must run before the MCP routes');
  return principal;
}

function challenge(req: Request, res: Response, options: BearerAuthOptions, message: string, error?: string): void {
  const params = ['realm="term-mcp"'];
  if (error) params.push(`error="${error}"`);
  if (options.jwt) params.push(`resource_metadata="${resourceMetadataUrl(req, options.publicUrl)}"`);
  res.setHeader('WWW-Authenticate', `Bearer ${params.join(', ')}`);
  refuse(res, 'unauthorized', message);
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
