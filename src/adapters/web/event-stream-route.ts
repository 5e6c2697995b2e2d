import type { Request, RequestHandler, Response } from 'express';
import type { ExecutionEvent } from '../../domain/execution/execution-types.js';
import { InvalidArgument } from '../../domain/errors.js';
import { SessionNotFound } from '../../domain/execution/execution-errors.js';
import type { TerminalEvents } from '../../domain/terminal/terminal-events.js';

export interface EventStreamOptions {
  /** Where the events come from: the `TerminalEvents` port, never a session object. */
  readonly events: Pick<TerminalEvents, 'subscribe'>;
  /** Interval of the `ping` event that keeps proxies from closing an idle stream (seed: 15 s). */
  readonly heartbeatMs: number;
  /** Bytes a slow reader may leave unread before the stream is dropped (the client reconnects). */
  readonly maxBufferedBytes: number;
}

/**
 * `GET …?session_id=<id>`: Server-Sent Events of one terminal session (seed §7), mounted at `GET /ui/events`. First
 * `hello`, then every event of the session as `event: <type>` with its JSON, in order, and `ping` heartbeats. The
 * stream ends after `session_closed`; when the client goes away the subscription and the heartbeat are released.
 * A missing `session_id` or a session that is not live is passed on as a typed error (the router's error handler
 * answers it), before anything is written.
 */
export function eventStreamHandler(options: EventStreamOptions): RequestHandler {
  return (req, res, next) => {
    const sessionId = req.query.session_id;
    if (typeof sessionId !== 'string' || sessionId === '') {
      next(new InvalidArgument('session_id is required'));
      return;
    }
    // Subscribing first is the liveness check; events are delivered on later ticks, so hello below is still first.
    const stream = new SseWriter(res, options.maxBufferedBytes);
    const unsubscribe = options.events.subscribe(sessionId, (event: ExecutionEvent) => {
      stream.send(event.type, event);
      if (event.type === 'session_closed') stream.finish();
    });
    if (unsubscribe === undefined) {
      next(new SessionNotFound(sessionId));
      return;
    }
    stream.hold(unsubscribe);
    openStream(req, res, stream, sessionId, options.heartbeatMs);
  };
}

function openStream(req: Request, res: Response, stream: SseWriter, sessionId: string, heartbeatMs: number): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  req.socket.setNoDelay(true);
  res.on('close', () => stream.release());
  stream.send('hello', { ok: true, session: sessionId });
  const heartbeat = setInterval(() => stream.send('ping', { ts: Math.floor(Date.now() / 1000) }), heartbeatMs);
  stream.hold(() => clearInterval(heartbeat));
}

/** Writes SSE frames to one response and releases what the stream holds (subscription, timer) exactly once. */
class SseWriter {
  private readonly releases: Array<() => void> = [];
  private released = false;

  constructor(
    private readonly res: Response,
    private readonly maxBufferedBytes: number,
  ) {}

  /** Runs `release` when the stream ends (at once if it already has). */
  hold(release: () => void): void {
    if (this.released) release();
    else this.releases.push(release);
  }

  send(event: string, data: unknown): void {
    if (this.released) return;
    // JSON.stringify escapes line breaks, so the payload is always one `data:` line.
    this.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    if (this.res.writableLength > this.maxBufferedBytes) {
      this.release();
      this.res.destroy();
    }
  }

  finish(): void {
    this.release();
    this.res.end();
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    for (const release of this.releases.splice(0)) release();
  }
}
