import express from 'express';
import { healthRoute } from '../../../src/adapters/http/health-route';
import { listen, type Listening } from './listen';

describe('healthRoute', () => {
  let server: Listening;

  beforeEach(async () => {
    const app = express();
    app.use(healthRoute({ name: 'term-mcp', version: '9.9.9' }));
    app.use((_req, res) => {
      res.status(401).end();
    });
    server = await listen(app);
  });

  afterEach(async () => {
    await server.close();
  });

  it('answers GET /health with status, name and version, without credentials', async () => {
    const response = await fetch(`${server.baseUrl}/health`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', name: 'term-mcp', version: '9.9.9' });
  });

  it('serves nothing else', async () => {
    const response = await fetch(`${server.baseUrl}/health/extra`);

    expect(response.status).toBe(401);
  });
});
