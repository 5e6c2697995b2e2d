import express from 'express';
import { SignJWT } from 'jose';
import { bearerAuth, type BearerAuthOptions } from '../../../src/adapters/http/bearer-auth';
import { createJwtVerifier } from '../../../src/adapters/http/jwt-verifier';
import { listen, type Listening } from './listen';

const TOKEN = 'a-static-token-that-is-longer-than-32-chars';
const SECRET = 'a-jwt-secret-that-is-longer-than-thirty-two';

describe('bearerAuth', () => {
  let server: Listening | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function serve(options: BearerAuthOptions): Promise<string> {
    const app = express();
    app.use(bearerAuth(options));
    app.use((_req, res) => {
      res.json({ principal: res.locals.principal as unknown });
    });
    server = await listen(app);
    return `${server.baseUrl}/mcp`;
  }

  describe('with a static token', () => {
    it('accepts the token and names the principal static-token', async () => {
      const url = await serve({ staticToken: TOKEN });

      const response = await fetch(url, { headers: { Authorization: `Bearer ${TOKEN}` } });

      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ principal: 'static-token' });
    });

    it('accepts the scheme in any case', async () => {
      const url = await serve({ staticToken: TOKEN });

      const response = await fetch(url, { headers: { Authorization: `bEaReR ${TOKEN}` } });

      expect(response.status).toBe(200);
    });

    it('refuses a request without a token with 401, a Bearer challenge and a JSON-RPC error', async () => {
      const url = await serve({ staticToken: TOKEN });

      const response = await fetch(url);

      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="term-mcp"');
      expect(await response.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Unauthorized: send Authorization: Bearer <token>' },
      });
    });

    it('refuses a wrong token of the same length as invalid_token', async () => {
      const url = await serve({ staticToken: TOKEN });
      const wrong = `${TOKEN.slice(0, -1)}X`;

      const response = await fetch(url, { headers: { Authorization: `Bearer ${wrong}` } });

      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="term-mcp", error="invalid_token"');
    });

    it('refuses a wrong token of another length', async () => {
      const url = await serve({ staticToken: TOKEN });

      const response = await fetch(url, { headers: { Authorization: 'Bearer short' } });

      expect(response.status).toBe(401);
    });

    it('ignores a token in the query string', async () => {
      const url = await serve({ staticToken: TOKEN });

      const response = await fetch(`${url}?access_token=${TOKEN}`);

      expect(response.status).toBe(401);
    });

    it('refuses other schemes', async () => {
      const url = await serve({ staticToken: TOKEN });

      const response = await fetch(url, {
        headers: { Authorization: `Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}` },
      });

      expect(response.status).toBe(401);
    });

    it('refuses everything when neither a token nor JWTs are configured', async () => {
      const url = await serve({});

      const response = await fetch(url, { headers: { Authorization: 'Bearer anything' } });

      expect(response.status).toBe(401);
    });
  });

  describe('with JWTs', () => {
    const jwt = createJwtVerifier({ jwtSecret: SECRET, jwtIssuer: 'https://issuer.example', jwtAudience: 'term-mcp' });

    async function mint(subject: string): Promise<string> {
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(subject)
        .setIssuer('https://issuer.example')
        .setAudience('term-mcp')
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(SECRET));
    }

    it('accepts a valid JWT and names the principal by its subject', async () => {
      const url = await serve({ staticToken: TOKEN, jwt });

      const response = await fetch(url, { headers: { Authorization: `Bearer ${await mint('alice')}` } });

      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ principal: 'alice' });
    });

    it('still accepts the static token next to JWTs', async () => {
      const url = await serve({ staticToken: TOKEN, jwt });

      const response = await fetch(url, { headers: { Authorization: `Bearer ${TOKEN}` } });

      expect(await response.json()).toEqual({ principal: 'static-token' });
    });

    it('refuses a JWT whose subject impersonates the static-token principal', async () => {
      const url = await serve({ staticToken: TOKEN, jwt });

      const response = await fetch(url, { headers: { Authorization: `Bearer ${await mint('static-token')}` } });

      expect(response.status).toBe(401);
    });

    it('points the challenge at the protected resource metadata', async () => {
      const url = await serve({ jwt });

      const response = await fetch(url);

      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        `Bearer realm="term-mcp", resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource"`,
      );
    });

    it('uses the public URL in the challenge when one is configured', async () => {
      const url = await serve({ jwt, publicUrl: 'https://term.example.com/' });

      const response = await fetch(url, { headers: { Authorization: 'Bearer not-a-jwt' } });

      expect(response.headers.get('www-authenticate')).toBe(
        'Bearer realm="term-mcp", error="invalid_token", resource_metadata="https://term.example.com/.well-known/oauth-protected-resource"',
      );
    });
  });
});
