import { jsonRpcCodeOf } from '../../../src/application/mcp/json-rpc-errors';
import { refusalJsonRpcCode, TRANSPORT_REFUSALS } from '../../../src/application/mcp/transport-refusals';
import { DOMAIN_ERRORS, type DomainErrorCode } from '../../../src/domain/error-catalogue';
import { ERROR_CODES } from '../../../src/domain/protocol/versions';

describe('JSON-RPC codes of typed errors, by era', () => {
  it('answers resource-not-found with -32602 to modern requests and -32002 in legacy sessions', () => {
    expect(jsonRpcCodeOf('resource_not_found', 'modern')).toBe(ERROR_CODES.invalidParams);
    expect(jsonRpcCodeOf('resource_not_found', 'legacy')).toBe(ERROR_CODES.legacyResourceNotFound);
  });

  it('answers every other typed error with -32602 in both eras', () => {
    const codes = (Object.keys(DOMAIN_ERRORS) as DomainErrorCode[]).filter((code) => code !== 'resource_not_found');
    for (const code of codes) {
      expect({ code, modern: jsonRpcCodeOf(code, 'modern'), legacy: jsonRpcCodeOf(code, 'legacy') }).toEqual({
        code,
        modern: ERROR_CODES.invalidParams,
        legacy: ERROR_CODES.invalidParams,
      });
    }
  });
});

describe('transport refusals', () => {
  it('give the legacy JSON-RPC code where the legacy protocol lacks the modern one', () => {
    expect(refusalJsonRpcCode('not_acceptable', 'modern')).toBe(ERROR_CODES.headerMismatch);
    expect(refusalJsonRpcCode('not_acceptable', 'legacy')).toBe(ERROR_CODES.invalidRequest);
    expect(refusalJsonRpcCode('parse_error')).toBe(ERROR_CODES.parseError);
    expect(refusalJsonRpcCode('internal_error')).toBe(ERROR_CODES.internalError);
    expect(Object.keys(TRANSPORT_REFUSALS)).toContain('unauthorized');
  });
});
