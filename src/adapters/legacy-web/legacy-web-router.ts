import { Router } from 'express';
import { deprecationHeaders, type DeprecationNotice } from './deprecation-headers.js';
import { mountLegacySessionRoutes } from './legacy-session-routes.js';
import type { CurrentWebRoutes, LegacyChat, LegacySessions } from './legacy-web-ports.js';

export interface LegacyWebOptions {
  readonly sessions: LegacySessions;
  readonly chat: LegacyChat;
  readonly current: CurrentWebRoutes;
  readonly deprecation: DeprecationNotice;
}

/** Paths of the deprecated compatibility API (seed §7: `/sessions*`, `/stream`, `/chat`). */
export const LEGACY_WEB_PATHS: readonly string[] = Object.freeze(['/sessions', '/stream', '/chat']);

/**
 * The deprecated web-product compatibility API (seed §7): `POST /sessions`, `DELETE /sessions/:id`, `GET /stream`
 * (the handler of `GET /ui/events`) and `POST /chat` (the handler of `POST /ui/chat`), each with the deprecation
 * headers. It expects the transport's auth, Origin and rate-limit guards in front of it.
 */
export function createLegacyWebRouter(options: LegacyWebOptions): Router {
  const router = Router();
  router.use([...LEGACY_WEB_PATHS], deprecationHeaders(options.deprecation));
  mountLegacySessionRoutes(router, options.sessions, options.chat);
  router.get('/stream', options.current.events);
  router.post('/chat', ...options.current.chat);
  router.use([...LEGACY_WEB_PATHS], options.current.errors);
  return router;
}

/**
 * The whole deprecated API as the two hooks of the HTTP app, so the composition root mounts it with one line:
 * before auth, the deprecation headers (a 401 of a deprecated path announces the deprecation too); behind it, the
 * routes. When `Sunset` passes, delete this folder and that line; nothing else refers to it.
 */
export function legacyWebMounts(options: LegacyWebOptions): {
  mountPublic(router: Router): void;
  mountProtected(router: Router): void;
} {
  return {
    mountPublic: (router) => router.use([...LEGACY_WEB_PATHS], deprecationHeaders(options.deprecation)),
    mountProtected: (router) => router.use(createLegacyWebRouter(options)),
  };
}
