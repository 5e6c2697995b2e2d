import { DomainError } from '../../domain/errors.js';
import { domainErrorWire } from '../../domain/error-catalogue.js';
import { ERROR_CODES, type ProtocolEra } from '../../domain/protocol/versions.js';
import { McpError } from './mcp-error.js';

/**
 * The one place where typed errors become JSON-RPC errors, by the error catalogue's wire forms of their code (never
 * by their message). The catalogue holds the era-dependent case: resource-not-found is -32602 in 2026-07-28
 * server/resources (which MUST NOT emit -32002) and -32002 in 2025-11-25.
 * Anything that is not a typed error is an internal failure: the caller logs it, the client sees no detail.
 */
export function toMcpError(error: unknown, era: ProtocolEra): McpError | undefined {
  if (error instanceof McpError) return error;
  if (!(error instanceof DomainError)) return undefined;
  const wire = domainErrorWire(error.code);
  const data: Record<string, unknown> = { code: error.code, ...error.details };
  const nextStep = error.nextStep ?? wire.nextStep;
  if (nextStep) data.next_step = nextStep;
  return new McpError(era === 'legacy' ? wire.jsonRpc.legacy : wire.jsonRpc.modern, error.message, data);
}

export function internalError(): McpError {
  return new McpError(ERROR_CODES.internalError, 'Internal error');
}
