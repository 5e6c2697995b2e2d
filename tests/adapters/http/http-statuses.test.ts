import { httpStatusOfJsonRpcError, REFUSAL_STATUS } from '../../../src/adapters/http/http-statuses';
import { ERROR_CODES } from '../../../src/domain/protocol/versions';

describe('HTTP statuses', () => {
  it('maps JSON-RPC errors outside a legacy session to the streamable-http statuses', () => {
    expect(httpStatusOfJsonRpcError(ERROR_CODES.methodNotFound)).toBe(404);
    expect(httpStatusOfJsonRpcError(ERROR_CODES.internalError)).toBe(500);
    expect(httpStatusOfJsonRpcError(ERROR_CODES.invalidParams)).toBe(400);
    expect(httpStatusOfJsonRpcError(ERROR_CODES.unsupportedProtocolVersion)).toBe(400);
    expect(httpStatusOfJsonRpcError(-1)).toBe(400);
  });

  it('gives transport refusals their status', () => {
    expect(REFUSAL_STATUS.not_acceptable).toBe(406);
    expect(REFUSAL_STATUS.rate_limited).toBe(429);
    expect(REFUSAL_STATUS.unauthorized).toBe(401);
    expect(REFUSAL_STATUS.origin_forbidden).toBe(403);
  });
});
