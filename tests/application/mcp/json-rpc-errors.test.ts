import { ERA_TRANSPORT_RULES } from '../../../src/application/mcp/era-transport-rules';
import { jsonRpcCodeOf, toMcpError } from '../../../src/application/mcp/json-rpc-errors';
import { LEGACY_ERROR_CODES } from '../../../src/application/mcp/legacy-codec';
import { MODERN_ERROR_CODES } from '../../../src/application/mcp/modern-codec';
import { refusalJsonRpcCode, TRANSPORT_REFUSALS } from '../../../src/application/mcp/transport-refusals';
import { refusalOf } from '../../../src/application/tools/tool-refusal';
import { SessionEvicted } from '../../../src/domain/execution/execution-errors';
import { DOMAIN_ERRORS, type DomainErrorCode } from '../../../src/domain/error-catalogue';
import { ERROR_CODES } from '../../../src/domain/protocol/versions';

describe("JSON-RPC codes of typed errors, by era (each era codec's table)", () => {
  it('answers resource-not-found with -32602 to modern requests and -32002 in legacy sessions', () => {
    expect(jsonRpcCodeOf('resource_not_found', MODERN_ERROR_CODES)).toBe(ERROR_CODES.invalidParams);
    expect(jsonRpcCodeOf('resource_not_found', LEGACY_ERROR_CODES)).toBe(ERROR_CODES.legacyResourceNotFound);
  });

  it('answers every other typed error with -32602 in both eras', () => {
    const codes = (Object.keys(DOMAIN_ERRORS) as DomainErrorCode[]).filter((code) => code !== 'resource_not_found');
    for (const code of codes) {
      expect({
        code,
        modern: jsonRpcCodeOf(code, MODERN_ERROR_CODES),
        legacy: jsonRpcCodeOf(code, LEGACY_ERROR_CODES),
      }).toEqual({
        code,
        modern: ERROR_CODES.invalidParams,
        legacy: ERROR_CODES.invalidParams,
      });
    }
  });
});

describe('the data of a typed error', () => {
  it("carries the next step a refused tool result shows (the tool layer's, naming the tool)", () => {
    const error = new SessionEvicted('s1');
    const expected = 'Start a new session with terminal_plan (omit session_id) and use the session_id it returns.';
    expect(refusalOf(error).next_step).toBe(expected);
    expect(toMcpError(error, LEGACY_ERROR_CODES)?.toJsonRpc()).toEqual({
      code: ERROR_CODES.invalidParams,
      message: error.message,
      data: { code: 'session_evicted', sessionId: 's1', reason: 'evicted', next_step: expected },
    });
  });
});

describe('transport refusals', () => {
  it("answer a wrong Accept with the era codec's code: -32020 for modern messages, -32600 for legacy ones (which lack -32020)", () => {
    expect(ERA_TRANSPORT_RULES.modern.notAcceptableCode).toBe(ERROR_CODES.headerMismatch);
    expect(ERA_TRANSPORT_RULES.legacy.notAcceptableCode).toBe(ERROR_CODES.invalidRequest);
  });

  it('mirror the standard headers in the modern era only', () => {
    expect(ERA_TRANSPORT_RULES.modern.mirrorsStandardHeaders).toBe(true);
    expect(ERA_TRANSPORT_RULES.legacy.mirrorsStandardHeaders).toBe(false);
  });

  it('serve modern messages statelessly and legacy ones in their transport session', () => {
    expect(ERA_TRANSPORT_RULES.modern.stateless).toBe(true);
    expect(ERA_TRANSPORT_RULES.legacy.stateless).toBe(false);
  });

  it('have one JSON-RPC code each, whatever the era', () => {
    expect(refusalJsonRpcCode('header_mismatch')).toBe(ERROR_CODES.headerMismatch);
    expect(refusalJsonRpcCode('parse_error')).toBe(ERROR_CODES.parseError);
    expect(refusalJsonRpcCode('internal_error')).toBe(ERROR_CODES.internalError);
    expect(Object.keys(TRANSPORT_REFUSALS)).toContain('unauthorized');
  });
});
