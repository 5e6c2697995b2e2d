/**
 * Protocol constants, declared once (2026-07-28 basic/versioning, 2025-11-25 basic/lifecycle).
 * Handlers import these; no version string or error code is written anywhere else.
 */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

/** Modern (stateless, per-request `_meta`) versions this server serves. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([MODERN_PROTOCOL_VERSION]);
/** Legacy (`initialize` handshake) versions this server echoes when a client asks for them. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  LEGACY_PROTOCOL_VERSION,
  '2025-06-18',
  '2025-03-26',
]);
/** Every version, newest first: what `server/discover` and -32022 errors list. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  ...MODERN_PROTOCOL_VERSIONS,
  ...LEGACY_PROTOCOL_VERSIONS,
]);

/** `_meta` keys of 2026-07-28 basic/index ("Per-request metadata"). */
export const META = Object.freeze({
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
});

/** JSON-RPC and MCP error codes (2026-07-28 basic/index "Error codes"; -32002 only in legacy sessions). */
export const ERROR_CODES = Object.freeze({
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** 2025-11-25 resources: resource not found. Never emitted to a modern request. */
  legacyResourceNotFound: -32002,
  headerMismatch: -32020,
  missingRequiredClientCapability: -32021,
  unsupportedProtocolVersion: -32022,
});

export type ProtocolEra = 'modern' | 'legacy';
