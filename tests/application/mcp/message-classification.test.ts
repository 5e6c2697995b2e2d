import { carriesName, classifyMessage } from '../../../src/application/mcp/message-classification';
import { META } from '../../../src/domain/protocol/versions';

const MODERN_META = { [META.protocolVersion]: '2026-07-28', [META.clientCapabilities]: {} };

describe('classifyMessage', () => {
  it('reads a modern request once: kind, era, method, the name Mcp-Name mirrors, id and version', () => {
    const message = classifyMessage({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'terminal_plan', _meta: MODERN_META },
    });
    expect(message).toMatchObject({
      kind: 'request',
      era: 'modern',
      method: 'tools/call',
      name: 'terminal_plan',
      id: 3,
      isRequest: true,
      protocolVersion: '2026-07-28',
    });
  });

  it('takes the name from params.uri for resources/read and from params.name for prompts/get, and only strings', () => {
    expect(
      classifyMessage({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'workspace:///a' } }),
    ).toMatchObject({ name: 'workspace:///a', era: 'legacy' });
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'plan' } })).toMatchObject({
      name: 'plan',
    });
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 42 } })).toMatchObject({
      name: undefined,
    });
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { name: 'x' } })).toMatchObject({
      name: undefined,
    });
    expect([
      carriesName('tools/call'),
      carriesName('resources/read'),
      carriesName('prompts/get'),
      carriesName('tools/list'),
    ]).toEqual([true, true, true, false]);
  });

  it('classifies notifications (no id) and client responses', () => {
    expect(classifyMessage({ jsonrpc: '2.0', method: 'notifications/initialized' })).toMatchObject({
      kind: 'notification',
      id: null,
      isRequest: false,
      era: 'legacy',
    });
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, result: {} })).toEqual({ kind: 'response' });
    expect(classifyMessage({ jsonrpc: '2.0', id: null, error: { code: 1, message: 'x' } })).toEqual({
      kind: 'response',
    });
  });

  it('keeps the facts of an invalid message that still names a method, so transport rules apply before validity', () => {
    const message = classifyMessage({ jsonrpc: '1.0', id: 'a', method: 'tools/list', params: { _meta: MODERN_META } });
    expect(message).toMatchObject({
      kind: 'invalid',
      id: 'a',
      facts: { era: 'modern', method: 'tools/list', id: 'a', isRequest: true },
    });
  });

  it('refuses batches, non-objects and shapeless objects, salvaging only a valid id', () => {
    expect(classifyMessage([{ jsonrpc: '2.0', id: 1, method: 'ping' }])).toEqual({
      kind: 'invalid',
      id: null,
      reason: 'JSON-RPC batches are not supported',
      facts: undefined,
    });
    expect(classifyMessage('ping')).toEqual({
      kind: 'invalid',
      id: null,
      reason: 'Message must be a JSON object',
      facts: undefined,
    });
    expect(classifyMessage({ jsonrpc: '2.0', id: 7 })).toEqual({
      kind: 'invalid',
      id: 7,
      reason: 'Message is neither a request, a notification nor a response',
      facts: undefined,
    });
    expect(classifyMessage({ jsonrpc: '2.0', id: 1.5, method: 'ping' })).toMatchObject({
      kind: 'invalid',
      id: null,
      facts: { id: 1.5 },
    });
  });
});
