import type { Request, Response, Router } from 'express';
import { InvalidArgument } from '../../domain/errors.js';
import { SessionNotFound } from '../../domain/execution/execution-errors.js';
import { sendWebDomainError } from './web-error-reply.js';
import type { StreamedSession, WebSessions } from './web-ports.js';

export interface EventStreamOptions {
  readonly sessions: Pick<WebSessions, 'find'>;
  /** Interval of the `ping` event that keeps proxies from closing an idle stream (seed: 15 s). */
  readonly heartbeatMs: number;
  /** Bytes a slow reader may leave unread before the stream is dropped (the client reconnects). */
  readonly maxBufferedBytes: number;
}

/**
 * `GET /stream?session_id=<id>`: Server-Sent Events of one execution session (seed §7). First `hello`, then every
 * `ExecutionEvent` as `event: <type>` with its JSON, in order, and `ping` heartbeats. The stream ends after
 * `session_closed`; when the client goes away the subscription and the heartbeat are released.
 */
export function mountEventStreamRoute(router: Router, options: EventStreamOptions): void {
  router.get('/stream', (req, res) => {
    const sessionId = req.query.session_id;
    if (typeof sessionId !== 'string' || sessionId === '') {
      sendWebDomainError(res, new InvalidArgument('session_id is required'));
      return;
    }
    const session = options.sessions.find(sessionId);
    if (!session) {
      sendWebDomainError(res, new SessionNotFound(sessionId));
      return;
    }
    streamSession(req, res, session, options);
  });
}

function streamSession(req: Request, res: Response, session: StreamedSession, options: EventStreamOptions): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  req.socket.setNoDelay(true);

  const stream = new SseWriter(res, options.maxBufferedBytes);
  res.on('close', () => stream.release());
  stream.send('hello', { ok: true, session: session.id });
  stream.hold(
    session.subscribe((event) => {
      stream.send(event.type, event);
      if (event.type === 'session_closed') stream.finish();
    }),
  );
  // Closed between the lookup and the subscription: its `session_closed` was already published.
  if (session.closed) {
    stream.send('session_closed', { type: 'session_closed', sessionId: session.id, at: new Date().toISOString() });
    stream.finish();
    return;
  }
  const heartbeat = setInterval(() => stream.send('ping', { ts: Math.floor(Date.now() / 1000) }), options.heartbeatMs);
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
