import express from 'express';
import { protectedResourceMetadata } from '../../../src/adapters/http/protected-resource-metadata';
import { listen, type Listening } from './listen';

describe('protectedResourceMetadata', () => {
  let server: Listening | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function serve(publicUrl?: string): Promise<Listening> {
    const app = express();
    app.use(protectedResourceMetadata({ issuer: 'https://issuer.example', publicUrl }));
    server = await listen(app);
    return server;
  }

  it('publishes the RFC 9728 document for the MCP endpoint', async () => {
    const { baseUrl } = await serve();

    const response = await fetch(`${baseUrl}/.well-known/oauth-protected-resource`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      resource: `${baseUrl}/mcp`,
      authorization_servers: ['https://issuer.example'],
      bearer_methods_supported: ['header'],
      resource_name: 'term-mcp',
    });
  });

  it('also answers at the path-suffixed location MCP clients try first', async () => {
    const { baseUrl } = await serve();

    const response = await fetch(`${baseUrl}/.well-known/oauth-protected-resource/mcp`);

    expect(response.status).toBe(200);
  });

  it('names the resource by the public URL when one is configured', async () => {
    const { baseUrl } = await serve('https://term.example.com/');

    const response = await fetch(`${baseUrl}/.well-known/oauth-protected-resource`);

    expect(((await response.json()) as { resource: string }).resource).toBe('https://term.example.com/mcp');
  });
});
