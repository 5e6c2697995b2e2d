import express from 'express';
import { silentLogger } from '../../../src/application/logging/logger';
import { authFailureRateLimit, principalRateLimit } from '../../../src/adapters/http/rate-limit';
import { listen, type Listening } from './listen';

/** A stand-in auth step: tokens starting with "good-" authenticate as themselves, anything else gets 401. */
function fakeAuth(req: express.Request, res: express.Response, next: express.NextFunction): void {
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (token?.startsWith('good-')) {
    res.locals.principal = token;
    next();
    return;
  }
  res.status(401).json({ error: 'unauthorized' });
}

describe('rate limits', () => {
  let server: Listening;

  beforeEach(async () => {
    const app = express();
    app.use(authFailureRateLimit({ perMinute: 3, logger: silentLogger }));
    app.use(fakeAuth);
    app.use(principalRateLimit({ perMinute: 3, logger: silentLogger }));
    app.use((_req, res) => {
      res.json({ ok: true });
    });
    server = await listen(app);
  });

  afterEach(async () => {
    await server.close();
  });

  async function hit(token?: string): Promise<Response> {
    return fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
  }

  it('answers 429 with Retry-After, draft-8 RateLimit headers and a JSON-RPC error once a principal spent its budget', async () => {
    for (let index = 0; index < 3; index += 1) expect((await hit('good-a')).status).toBe(200);

    const limited = await hit('good-a');

    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit')).toMatch(/r=0; t=\d+/);
    expect(limited.headers.get('ratelimit-policy')).toMatch(/q=3; w=60/);
    expect(await limited.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Too many requests: slow down and retry after the Retry-After delay' },
    });
  });

  it('keeps a separate budget per authenticated principal', async () => {
    for (let index = 0; index < 3; index += 1) await hit('good-a');

    expect((await hit('good-a')).status).toBe(429);
    expect((await hit('good-b')).status).toBe(200);
  });

  it('limits token guessing per address even when every guess uses a new made-up token', async () => {
    for (let index = 0; index < 3; index += 1) expect((await hit(`guess-${index}`)).status).toBe(401);

    expect((await hit('guess-new')).status).toBe(429);
    expect((await hit()).status).toBe(429);
  });

  it('does not spend the address budget on authenticated requests', async () => {
    for (let index = 0; index < 3; index += 1) await hit(`good-${index}`);
    for (let index = 0; index < 2; index += 1) expect((await hit(`guess-${index}`)).status).toBe(401);
  });
});
