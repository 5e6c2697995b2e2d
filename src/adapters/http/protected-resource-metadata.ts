import { Router } from 'express';
import { PROTECTED_RESOURCE_METADATA_PATH, protectedResourceUrl } from './public-url.js';

export interface ProtectedResourceMetadataOptions {
  /** The JWT issuer: the authorization server that mints tokens for this resource. */
  issuer: string;
  publicUrl?: string;
}

/**
 * RFC 9728 protected resource metadata, public (a client reads it to learn where to get a token). Served at the
 * root well-known path and at the path-suffixed form for `/mcp` (RFC 9728 §3.1), which MCP clients try first.
 */
export function protectedResourceMetadata(options: ProtectedResourceMetadataOptions): Router {
  const router = Router();
  router.get([PROTECTED_RESOURCE_METADATA_PATH, `${PROTECTED_RESOURCE_METADATA_PATH}/mcp`], (req, res) => {
    res.status(200).json({
      resource: protectedResourceUrl(req, options.publicUrl),
      authorization_servers: [options.issuer],
      bearer_methods_supported: ['header'],
      resource_name: 'term-mcp',
    });
  });
  return router;
}
