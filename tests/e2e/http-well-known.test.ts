import { JWT_AUDIENCE, JWT_ISSUER, JWT_SECRET, startTestServer, type TestServer } from './http-harness';

/** The discovery paths mcp-remote (and the SDK's OAuth client under it) probes on every connect, in its order. */
const OAUTH_PROBES = [
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-authorization-server/mcp',
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration/mcp',
  '/mcp/.well-known/openid-configuration',
  '/.well-known/openid-configuration',
];

describe('OAuth discovery over real HTTP', () => {
  let server: TestServer | undefined;

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  describe('with a static token only (no JWT configured)', () => {
    test.each(OAUTH_PROBES)('GET %s without a token is 404, not 401', async (probe) => {
      server = await startTestServer();

      const response = await fetch(`${server.origin}${probe}`);

      expect(response.status).toBe(404);
      expect(response.headers.get('www-authenticate')).toBeNull();
      expect(await response.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { message: expect.stringMatching(/^Not Found/) },
      });
    });

    test('the MCP endpoint itself still answers 401 without a token', async () => {
      server = await startTestServer();

      const response = await fetch(server.url, {
        method: 'POST',
        body: '{}',
        headers: { 'Content-Type': 'application/json' },
      });

      expect(response.status).toBe(401);
    });
  });

  describe('with JWT configured', () => {
    const jwtEnv = {
      TERM_MCP_JWT_SECRET: JWT_SECRET,
      TERM_MCP_JWT_ISSUER: JWT_ISSUER,
      TERM_MCP_JWT_AUDIENCE: JWT_AUDIENCE,
    };

    test.each(['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'])(
      'GET %s serves the RFC 9728 metadata',
      async (probe) => {
        server = await startTestServer(jwtEnv);

        const response = await fetch(`${server.origin}${probe}`);

        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({
          resource: `${server.origin}/mcp`,
          authorization_servers: [JWT_ISSUER],
          bearer_methods_supported: ['header'],
          resource_name: 'term-mcp',
        });
      },
    );

    test.each([
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration/mcp',
      '/mcp/.well-known/openid-configuration',
    ])('GET %s is 404: the authorization server is the issuer, not this server', async (probe) => {
      server = await startTestServer(jwtEnv);

      expect((await fetch(`${server.origin}${probe}`)).status).toBe(404);
    });
  });
});
