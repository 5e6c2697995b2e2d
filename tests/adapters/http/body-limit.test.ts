import express from 'express';
import { bodyLimit } from '../../../src/adapters/http/body-limit';
import { listen, type Listening } from './listen';

describe('bodyLimit', () => {
  let server: Listening;

  beforeEach(async () => {
    const app = express();
    app.use(bodyLimit(1024));
    app.use((req, res) => {
      res.json({ received: req.body === undefined ? 'nothing' : req.body });
    });
    server = await listen(app);
  });

  afterEach(async () => {
    await server.close();
  });

  it('parses a JSON body whatever its content type', async () => {
    const response = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: '{"a":1}',
    });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: { a: 1 } });
  });

  it('refuses a body over the limit with 413 and a JSON-RPC -32600 error', async () => {
    const response = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      body: JSON.stringify({ padding: 'x'.repeat(2048) }),
    });

    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Request body exceeds 1024 bytes' },
    });
  });

  it('refuses a chunked body that grows over the limit', async () => {
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let index = 0; index < 4; index += 1) controller.enqueue(new TextEncoder().encode('x'.repeat(512)));
        controller.close();
      },
    });

    const response = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      body: chunks,
      duplex: 'half',
    } as RequestInit);

    expect(response.status).toBe(413);
  });

  it('refuses invalid JSON with 400 and a JSON-RPC -32700 parse error', async () => {
    const response = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"jsonrpc":',
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the body is not valid JSON' },
    });
  });

  it('leaves an empty body undefined for the route to judge', async () => {
    const response = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '',
    });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: 'nothing' });
  });
});

describe('bodyLimit with paths that read their own bodies', () => {
  let server: Listening;

  beforeEach(async () => {
    const app = express();
    app.use(bodyLimit(1024, ['/receipts/validate']));
    app.use((req, res) => {
      res.json({ readByTransport: req.body !== undefined, complete: req.complete });
    });
    server = await listen(app);
  });

  afterEach(async () => {
    await server.close();
  });

  it('leaves those bodies unread, whatever their size, with or without a trailing slash or capitals', async () => {
    for (const route of ['/receipts/validate', '/receipts/validate/', '/Receipts/Validate']) {
      const response = await fetch(`${server.baseUrl}${route}`, {
        method: 'POST',
        body: JSON.stringify({ padding: 'x'.repeat(4096) }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ readByTransport: false });
    }
  });

  it('still limits every other path', async () => {
    const response = await fetch(`${server.baseUrl}/receipts/redact`, {
      method: 'POST',
      body: JSON.stringify({ padding: 'x'.repeat(4096) }),
    });
    expect(response.status).toBe(413);
  });
});
