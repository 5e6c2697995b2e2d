import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * helmet's defaults: a same-origin CSP without inline scripts (the web UI keeps its JS in files), nosniff,
 * frame-ancestors 'none' via X-Frame-Options, no X-Powered-By, a strict Referrer-Policy.
 */
export function securityHeaders(): RequestHandler {
  return helmet();
}
