import { Router, type Request, type Response } from 'express';
import { LegacyHandshake } from '../../application/mcp/connection-state.js';
import type { DispatchContext } from '../../application/mcp/dispatcher.js';
import { ERA_TRANSPORT_RULES } from '../../application/mcp/era-transport-rules.js';
import { errorResponse, type JsonRpcResponse, type RequestId } from '../../application/mcp/jsonrpc.js';
import { classifyMessage, type ClassifiedMessage } from '../../application/mcp/message-classification.js';
import { serializeMessage } from '../../application/mcp/serialized-once.js';
import { ERROR_CODES, META, MODERN_PROTOCOL_VERSIONS } from '../../domain/protocol/versions.js';
import { principalOf } from './bearer-auth.js';
import { httpStatusOfJsonRpcError } from './http-statuses.js';
import { refuse } from './json-rpc-reply.js';
import type { LegacySession, LegacySessionStore } from './legacy-sessions.js';
import { legacySessionVersionProblem, mcpHeaderGuard } from './mcp-headers.js';
import { classifiedMessageOf, classifyMcpBody } from './mcp-message.js';
import { isEventStream, requestNotifier, writeEvent } from './request-event-stream.js';

/** What the routes need from the application dispatcher (McpDispatcher satisfies it). */
export interface McpMessageHandler {
  /** Serves a message this adapter already classified; the dispatcher does not read the body again. */
  dispatch(message: ClassifiedMessage, context: DispatchContext): Promise<JsonRpcResponse | undefined>;
}

export interface McpRoutesOptions {
  dispatcher: McpMessageHandler;
  sessions: LegacySessionStore;
}

type Incoming = Exclude<ClassifiedMessage, { kind: 'invalid' }>;

/** One POST: what its body is (classified once, by `classifyMcpBody`), who sent it, and the signal that fires if they hang up. */
interface Call {
  incoming: Incoming;
  principal: string;
  signal: AbortSignal;
  /** This POST's own stream for notifications about its request (progress); none for a batch. */
  notify?: DispatchContext['notify'];
}

/**
 * The MCP endpoint (JSON responses; a request's answer becomes an SSE stream only to carry its progress):
 * - POST /mcp: one JSON-RPC message. A modern request (2026-07-28 `_meta`) is served statelessly; `initialize`
 *   opens a legacy session and mints `Mcp-Session-Id`; other legacy messages run in the session they name.
 * - DELETE /mcp: ends the legacy session named by `Mcp-Session-Id`.
 * - anything else: 405 with `Allow: POST, DELETE` (there is no GET stream: no SSE, no `subscriptions/listen`).
 */
export function mcpRoutes(options: McpRoutesOptions): Router {
  const endpoint = new McpEndpoint(options.dispatcher, options.sessions);
  const router = Router();
  router.post('/mcp', classifyMcpBody(), mcpHeaderGuard(), (req, res) => endpoint.post(req, res));
  router.delete('/mcp', (req, res) => endpoint.delete(req, res));
  router.all('/mcp', (_req, res) => {
    res.setHeader('Allow', 'POST, DELETE');
    refuse(res, 'method_not_allowed', 'Method Not Allowed: POST a JSON-RPC message (no GET stream is offered)');
  });
  return router;
}

class McpEndpoint {
  constructor(
    private readonly dispatcher: McpMessageHandler,
    private readonly sessions: LegacySessionStore,
  ) {}

  async post(req: Request, res: Response): Promise<void> {
    const incoming = classifiedMessageOf(res);
    if (incoming === undefined) {
      refuse(res, 'parse_error', 'Parse error: the request body is empty');
      return;
    }
    if (Array.isArray(req.body)) return this.serveBatch(req.body, req, res);
    if (incoming.kind === 'invalid') {
      refuse(res, 'invalid_message', incoming.reason, incoming.id);
      return;
    }
    const call: Call = {
      incoming,
      principal: principalOf(res),
      signal: abortWhenClientLeaves(res),
      notify: requestNotifier(res),
    };
    if (incoming.kind !== 'response' && ERA_TRANSPORT_RULES[incoming.era].stateless) return this.serveModern(call, res);
    if (incoming.kind === 'request' && incoming.method === 'initialize') return this.initializeSession(call, res);
    return this.serveLegacy(call, req, res);
  }

  delete(req: Request, res: Response): void {
    const id = sessionIdOf(req);
    if (id === undefined) {
      refuse(res, 'session_id_required', 'Mcp-Session-Id header is required');
      return;
    }
    if (this.sessions.find(id, principalOf(res)) === undefined) {
      sessionNotFound(res, null);
      return;
    }
    this.sessions.close(id);
    res.status(200).end();
  }

  /** 2026-07-28: no handshake, no session; an `Mcp-Session-Id` sent along is ignored and never echoed. */
  private async serveModern(call: Call, res: Response): Promise<void> {
    reply(res, await this.dispatcher.dispatch(call.incoming, statelessContext(call)), statusOf);
  }

  /**
   * 2025-11-25 transports: the session id rides on the response that carries the InitializeResult. At the cap the
   * least recently used idle session is ended to make room; only when every session is serving a request is the
   * initialize refused (503).
   */
  private async initializeSession(call: Call, res: Response): Promise<void> {
    const session = this.sessions.open(call.principal);
    if (session === undefined) {
      const message =
        'Too many sessions: every session is serving a request or was used recently; retry later (or end an unused one with DELETE /mcp)';
      refuse(res, 'transport_sessions_busy', message, idOf(call.incoming));
      return;
    }
    try {
      const response = await this.dispatcher.dispatch(call.incoming, sessionContext(session, call));
      // A session nobody will ever learn the id of (failed handshake, client gone) is dropped at once.
      if (response !== undefined && 'result' in response && !call.signal.aborted) {
        res.setHeader('Mcp-Session-Id', session.id);
      } else {
        this.sessions.close(session.id);
      }
      reply(res, response, statusOf);
    } finally {
      this.sessions.release(session);
    }
  }

  /**
   * 2025-03-26 basic ("JSON-RPC batching"): a session negotiated at that revision may POST an array of requests and
   * notifications; the answer is the array of the responses (none for notifications: 202 when there are none).
   * Every other era, and a message outside a session, gets the batch refused as before.
   */
  private async serveBatch(batch: unknown[], req: Request, res: Response): Promise<void> {
    const id = sessionIdOf(req);
    const principal = principalOf(res);
    const session = id === undefined ? undefined : this.sessions.acquire(id, principal);
    if (id !== undefined && session === undefined) {
      sessionNotFound(res, null, this.sessions.wasEvicted(id, principal));
      return;
    }
    try {
      if (session === undefined || session.handshake.protocolVersion !== BATCH_PROTOCOL_VERSION) {
        refuse(
          res,
          'invalid_message',
          `JSON-RPC batches are not supported (only in a session negotiated at ${BATCH_PROTOCOL_VERSION})`,
        );
        return;
      }
      if (batch.length === 0) {
        refuse(res, 'invalid_message', 'Invalid request: an empty batch');
        return;
      }
      const signal = abortWhenClientLeaves(res);
      const answers = await Promise.all(
        batch.map(async (member): Promise<JsonRpcResponse | undefined> => {
          const incoming = classifyMessage(member);
          if (incoming.kind === 'invalid')
            return errorResponse(incoming.id, { code: ERROR_CODES.invalidRequest, message: incoming.reason });
          if (incoming.kind === 'request' && incoming.method === 'initialize') {
            return errorResponse(incoming.message.id, {
              code: ERROR_CODES.invalidRequest,
              message: 'Invalid request: initialize cannot be part of a batch',
            });
          }
          return this.dispatcher.dispatch(incoming, sessionContext(session, { incoming, principal, signal }));
        }),
      );
      const responses = answers.filter((answer): answer is JsonRpcResponse => answer !== undefined);
      if (res.writableEnded || res.destroyed) return;
      if (responses.length === 0) {
        res.status(202).end();
        return;
      }
      res
        .status(200)
        .type('application/json')
        .send(`[${responses.map((response) => serializeMessage(response)).join(',')}]`);
    } finally {
      if (session !== undefined) this.sessions.release(session);
    }
  }

  private async serveLegacy(call: Call, req: Request, res: Response): Promise<void> {
    const id = sessionIdOf(req);
    if (id === undefined) {
      if (call.incoming.kind !== 'request') {
        const version = req.headers['mcp-protocol-version'];
        if (typeof version === 'string' && MODERN_PROTOCOL_VERSIONS.includes(version)) {
          // A 2026-07-28 client has no session to name: what its notification lacks is its own `_meta`.
          const missing = `Notification not delivered: a ${version} notification carries params._meta["${META.protocolVersion}"] (and no session is needed)`;
          refuse(res, 'invalid_message', missing);
          return;
        }
        refuse(res, 'session_id_required', 'Mcp-Session-Id header is required: send initialize first');
        return;
      }
      // Neither modern `_meta` nor a session: the dispatcher says what is missing (-32602), or answers `ping`.
      reply(res, await this.dispatcher.dispatch(call.incoming, statelessContext(call)), statusOf);
      return;
    }
    // Held busy while served: a session with a request in flight is never ended to make room.
    const session = this.sessions.acquire(id, call.principal);
    if (session === undefined) {
      sessionNotFound(res, idOf(call.incoming), this.sessions.wasEvicted(id, call.principal));
      return;
    }
    try {
      const versionProblem = legacySessionVersionProblem(
        req.headers['mcp-protocol-version'],
        session.handshake.protocolVersion ?? '',
      );
      if (versionProblem !== undefined) {
        refuse(res, 'session_version_mismatch', versionProblem, idOf(call.incoming));
        return;
      }
      // Inside a session every JSON-RPC answer, error or not, is a 200: 2025-11-25 maps no error to a status.
      reply(res, await this.dispatcher.dispatch(call.incoming, sessionContext(session, call)), () => 200);
    } finally {
      this.sessions.release(session);
    }
  }
}

/** The revision that had JSON-RPC batches (2025-06-18 removed them): a session negotiated at it may send one. */
const BATCH_PROTOCOL_VERSION = '2025-03-26';

function statelessContext(call: Call): DispatchContext {
  return {
    transport: 'http',
    handshake: new LegacyHandshake(),
    signal: call.signal,
    principal: call.principal,
    notify: call.notify,
  };
}

function sessionContext(session: LegacySession, call: Call): DispatchContext {
  return {
    transport: 'http',
    handshake: session.handshake,
    inFlight: session.inFlight,
    signal: call.signal,
    principal: call.principal,
    notify: call.notify,
  };
}

/** Status of a JSON-RPC answer outside a legacy session (2026-07-28 streamable-http "Status codes"). */
function statusOf(response: JsonRpcResponse): number {
  return 'error' in response ? httpStatusOfJsonRpcError(response.error.code) : 200;
}

/**
 * A response goes out as JSON. A notification or client response is acknowledged with an empty 202, and so is a
 * request the client cancelled with `notifications/cancelled` while it ran: the dispatcher sends no response for it
 * (2025-11-25 cancellation: SHOULD NOT respond), and the SDK clients accept a 202 to any POST without complaint.
 */
function reply(
  res: Response,
  response: JsonRpcResponse | undefined,
  status: (response: JsonRpcResponse) => number,
): void {
  if (res.writableEnded || res.destroyed) return;
  // The answer became a stream (progress was sent): the response is its last event, and ends it.
  if (isEventStream(res)) {
    if (response !== undefined) writeEvent(res, serializeMessage(response));
    res.end();
    return;
  }
  if (response === undefined) {
    res.status(202).end();
    return;
  }
  // Not res.json: serializeMessage splices the cached text of static parts (the tool catalog) into the answer.
  res.status(status(response)).type('application/json').send(serializeMessage(response));
}

/**
 * 2025-11-25 transports: an unknown, expired, ended or foreign session id is a 404, so the client re-initializes.
 * A session the server ended to make room says so (to its own principal only).
 */
function sessionNotFound(res: Response, id: RequestId | null, evicted = false): void {
  const message = evicted
    ? 'Session not found: the server ended it to make room (it was the least recently used idle session); initialize a new session'
    : 'Session not found: initialize a new session';
  refuse(res, 'transport_session_not_found', message, id);
}

function sessionIdOf(req: Request): string | undefined {
  const value = req.headers['mcp-session-id'];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function idOf(incoming: Incoming): RequestId | null {
  return incoming.kind === 'request' ? incoming.message.id : null;
}

/** 2026-07-28 streamable-http: the client closing the stream is the cancellation signal. */
function abortWhenClientLeaves(res: Response): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client disconnected'));
  });
  return controller.signal;
}
