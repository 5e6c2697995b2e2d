import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit as expressRateLimit } from 'express-rate-limit';
import type { Logger } from '../../application/logging/logger.js';
import { refuse } from './json-rpc-reply.js';

export interface RateLimitOptions {
  /** RATE_LIMIT_PER_MINUTE: requests per client per 60 s window. */
  perMinute: number;
  logger: Logger;
}

const WINDOW_MS = 60_000;

/**
 * Two budgets, each a fixed one-minute window, so a client can neither flood the server nor guess tokens:
 * - `authFailureRateLimit` runs BEFORE auth, per client address (IPv6 grouped by /56), and counts only requests that
 *   end in 401: rotating made-up tokens buys no fresh budget, while authenticated traffic never spends it.
 * - `principalRateLimit` runs AFTER auth, per authenticated principal (the static token, or a JWT `sub`), so clients
 *   behind one proxy address keep separate budgets when they have separate identities.
 * Over the limit: 429, `Retry-After` (seconds) and the draft-8 `RateLimit` headers, with a JSON-RPC error body.
 */
export function authFailureRateLimit(options: RateLimitOptions): RequestHandler {
  return limiter(options, {
    keyGenerator: (req) => `ip:${clientAddress(req)}`,
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req: Request, res: Response) => res.statusCode !== 401,
  });
}

export function principalRateLimit(options: RateLimitOptions): RequestHandler {
  return limiter(options, {
    keyGenerator: (req, res) => {
      const principal = res.locals.principal;
      return typeof principal === 'string' ? `principal:${principal}` : `ip:${clientAddress(req)}`;
    },
  });
}

type LimiterKnobs = Pick<
  NonNullable<Parameters<typeof expressRateLimit>[0]>,
  'keyGenerator' | 'skipSuccessfulRequests' | 'requestWasSuccessful'
>;

function limiter(options: RateLimitOptions, knobs: LimiterKnobs): RequestHandler {
  return expressRateLimit({
    windowMs: WINDOW_MS,
    limit: options.perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    ...knobs,
    handler: (_req, res) => {
      refuse(res, 'rate_limited', 'Too many requests: slow down and retry after the Retry-After delay');
    },
    logger: {
      error: (error, message) => options.logger.error(message ?? 'rate limiter error', { error: String(error) }),
      warn: (error, message) => options.logger.warn(message ?? 'rate limiter warning', { error: String(error) }),
    },
  });
}

function clientAddress(req: Request): string {
  return ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown');
}
