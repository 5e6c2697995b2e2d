import { Client } from '@modelcontextprotocol/sdk-2025-03-26/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk-2025-03-26/client/streamableHttp.js';
import { TOKEN, startTestServer, type TestServer } from './http-harness';

/**
 * A 2025-03-26 client: `@modelcontextprotocol/sdk` 1.12.3 (under the npm alias `@modelcontextprotocol/sdk-2025-03-26`).
 * It negotiates 2025-03-26 and never sends `MCP-Protocol-Version`; inside its session the server uses the negotiated
 * version (2025-11-25 transports: SHOULD), so the handshake and every later request are served.
 */
describe('a 2025-03-26 client (sdk 1.12.3) over Streamable HTTP', () => {
  let server: TestServer;
  let client: Client;
  let transport: StreamableHTTPClientTransport;

  beforeAll(async () => {
    server = await startTestServer();
    client = new Client({ name: 'sdk-1.12.3-e2e', version: '1.0.0' });
    transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
    });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  it('connects in a legacy session negotiated at 2025-03-26', () => {
    expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(client.getServerVersion()).toMatchObject({ name: 'term-mcp' });
  });

  it('lists the tools (every output schema compiles in its validator) and runs a command through terminal_execute', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { tools } = await client.listTools();
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
    expect(tools.map((tool) => tool.name)).toContain('terminal_execute');

    const result = await client.callTool({
      name: 'terminal_execute',
      arguments: { command: 'echo from a 2025-03-26 client' },
    });

    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({
      status: 'succeeded',
      exit_code: 0,
      stdout: 'from a 2025-03-26 client\n',
    });
  });

  it('receives a refusal as a tool result with isError and the server message', async () => {
    const denied = await client.callTool({ name: 'terminal_execute', arguments: { command: 'cat /etc/passwd' } });

    expect(denied.isError).toBe(true);
    expect(denied.structuredContent).toMatchObject({ code: 'policy_denied', next_step: expect.any(String) });
    expect(denied.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^Error policy_denied: .+\nNext step: /) },
    ]);
  });
});
