import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  ACCEPT_BOTH,
  INITIALIZE,
  TOKEN,
  legacyHeaders,
  openLegacySession,
  post,
  read,
  startTestServer,
  type TestServer,
} from './http-harness';

const AUTH = { Authorization: `Bearer ${TOKEN}` };

/** 2025-11-25 over Streamable HTTP: initialize mints an Mcp-Session-Id that every later message must carry. */
describe('HTTP legacy era (2025-11-25)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    await server.stop();
  });

  describe('official SDK client (default legacy negotiation)', () => {
    let client: Client;
    let transport: StreamableHTTPClientTransport;

    beforeEach(async () => {
      client = new Client({ name: 'term-mcp-http-tests', version: '1.0.0' });
      transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: AUTH } });
      await client.connect(transport);
    });

    afterEach(async () => {
      await client.close();
    });

    it('completes the handshake on a minted session', () => {
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      expect(client.getProtocolEra()).toBe('legacy');
      expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('lists tools, prompts and resources in the session', async () => {
      expect(Array.isArray((await client.listTools()).tools)).toBe(true);
      expect(Array.isArray((await client.listPrompts()).prompts)).toBe(true);
      expect(Array.isArray((await client.listResources()).resources)).toBe(true);
    });

    it('gets -32602 for a tools/call of an unknown tool', async () => {
      await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    });

    it('runs a command through terminal_execute and returns its signed receipt', async () => {
      const result = await client.callTool({
        name: 'terminal_execute',
        arguments: { command: 'echo hello over http' },
      });

      expect(result.isError).toBe(false);
      expect(result.structuredContent).toMatchObject({
        status: 'succeeded',
        exit_code: 0,
        stdout: 'hello over http\n',
      });
      expect((result.structuredContent as { signature: string }).signature).toMatch(/^[0-9a-f]{64}$/);
    });

    it('returns a denied command as a blocked plan and refuses to execute it with isError', async () => {
      const denied = await client.callTool({ name: 'terminal_execute', arguments: { command: 'cat /etc/passwd' } });

      expect(denied.isError).toBe(true);
      expect(denied.structuredContent).toMatchObject({ code: 'policy_denied', next_step: expect.any(String) });
    });

    it('terminates the session with DELETE, after which its id is unknown', async () => {
      const sessionId = transport.sessionId ?? '';

      await transport.terminateSession();

      const reply = await post(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, legacyHeaders(sessionId));
      expect(reply.status).toBe(404);
      expect(reply.json).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32600, message: 'Session not found: initialize a new session' },
      });
    });
  });

  describe('raw requests', () => {
    it('mints a new random session id of visible ASCII on each initialize', async () => {
      const first = await post(server.url, INITIALIZE, { ...AUTH, Accept: ACCEPT_BOTH });
      const second = await post(server.url, INITIALIZE, { ...AUTH, Accept: ACCEPT_BOTH });

      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toMatch(/^application\/json/);
      expect(first.json).toMatchObject({ id: 'init', result: { protocolVersion: '2025-11-25' } });
      expect(first.headers.get('mcp-session-id')).toMatch(/^[\x21-\x7e]{43}$/);
      expect(second.headers.get('mcp-session-id')).not.toBe(first.headers.get('mcp-session-id'));
    });

    it('answers a failed initialize with 400 and mints no session', async () => {
      const reply = await post(
        server.url,
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: { capabilities: {} } },
        { ...AUTH, Accept: ACCEPT_BOTH },
      );

      expect(reply.status).toBe(400);
      expect(reply.json?.error).toMatchObject({ code: -32602 });
      expect(reply.headers.get('mcp-session-id')).toBeNull();
    });

    it('refuses an initialize whose Accept lacks text/event-stream with 406', async () => {
      const reply = await post(server.url, INITIALIZE, { ...AUTH, Accept: 'application/json' });

      expect(reply.status).toBe(406);
      expect(reply.headers.get('mcp-session-id')).toBeNull();
    });

    it('serves requests in a session that carries its id and negotiated version', async () => {
      const sessionId = await openLegacySession(server.url);

      const reply = await post(server.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, legacyHeaders(sessionId));

      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
      expect(reply.json?.result).not.toHaveProperty('resultType');
    });

    it('refuses notifications/initialized without Mcp-Session-Id with 400 -32600', async () => {
      const reply = await post(
        server.url,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { ...AUTH, Accept: ACCEPT_BOTH, 'MCP-Protocol-Version': '2025-11-25' },
      );

      expect(reply.status).toBe(400);
      expect(reply.json).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Mcp-Session-Id header is required: send initialize first' },
      });
    });

    it('answers a request with neither modern _meta nor a session id with 400 -32602', async () => {
      const reply = await post(
        server.url,
        { jsonrpc: '2.0', id: 3, method: 'tools/list' },
        { ...AUTH, Accept: ACCEPT_BOTH },
      );

      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({
        id: 3,
        error: { code: -32602, message: expect.stringContaining('io.modelcontextprotocol/protocolVersion') },
      });
    });

    it('answers ping without a session', async () => {
      const reply = await post(server.url, { jsonrpc: '2.0', id: 4, method: 'ping' }, { ...AUTH, Accept: ACCEPT_BOTH });

      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
    });

    it('serves a session request without MCP-Protocol-Version in the negotiated version (2025-11-25 transports: SHOULD)', async () => {
      const sessionId = await openLegacySession(server.url);
      const { 'MCP-Protocol-Version': _omitted, ...headers } = legacyHeaders(sessionId);

      const reply = await post(server.url, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, headers);

      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ id: 5, result: { tools: expect.any(Array) } });
    });

    it('completes a handshake whose notifications/initialized carries no MCP-Protocol-Version (a 2025-03-26 client)', async () => {
      const init = await post(
        server.url,
        { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '2025-03-26' } },
        { ...AUTH, Accept: ACCEPT_BOTH },
      );
      const sessionId = init.headers.get('mcp-session-id') ?? '';
      expect(init.json).toMatchObject({ result: { protocolVersion: '2025-03-26' } });
      const bare = { ...AUTH, Accept: ACCEPT_BOTH, 'Mcp-Session-Id': sessionId };

      const notified = await post(server.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, bare);
      const listed = await post(server.url, { jsonrpc: '2.0', id: 9, method: 'tools/list' }, bare);

      expect(notified.status).toBe(202);
      expect(listed.status).toBe(200);
      expect(listed.json).toMatchObject({ id: 9, result: { tools: expect.any(Array) } });
    });

    it('refuses a session request whose MCP-Protocol-Version is invalid with 400', async () => {
      const sessionId = await openLegacySession(server.url);

      const reply = await post(
        server.url,
        { jsonrpc: '2.0', id: 5, method: 'tools/list' },
        { ...legacyHeaders(sessionId), 'MCP-Protocol-Version': 'garbage' },
      );

      expect(reply.status).toBe(400);
      expect(reply.json).toEqual({
        jsonrpc: '2.0',
        id: 5,
        error: {
          code: -32600,
          message:
            "Unsupported MCP-Protocol-Version header 'garbage': this session negotiated 2025-11-25 (send it, or omit the header)",
        },
      });
    });

    it('refuses a session request whose MCP-Protocol-Version is unsupported with 400', async () => {
      const sessionId = await openLegacySession(server.url);

      const reply = await post(
        server.url,
        { jsonrpc: '2.0', id: 6, method: 'tools/list' },
        { ...legacyHeaders(sessionId), 'MCP-Protocol-Version': '2024-11-05' },
      );

      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ id: 6, error: { code: -32600 } });
    });

    it('refuses a session request whose MCP-Protocol-Version is not the negotiated one with 400', async () => {
      const sessionId = await openLegacySession(server.url);

      const reply = await post(
        server.url,
        { jsonrpc: '2.0', id: 6, method: 'tools/list' },
        { ...legacyHeaders(sessionId), 'MCP-Protocol-Version': '2025-06-18' },
      );

      expect(reply.status).toBe(400);
    });

    it('answers an unknown session id with 404', async () => {
      const reply = await post(
        server.url,
        { jsonrpc: '2.0', id: 7, method: 'tools/list' },
        legacyHeaders('no-such-session'),
      );

      expect(reply.status).toBe(404);
      expect(reply.json?.error).toEqual({ code: -32600, message: 'Session not found: initialize a new session' });
    });

    it('answers JSON-RPC errors inside a session with HTTP 200', async () => {
      const sessionId = await openLegacySession(server.url);

      const reply = await post(
        server.url,
        { jsonrpc: '2.0', id: 8, method: 'no/such/method' },
        legacyHeaders(sessionId),
      );

      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ id: 8, error: { code: -32601 } });
    });

    it('acknowledges notifications in a session with an empty 202', async () => {
      const sessionId = await openLegacySession(server.url);

      const reply = await post(
        server.url,
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 42 } },
        legacyHeaders(sessionId),
      );

      expect(reply.status).toBe(202);
      expect(reply.text).toBe('');
    });

    it('ends a session with DELETE (200), after which the id gets 404 for POST and DELETE', async () => {
      const sessionId = await openLegacySession(server.url);

      const deleted = await read(await fetch(server.url, { method: 'DELETE', headers: legacyHeaders(sessionId) }));
      const after = await post(server.url, { jsonrpc: '2.0', id: 9, method: 'tools/list' }, legacyHeaders(sessionId));
      const again = await read(await fetch(server.url, { method: 'DELETE', headers: legacyHeaders(sessionId) }));

      expect(deleted.status).toBe(200);
      expect(after.status).toBe(404);
      expect(again.status).toBe(404);
    });

    it('refuses DELETE without Mcp-Session-Id with 400', async () => {
      const reply = await read(await fetch(server.url, { method: 'DELETE', headers: AUTH }));

      expect(reply.status).toBe(400);
      expect(reply.json?.error).toEqual({ code: -32600, message: 'Mcp-Session-Id header is required' });
    });
  });

  describe('session cap', () => {
    let capped: TestServer;

    beforeAll(async () => {
      // Eviction after 0 s: any idle session may make room (the default, 900 s, is tested in http-legacy-sessions-long-lived).
      capped = await startTestServer({
        TERM_MCP_MAX_LEGACY_SESSIONS: '2',
        TERM_MCP_MAX_LEGACY_SESSIONS_PER_PRINCIPAL: '2',
        TERM_MCP_LEGACY_SESSION_EVICTABLE_AFTER: '0',
      });
    });

    afterAll(async () => {
      await capped.stop();
    });

    it('at TERM_MCP_MAX_LEGACY_SESSIONS, initialize ends the least recently used idle session, which then answers 404', async () => {
      const first = await openLegacySession(capped.url);
      const second = await openLegacySession(capped.url);
      // Used last: the first one is now the least recently used.
      expect(
        (await post(capped.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, legacyHeaders(second))).status,
      ).toBe(200);

      const accepted = await post(capped.url, INITIALIZE, { ...AUTH, Accept: ACCEPT_BOTH });
      const evicted = await post(capped.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, legacyHeaders(first));

      expect(accepted.status).toBe(200);
      expect(accepted.headers.get('mcp-session-id')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(evicted.status).toBe(404);
      expect(evicted.json).toEqual({
        jsonrpc: '2.0',
        id: 2,
        error: {
          code: -32600,
          message:
            'Session not found: the server ended it to make room (it was the least recently used idle session); initialize a new session',
        },
      });
      // Another principal learns nothing: to it the id is simply unknown (tested with JWTs in sessions-cap.test.ts).
      expect(
        (await post(capped.url, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, legacyHeaders(second))).status,
      ).toBe(200);
    });
  });
});
