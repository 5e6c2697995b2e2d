import type { Request } from 'express';

/**
 * The base URL clients use to reach this server: TERM_MCP_PUBLIC_URL when set (behind a proxy), else what the
 * request itself says (protocol honours X-Forwarded-Proto only when TRUST_PROXY is on). No trailing slash.
 */
export function publicBaseUrl(req: Request, publicUrl: string | undefined): string {
  const base = publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  return base.replace(/\/+$/, '');
}

/** RFC 9728 §3: the protected resource is the MCP endpoint. */
export function protectedResourceUrl(req: Request, publicUrl: string | undefined): string {
  return `${publicBaseUrl(req, publicUrl)}/mcp`;
}

/** RFC 9728 §5.1: where a 401 tells the client to find the resource metadata. */
export function resourceMetadataUrl(req: Request, publicUrl: string | undefined): string {
  return `${publicBaseUrl(req, publicUrl)}${PROTECTED_RESOURCE_METADATA_PATH}`;
}

export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';
