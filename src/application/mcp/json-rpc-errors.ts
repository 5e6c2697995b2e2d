import { DOMAIN_ERRORS, type DomainErrorCode, type ErrorCategory } from '../../domain/error-catalogue.js';
import { ERROR_CODES, type ProtocolEra } from '../../domain/protocol/versions.js';

/**
 * The JSON-RPC code of a typed error that ends a request outside `tools/call` (resources, prompts, pagination), by
 * protocol era. Every typed error is -32602 (the request cannot be served as given: 2026-07-28 basic/index;
 * server/resources and server/prompts name -32602 for unknown names) except an internal failure (-32603) and one
 * era difference: resource-not-found is -32002 in 2025-11-25 server/resources, which 2026-07-28 MUST NOT emit.
 */
const LEGACY_ONLY: Partial<Record<DomainErrorCode, number>> = Object.freeze({
  resource_not_found: ERROR_CODES.legacyResourceNotFound,
});

function categoryCode(category: ErrorCategory): number {
  return category === 'internal' ? ERROR_CODES.internalError : ERROR_CODES.invalidParams;
}

export function jsonRpcCodeOf(code: DomainErrorCode, era: ProtocolEra): number {
  const legacy = era === 'legacy' ? LEGACY_ONLY[code] : undefined;
  return legacy ?? categoryCode(DOMAIN_ERRORS[code].category);
}
