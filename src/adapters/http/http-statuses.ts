import type { TransportRefusalCode } from '../../application/mcp/transport-refusals.js';
import { ERROR_CODES } from '../../domain/protocol/versions.js';

/** The HTTP status of each transport refusal (every code has one: the compiler checks the table is complete). */
export const REFUSAL_STATUS: Readonly<Record<TransportRefusalCode, number>> = Object.freeze({
  unauthorized: 401,
  origin_forbidden: 403,
  request_too_large: 413,
  line_too_large: 413,
  // body-parser's own 4xx status is kept where it gives one (body-limit.ts).
  unreadable_body: 400,
  parse_error: 400,
  invalid_message: 400,
  rate_limited: 429,
  discovery_not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  header_mismatch: 400,
  session_id_required: 400,
  session_version_mismatch: 400,
  transport_session_not_found: 404,
  transport_sessions_busy: 503,
  internal_error: 500,
});

/**
 * The HTTP status of a JSON-RPC error answered outside a legacy session (2026-07-28 streamable-http "Status codes";
 * inside one, every answer is 200): an unknown method is 404, an internal failure 500, anything else a bad request.
 */
export function httpStatusOfJsonRpcError(jsonRpcCode: number): number {
  if (jsonRpcCode === ERROR_CODES.methodNotFound) return 404;
  if (jsonRpcCode === ERROR_CODES.internalError) return 500;
  return 400;
}
