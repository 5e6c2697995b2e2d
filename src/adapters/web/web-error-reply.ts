import type { ErrorRequestHandler, Response } from 'express';
import { DomainError } from '../../domain/errors.js';
import { webErrorOf } from './web-error-codes.js';

/** The JSON error body of the web routes (seed: `{"error": "<code>", "message": "..."}`). */
export interface WebErrorBody {
  readonly error: string;
  readonly message: string;
}

export function sendWebError(res: Response, status: number, error: string, message: string): void {
  res.status(status).json({ error, message } satisfies WebErrorBody);
}

/**
 * The one translator from typed errors to web responses: the status and the `error` code are the web form of the
 * error's code (web-error-codes.ts) (the seed's names where it had them: `unknown_session`, `invalid_request`,
 * `chat_unavailable`). Messages are typed and safe to show (a provider failure keeps its short message); anything
 * unexpected becomes a bare 500 (details stay out of the response).
 */
export function webErrorStatus(error: unknown): { status: number; body: WebErrorBody } {
  if (error instanceof DomainError) {
    const web = webErrorOf(error.code);
    return { status: web.status, body: { error: web.error, message: error.message } };
  }
  return { status: 500, body: { error: 'internal_error', message: 'The server could not complete the request' } };
}

/** Sends the web form of a typed error (what `webErrorHandler` does for errors a route does not catch). */
export function sendWebDomainError(res: Response, error: DomainError): void {
  const { status, body } = webErrorStatus(error);
  res.status(status).json(body);
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
    if (
      !(error instanceof DomainError) &&
      typeof parserStatus === 'number' &&
      parserStatus >= 400 &&
      parserStatus < 500
    ) {
      sendWebError(res, parserStatus, 'invalid_request', 'The request body could not be read as JSON');
      return;
    }
    const { status, body } = webErrorStatus(error);
    res.status(status).json(body);
  };
}
