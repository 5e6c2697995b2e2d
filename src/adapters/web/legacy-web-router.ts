import express, { Router } from 'express';
import { mountChatRoute } from './chat-route.js';
import { deprecationHeaders, type DeprecationNotice } from './deprecation-headers.js';
import { mountEventStreamRoute } from './execution-event-stream.js';
import { mountLegacySessionRoutes } from './legacy-session-routes.js';
import { webErrorHandler } from './web-error-reply.js';
import type { WebChat, WebSessions } from './web-ports.js';

export interface LegacyWebRouterOptions {
  readonly sessions: WebSessions;
  readonly chat: WebChat;
  readonly deprecation: DeprecationNotice;
  readonly heartbeatMs: number;
  readonly maxRequestBytes: number;
  /** Unread SSE bytes tolerated per stream (default 4 MiB). */
  readonly maxBufferedStreamBytes?: number;
}

/** Paths of the deprecated compatibility API (seed §7: `/sessions*`, `/stream`, `/chat`). */
export const LEGACY_WEB_PATHS: readonly string[] = Object.freeze(['/sessions', '/stream', '/chat']);

/**
 * The deprecated web-product compatibility API (seed §7) as one Express router: `POST /sessions`,
 * `DELETE /sessions/:id`, `GET /stream`, `POST /chat`, each with the deprecation headers. It expects the
 * transport's auth, Origin and rate-limit guards in front of it; it does not authenticate by itself.
 */
export function createLegacyWebRouter(options: LegacyWebRouterOptions): Router {
  const router = Router();
  router.use([...LEGACY_WEB_PATHS], deprecationHeaders(options.deprecation));
  // A no-op when the transport already read the body.
  router.use('/chat', express.json({ limit: options.maxRequestBytes, type: () => true }));
  mountLegacySessionRoutes(router, options.sessions, options.chat);
  mountEventStreamRoute(router, {
    sessions: options.sessions,
    heartbeatMs: options.heartbeatMs,
    maxBufferedBytes: options.maxBufferedStreamBytes ?? 4 * 1024 * 1024,
  });
  mountChatRoute(router, options.chat);
  router.use([...LEGACY_WEB_PATHS], webErrorHandler());
  return router;
}
