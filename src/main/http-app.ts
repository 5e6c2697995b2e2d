import type { Express, Router } from 'express';
import type { Container } from 'inversify';
import type { Logger } from '../application/logging/logger.js';
import type { McpDispatcher } from '../application/mcp/dispatcher.js';
import type { ServerInfo } from '../application/mcp/server-identity.js';
import { createMcpHttpApp } from '../adapters/http/index.js';
import type { Config } from './config.js';
import { mountReceiptHttp } from './receipt-http-bindings.js';
import { TYPES } from './types.js';
import { mountWeb } from './web-bindings.js';

export interface HttpAppHooks {
  /** Extra authenticated routes (share origin check, rate limits, body limit and bearer auth with /mcp). */
  mountProtected?: (router: Router, container: Container) => void;
  /** Extra public routes. */
  mountPublic?: (router: Router, container: Container) => void;
}

/** The whole HTTP surface of one container: POST /mcp, /health, the web layer, then the caller's extra routes. */
export function buildHttpApp(container: Container, config: Config, hooks: HttpAppHooks = {}): Express {
  const web = mountWeb(container, config);
  const receipts = mountReceiptHttp(container, config);
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
