import type { RequestHandler } from 'express';
import type { Logger } from '../../application/logging/logger.js';

/**
 * One JSON line per request: method, path, status, duration. Never the query string (a misplaced token would
 * land there), never headers, never bodies.
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const path = req.originalUrl.split('?', 1)[0] ?? '/';
    res.once('close', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info('http request', {
        method: req.method,
        path,
        status: res.statusCode,
        durationMs: Math.round(durationMs * 10) / 10,
        ...(res.writableFinished ? {} : { aborted: true }),
      });
    });
    next();
  };
}
