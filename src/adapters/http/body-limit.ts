import express, { type RequestHandler } from 'express';
import { refusalJsonRpcCode } from '../../application/mcp/transport-refusals.js';
import { REFUSAL_STATUS } from './http-statuses.js';
import { refuse, sendJsonRpcError } from './json-rpc-reply.js';

/** What body-parser attaches to the errors it raises (status and a stable type). */
interface BodyReadError {
  status?: number;
  type?: string;
}

/**
 * Reads at most `maxBytes` (after decompression) of any request body, then parses it as JSON.
 * - too large: 413 + JSON-RPC -32600, before the body is buffered in full;
 * - not JSON: 400 + JSON-RPC -32700 (parse error);
 * - empty: `req.body` stays undefined (the MCP route answers -32700; other routes decide for themselves).
 * Any content type is read as JSON: MCP bodies are JSON whatever a client labels them.
 * Requests to `ownBodyPaths` are left unread: their routes read them after auth, with their own limit (receipts).
 */
export function bodyLimit(maxBytes: number, ownBodyPaths: readonly string[] = []): RequestHandler {
  const readRaw = express.raw({ type: () => true, limit: maxBytes });
  const skipped = new Set(ownBodyPaths.map(normalizePath));
  return (req, res, next) => {
    if (skipped.has(normalizePath(req.path))) {
      next();
      return;
    }
    readRaw(req, res, (error?: unknown) => {
      if (error !== undefined && error !== null) {
        const { status, type } = error as BodyReadError;
        if (type === 'entity.too.large') {
          refuse(res, 'request_too_large', `Request body exceeds ${maxBytes} bytes`);
          return;
        }
        sendJsonRpcError(res, status ?? REFUSAL_STATUS.unreadable_body, {
          code: refusalJsonRpcCode('unreadable_body'),
          message: 'Request body could not be read',
        });
        return;
      }
      const raw: unknown = req.body;
      if (!Buffer.isBuffer(raw) || raw.length === 0) {
        req.body = undefined;
        next();
        return;
      }
      try {
        req.body = JSON.parse(raw.toString('utf8')) as unknown;
      } catch {
        refuse(res, 'parse_error', 'Parse error: the body is not valid JSON');
        return;
      }
      next();
    });
  };
}

/** Express matches routes case-insensitively and with an optional trailing slash; so does the skip list. */
function normalizePath(requestPath: string): string {
  return requestPath.replace(/\/+$/, '').toLowerCase();
}
