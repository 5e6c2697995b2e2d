import express from 'express';
import {
  acceptsJsonAndEventStream,
  decodeMcpHeaderValue,
  legacySessionVersionProblem,
  mcpHeaderGuard,
} from '../../../src/adapters/http/mcp-headers';
import { classifyMcpBody } from '../../../src/adapters/http/mcp-message';
import { listen, type Listening } from './listen';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const ACCEPT = 'application/json, text/event-stream';

/** `id: null` builds a notification. */
function modernBody(
  method: string,
  params: Record<string, unknown> = {},
  id: number | null = 7,
): Record<string, unknown> {
  return { jsonrpc: '2.0', ...(id === null ? {} : { id }), method, params: { ...params, _meta: META } };
}

function base64Value(text: string): string {
  return `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

describe('mcpHeaderGuard', () => {
  let server: Listening;

  beforeEach(async () => {
    const app = express();
    app.use(express.json());
    app.use(classifyMcpBody(), mcpHeaderGuard());
    app.use((_req, res) => {
      res.json({ passed: true });
    });
    server = await listen(app);
  });

  afterEach(async () => {
    await server.close();
  });

  async function post(
    body: unknown,
    headers: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  function headerError(message: string, id: number | null = 7): Record<string, unknown> {
    return { jsonrpc: '2.0', id, error: { code: -32020, message } };
  }

  const listHeaders = { Accept: ACCEPT, 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' };

  it('passes a modern request whose headers match its body', async () => {
    expect(await post(modernBody('tools/list'), listHeaders)).toEqual({ status: 200, body: { passed: true } });
  });

  it('refuses a modern request without MCP-Protocol-Version with 400 -32020', async () => {
    const { 'MCP-Protocol-Version': _omitted, ...headers } = listHeaders;

    expect(await post(modernBody('tools/list'), headers)).toEqual({
      status: 400,
      body: headerError('Missing MCP-Protocol-Version header'),
    });
  });

  it('refuses an MCP-Protocol-Version that differs from the _meta version', async () => {
    const result = await post(modernBody('tools/list'), { ...listHeaders, 'MCP-Protocol-Version': '2025-11-25' });

    expect(result).toEqual({
      status: 400,
      body: headerError(
        "Header mismatch: MCP-Protocol-Version header value '2025-11-25' does not match body value '2026-07-28'",
      ),
    });
  });

  it('refuses a modern request without Mcp-Method', async () => {
    const { 'Mcp-Method': _omitted, ...headers } = listHeaders;

    expect(await post(modernBody('tools/list'), headers)).toEqual({
      status: 400,
      body: headerError('Missing Mcp-Method header'),
    });
  });

  it('refuses an Mcp-Method that differs from the body method (case-sensitive)', async () => {
    const result = await post(modernBody('tools/list'), { ...listHeaders, 'Mcp-Method': 'Tools/List' });

    expect(result).toEqual({
      status: 400,
      body: headerError("Header mismatch: Mcp-Method header value 'Tools/List' does not match body value 'tools/list'"),
    });
  });

  describe('Mcp-Name', () => {
    const callHeaders = { Accept: ACCEPT, 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call' };

    it('is required for tools/call', async () => {
      expect(await post(modernBody('tools/call', { name: 'terminal_plan' }), callHeaders)).toEqual({
        status: 400,
        body: headerError('Missing Mcp-Name header'),
      });
    });

    it('must equal params.name for tools/call', async () => {
      const result = await post(modernBody('tools/call', { name: 'terminal_plan' }), {
        ...callHeaders,
        'Mcp-Name': 'terminal_execute',
      });

      expect(result).toEqual({
        status: 400,
        body: headerError(
          "Header mismatch: Mcp-Name header value 'terminal_execute' does not match body value 'terminal_plan'",
        ),
      });
    });

    it('passes when it matches params.name', async () => {
      expect(
        (
          await post(modernBody('tools/call', { name: 'terminal_plan' }), {
            ...callHeaders,
            'Mcp-Name': 'terminal_plan',
          })
        ).status,
      ).toBe(200);
    });

    it('is decoded from =?base64?…?= before comparing', async () => {
      const name = ' café prompt ';
      const result = await post(modernBody('prompts/get', { name }), {
        ...callHeaders,
        'Mcp-Method': 'prompts/get',
        'Mcp-Name': base64Value(name),
      });

      expect(result.status).toBe(200);
    });

    it('refuses a malformed base64 value', async () => {
      const result = await post(modernBody('prompts/get', { name: 'x' }), {
        ...callHeaders,
        'Mcp-Method': 'prompts/get',
        'Mcp-Name': '=?base64?abc?=',
      });

      expect(result).toEqual({ status: 400, body: headerError('Malformed Mcp-Name header: invalid base64 value') });
    });

    it('must equal params.uri for resources/read', async () => {
      const headers = { ...callHeaders, 'Mcp-Method': 'resources/read' };
      const body = modernBody('resources/read', { uri: 'workspace:///README.md' });

      expect((await post(body, { ...headers, 'Mcp-Name': 'workspace:///README.md' })).status).toBe(200);
      expect((await post(body, { ...headers, 'Mcp-Name': 'workspace:///other.md' })).status).toBe(400);
      expect((await post(body, headers)).body).toEqual(headerError('Missing Mcp-Name header'));
    });

    it('is required for prompts/get', async () => {
      const result = await post(modernBody('prompts/get', { name: 'plan' }), {
        ...callHeaders,
        'Mcp-Method': 'prompts/get',
      });

      expect(result).toEqual({ status: 400, body: headerError('Missing Mcp-Name header') });
    });
  });

  describe('Accept', () => {
    it('refuses a modern request that does not accept both JSON and SSE with 406 -32020', async () => {
      const result = await post(modernBody('tools/list'), { ...listHeaders, Accept: 'application/json' });

      expect(result).toEqual({
        status: 406,
        body: headerError('Not Acceptable: the Accept header must list application/json and text/event-stream'),
      });
    });

    it('refuses a legacy initialize without Accept with 406 -32600', async () => {
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      };

      const result = await post(initialize, { Accept: 'text/html' });

      expect(result).toEqual({
        status: 406,
        body: {
          jsonrpc: '2.0',
          id: 1,
          error: {
            code: -32600,
            message: 'Not Acceptable: the Accept header must list application/json and text/event-stream',
          },
        },
      });
    });

    it('passes a legacy request without any modern header', async () => {
      expect((await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { Accept: ACCEPT })).status).toBe(200);
    });
  });

  it('checks only the headers a modern notification sends', async () => {
    const notification = modernBody('notifications/cancelled', { requestId: 1 }, null);

    expect((await post(notification, { Accept: ACCEPT })).status).toBe(200);
    const lying = await post(notification, { Accept: ACCEPT, 'Mcp-Method': 'tools/call' });
    expect(lying).toEqual({
      status: 400,
      body: headerError(
        "Header mismatch: Mcp-Method header value 'tools/call' does not match body value 'notifications/cancelled'",
        null,
      ),
    });
  });

  it('leaves bodies that are not messages to the route', async () => {
    expect((await post([modernBody('tools/list')], {})).status).toBe(200);
    expect((await post({ jsonrpc: '2.0', id: 1, result: {} }, {})).status).toBe(200);
  });
});

describe('acceptsJsonAndEventStream', () => {
  it.each([
    'application/json, text/event-stream',
    'text/event-stream;q=0.9, application/json',
    '*/*',
    'application/*, text/*',
    'application/json, */*;q=0.1',
  ])('accepts %s', (accept) => {
    expect(acceptsJsonAndEventStream(accept)).toBe(true);
  });

  it.each([
    undefined,
    '',
    'application/json',
    'text/event-stream',
    'application/json, text/event-stream;q=0',
    'text/html, application/xml',
  ])('refuses %p', (accept) => {
    expect(acceptsJsonAndEventStream(accept)).toBe(false);
  });
});

describe('decodeMcpHeaderValue', () => {
  it('returns plain values unchanged', () => {
    expect(decodeMcpHeaderValue('terminal_plan')).toBe('terminal_plan');
  });

  it('decodes UTF-8 sent as =?base64?…?=', () => {
    expect(decodeMcpHeaderValue(base64Value('日本語'))).toBe('日本語');
  });

  it('refuses base64 of invalid length or invalid UTF-8', () => {
    expect(decodeMcpHeaderValue('=?base64?abc?=')).toBeUndefined();
    expect(decodeMcpHeaderValue(`=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`)).toBeUndefined();
  });
});

describe('legacySessionVersionProblem (MCP-Protocol-Version inside a legacy session)', () => {
  it('accepts an absent header: the session negotiated the version (2025-03-26 clients send none)', () => {
    expect(legacySessionVersionProblem(undefined, '2025-03-26')).toBeUndefined();
    expect(legacySessionVersionProblem(undefined, '2025-11-25')).toBeUndefined();
  });

  it('accepts the negotiated version', () => {
    expect(legacySessionVersionProblem('2025-11-25', '2025-11-25')).toBeUndefined();
  });

  it('refuses an invalid value, naming it and the negotiated version', () => {
    expect(legacySessionVersionProblem('not-a-version', '2025-11-25')).toBe(
      "Unsupported MCP-Protocol-Version header 'not-a-version': this session negotiated 2025-11-25 (send it, or omit the header)",
    );
    expect(legacySessionVersionProblem('', '2025-11-25')).toBeDefined();
  });

  it('refuses a version this server does not support, and one this session did not negotiate', () => {
    expect(legacySessionVersionProblem('2024-11-05', '2025-11-25')).toBeDefined();
    expect(legacySessionVersionProblem('2026-07-28', '2025-03-26')).toBeDefined();
    expect(legacySessionVersionProblem('2025-06-18', '2025-11-25')).toBeDefined();
  });

  it('refuses a repeated header that is not exactly the negotiated version', () => {
    expect(legacySessionVersionProblem(['2025-11-25', '2025-11-25'], '2025-11-25')).toBeDefined();
  });
});
