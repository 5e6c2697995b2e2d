import express from 'express';
import { securityHeaders } from '../../../src/adapters/http/security-headers';
import { listen, type Listening } from './listen';

describe('securityHeaders', () => {
  let server: Listening;

  beforeEach(async () => {
    const app = express();
    app.use(securityHeaders());
    app.use((_req, res) => {
      res.json({ ok: true });
    });
    server = await listen(app);
  });

  afterEach(async () => {
    await server.close();
  });

  it('sets nosniff, a same-origin CSP without inline scripts, and frame protection', async () => {
    const response = await fetch(`${server.baseUrl}/anything`);

    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('content-security-policy')).not.toContain("unsafe-inline'; script");
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('does not announce the framework', async () => {
    const response = await fetch(`${server.baseUrl}/`);

    expect(response.headers.get('x-powered-by')).toBeNull();
  });
});
