import type { ErrorRequestHandler, Response } from 'express';
import { ChatNotConfigured, ChatProviderError } from '../../domain/chat/chat-errors.js';
import { DomainError, InvalidArgument } from '../../domain/errors.js';
import { SessionEvicted, SessionExpired, SessionNotFound } from '../../domain/execution/execution-errors.js';

/** The JSON error body of the web routes (seed: `{"error": "<code>", "message": "..."}`). */
export interface WebErrorBody {
  readonly error: string;
  readonly message: string;
}

export function sendWebError(res: Response, status: number, error: string, message: string): void {
  res.status(status).json({ error, message } satisfies WebErrorBody);
}

/**
 * The one translator from typed errors to web responses. Provider failures keep their short safe message;
 * anything unexpected becomes a bare 500 (details stay out of the response).
 */
export function webErrorStatus(error: unknown): { status: number; body: WebErrorBody } {
  if (error instanceof InvalidArgument) return { status: 400, body: { error: 'invalid_request', message: error.message } };
  if (error instanceof SessionNotFound) return { status: 404, body: { error: 'unknown_session', message: error.message } };
  if (error instanceof ChatNotConfigured) return { status: 503, body: { error: 'chat_not_configured', message: error.message } };
  if (error instanceof ChatProviderError) return { status: 502, body: { error: 'chat_unavailable', message: error.message } };
  if (error instanceof DomainError) {
    // An ended session is gone like an unknown one; its own code says why.
    const gone = error.code.endsWith('_not_found') || error instanceof SessionExpired || error instanceof SessionEvicted;
    const status = gone ? 404 : 409;
    return { status, body: { error: error.code, message: error.message } };
  }
  return { status: 500, body: { error: 'internal_error', message: 'The server could not complete the request' } };
}

/** Express error middleware for the web routers. Body-parser errors carry a 4xx `status` and a `type`. */
export function webErrorHandler(): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const { status: parserStatus, type } = (error ?? {}) as { status?: unknown; type?: unknown };
    if (type === 'entity.too.large') {
      sendWebError(res, 413, 'request_too_large', 'The request body is too large');
      return;
    }
    if (!(error instanceof DomainError) && typeof parserStatus === 'number' && parserStatus >= 400 && parserStatus < 500) {
      sendWebError(res, parserStatus, 'invalid_request', 'The request body could not be read as JSON');
      return;
    }
    const { status, body } = webErrorStatus(error);
    res.status(status).json(body);
  };
}
