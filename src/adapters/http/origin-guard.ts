import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { ConfigurationError } from '../../domain/errors.js';
import { refuse } from './json-rpc-reply.js';
import { isLoopbackHost } from './loopback.js';

export interface OriginGuardOptions {
  /** The bound host. A loopback one turns on the Host header check. */
  host: string;
  /** ALLOWED_ORIGINS. Unset: the loopback origins of the bound port (and the public URL's origin). */
  allowedOrigins?: readonly string[];
  publicUrl?: string;
}

/** Request headers a browser client may send cross-origin (CORS preflight answer). */
const CORS_REQUEST_HEADERS =
  'Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id';
const CORS_METHODS = 'GET, POST, DELETE, OPTIONS';

/**
 * DNS rebinding and cross-site defence (2026-07-28 and 2025-11-25 transports: servers MUST validate `Origin`).
 * 1. Bound to loopback: the `Host` header must name this machine (`localhost`, `127.x.x.x`, `[::1]`) or the public
 *    URL's host, else 403. A rebound attacker domain resolves to 127.0.0.1 but still sends its own name in `Host`.
 * 2. An `Origin` header, when present, must be in the allowlist, else 403 with a JSON-RPC error that has no id.
 *    Allowed origins get CORS headers, and their preflight (OPTIONS) is answered here, before auth.
 * Throws `ConfigurationError` at start-up for a wildcard or malformed ALLOWED_ORIGINS entry.
 */
export function originGuard(options: OriginGuardOptions): RequestHandler {
  const configured = options.allowedOrigins === undefined ? undefined : parseAllowlist(options.allowedOrigins);
  const publicUrl = options.publicUrl === undefined ? undefined : new URL(options.publicUrl);
  const checkHost = isLoopbackHost(options.host);

  return (req, res, next) => {
    if (checkHost && !isLocalHostHeader(req.headers, publicUrl?.hostname)) {
      forbid(res, 'Forbidden: the Host header does not name this server');
      return;
    }
    const origin = req.headers.origin;
    if (origin === undefined) {
      next();
      return;
    }
    const allowed = configured ?? defaultOrigins(req.socket.localPort, publicUrl);
    const normalized = normalizeOrigin(origin);
    if (normalized === undefined || !allowed.has(normalized)) {
      forbid(res, 'Forbidden: Origin is not allowed');
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, WWW-Authenticate, Retry-After');
    res.vary('Origin');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.setHeader('Access-Control-Allow-Methods', CORS_METHODS);
      res.setHeader('Access-Control-Allow-Headers', CORS_REQUEST_HEADERS);
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}

function forbid(res: Response, message: string): void {
  refuse(res, 'origin_forbidden', message);
}

function parseAllowlist(entries: readonly string[]): ReadonlySet<string> {
  const origins = new Set<string>();
  for (const entry of entries) {
    if (entry.includes('*')) {
      throw new ConfigurationError('ALLOWED_ORIGINS: cannot contain a wildcard; list each origin', {
        setting: 'ALLOWED_ORIGINS',
      });
    }
    const origin = normalizeOrigin(entry);
    if (origin === undefined) {
      throw new ConfigurationError(`ALLOWED_ORIGINS: not an http(s) origin: ${entry}`, { setting: 'ALLOWED_ORIGINS' });
    }
    origins.add(origin);
  }
  return origins;
}

function defaultOrigins(port: number | undefined, publicUrl: URL | undefined): ReadonlySet<string> {
  const origins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  if (publicUrl) origins.add(publicUrl.origin);
  return origins;
}

/** `scheme://host[:port]`, lower-cased, default port dropped; undefined for `null` and anything not http(s). */
function normalizeOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** `Host` is `name[:port]` or `[ipv6][:port]`; anything else (userinfo, paths) is refused, not parsed leniently. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/;

function isLocalHostHeader(headers: IncomingHttpHeaders, publicHostname: string | undefined): boolean {
  const match = HOST_HEADER.exec((headers.host ?? '').toLowerCase());
  const hostname = match?.[1];
  if (hostname === undefined) return false;
  return isLoopbackHost(hostname) || hostname === publicHostname;
}
