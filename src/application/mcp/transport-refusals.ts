import type { ErrorCategory } from '../../domain/error-catalogue.js';
import { ERROR_CODES } from '../../domain/protocol/versions.js';

interface TransportRefusalEntry {
  readonly category: ErrorCategory;
  readonly jsonRpcCode: number;
}

/**
 * What the transports (HTTP and STDIO) refuse before a message reaches the dispatcher. Every refusal is JSON-RPC
 * shaped (one error format for clients); the message says what to fix and is written where the refusal is made.
 * The HTTP statuses are the HTTP adapter's own (adapters/http/http-statuses.ts).
 */
export const TRANSPORT_REFUSALS = Object.freeze({
  /** Bearer token or JWT missing or wrong (bearer-auth). */
  unauthorized: { category: 'denied', jsonRpcCode: ERROR_CODES.invalidRequest },
  /** A browser Origin that is not allowed (origin-guard; 2026-07-28 streamable-http: MUST 403). */
  origin_forbidden: { category: 'denied', jsonRpcCode: ERROR_CODES.invalidRequest },
  /** Body larger than MAX_REQUEST_BYTES (body-limit). */
  request_too_large: { category: 'limit', jsonRpcCode: ERROR_CODES.invalidRequest },
  /** A line larger than the STDIO maximum (stdio-server). */
  line_too_large: { category: 'limit', jsonRpcCode: ERROR_CODES.invalidRequest },
  /** A body the body parser could not read (bad charset or encoding). */
  unreadable_body: { category: 'invalid', jsonRpcCode: ERROR_CODES.invalidRequest },
  /** Body or line that is not JSON. */
  parse_error: { category: 'invalid', jsonRpcCode: ERROR_CODES.parseError },
  /** JSON that is not a JSON-RPC message (batch, missing fields). */
  invalid_message: { category: 'invalid', jsonRpcCode: ERROR_CODES.invalidRequest },
  /** Too many requests from one client in a minute (rate-limit). */
  rate_limited: { category: 'limit', jsonRpcCode: ERROR_CODES.invalidRequest },
  /** A discovery document this server does not publish (well-known-not-found). */
  discovery_not_found: { category: 'not_found', jsonRpcCode: ERROR_CODES.invalidRequest },
  /** An HTTP method /mcp does not serve (405 with `Allow`). */
  method_not_allowed: { category: 'invalid', jsonRpcCode: ERROR_CODES.invalidRequest },
  /**
   * `Accept` does not cover JSON and SSE (mcp-headers): -32020 for modern requests; a legacy message gets its era
   * codec's code instead (legacy-codec.ts, LEGACY_TRANSPORT_RULES).
   */
  not_acceptable: { category: 'invalid', jsonRpcCode: ERROR_CODES.headerMismatch },
  /** Standard MCP headers missing or different from the body (mcp-headers). */
  header_mismatch: { category: 'invalid', jsonRpcCode: ERROR_CODES.headerMismatch },
  /** A legacy message without the `Mcp-Session-Id` it needs. */
  session_id_required: { category: 'invalid', jsonRpcCode: ERROR_CODES.invalidRequest },
  /** `MCP-Protocol-Version` other than what the legacy session negotiated. */
  session_version_mismatch: { category: 'invalid', jsonRpcCode: ERROR_CODES.invalidRequest },
  /** Unknown, ended, evicted or foreign `Mcp-Session-Id` (2025-11-25 transports: 404, the client re-initializes). */
  transport_session_not_found: { category: 'not_found', jsonRpcCode: ERROR_CODES.invalidRequest },
  /** Every legacy session slot is serving a request, so none can make room for an initialize. */
  transport_sessions_busy: { category: 'unavailable', jsonRpcCode: ERROR_CODES.invalidRequest },
  /** An unexpected failure in the transport (error-handler): logged, answered without detail. */
  internal_error: { category: 'internal', jsonRpcCode: ERROR_CODES.internalError },
} as const satisfies Record<string, TransportRefusalEntry>);

export type TransportRefusalCode = keyof typeof TRANSPORT_REFUSALS;

/** The JSON-RPC code of a transport refusal (where an era answers otherwise, its codec's transport rules say so). */
export function refusalJsonRpcCode(code: TransportRefusalCode): number {
  return TRANSPORT_REFUSALS[code].jsonRpcCode;
}
