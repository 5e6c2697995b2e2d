import type { ProtocolEra } from '../../domain/protocol/versions.js';
import type { LegacyHandshake } from './connection-state.js';
import type { FeatureHandler, HandlerResult } from './feature-handlers.js';
import type { JsonRpcRequest } from './jsonrpc.js';
import type { McpError } from './mcp-error.js';

/**
 * What a transport must enforce differently per era before a message reaches the dispatcher. The HTTP header guard
 * reads these from the era's codec instead of switching on the era itself.
 */
export interface EraTransportRules {
  /** JSON-RPC code of a refusal for an `Accept` header that does not cover JSON and SSE. */
  readonly notAcceptableCode: number;
  /**
   * 2026-07-28 streamable-http "Standard headers": `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` mirror the
   * body and are checked against it. Legacy sessions have no such rule.
   */
  readonly mirrorsStandardHeaders: boolean;
  /**
   * 2026-07-28 basic/index: every request stands alone (no handshake, no transport session; an `Mcp-Session-Id`
   * sent along is ignored). Legacy messages belong to the session `initialize` opened (2025-11-25 transports).
   */
  readonly stateless: boolean;
}

/**
 * One protocol era on the wire (the SDK keeps one codec per protocol revision). The dispatcher is decode → handle →
 * encode with the era's codec; everything that differs by era lives in one codec:
 * - `decode`: the era's method table and admission rules (modern `_meta`; the legacy handshake), giving the handler;
 * - `encode`: result stamping (modern: `resultType`, serverInfo, cache hints; legacy: the body as it is);
 * - `encodeError`: typed errors to JSON-RPC errors with the era's codes;
 * - `transport`: the transport rules that differ by era.
 */
export interface EraCodec {
  readonly era: ProtocolEra;
  readonly transport: EraTransportRules;
  /** Admits the request in this era and returns its handler; throws an `McpError` the client should see. */
  decode(request: JsonRpcRequest, handshake: LegacyHandshake): FeatureHandler;
  /** The request's protocol revision (a legacy session's negotiated one), when known: what content a result may carry. */
  protocolVersion(request: JsonRpcRequest, handshake: LegacyHandshake): string | undefined;
  encode(result: HandlerResult): Record<string, unknown>;
  /** The JSON-RPC error of a typed failure, or `undefined` for an unexpected one (an internal error). */
  encodeError(error: unknown): McpError | undefined;
}
