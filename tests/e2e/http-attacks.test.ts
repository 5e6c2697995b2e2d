import { connect } from 'node:net';
import { SignJWT, type JWTPayload } from 'jose';
import { rawRequest } from '../adapters/http/listen';
import {
  JWT_AUDIENCE,
  JWT_ISSUER,
  JWT_SECRET,
  TOKEN,
  legacyHeaders,
  modernHeaders,
  modernRequest,
  openLegacySession,
  post,
  read,
  startTestServer,
  type Reply,
  type TestServer,
} from './http-harness';

const JWT_ENV = {
  TERM_MCP_JWT_SECRET: JWT_SECRET,
  TERM_MCP_JWT_ISSUER: JWT_ISSUER,
  TERM_MCP_JWT_AUDIENCE: JWT_AUDIENCE,
};

async function jwt(claims: JWTPayload, secret: string = JWT_SECRET): Promise<string> {
  return new SignJWT({ iss: JWT_ISSUER, aud: JWT_AUDIENCE, sub: 'alice', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(claims.exp ?? '5m')
    .sign(new TextEncoder().encode(secret));
}

function unsecuredJwt(claims: JWTPayload): string {
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

/** Hostile requests against a real server that accepts the static token and HS256 JWTs. */
describe('HTTP attacks', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(JWT_ENV);
  });

  afterAll(async () => {
    await server.stop();
  });

  function listTools(
    token: string | undefined,
    extra: Record<string, string> = {},
    url: string = server.url,
  ): Promise<Reply> {
    const headers = modernHeaders('tools/list', undefined, token ?? '');
    if (token === undefined) delete headers.Authorization;
    return post(url, modernRequest('tools/list', 1), { ...headers, ...extra });
  }

  it('control: the static token and a valid JWT are accepted', async () => {
    expect((await listTools(TOKEN)).status).toBe(200);
    expect((await listTools(await jwt({}))).status).toBe(200);
  });

  it('refuses a request without a token with 401 and a challenge naming the resource metadata', async () => {
    const reply = await listTools(undefined);

    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toBe(
      `Bearer realm="term-mcp", resource_metadata="${server.origin}/.well-known/oauth-protected-resource"`,
    );
  });

  it('refuses a wrong token of the same length', async () => {
    const wrong = `${TOKEN.slice(0, -1)}${TOKEN.endsWith('x') ? 'y' : 'x'}`;

    const reply = await listTools(wrong);

    expect(wrong).toHaveLength(TOKEN.length);
    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('refuses a wrong token of a different length', async () => {
    expect((await listTools(`${TOKEN}-longer`)).status).toBe(401);
    expect((await listTools(TOKEN.slice(0, 8))).status).toBe(401);
  });

  it('ignores a token sent only in the query string', async () => {
    const reply = await listTools(undefined, {}, `${server.url}?access_token=${TOKEN}&token=${TOKEN}`);

    expect(reply.status).toBe(401);
  });

  it('refuses a forged Origin with 403 even with a valid token', async () => {
    const reply = await listTools(TOKEN, { Origin: 'https://evil.example' });

    expect(reply.status).toBe(403);
    expect(reply.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Forbidden: Origin is not allowed' },
    });
  });

  it('refuses Host: evil.example on a loopback bind with 403 (DNS rebinding)', async () => {
    const reply = await rawRequest(server.port, {
      method: 'POST',
      path: '/mcp',
      headers: { ...modernHeaders('tools/list'), Host: 'evil.example', 'Content-Type': 'application/json' },
      body: JSON.stringify(modernRequest('tools/list', 1)),
    });

    expect(reply.status).toBe(403);
  });

  it('refuses a body over MAX_REQUEST_BYTES with 413', async () => {
    const huge = modernRequest('tools/list', 1, { padding: 'x'.repeat(70_000) });

    const reply = await post(server.url, huge, modernHeaders('tools/list'));

    expect(reply.status).toBe(413);
    expect(reply.json?.error).toEqual({ code: -32600, message: 'Request body exceeds 65536 bytes' });
  });

  it('hides a session from another principal (404), and leaves it working for its owner', async () => {
    const sessionId = await openLegacySession(server.url, TOKEN);
    const mallory = await jwt({ sub: 'mallory' });

    const stolenPost = await post(
      server.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      legacyHeaders(sessionId, mallory),
    );
    const stolenDelete = await read(
      await fetch(server.url, { method: 'DELETE', headers: legacyHeaders(sessionId, mallory) }),
    );
    const owner = await post(
      server.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      legacyHeaders(sessionId, TOKEN),
    );

    expect(stolenPost.status).toBe(404);
    expect(stolenDelete.status).toBe(404);
    expect(owner.status).toBe(200);
  });

  it('refuses a replayed session id after DELETE with 404', async () => {
    const sessionId = await openLegacySession(server.url);
    await fetch(server.url, { method: 'DELETE', headers: legacyHeaders(sessionId) });

    const replayed = await post(
      server.url,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      legacyHeaders(sessionId),
    );

    expect(replayed.status).toBe(404);
  });

  it('refuses an expired JWT', async () => {
    expect((await listTools(await jwt({ exp: Math.floor(Date.now() / 1000) - 120 }))).status).toBe(401);
  });

  it('refuses a JWT from another issuer', async () => {
    expect((await listTools(await jwt({ iss: 'https://evil-issuer.example' }))).status).toBe(401);
  });

  it('refuses a JWT for another audience', async () => {
    expect((await listTools(await jwt({ aud: 'some-other-service' }))).status).toBe(401);
  });

  it('refuses an unsecured JWT (alg: none)', async () => {
    const token = unsecuredJwt({
      iss: JWT_ISSUER,
      aud: JWT_AUDIENCE,
      sub: 'alice',
      exp: Math.floor(Date.now() / 1000) + 300,
    });

    expect((await listTools(token)).status).toBe(401);
  });

  it('refuses a JWT signed with another secret', async () => {
    expect((await listTools(await jwt({}, 'another-secret-that-is-also-longer-than-32'))).status).toBe(401);
  });

  describe('request flood', () => {
    let limited: TestServer;

    beforeAll(async () => {
      limited = await startTestServer({ RATE_LIMIT_PER_MINUTE: '50' });
    });

    afterAll(async () => {
      await limited.stop();
    });

    it('answers 2000 fast requests with 429 + Retry-After past the limit, and /health still answers', async () => {
      // 8 connections x 250 pipelined requests: the client costs next to nothing, so the server is what is measured.
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => pipelined(limited.port, rawHttpRequest(limited.port), 250)),
      );
      const statusLines = answers.flatMap((text) =>
        [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1])),
      );
      const retryAfter = /^retry-after: (\d+)\r$/im.exec(answers.join(''))?.[1];
      const health = await fetch(new URL('/health', limited.url));

      expect(statusLines).toHaveLength(2000);
      expect(statusLines.filter((status) => status === 200)).toHaveLength(50);
      expect(statusLines.filter((status) => status === 429)).toHaveLength(1950);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      expect(health.status).toBe(200);
    });
  });
});

/** One complete modern `tools/list` POST as raw HTTP/1.1 text (keep-alive, so it can be pipelined). */
function rawHttpRequest(port: number): string {
  const body = JSON.stringify(modernRequest('tools/list', 1));
  const headers = {
    ...modernHeaders('tools/list'),
    Host: `127.0.0.1:${port}`,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
  };
  return `POST /mcp HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n${body}`;
}

/** Writes `count` copies of a request on one connection at once and returns everything read until all are answered. */
function pipelined(port: number, request: string, count: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(request.repeat(count)));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if ((received.match(/HTTP\/1\.1 \d{3} /g) ?? []).length >= count && received.endsWith('}')) {
        socket.end();
        resolve(received);
      }
    });
    socket.on('error', reject);
  });
}
