import type { ProtocolNegotiator } from '../../domain/protocol/protocol-negotiator.js';
import { ERROR_CODES, type ProtocolEra } from '../../domain/protocol/versions.js';
import type { Logger } from '../logging/logger.js';
import type { InFlightRequests, LegacyHandshake } from './connection-state.js';
import type { EraCodec } from './era-codec.js';
import type { FeatureHandler } from './feature-handlers.js';
import { internalError } from './json-rpc-errors.js';
import { errorResponse, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from './jsonrpc.js';
import { LegacyCodec } from './legacy-codec.js';
import type { ProgressReporter } from '../tools/tool-definition.js';
import { progressChannelFor } from './progress-reporter.js';
import { classifyMessage, type ClassifiedMessage } from './message-classification.js';
import { CancelledParamsSchema } from './method-params.js';
import { ModernCodec } from './modern-codec.js';
import type { CachePolicy, ServerInfo } from './server-identity.js';

/** Per-message context supplied by the transport adapter. */
export interface DispatchContext {
  readonly transport: 'stdio' | 'http';
  /** Legacy handshake state: the stdio process's, or the HTTP transport session's (a fresh one when there is none). */
  readonly handshake: LegacyHandshake;
  /** stdio: requests in flight, so `notifications/cancelled` can reach them. */
  readonly inFlight?: InFlightRequests;
  /** HTTP: aborted when the client goes away (2026-07-28 streamable-http: closing the stream is cancellation). */
  readonly signal?: AbortSignal;
  readonly principal?: string;
  /**
   * Sends a notification on the stream of the request being served (STDIO: stdout; HTTP: that POST's response,
   * which becomes an SSE stream). Absent where there is none (a batch, a client that does not accept SSE).
   */
  readonly notify?: (notification: JsonRpcNotification) => void;
}

export interface DispatcherOptions {
  negotiator: ProtocolNegotiator;
  serverInfo: ServerInfo;
  instructions: string;
  features: ReadonlyMap<string, FeatureHandler>;
  cache: CachePolicy;
  logger: Logger;
}

type ClassifiedRequest = Extract<ClassifiedMessage, { kind: 'request' }>;

/** What serving one request carries besides its message: its cancellation, and its progress channel if it asked. */
interface RequestScope {
  readonly signal: AbortSignal;
  readonly progress: ProgressReporter | undefined;
}

/**
 * One dispatcher for both eras and both transports (2026-07-28 basic/versioning, "dual-era servers"):
 * a request carrying modern `_meta` is served statelessly; `initialize` selects legacy semantics for the
 * connection (stdio) or transport session (HTTP); other requests are served in the legacy session, if any.
 * What differs by era (method table, result stamping, JSON-RPC error codes) is the era's codec (era-codec.ts).
 */
export class McpDispatcher {
  private readonly codecs: Readonly<Record<ProtocolEra, EraCodec>>;

  constructor(private readonly options: DispatcherOptions) {
    this.codecs = { modern: new ModernCodec(options), legacy: new LegacyCodec(options) };
  }

  /**
   * Handles one parsed JSON value (in-process callers). Returns the response, or `undefined` for notifications and
   * client responses. Transports classify at their edge and call `dispatch` with what they read.
   */
  handle(value: unknown, context: DispatchContext): Promise<JsonRpcResponse | undefined> {
    return this.dispatch(classifyMessage(value), context);
  }

  /** Serves a message the transport already classified (`classifyMessage`): its kind and era are not read again. */
  async dispatch(incoming: ClassifiedMessage, context: DispatchContext): Promise<JsonRpcResponse | undefined> {
    switch (incoming.kind) {
      case 'invalid':
        return errorResponse(incoming.id, { code: ERROR_CODES.invalidRequest, message: incoming.reason });
      case 'response':
        return undefined;
      case 'notification':
        this.handleNotification(incoming.message, context);
        return undefined;
      case 'request':
        return this.handleRequest(incoming, context);
    }
  }

  /**
   * Answers a request; `undefined` when the client cancelled it with `notifications/cancelled` while it ran
   * (2025-11-25 utilities/cancellation: the receiver SHOULD NOT send a response for a cancelled request). The work
   * itself is told through the signal: a cancelled `terminal_execute` stops its command and records its receipt.
   */
  private async handleRequest(
    incoming: ClassifiedRequest,
    context: DispatchContext,
  ): Promise<JsonRpcResponse | undefined> {
    const request = incoming.message;
    const controller = context.inFlight?.begin(request.id);
    const signal = combineSignals(controller?.signal, context.signal);
    const progress = progressChannelFor(request.params, context.notify);
    let response: JsonRpcResponse | undefined;
    try {
      response = await this.answer(request, incoming.era, { signal, progress: progress?.report }, context);
    } finally {
      // No progress after the response (2025-11-25 utilities/progress).
      progress?.close();
      if (context.inFlight?.end(request.id) === true) response = undefined;
    }
    return response;
  }

  /** Decode → handle → encode, with the codec of the request's era: the only place the dispatcher meets the era. */
  private async answer(
    request: JsonRpcRequest,
    era: ProtocolEra,
    { signal, progress }: RequestScope,
    context: DispatchContext,
  ): Promise<JsonRpcResponse> {
    const codec = this.codecs[era];
    try {
      const handler = codec.decode(request, context.handshake);
      const protocolVersion = codec.protocolVersion(request, context.handshake);
      const result = await handler({
        params: request.params,
        era,
        signal,
        principal: context.principal,
        protocolVersion,
        progress,
      });
      return { jsonrpc: '2.0', id: request.id, result: codec.encode(result) };
    } catch (error) {
      const mcpError = codec.encodeError(error);
      if (mcpError) return errorResponse(request.id, mcpError.toJsonRpc());
      this.options.logger.error('internal error while handling a request', {
        method: request.method,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        stack: error instanceof Error ? error.stack : undefined,
      });
      return errorResponse(request.id, internalError().toJsonRpc());
    }
  }

  private handleNotification(notification: JsonRpcNotification, context: DispatchContext): void {
    if (notification.method === 'notifications/initialized') {
      if (context.handshake.started) context.handshake.initialized = true;
      return;
    }
    if (notification.method === 'notifications/cancelled') {
      const parsed = CancelledParamsSchema.safeParse(notification.params ?? {});
      if (parsed.success) context.inFlight?.cancel(parsed.data.requestId, parsed.data.reason ?? 'cancelled by client');
    }
    // Any other notification is ignored, as JSON-RPC requires (no response to a notification).
  }
}

function combineSignals(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal {
  const signals = [a, b].filter((signal): signal is AbortSignal => signal !== undefined);
  if (signals.length === 0) return new AbortController().signal;
  if (signals.length === 1) return signals[0] as AbortSignal;
  return AbortSignal.any(signals);
}
