import type { Express, Router } from 'express';
import type { Container } from 'inversify';
import type { Logger } from '../application/logging/logger.js';
import type { McpDispatcher } from '../application/mcp/dispatcher.js';
import type { ServerInfo } from '../application/mcp/server-identity.js';
import { createMcpHttpApp } from '../adapters/http/index.js';
import type { Config } from './config.js';
import { receiptHttpModule } from './modules/receipt-http-module.js';
import { webModule } from './modules/web-module.js';
import type { ReceiptHttpMounts } from './receipt-http-mounts.js';
import { TYPES } from './types.js';
import type { WebMounts } from './web-mounts.js';

export interface HttpAppHooks {
  /** Extra authenticated routes (share origin check, rate limits, body limit and bearer auth with /mcp). */
  mountProtected?: (router: Router, container: Container) => void;
  /** Extra public routes. */
  mountPublic?: (router: Router, container: Container) => void;
}

/**
 * The whole HTTP surface of one container: POST /mcp, /health, the web layer, then the caller's extra routes. The
 * HTTP-only modules are loaded here, on first use (never by STDIO), unless a host bound their services itself.
 */
export function buildHttpApp(container: Container, config: Config, hooks: HttpAppHooks = {}): Express {
  if (!container.isBound(TYPES.WebMounts)) container.load(webModule);
  if (!container.isBound(TYPES.ReceiptHttpMounts)) container.load(receiptHttpModule);
  const web = container.get<WebMounts>(TYPES.WebMounts);
  const receipts = container.get<ReceiptHttpMounts>(TYPES.ReceiptHttpMounts);
  return createMcpHttpApp({
    dispatcher: container.get<McpDispatcher>(TYPES.Dispatcher),
    logger: container.get<Logger>(TYPES.Logger),
    settings: config,
    serverInfo: container.get<ServerInfo>(TYPES.ServerInfo),
    ownBodyPaths: receipts.ownBodyPaths,
    mountProtected: (router) => {
      receipts.mountProtected(router);
      web.mountProtected(router);
      hooks.mountProtected?.(router, container);
    },
    mountPublic: (router) => {
      receipts.mountPublic(router);
      web.mountPublic(router);
      hooks.mountPublic?.(router, container);
    },
  });
}
