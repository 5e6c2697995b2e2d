import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import type { TerminalEvents } from '../../domain/terminal/terminal-events.js';
import { chatHandlers } from './chat-route.js';
import { eventStreamHandler } from './event-stream-route.js';
import { createUiConfigRouter, type UiConfig } from './ui-config-router.js';
import { webErrorHandler } from './web-error-reply.js';
import type { WebChat, WebSessions } from './web-ports.js';

export interface UiRouteOptions {
  readonly events: Pick<TerminalEvents, 'subscribe'>;
  readonly chat: WebChat;
  readonly sessions: Pick<WebSessions, 'create'>;
  readonly heartbeatMs: number;
  readonly maxRequestBytes: number;
  /** Unread SSE bytes tolerated per stream (default 4 MiB). */
  readonly maxBufferedStreamBytes?: number;
}

/**
 * The handlers of the UI's event stream and chat and their error handler, built once: the UI routes mount them, and
 * the composition root may lend them to other paths (the deprecated `/stream` and `/chat` answer exactly as these).
 */
export interface UiRouteHandlers {
  /** `GET ?session_id=`: the session's events (event-stream-route.ts). */
  readonly events: RequestHandler;
  /** `POST {message, session_id?}`: the planning chat (chat-route.ts), body parser first. */
  readonly chat: readonly RequestHandler[];
  /** Typed errors and unreadable bodies as the web routes answer them (web-error-reply.ts). */
  readonly errors: ErrorRequestHandler;
}

export function uiRouteHandlers(options: UiRouteOptions): UiRouteHandlers {
  return Object.freeze({
    events: eventStreamHandler({
      events: options.events,
      heartbeatMs: options.heartbeatMs,
      maxBufferedBytes: options.maxBufferedStreamBytes ?? 4 * 1024 * 1024,
    }),
    chat: Object.freeze(
      chatHandlers({ chat: options.chat, sessions: options.sessions, maxRequestBytes: options.maxRequestBytes }),
    ),
    errors: webErrorHandler(),
  });
}

/**
 * The browser UI's own routes, current and not deprecated, behind the transport's bearer auth (they do not
 * authenticate by themselves): `GET /ui/config`, `GET /ui/events?session_id=` (the session's events over the
 * `TerminalEvents` port) and `POST /ui/chat`. Everything else the UI does goes through MCP (`POST /mcp`).
 */
export function createUiRouter(handlers: UiRouteHandlers, config: UiConfig): Router {
  const router = Router();
  router.use(createUiConfigRouter(config));
  router.get('/ui/events', handlers.events);
  router.post('/ui/chat', ...handlers.chat);
  router.use('/ui', handlers.errors);
  return router;
}
