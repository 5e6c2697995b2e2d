import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ACCEPT_BOTH,
  INITIALIZE,
  TOKEN,
  legacyHeaders,
  openLegacySession,
  post,
  startTestServer,
  type TestServer,
} from './http-harness';

/**
 * Issue 23 item 10: a long-lived host keeps its legacy session while others come and go (none of the official
 * clients initializes again after a 404); JSON-RPC batches in sessions negotiated at 2025-03-26; a 2026-07-28
 * notification without `_meta` is told what it lacks.
 */
describe('legacy HTTP sessions over a long-lived host', () => {
  let server: TestServer | undefined;

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  test('a v1 SDK host stays idle while 500 other sessions come and go, then calls again successfully', async () => {
    // The rate limit is per client address, and all 500 come from this test's one address.
    const running = await startTestServer({ RATE_LIMIT_PER_MINUTE: '1000000' });
    server = running;
    const host = new Client({ name: 'long-lived-host', version: '1.0.0' });
    await host.connect(
      new StreamableHTTPClientTransport(new URL(running.url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    await host.listTools();

    // Half end their session with DELETE, half never do (the Inspector CLI, mcp-remote): all on the host's token.
    for (let index = 0; index < 500; index += 1) {
      const id = await openLegacySession(running.url);
      const listed = await post(running.url, { jsonrpc: '2.0', id: index, method: 'tools/list' }, legacyHeaders(id));
      expect(listed.status).toBe(200);
      if (index % 2 === 0) {
        const ended = await fetch(running.url, { method: 'DELETE', headers: legacyHeaders(id) });
        expect(ended.status).toBe(200);
      }
    }

    const result = await host.callTool({ name: 'terminal_execute', arguments: { command: 'echo still-here' } });
    expect(result).toMatchObject({
      isError: false,
      structuredContent: { status: 'succeeded', stdout: 'still-here\n' },
    });
    await host.close();
  }, 300_000);

  test('at a small cap, a recently used session is never the one ended: the new initialize is refused instead', async () => {
    const running = await startTestServer({
      TERM_MCP_MAX_LEGACY_SESSIONS: '2',
      TERM_MCP_MAX_LEGACY_SESSIONS_PER_PRINCIPAL: '2',
    });
    server = running;
    const first = await openLegacySession(running.url);
    const second = await openLegacySession(running.url);

    const refused = await post(running.url, INITIALIZE, { Authorization: `Bearer ${TOKEN}`, Accept: ACCEPT_BOTH });
    expect(refused.status).toBe(503);
    expect((refused.json?.error as { message: string }).message).toContain('used recently');
    for (const id of [first, second])
      expect((await post(running.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, legacyHeaders(id))).status).toBe(
        200,
      );
  });

  describe('JSON-RPC batches', () => {
    async function openSessionAt(url: string, protocolVersion: string): Promise<string> {
      const initialize = { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion } };
      const initialized = await post(url, initialize, { Authorization: `Bearer ${TOKEN}`, Accept: ACCEPT_BOTH });
      const id = initialized.headers.get('mcp-session-id');
      expect({
        status: initialized.status,
        version: (initialized.json?.result as { protocolVersion?: string } | undefined)?.protocolVersion,
      }).toEqual({ status: 200, version: protocolVersion });
      if (id === null) throw new Error('no session id');
      const headers = { ...legacyHeaders(id), 'MCP-Protocol-Version': protocolVersion };
      expect((await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
      return id;
    }

    test('a session negotiated at 2025-03-26 may send a batch: one answer per request, none for notifications', async () => {
      const running = await startTestServer();
      server = running;
      const id = await openSessionAt(running.url, '2025-03-26');
      const headers = { ...legacyHeaders(id), 'MCP-Protocol-Version': '2025-03-26' };
      const batch = [
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
        { jsonrpc: '2.0', id: 3, method: 'initialize', params: INITIALIZE.params },
        { not: 'a message' },
      ];
      const reply = await post(running.url, batch, headers);
      expect(reply.status).toBe(200);
      const answers = JSON.parse(reply.text) as Array<{
        id: unknown;
        result?: Record<string, unknown>;
        error?: { code: number };
      }>;
      expect(answers).toHaveLength(4);
      expect(answers[0]).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
      expect(answers[1]).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
      expect(answers[2]).toMatchObject({ id: 3, error: { code: -32600 } });
      expect(answers[3]).toMatchObject({ id: null, error: { code: -32600 } });

      const onlyNotifications = await post(
        running.url,
        [{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } }],
        headers,
      );
      expect(onlyNotifications.status).toBe(202);
      const empty = await post(running.url, [], headers);
      expect(empty.status).toBe(400);
    });

    test('a session negotiated at 2025-11-25 may not (batches were removed in 2025-06-18)', async () => {
      const running = await startTestServer();
      server = running;
      const id = await openLegacySession(running.url);
      const reply = await post(running.url, [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }], legacyHeaders(id));
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({
        error: { code: -32600, message: expect.stringContaining('batches are not supported') },
      });
    });
  });

  test('a 2026-07-28 notification without _meta is told what it lacks, not to initialize', async () => {
    const running = await startTestServer();
    server = running;
    const reply = await post(
      running.url,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      {
        Authorization: `Bearer ${TOKEN}`,
        Accept: ACCEPT_BOTH,
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'notifications/cancelled',
      },
    );
    expect(reply.status).toBe(400);
    const message = (reply.json?.error as { message: string }).message;
    expect(message).toContain('io.modelcontextprotocol/protocolVersion');
    expect(message).not.toContain('initialize');
  });
});
