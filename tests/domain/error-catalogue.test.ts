import fs from 'node:fs';
import path from 'node:path';
import { ChatNotConfigured, ChatProviderError } from '../../src/domain/chat/chat-errors';
import {
  CATEGORY_WIRE,
  DOMAIN_ERRORS,
  domainErrorWire,
  httpStatusOfJsonRpcError,
  isDomainErrorCode,
  TRANSPORT_REFUSALS,
  transportRefusalWire,
} from '../../src/domain/error-catalogue';
import { DomainError, InvalidArgument, InvalidCursor } from '../../src/domain/errors';
import { SandboxUnavailable, SessionEvicted, SessionExpired, SessionNotFound } from '../../src/domain/execution/execution-errors';
import { ApprovalExpired, PlanBlocked, PolicyDenied } from '../../src/domain/terminal/terminal-errors';
import { ResourceNotFound } from '../../src/domain/workspace/workspace-errors';
import { ERROR_CODES } from '../../src/domain/protocol/versions';

describe('error catalogue', () => {
  it('gives every typed error its category from its code', () => {
    expect(new InvalidArgument('x').category).toBe('invalid');
    expect(new SessionNotFound('s').category).toBe('not_found');
    expect(new SessionExpired('s', 'idle_timeout').category).toBe('expired');
    expect(new PolicyDenied('p', 's', ['r']).category).toBe('denied');
    expect(new SandboxUnavailable('no bwrap', 'install it').category).toBe('unavailable');
  });

  it('keeps the web routes’ seed statuses and codes', () => {
    const web = (error: DomainError) => domainErrorWire(error.code).web;
    expect(web(new InvalidArgument('x'))).toEqual({ status: 400, error: 'invalid_request' });
    expect(web(new SessionNotFound('s'))).toEqual({ status: 404, error: 'unknown_session' });
    expect(web(new SessionExpired('s', 'one_shot_finished'))).toEqual({ status: 404, error: 'session_expired' });
    expect(web(new SessionEvicted('s'))).toEqual({ status: 404, error: 'session_evicted' });
    expect(web(new ChatNotConfigured())).toEqual({ status: 503, error: 'chat_not_configured' });
    expect(web(new ChatProviderError('timeout'))).toEqual({ status: 502, error: 'chat_unavailable' });
    expect(web(new PlanBlocked('p', 'approved', []))).toEqual({ status: 409, error: 'plan_blocked' });
    expect(web(new ApprovalExpired('a', 'p', '2026-01-01T00:00:00Z'))).toEqual({ status: 409, error: 'approval_expired' });
  });

  it('answers resource-not-found with -32602 to modern requests and -32002 in legacy sessions, other errors -32602', () => {
    expect(domainErrorWire(new ResourceNotFound('workspace:///x').code).jsonRpc).toEqual({
      modern: ERROR_CODES.invalidParams,
      legacy: ERROR_CODES.legacyResourceNotFound,
    });
    expect(domainErrorWire(new InvalidCursor().code).jsonRpc).toEqual({ modern: ERROR_CODES.invalidParams, legacy: ERROR_CODES.invalidParams });
  });

  it('gives the tool catalog’s invalid_arguments its default next step, and typed errors none of their own', () => {
    expect(domainErrorWire('invalid_arguments').nextStep).toBe('Fix the arguments to match the tool inputSchema and call again.');
    expect(domainErrorWire('shell_syntax_error').nextStep).toBeUndefined();
  });

  it('lists every code with a category that has wire defaults', () => {
    for (const [code, entry] of Object.entries(DOMAIN_ERRORS)) {
      expect({ code, known: entry.category in CATEGORY_WIRE }).toEqual({ code, known: true });
    }
    expect(isDomainErrorCode('policy_denied')).toBe(true);
    expect(isDomainErrorCode('toString')).toBe(false);
  });

  it('maps JSON-RPC errors outside a legacy session to the streamable-http statuses', () => {
    expect(httpStatusOfJsonRpcError(ERROR_CODES.methodNotFound)).toBe(404);
    expect(httpStatusOfJsonRpcError(ERROR_CODES.internalError)).toBe(500);
    expect(httpStatusOfJsonRpcError(ERROR_CODES.invalidParams)).toBe(400);
    expect(httpStatusOfJsonRpcError(ERROR_CODES.unsupportedProtocolVersion)).toBe(400);
    expect(httpStatusOfJsonRpcError(-1)).toBe(400);
  });

  it('gives transport refusals their status, and the legacy JSON-RPC code where the legacy protocol lacks the modern one', () => {
    expect(transportRefusalWire('not_acceptable', 'modern')).toEqual({ status: 406, jsonRpcCode: ERROR_CODES.headerMismatch });
    expect(transportRefusalWire('not_acceptable', 'legacy')).toEqual({ status: 406, jsonRpcCode: ERROR_CODES.invalidRequest });
    expect(transportRefusalWire('rate_limited')).toEqual({ status: 429, jsonRpcCode: ERROR_CODES.invalidRequest });
    expect(Object.keys(TRANSPORT_REFUSALS)).toContain('unauthorized');
  });

  it('knows every refusal code docs/tools.md documents', () => {
    const docs = fs.readFileSync(path.resolve(__dirname, '../../docs/tools.md'), 'utf8');
    const start = docs.indexOf('| code | message | when |');
    const table = docs.slice(start, docs.indexOf('\n\n', start));
    const rows = table.split('\n').slice(2);
    const documented = rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([a-z_]+)`/g)].map((match) => match[1] as string));
    expect(documented.length).toBeGreaterThan(20);
    expect(documented.filter((code) => !isDomainErrorCode(code))).toEqual([]);
  });
});
