import { DomainError } from '../../domain/errors.js';
import { ERROR_CODES, type ProtocolEra } from '../../domain/protocol/versions.js';
import { jsonRpcCodeOf } from './json-rpc-errors.js';
import { McpError } from './mcp-error.js';

/**
 * The one place where typed errors become JSON-RPC errors, by their code and the request's era (json-rpc-errors.ts;
 * never by their message).
 * Anything that is not a typed error is an internal failure: the caller logs it, the client sees no detail.
 */
export function toMcpError(error: unknown, era: ProtocolEra): McpError | undefined {
  if (error instanceof McpError) return error;
  if (!(error instanceof DomainError)) return undefined;
  const data: Record<string, unknown> = { code: error.code, ...error.details };
  if (error.nextStep) data.next_step = error.nextStep;
  return new McpError(jsonRpcCodeOf(error.code, era), error.message, data);
}

export function internalError(): McpError {
  return new McpError(ERROR_CODES.internalError, 'Internal error');
}
