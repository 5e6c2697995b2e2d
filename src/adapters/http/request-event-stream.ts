import type { Response } from 'express';
import type { JsonRpcNotification } from '../../application/mcp/jsonrpc.js';

/**
 * 2026-07-28 / 2025-11-25 streamable-http: the answer to a POSTed request may be an SSE stream scoped to that request,
 * carrying the notifications related to it (`notifications/progress`) before the response, which ends it. A response
 * stays plain JSON until the first such notification: only then does this POST's answer become a stream. Each POST
 * has its own notifier, so a notification never reaches another request's stream.
 */
export function requestNotifier(res: Response): (notification: JsonRpcNotification) => void {
  return (notification) => {
    if (res.writableEnded || res.destroyed) return;
    if (!isEventStream(res)) {
      res.status(200);
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('X-Accel-Buffering', 'no');
      res.flushHeaders();
    }
    writeEvent(res, JSON.stringify(notification));
  };
}

/** Whether this POST's answer already became an event stream (its response then goes out as the last event). */
export function isEventStream(res: Response): boolean {
  return res.headersSent && String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream');
}

/** One SSE event of type `message` (a JSON-RPC message never holds a raw line end: JSON escapes them). */
export function writeEvent(res: Response, json: string): void {
  res.write(`event: message\ndata: ${json}\n\n`);
}
