import express from 'express';
import { ConfigurationError } from '../../../src/domain/errors';
import { originGuard, type OriginGuardOptions } from '../../../src/adapters/http/origin-guard';
import { listen, rawRequest, type Listening } from './listen';

describe('originGuard', () => {
  let server: Listening | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function serve(options: OriginGuardOptions): Promise<Listening> {
    const app = express();
    app.use(originGuard(options));
    app.use((_req, res) => {
      res.json({ passed: true });
    });
    server = await listen(app);
    return server;
  }

  it('lets a request without Origin through', async () => {
    const { baseUrl } = await serve({ host: '127.0.0.1' });

    const response = await fetch(`${baseUrl}/mcp`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ passed: true });
  });

  it('allows the loopback origins of the bound port by default and answers with CORS headers', async () => {
    const { baseUrl, port } = await serve({ host: '127.0.0.1' });

    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const response = await fetch(`${baseUrl}/mcp`, { headers: { Origin: origin } });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(response.headers.get('vary')).toContain('Origin');
    }
  });

  it('refuses a forged Origin with 403 and a JSON-RPC error that has no id', async () => {
    const { baseUrl } = await serve({ host: '127.0.0.1' });

    const response = await fetch(`${baseUrl}/mcp`, { headers: { Origin: 'https://evil.example' } });

    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Forbidden: Origin is not allowed' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses the opaque "null" origin', async () => {
    const { baseUrl } = await serve({ host: '127.0.0.1' });

    const response = await fetch(`${baseUrl}/mcp`, { headers: { Origin: 'null' } });

    expect(response.status).toBe(403);
  });

  it('uses ALLOWED_ORIGINS instead of the defaults when it is set', async () => {
    const { baseUrl, port } = await serve({ host: '127.0.0.1', allowedOrigins: ['https://app.example.com'] });

    const listed = await fetch(`${baseUrl}/mcp`, { headers: { Origin: 'https://APP.example.com' } });
    const unlisted = await fetch(`${baseUrl}/mcp`, { headers: { Origin: `http://127.0.0.1:${port}` } });

    expect(listed.status).toBe(200);
    expect(unlisted.status).toBe(403);
  });

  it('allows the public URL origin by default', async () => {
    const { baseUrl } = await serve({ host: '127.0.0.1', publicUrl: 'https://term.example.com/' });

    const response = await fetch(`${baseUrl}/mcp`, { headers: { Origin: 'https://term.example.com' } });

    expect(response.status).toBe(200);
  });

  it('answers the CORS preflight of an allowed origin before authentication', async () => {
    const { baseUrl, port } = await serve({ host: '127.0.0.1' });

    const response = await fetch(`${baseUrl}/mcp`, {
      method: 'OPTIONS',
      headers: { Origin: `http://localhost:${port}`, 'Access-Control-Request-Method': 'POST' },
    });

    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toContain('Mcp-Session-Id');
    expect(response.headers.get('access-control-allow-methods')).toContain('DELETE');
  });

  it('refuses a wildcard in ALLOWED_ORIGINS at start-up', () => {
    expect(() => originGuard({ host: '127.0.0.1', allowedOrigins: ['*'] })).toThrow(ConfigurationError);
    expect(() => originGuard({ host: '127.0.0.1', allowedOrigins: ['https://*.example.com'] })).toThrow(
      /ALLOWED_ORIGINS/,
    );
  });

  it('refuses an ALLOWED_ORIGINS entry that is not an http(s) origin', () => {
    expect(() => originGuard({ host: '127.0.0.1', allowedOrigins: ['not a url'] })).toThrow(
      /ALLOWED_ORIGINS: not an http\(s\) origin/,
    );
  });

  describe('Host header on a loopback bind (DNS rebinding)', () => {
    it('refuses a foreign host name with 403', async () => {
      const { port } = await serve({ host: '127.0.0.1' });

      const response = await rawRequest(port, { path: '/mcp', headers: { Host: `evil.example:${port}` } });

      expect(response.status).toBe(403);
      expect(JSON.parse(response.body)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Forbidden: the Host header does not name this server' },
      });
    });

    it('refuses a Host header that smuggles userinfo', async () => {
      const { port } = await serve({ host: '127.0.0.1' });

      const response = await rawRequest(port, { path: '/mcp', headers: { Host: `evil.example@127.0.0.1:${port}` } });

      expect(response.status).toBe(403);
    });

    it('accepts localhost, 127.0.0.1 and [::1] with any port', async () => {
      const { port } = await serve({ host: '127.0.0.1' });

      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, '[::1]:9', 'LOCALHOST']) {
        const response = await rawRequest(port, { path: '/mcp', headers: { Host: host } });
        expect(response.status).toBe(200);
      }
    });

    it('accepts the public URL host name', async () => {
      const { port } = await serve({ host: 'localhost', publicUrl: 'https://term.example.com' });

      const response = await rawRequest(port, { path: '/mcp', headers: { Host: 'term.example.com' } });

      expect(response.status).toBe(200);
    });

    it('does not check Host when bound to a non-loopback address', async () => {
      const { port } = await serve({ host: '0.0.0.0' });

      const response = await rawRequest(port, { path: '/mcp', headers: { Host: 'evil.example' } });

      expect(response.status).toBe(200);
    });
  });
});
