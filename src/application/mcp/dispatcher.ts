import type { ProtocolNegotiator } from '../../domain/protocol/protocol-negotiator.js';
import { ERROR_CODES, META, MODERN_PROTOCOL_VERSION, type ProtocolEra } from '../../domain/protocol/versions.js';
import type { Logger } from '../logging/logger.js';
import type { InFlightRequests, LegacyHandshake } from './connection-state.js';
import { internalError, toMcpError } from './error-translator.js';
import type { ProgressReporter } from '../tools/tool-definition.js';
import type { FeatureHandler, HandlerResult } from './feature-handlers.js';
import { errorResponse, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from './jsonrpc.js';
import { McpError } from './mcp-error.js';
import { progressChannelFor } from './progress-reporter.js';
import { classifyMessage, type ClassifiedMessage } from './message-classification.js';
import { CancelledParamsSchema, InitializeParamsSchema, parseParams } from './method-params.js';
import { readProtocolVersion, RequestMetaSchema } from './request-meta.js';
import { SERVER_CAPABILITIES, type CachePolicy, type ServerInfo } from './server-identity.js';

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

/** Methods that exist only in the modern era (2026-07-28 `ClientRequest`). */
const MODERN_ONLY_METHODS = new Set(['server/discover']);
/** Methods that exist only in legacy sessions (2025-11-25 lifecycle and utilities). */
const LEGACY_ONLY_METHODS = new Set(['initialize', 'ping']);

/**
 * One dispatcher for both eras and both transports (2026-07-28 basic/versioning, "dual-era servers"):
 * a request carrying modern `_meta` is served statelessly; `initialize` selects legacy semantics for the
 * connection (stdio) or transport session (HTTP); other requests are served in the legacy session, if any.
 */
export class McpDispatcher {
  constructor(private readonly options: DispatcherOptions) {}

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
  private async handleRequest(incoming: ClassifiedRequest, context: DispatchContext): Promise<JsonRpcResponse | undefined> {
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

  private async answer(request: JsonRpcRequest, era: ProtocolEra, call: RequestScope, context: DispatchContext): Promise<JsonRpcResponse> {
    try {
      const result = era === 'modern' ? await this.serveModern(request, call, context) : await this.serveLegacy(request, call, context);
      return { jsonrpc: '2.0', id: request.id, result };
    } catch (error) {
      const mcpError = toMcpError(error, era);
      if (mcpError) return errorResponse(request.id, mcpError.toJsonRpc());
      this.options.logger.error('internal error while handling a request', {
        method: request.method,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        stack: error instanceof Error ? error.stack : undefined,
      });
      return errorResponse(request.id, internalError().toJsonRpc());
    }
  }

  private async serveModern(request: JsonRpcRequest, { signal, progress }: RequestScope, context: DispatchContext): Promise<Record<string, unknown>> {
    this.validateModernMeta(request.params);
    const handler = request.method === 'server/discover' ? this.discover : this.options.features.get(request.method);
    if (!handler || LEGACY_ONLY_METHODS.has(request.method)) throw methodNotFound(request.method);
    const protocolVersion = String(readProtocolVersion(request.params));
    const result = await handler({ params: request.params, era: 'modern', signal, principal: context.principal, protocolVersion, progress });
    return this.stampModern(result);
  }

  private async serveLegacy(request: JsonRpcRequest, { signal, progress }: RequestScope, context: DispatchContext): Promise<Record<string, unknown>> {
    const { handshake } = context;
    if (request.method === 'initialize') return this.initialize(request, handshake);
    if (request.method === 'ping') return {};
    if (!handshake.started) throw this.missingEra(request.params);
    if (!handshake.initialized) {
      throw new McpError(ERROR_CODES.invalidRequest, 'notifications/initialized must be sent before other legacy requests');
    }
    const handler = this.options.features.get(request.method);
    if (!handler || MODERN_ONLY_METHODS.has(request.method)) throw methodNotFound(request.method);
    const result = await handler({ params: request.params, era: 'legacy', signal, principal: context.principal, protocolVersion: handshake.protocolVersion, progress });
    return result.body;
  }

  /** 2026-07-28 basic/index: required `_meta` fields missing → -32602; unsupported version → -32022. */
  private validateModernMeta(params: Record<string, unknown> | undefined): void {
    const requested = readProtocolVersion(params);
    if (typeof requested === 'string') {
      const versionClass = this.options.negotiator.classify(requested);
      if (versionClass !== 'modern') {
        const message = versionClass === 'legacy' ? 'Legacy protocol versions require initialize' : 'Unsupported protocol version';
        throw new McpError(ERROR_CODES.unsupportedProtocolVersion, message, {
          supported: [...this.options.negotiator.supportedVersions],
          requested,
        });
      }
    }
    const parsed = RequestMetaSchema.safeParse(params?._meta);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new McpError(ERROR_CODES.invalidParams, issue?.message ?? 'Invalid request metadata');
    }
  }

  private missingEra(params: Record<string, unknown> | undefined): McpError {
    const meta = params?._meta;
    const message =
      typeof meta === 'object' && meta !== null
        ? `params._meta["${META.protocolVersion}"] is required`
        : `Missing params._meta["${META.protocolVersion}"]: send ${MODERN_PROTOCOL_VERSION} request metadata, or initialize a legacy session first`;
    return new McpError(ERROR_CODES.invalidParams, message);
  }

  private initialize(request: JsonRpcRequest, handshake: LegacyHandshake): Record<string, unknown> {
    if (handshake.started) throw new McpError(ERROR_CODES.invalidRequest, 'initialize was already received for this session');
    const params = parseParams(InitializeParamsSchema, request.params, 'initialize');
    handshake.protocolVersion = this.options.negotiator.negotiateLegacy(params.protocolVersion);
    handshake.clientInfo = { name: params.clientInfo.name, version: params.clientInfo.version };
    return {
      protocolVersion: handshake.protocolVersion,
      capabilities: SERVER_CAPABILITIES,
      serverInfo: this.options.serverInfo,
      instructions: this.options.instructions,
    };
  }

  private readonly discover: FeatureHandler = async () => ({
    body: {
      supportedVersions: [...this.options.negotiator.supportedVersions],
      capabilities: SERVER_CAPABILITIES,
      instructions: this.options.instructions,
    },
    ttlMs: this.options.cache.discoverTtlMs,
  });

  /** Every modern result carries `resultType` and serverInfo; cacheable ones carry `ttlMs` and `cacheScope`. */
  private stampModern(result: HandlerResult): Record<string, unknown> {
    const cacheHints = result.ttlMs === undefined ? {} : { ttlMs: result.ttlMs, cacheScope: 'private' };
    return {
      ...result.body,
      resultType: 'complete',
      ...cacheHints,
      _meta: { [META.serverInfo]: this.options.serverInfo },
    };
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

function methodNotFound(method: string): McpError {
  return new McpError(ERROR_CODES.methodNotFound, 'Method not found', { method });
}

function combineSignals(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal {
  const signals = [a, b].filter((signal): signal is AbortSignal => signal !== undefined);
  if (signals.length === 0) return new AbortController().signal;
  if (signals.length === 1) return signals[0] as AbortSignal;
  return AbortSignal.any(signals);
}
