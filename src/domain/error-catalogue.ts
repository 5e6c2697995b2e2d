import { ERROR_CODES } from './protocol/versions.js';

/**
 * The error catalogue: every error code this server can answer with, its category, and its wire forms, in one
 * module (as fastify keeps every framework error in lib/errors.js). Translators at the edges (the JSON-RPC
 * translator, the tool refusal builder, the web routes, the HTTP transport) look codes up here; none of them
 * decides anything from message text. The typed errors (`DomainError` subclasses) carry a code of this catalogue,
 * which the compiler checks.
 *
 * Three groups:
 * - `DOMAIN_ERRORS`: typed errors of the use cases (and the tool catalog's own `invalid_arguments`). On MCP they
 *   become a tool result with `isError: true`, or a JSON-RPC error outside `tools/call`; on the web routes a JSON
 *   `{error, message}` body with a status.
 * - `PROTOCOL_ERRORS`: JSON-RPC errors of the protocol itself, and the HTTP status each gets outside a legacy session.
 * - `TRANSPORT_REFUSALS`: what the HTTP and STDIO transports refuse before a message reaches the dispatcher.
 */

/** What kind of failure it is: what a client or a person can do about it follows from this, not from the words. */
export type ErrorCategory =
  /** The request is malformed or out of range: fix it and send it again. */
  | 'invalid'
  /** The thing named does not exist (never did, or is forgotten). */
  | 'not_found'
  /** The thing existed and ended (timed out, evicted, finished). */
  | 'expired'
  /** The thing is in a state that does not allow this now. */
  | 'conflict'
  /** A rule (the policy, an approval, a credential, an origin) refuses it. */
  | 'denied'
  /** A quota or a size limit is reached. */
  | 'limit'
  /** A service this needs is not there (sandbox, model provider). */
  | 'unavailable'
  /** The server failed; the client sees no detail. */
  | 'internal';

/** Wire forms every code of a category gets unless its entry says otherwise. */
interface CategoryWire {
  /** Status of the JSON web routes (`{error, message}` bodies). */
  readonly httpStatus: number;
  /** JSON-RPC error code when a typed error ends a request outside `tools/call` (resources, prompts, pagination). */
  readonly jsonRpcCode: number;
}

/**
 * Typed errors are -32602 on JSON-RPC whatever their category: the request cannot be served as given (2026-07-28
 * basic/index; server/resources and server/prompts name -32602 for unknown names). The web routes keep the seed's
 * statuses: 400 for a bad request, 404 for a session or object that is gone, 409 for every refusal of a state or a
 * rule (the seed answered 409 there, and clients of the web routes switch on the `error` code, not the status).
 */
export const CATEGORY_WIRE: Readonly<Record<ErrorCategory, CategoryWire>> = Object.freeze({
  invalid: { httpStatus: 400, jsonRpcCode: ERROR_CODES.invalidParams },
  not_found: { httpStatus: 404, jsonRpcCode: ERROR_CODES.invalidParams },
  // An ended session is gone like an unknown one; its own code says why.
  expired: { httpStatus: 404, jsonRpcCode: ERROR_CODES.invalidParams },
  conflict: { httpStatus: 409, jsonRpcCode: ERROR_CODES.invalidParams },
  denied: { httpStatus: 409, jsonRpcCode: ERROR_CODES.invalidParams },
  limit: { httpStatus: 409, jsonRpcCode: ERROR_CODES.invalidParams },
  unavailable: { httpStatus: 503, jsonRpcCode: ERROR_CODES.invalidParams },
  internal: { httpStatus: 500, jsonRpcCode: ERROR_CODES.internalError },
});

interface DomainErrorEntry {
  readonly category: ErrorCategory;
  /** Web route status when it differs from the category's. */
  readonly httpStatus?: number;
  /** The web routes' `error` code when the seed named it differently (`unknown_session` for `session_not_found`). */
  readonly webCode?: string;
  /** JSON-RPC code in a 2025-11-25 (legacy) session when it differs from the modern one. */
  readonly legacyJsonRpcCode?: number;
  /** The tool result's `next_step` when the error itself names none. */
  readonly nextStep?: string;
}

/** Every typed error code. A `DomainError` subclass whose code is missing here does not compile. */
export const DOMAIN_ERRORS = Object.freeze({
  // src/domain/errors.ts
  invalid_argument: { category: 'invalid', webCode: 'invalid_request' },
  invalid_cursor: { category: 'invalid' },
  configuration_error: { category: 'invalid' },
  // src/domain/chat/chat-errors.ts
  chat_not_configured: { category: 'unavailable' },
  chat_provider_error: { category: 'unavailable', httpStatus: 502, webCode: 'chat_unavailable' },
  // src/domain/execution/execution-errors.ts
  session_not_found: { category: 'not_found', webCode: 'unknown_session' },
  session_expired: { category: 'expired' },
  session_evicted: { category: 'expired' },
  session_limit_reached: { category: 'limit' },
  process_limit_reached: { category: 'limit' },
  command_not_found: { category: 'not_found' },
  command_not_running: { category: 'conflict' },
  input_closed: { category: 'conflict' },
  output_range_invalid: { category: 'invalid' },
  sandbox_unavailable: { category: 'unavailable' },
  sandbox_setup_failed: { category: 'conflict' },
  // src/domain/policy/policy-errors.ts
  policy_file_invalid: { category: 'invalid' },
  shell_syntax_error: { category: 'invalid' },
  // src/domain/prompts/prompt-errors.ts (2026-07-28 server/prompts: an unknown name is -32602)
  unknown_prompt: { category: 'not_found' },
  // src/domain/terminal/receipt-errors.ts
  receipt_not_redactable: { category: 'invalid' },
  // src/domain/terminal/terminal-errors.ts
  plan_not_found: { category: 'not_found' },
  plan_blocked: { category: 'denied' },
  policy_denied: { category: 'denied' },
  invalid_plan_transition: { category: 'conflict' },
  approval_required: { category: 'denied' },
  plan_running: { category: 'conflict' },
  policy_changed: { category: 'conflict' },
  cwd_changed: { category: 'conflict' },
  operator_approval_required: { category: 'denied' },
  // The plan is still there and can be retried: a conflict with its state on the web routes, as it always was.
  approval_expired: { category: 'expired', httpStatus: 409 },
  approval_not_found: { category: 'not_found' },
  approval_mismatch: { category: 'denied' },
  no_command: { category: 'conflict' },
  plan_not_started: { category: 'conflict' },
  // src/domain/workspace/workspace-errors.ts (2026-07-28 server/resources: -32602; 2025-11-25: -32002)
  resource_not_found: { category: 'not_found', legacyJsonRpcCode: ERROR_CODES.legacyResourceNotFound },
  workspace_file_not_found: { category: 'not_found' },
  path_outside_workspace: { category: 'denied' },
  file_not_readable: { category: 'invalid' },
  resource_not_text: { category: 'invalid' },
  resource_too_large: { category: 'limit' },
  unsupported_resource_uri: { category: 'invalid' },
  // src/application/tools: an unknown tool is a protocol error (-32602); bad arguments are a tool result (SEP-1303).
  unknown_tool: { category: 'not_found' },
  invalid_arguments: { category: 'invalid', nextStep: 'Fix the arguments to match the tool inputSchema and call again.' },
} as const satisfies Record<string, DomainErrorEntry>);

export type DomainErrorCode = keyof typeof DOMAIN_ERRORS;

/** Every wire form of one typed error code, resolved from its entry and its category. */
export interface DomainErrorWire {
  readonly code: DomainErrorCode;
  readonly category: ErrorCategory;
  readonly web: { readonly status: number; readonly error: string };
  readonly jsonRpc: { readonly modern: number; readonly legacy: number };
  readonly nextStep: string | undefined;
}

export function domainErrorWire(code: DomainErrorCode): DomainErrorWire {
  const entry: DomainErrorEntry = DOMAIN_ERRORS[code];
  const defaults = CATEGORY_WIRE[entry.category];
  return {
    code,
    category: entry.category,
    web: { status: entry.httpStatus ?? defaults.httpStatus, error: entry.webCode ?? code },
    jsonRpc: { modern: defaults.jsonRpcCode, legacy: entry.legacyJsonRpcCode ?? defaults.jsonRpcCode },
    nextStep: entry.nextStep,
  };
}

export function isDomainErrorCode(code: string): code is DomainErrorCode {
  return Object.hasOwn(DOMAIN_ERRORS, code);
}

interface ProtocolErrorEntry {
  readonly category: ErrorCategory;
  readonly jsonRpcCode: number;
  /** HTTP status outside a legacy session (2026-07-28 streamable-http "Status codes"); inside one, every answer is 200. */
  readonly httpStatus: number;
}

/** JSON-RPC errors of the protocol itself (2026-07-28 basic/index "Error codes"). */
export const PROTOCOL_ERRORS = Object.freeze({
  parse_error: { category: 'invalid', jsonRpcCode: ERROR_CODES.parseError, httpStatus: 400 },
  invalid_request: { category: 'invalid', jsonRpcCode: ERROR_CODES.invalidRequest, httpStatus: 400 },
  method_not_found: { category: 'not_found', jsonRpcCode: ERROR_CODES.methodNotFound, httpStatus: 404 },
  invalid_params: { category: 'invalid', jsonRpcCode: ERROR_CODES.invalidParams, httpStatus: 400 },
  internal_error: { category: 'internal', jsonRpcCode: ERROR_CODES.internalError, httpStatus: 500 },
  legacy_resource_not_found: { category: 'not_found', jsonRpcCode: ERROR_CODES.legacyResourceNotFound, httpStatus: 400 },
  header_mismatch: { category: 'invalid', jsonRpcCode: ERROR_CODES.headerMismatch, httpStatus: 400 },
  missing_client_capability: { category: 'invalid', jsonRpcCode: ERROR_CODES.missingRequiredClientCapability, httpStatus: 400 },
  unsupported_protocol_version: { category: 'invalid', jsonRpcCode: ERROR_CODES.unsupportedProtocolVersion, httpStatus: 400 },
} as const satisfies Record<string, ProtocolErrorEntry>);

/** The HTTP status of a JSON-RPC error answered outside a legacy session; an unknown code is a bad request. */
export function httpStatusOfJsonRpcError(jsonRpcCode: number): number {
  const entry = Object.values(PROTOCOL_ERRORS).find((candidate) => candidate.jsonRpcCode === jsonRpcCode);
  return entry?.httpStatus ?? 400;
}

interface TransportRefusalEntry {
  readonly category: ErrorCategory;
  readonly httpStatus: number;
  readonly jsonRpcCode: number;
  /** JSON-RPC code for a legacy (2025-11-25) message, whose protocol lacks the modern code. */
  readonly legacyJsonRpcCode?: number;
}

/**
 * What the transports refuse before dispatch. Every refusal is JSON-RPC shaped (one error format for clients);
 * the message says what to fix and is written where the refusal is made.
 */
export const TRANSPORT_REFUSALS = Object.freeze({
  /** Bearer token or JWT missing or wrong (bearer-auth). */
  unauthorized: { category: 'denied', httpStatus: 401, jsonRpcCode: ERROR_CODES.invalidRequest },
  /** A browser Origin that is not allowed (origin-guard; 2026-07-28 streamable-http: MUST 403). */
  origin_forbidden: { category: 'denied', httpStatus: 403, jsonRpcCode: ERROR_CODES.invalidRequest },
  /** Body larger than MAX_REQUEST_BYTES (body-limit). */
  request_too_large: { category: 'limit', httpStatus: 413, jsonRpcCode: ERROR_CODES.invalidRequest },
  /** A line larger than the STDIO maximum (stdio-server; STDIO has no status). */
  line_too_large: { category: 'limit', httpStatus: 413, jsonRpcCode: ERROR_CODES.invalidRequest },
  /** A body the body parser could not read (bad charset or encoding); body-parser's own 4xx status is kept. */
  unreadable_body: { category: 'invalid', httpStatus: 400, jsonRpcCode: ERROR_CODES.invalidRequest },
  /** Body or line that is not JSON. */
  parse_error: { category: 'invalid', httpStatus: 400, jsonRpcCode: ERROR_CODES.parseError },
  /** JSON that is not a JSON-RPC message (batch, missing fields). */
  invalid_message: { category: 'invalid', httpStatus: 400, jsonRpcCode: ERROR_CODES.invalidRequest },
  /** Too many requests from one client in a minute (rate-limit). */
  rate_limited: { category: 'limit', httpStatus: 429, jsonRpcCode: ERROR_CODES.invalidRequest },
  /** A discovery document this server does not publish (well-known-not-found). */
  discovery_not_found: { category: 'not_found', httpStatus: 404, jsonRpcCode: ERROR_CODES.invalidRequest },
  /** An HTTP method /mcp does not serve (405 with `Allow`). */
  method_not_allowed: { category: 'invalid', httpStatus: 405, jsonRpcCode: ERROR_CODES.invalidRequest },
  /** `Accept` does not cover JSON and SSE (mcp-headers): -32020 for modern requests, -32600 for legacy ones. */
  not_acceptable: { category: 'invalid', httpStatus: 406, jsonRpcCode: ERROR_CODES.headerMismatch, legacyJsonRpcCode: ERROR_CODES.invalidRequest },
  /** Standard MCP headers missing or different from the body (mcp-headers). */
  header_mismatch: { category: 'invalid', httpStatus: 400, jsonRpcCode: ERROR_CODES.headerMismatch },
  /** A legacy message without the `Mcp-Session-Id` it needs. */
  session_id_required: { category: 'invalid', httpStatus: 400, jsonRpcCode: ERROR_CODES.invalidRequest },
  /** `MCP-Protocol-Version` other than what the legacy session negotiated. */
  session_version_mismatch: { category: 'invalid', httpStatus: 400, jsonRpcCode: ERROR_CODES.invalidRequest },
  /** Unknown, ended, evicted or foreign `Mcp-Session-Id` (2025-11-25 transports: 404, the client re-initializes). */
  transport_session_not_found: { category: 'not_found', httpStatus: 404, jsonRpcCode: ERROR_CODES.invalidRequest },
  /** Every legacy session slot is serving a request, so none can make room for an initialize. */
  transport_sessions_busy: { category: 'unavailable', httpStatus: 503, jsonRpcCode: ERROR_CODES.invalidRequest },
  /** An unexpected failure in the HTTP chain (error-handler): logged, answered without detail. */
  internal_error: { category: 'internal', httpStatus: 500, jsonRpcCode: ERROR_CODES.internalError },
} as const satisfies Record<string, TransportRefusalEntry>);

export type TransportRefusalCode = keyof typeof TRANSPORT_REFUSALS;

/** The status and JSON-RPC code of a transport refusal, for a modern message or a legacy one. */
export function transportRefusalWire(code: TransportRefusalCode, era: 'modern' | 'legacy' = 'modern'): { status: number; jsonRpcCode: number } {
  const entry: TransportRefusalEntry = TRANSPORT_REFUSALS[code];
  return { status: entry.httpStatus, jsonRpcCode: era === 'legacy' ? (entry.legacyJsonRpcCode ?? entry.jsonRpcCode) : entry.jsonRpcCode };
}
