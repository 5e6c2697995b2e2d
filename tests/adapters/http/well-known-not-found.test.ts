import express from 'express';
import { wellKnownNotFound } from '../../../src/adapters/http/well-known-not-found';
import { listen, type Listening } from './listen';

describe('wellKnownNotFound', () => {
  let server: Listening | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function serve(): Promise<Listening> {
    const app = express();
    app.use(wellKnownNotFound());
    app.use((_req, res) => {
      res.status(401).send('auth');
    });
    server = await listen(app);
    return server;
  }

  it.each([
    '/.well-known/oauth-authorization-server',
    '/.well-known/oauth-protected-resource/mcp',
    '/mcp/.well-known/openid-configuration',
    '/.WELL-KNOWN/openid-configuration',
  ])('answers %s with a JSON-RPC shaped 404', async (path) => {
    const { baseUrl } = await serve();

    const response = await fetch(`${baseUrl}${path}`);

    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Not Found: this server publishes no such discovery document' },
    });
  });

  it.each(['/mcp', '/well-known', '/a.well-known/x', '/sessions'])('passes %s on to the next handler', async (path) => {
    const { baseUrl } = await serve();

    expect((await fetch(`${baseUrl}${path}`)).status).toBe(401);
  });
});
