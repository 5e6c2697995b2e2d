import type { ErrorRequestHandler, RequestHandler } from 'express';

/** The terminal sessions as the deprecated `/sessions` routes use them (the composition root adapts them). */
export interface LegacySessions {
  /** Creates a session in the workspace for this principal; returns its id. Throws when the session cap is reached. */
  create(principal: string | undefined): string;
  /** Closes it and kills its processes. Throws `SessionNotFound` for an unknown id. */
  close(sessionId: string): Promise<void>;
}

/** The planning chat as `DELETE /sessions/:id` uses it: a closed session's conversation is dropped. */
export interface LegacyChat {
  forget(sessionId: string): void;
}

/**
 * What the deprecated routes borrow from the current web adapter (this folder imports no other adapter): the
 * handlers behind `GET /ui/events` and `POST /ui/chat`, mounted again at `/stream` and `/chat`, and the web routes'
 * error handler, so the old paths answer exactly as the new ones.
 */
export interface CurrentWebRoutes {
  readonly events: RequestHandler;
  readonly chat: readonly RequestHandler[];
  readonly errors: ErrorRequestHandler;
}
