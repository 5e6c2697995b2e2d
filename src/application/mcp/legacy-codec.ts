import type { ProtocolNegotiator } from '../../domain/protocol/protocol-negotiator.js';
import { ERROR_CODES, META, MODERN_PROTOCOL_VERSION } from '../../domain/protocol/versions.js';
import type { LegacyHandshake } from './connection-state.js';
import type { EraCodec, EraTransportRules } from './era-codec.js';
import type { FeatureHandler, HandlerResult } from './feature-handlers.js';
import { methodNotFound, toMcpError, type EraErrorCodes } from './json-rpc-errors.js';
import type { JsonRpcRequest } from './jsonrpc.js';
import { McpError } from './mcp-error.js';
import { InitializeParamsSchema, parseParams } from './method-params.js';
import { SERVER_CAPABILITIES, type ServerInfo } from './server-identity.js';

/**
 * 2025-11-25 has no -32020: an `Accept` refusal is -32600; its transport defines no mirrored standard headers; its
 * messages live in the transport session `initialize` opened.
 */
export const LEGACY_TRANSPORT_RULES: EraTransportRules = Object.freeze({
  notAcceptableCode: ERROR_CODES.invalidRequest,
  mirrorsStandardHeaders: false,
  stateless: false,
});

/** 2025-11-25 server/resources: resource-not-found is -32002. */
export const LEGACY_ERROR_CODES: EraErrorCodes = Object.freeze({
  resource_not_found: ERROR_CODES.legacyResourceNotFound,
});

export interface LegacyCodecOptions {
  negotiator: ProtocolNegotiator;
  serverInfo: ServerInfo;
  instructions: string;
  /** The methods both eras share (tools, resources, prompts). */
  features: ReadonlyMap<string, FeatureHandler>;
}

/** A lifecycle method of the legacy era: served before the handshake completes, on the handshake's state. */
type LifecycleMethod = (request: JsonRpcRequest, handshake: LegacyHandshake) => Record<string, unknown>;

/**
 * The 2025-11-25 era: `initialize` opens a session (per stdio process or HTTP `Mcp-Session-Id`). Its method table is
 * the lifecycle (`initialize`, `ping`) plus the shared features once `notifications/initialized` arrived (no
 * `server/discover`); results go out unstamped.
 */
export class LegacyCodec implements EraCodec {
  readonly era = 'legacy' as const;
  readonly transport = LEGACY_TRANSPORT_RULES;
  private readonly lifecycle: ReadonlyMap<string, LifecycleMethod>;

  constructor(private readonly options: LegacyCodecOptions) {
    this.lifecycle = new Map<string, LifecycleMethod>([
      ['initialize', (request, handshake) => this.initialize(request, handshake)],
      ['ping', () => ({})],
    ]);
  }

  protocolVersion(_request: JsonRpcRequest, handshake: LegacyHandshake): string | undefined {
    return handshake.protocolVersion;
  }

  decode(request: JsonRpcRequest, handshake: LegacyHandshake): FeatureHandler {
    const lifecycle = this.lifecycle.get(request.method);
    if (lifecycle !== undefined) return async () => ({ body: lifecycle(request, handshake) });
    if (!handshake.started) throw missingEra(request.params);
    if (!handshake.initialized) {
      throw new McpError(
        ERROR_CODES.invalidRequest,
        'notifications/initialized must be sent before other legacy requests',
      );
    }
    const handler = this.options.features.get(request.method);
    if (handler === undefined) throw methodNotFound(request.method);
    return handler;
  }

  encode(result: HandlerResult): Record<string, unknown> {
    return result.body;
  }

  encodeError(error: unknown): McpError | undefined {
    return toMcpError(error, LEGACY_ERROR_CODES);
  }

  private initialize(request: JsonRpcRequest, handshake: LegacyHandshake): Record<string, unknown> {
    if (handshake.started)
      throw new McpError(ERROR_CODES.invalidRequest, 'initialize was already received for this session');
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
}

function missingEra(params: Record<string, unknown> | undefined): McpError {
  const meta = params?._meta;
  const message =
    typeof meta === 'object' && meta !== null
      ? `params._meta["${META.protocolVersion}"] is required`
      : `Missing params._meta["${META.protocolVersion}"]: send ${MODERN_PROTOCOL_VERSION} request metadata, or initialize a legacy session first`;
  return new McpError(ERROR_CODES.invalidParams, message);
}
