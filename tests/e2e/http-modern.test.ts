import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { rawRequest } from '../adapters/http/listen';
import {
  ACCEPT_BOTH,
  MODERN_META,
  TOKEN,
  modernHeaders,
  modernRequest,
  post,
  read,
  startTestServer,
  type TestServer,
} from './http-harness';

/** 2026-07-28 over Streamable HTTP: stateless POSTs whose headers must mirror their bodies. */
describe('HTTP modern era (2026-07-28)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    writeFileSync(path.join(server.workspaceRoot, 'hello.txt'), 'hello\n');
  });

  afterAll(async () => {
    await server.stop();
  });

  describe('raw requests', () => {
    it('answers a valid request with 200 and a JSON result stamped with resultType', async () => {
      const reply = await post(server.url, modernRequest('tools/list', 1), modernHeaders('tools/list'));

      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(reply.json).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        result: { resultType: 'complete', tools: expect.any(Array) },
      });
    });

    it('answers server/discover with both protocol eras', async () => {
      const reply = await post(server.url, modernRequest('server/discover', 'd'), modernHeaders('server/discover'));

      expect(reply.status).toBe(200);
      expect((reply.json?.result as { supportedVersions: string[] }).supportedVersions).toEqual(
        expect.arrayContaining(['2026-07-28', '2025-11-25']),
      );
    });

    it('refuses a missing MCP-Protocol-Version header with 400 -32020', async () => {
      const { 'MCP-Protocol-Version': _omitted, ...headers } = modernHeaders('tools/list');

      const reply = await post(server.url, modernRequest('tools/list', 2), headers);

      expect(reply.status).toBe(400);
      expect(reply.json).toEqual({
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32020, message: 'Missing MCP-Protocol-Version header' },
      });
    });

    it('refuses an MCP-Protocol-Version header that differs from _meta with 400 -32020', async () => {
      const reply = await post(server.url, modernRequest('tools/list', 3), {
        ...modernHeaders('tools/list'),
        'MCP-Protocol-Version': '2025-11-25',
      });

      expect(reply.status).toBe(400);
      expect(reply.json?.error).toEqual({ code: -32020, message: expect.stringContaining('MCP-Protocol-Version') });
    });

    it('refuses a missing Mcp-Method header with 400 -32020', async () => {
      const { 'Mcp-Method': _omitted, ...headers } = modernHeaders('tools/list');

      const reply = await post(server.url, modernRequest('tools/list', 4), headers);

      expect(reply.status).toBe(400);
      expect(reply.json?.error).toEqual({ code: -32020, message: 'Missing Mcp-Method header' });
    });

    it('refuses an Mcp-Method header that differs from the body method with 400 -32020', async () => {
      const reply = await post(server.url, modernRequest('tools/list', 5), modernHeaders('prompts/list'));

      expect(reply.status).toBe(400);
      expect(reply.json?.error).toEqual({ code: -32020, message: expect.stringContaining('Mcp-Method') });
    });

    it('refuses tools/call without Mcp-Name with 400 -32020', async () => {
      const reply = await post(
        server.url,
        modernRequest('tools/call', 6, { name: 'terminal_plan', arguments: {} }),
        modernHeaders('tools/call'),
      );

      expect(reply.status).toBe(400);
      expect(reply.json?.error).toEqual({ code: -32020, message: 'Missing Mcp-Name header' });
    });

    it('refuses tools/call whose Mcp-Name differs from params.name with 400 -32020', async () => {
      const reply = await post(
        server.url,
        modernRequest('tools/call', 7, { name: 'terminal_plan', arguments: {} }),
        modernHeaders('tools/call', 'other_tool'),
      );

      expect(reply.status).toBe(400);
      expect(reply.json?.error).toEqual({ code: -32020, message: expect.stringContaining('Mcp-Name') });
    });

    it('refuses resources/read whose Mcp-Name differs from params.uri with 400 -32020', async () => {
      const reply = await post(
        server.url,
        modernRequest('resources/read', 8, { uri: 'workspace:///hello.txt' }),
        modernHeaders('resources/read', 'workspace:///other.txt'),
      );

      expect(reply.status).toBe(400);
      expect(reply.json?.error).toMatchObject({ code: -32020 });
    });

    it('refuses prompts/get without Mcp-Name with 400 -32020', async () => {
      const reply = await post(
        server.url,
        modernRequest('prompts/get', 9, { name: 'anything' }),
        modernHeaders('prompts/get'),
      );

      expect(reply.status).toBe(400);
      expect(reply.json?.error).toEqual({ code: -32020, message: 'Missing Mcp-Name header' });
    });

    it('decodes a base64 Mcp-Name before comparing it', async () => {
      const name = 'outil inconnu é';
      const encoded = `=?base64?${Buffer.from(name).toString('base64')}?=`;

      const reply = await post(
        server.url,
        modernRequest('tools/call', 10, { name, arguments: {} }),
        modernHeaders('tools/call', encoded),
      );

      // The headers agree with the body, so the request reaches the dispatcher, which does not know the tool.
      expect(reply.status).toBe(400);
      expect(reply.json?.error).toMatchObject({ code: -32602 });
    });

    it('answers tools/call of an unknown tool with 400 -32602', async () => {
      const reply = await post(
        server.url,
        modernRequest('tools/call', 11, { name: 'no_such_tool', arguments: {} }),
        modernHeaders('tools/call', 'no_such_tool'),
      );

      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ id: 11, error: { code: -32602 } });
    });

    it('refuses an Accept header without text/event-stream with 406 -32020', async () => {
      const reply = await post(server.url, modernRequest('tools/list', 12), {
        ...modernHeaders('tools/list'),
        Accept: 'application/json',
      });

      expect(reply.status).toBe(406);
      expect(reply.json?.error).toEqual({
        code: -32020,
        message: 'Not Acceptable: the Accept header must list application/json and text/event-stream',
      });
    });

    it('refuses a request without Accept with 406', async () => {
      const { Accept: _omitted, ...headers } = modernHeaders('tools/list');

      // node:http, because fetch adds `Accept: */*` on its own.
      const reply = await rawRequest(server.port, {
        method: 'POST',
        path: '/mcp',
        headers,
        body: JSON.stringify(modernRequest('tools/list', 13)),
      });

      expect(reply.status).toBe(406);
      expect(JSON.parse(reply.body)).toMatchObject({ id: 13, error: { code: -32020 } });
    });

    it('treats Accept: */* as acceptable (a wildcard covers both media types)', async () => {
      const reply = await post(server.url, modernRequest('tools/list', 14), {
        ...modernHeaders('tools/list'),
        Accept: '*/*',
      });

      expect(reply.status).toBe(200);
    });

    it('answers an unsupported protocol version with 400 -32022 listing the supported versions', async () => {
      const body = {
        jsonrpc: '2.0',
        id: 15,
        method: 'tools/list',
        params: { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } },
      };

      const reply = await post(server.url, body, {
        ...modernHeaders('tools/list'),
        'MCP-Protocol-Version': '1900-01-01',
      });

      expect(reply.status).toBe(400);
      expect(reply.json?.error).toMatchObject({
        code: -32022,
        data: { requested: '1900-01-01', supported: expect.arrayContaining(['2026-07-28', '2025-11-25']) },
      });
      expect((reply.json?.error as { data: { supported: string[] } }).data.supported[0]).toBe('2026-07-28');
    });

    it('answers missing required _meta fields with 400 -32602', async () => {
      const body = {
        jsonrpc: '2.0',
        id: 16,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      };

      const reply = await post(server.url, body, modernHeaders('tools/list'));

      expect(reply.status).toBe(400);
      expect(reply.json?.error).toMatchObject({ code: -32602 });
    });

    it('answers an unknown method with 404 -32601 and echoes the id', async () => {
      const reply = await post(
        server.url,
        modernRequest('no/such/method', 'unknown-1'),
        modernHeaders('no/such/method'),
      );

      expect(reply.status).toBe(404);
      expect(reply.json).toMatchObject({ jsonrpc: '2.0', id: 'unknown-1', error: { code: -32601 } });
    });

    it('answers a legacy-only method carried with modern _meta with 404 -32601', async () => {
      const reply = await post(server.url, modernRequest('initialize', 17), modernHeaders('initialize'));

      expect(reply.status).toBe(404);
      expect(reply.json?.error).toMatchObject({ code: -32601 });
      expect(reply.headers.get('mcp-session-id')).toBeNull();
    });

    it('acknowledges a notification with an empty 202', async () => {
      const notification = {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 99, _meta: MODERN_META },
      };

      const reply = await post(server.url, notification, {
        Authorization: `Bearer ${TOKEN}`,
        Accept: ACCEPT_BOTH,
        'MCP-Protocol-Version': '2026-07-28',
      });

      expect(reply.status).toBe(202);
      expect(reply.text).toBe('');
    });

    it('serves a request that carries an Mcp-Session-Id statelessly, without minting or echoing one', async () => {
      const reply = await post(server.url, modernRequest('tools/list', 18), {
        ...modernHeaders('tools/list'),
        'Mcp-Session-Id': 'made-up-session',
      });

      expect(reply.status).toBe(200);
      expect(reply.headers.get('mcp-session-id')).toBeNull();
    });

    it('answers GET /mcp with 405 and Allow: POST, DELETE', async () => {
      const reply = await read(
        await fetch(server.url, { headers: { Authorization: `Bearer ${TOKEN}`, Accept: 'text/event-stream' } }),
      );

      expect(reply.status).toBe(405);
      expect(reply.headers.get('allow')).toBe('POST, DELETE');
    });

    it('refuses a JSON-RPC batch with 400 -32600', async () => {
      const reply = await post(server.url, [modernRequest('tools/list', 19)], modernHeaders('tools/list'));

      expect(reply.status).toBe(400);
      expect(reply.json).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: 'JSON-RPC batches are not supported (only in a session negotiated at 2025-03-26)',
        },
      });
    });

    it('refuses an empty body with 400 -32700', async () => {
      const reply = await post(server.url, '', modernHeaders('tools/list'));

      expect(reply.status).toBe(400);
      expect(reply.json?.error).toMatchObject({ code: -32700 });
    });

    it('refuses invalid JSON with 400 -32700', async () => {
      const reply = await post(server.url, '{"jsonrpc":"2.0",', modernHeaders('tools/list'));

      expect(reply.status).toBe(400);
      expect(reply.json?.error).toMatchObject({ code: -32700 });
    });

    it('answers resources/read of a missing file with 400 -32602 (never -32002 in this era)', async () => {
      const uri = 'workspace:///missing.txt';

      const reply = await post(
        server.url,
        modernRequest('resources/read', 20, { uri }),
        modernHeaders('resources/read', uri),
      );

      expect(reply.status).toBe(400);
      expect(reply.json?.error).toMatchObject({ code: -32602 });
    });
  });

  describe('official SDK client pinned to 2026-07-28', () => {
    let client: Client;

    beforeEach(async () => {
      client = new Client(
        { name: 'term-mcp-http-tests', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
        }),
      );
    });

    afterEach(async () => {
      await client.close();
    });

    it('negotiates the modern era through server/discover', () => {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(client.getProtocolEra()).toBe('modern');
    });

    it('lists tools, prompts and resources', async () => {
      expect(Array.isArray((await client.listTools()).tools)).toBe(true);
      expect(Array.isArray((await client.listPrompts()).prompts)).toBe(true);
      expect((await client.listResources()).resources.map((resource) => resource.name)).toContain('hello.txt');
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
  });
});
