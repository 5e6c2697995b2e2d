import { DomainError } from '../../domain/errors.js';
import { DOMAIN_ERRORS, type DomainErrorCode, type ErrorCategory } from '../../domain/error-catalogue.js';
import { ERROR_CODES } from '../../domain/protocol/versions.js';
import { toolNextStepOf } from '../tools/tool-next-steps.js';
import { McpError } from './mcp-error.js';

/** An era's JSON-RPC codes for the typed errors whose code in that era is not the one of their category. */
export type EraErrorCodes = Readonly<Partial<Record<DomainErrorCode, number>>>;

/**
 * The JSON-RPC code of a typed error that ends a request outside `tools/call` (resources, prompts, pagination): every
 * typed error is -32602 (the request cannot be served as given: 2026-07-28 basic/index; server/resources and
 * server/prompts name -32602 for unknown names) except an internal failure (-32603) and what the era's codec names
 * in its own table (legacy-codec.ts: resource-not-found is -32002 in 2025-11-25).
 */
export function jsonRpcCodeOf(code: DomainErrorCode, eraCodes: EraErrorCodes): number {
  return eraCodes[code] ?? categoryCode(DOMAIN_ERRORS[code].category);
}

function categoryCode(category: ErrorCategory): number {
  return category === 'internal' ? ERROR_CODES.internalError : ERROR_CODES.invalidParams;
}

/**
 * Typed errors become JSON-RPC errors by their code and the era's table (never by their message). Anything that is
 * not a typed error is an internal failure: the caller logs it, the client sees no detail.
 */
export function toMcpError(error: unknown, eraCodes: EraErrorCodes): McpError | undefined {
  if (error instanceof McpError) return error;
  if (!(error instanceof DomainError)) return undefined;
  const data: Record<string, unknown> = { code: error.code, ...error.details };
  // The client is an MCP client either way: the next step names the tool to call, as in a refused tool result.
  const nextStep = toolNextStepOf(error);
  if (nextStep) data.next_step = nextStep;
  return new McpError(jsonRpcCodeOf(error.code, eraCodes), error.message, data);
}

export function internalError(): McpError {
  return new McpError(ERROR_CODES.internalError, 'Internal error');
}

export function methodNotFound(method: string): McpError {
  return new McpError(ERROR_CODES.methodNotFound, 'Method not found', { method });
}
