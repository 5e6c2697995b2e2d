import { DomainError } from '../../domain/errors.js';
import { ERROR_CODES, type ProtocolEra } from '../../domain/protocol/versions.js';
import { McpError } from './mcp-error.js';

/**
 * The one place where typed errors become JSON-RPC errors. Resource-not-found is era-dependent:
 * 2026-07-28 server/resources says -32602 (and MUST NOT emit -32002); 2025-11-25 uses -32002.
 * Anything that is not a typed error is an internal failure: the caller logs it, the client sees no detail.
 */
export function toMcpError(error: unknown, era: ProtocolEra): McpError | undefined {
  if (error instanceof McpError) return error;
  if (!(error instanceof DomainError)) return undefined;
  const data: Record<string, unknown> = { code: error.code, ...error.details };
  if (error.nextStep) data.next_step = error.nextStep;
  if (error.code === 'resource_not_found' && era === 'legacy') {
    return new McpError(ERROR_CODES.legacyResourceNotFound, error.message, data);
  }
  return new McpError(ERROR_CODES.invalidParams, error.message, data);
}

export function internalError(): McpError {
  return new McpError(ERROR_CODES.internalError, 'Internal error');
}
