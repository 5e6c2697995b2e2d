import type { ErrorRequestHandler } from 'express';
import type { Logger } from '../../application/logging/logger.js';
import { refuse } from './json-rpc-reply.js';

/** Last in the chain: an unexpected failure is logged with its stack and answered 500 -32603 without details. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    logger.error('http request failed', {
      method: req.method,
      path: req.originalUrl.split('?', 1)[0],
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    if (res.headersSent) {
      next(error);
      return;
    }
    refuse(res, 'internal_error', 'Internal error');
  };
}
