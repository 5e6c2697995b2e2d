import express from 'express';
import type { Logger } from '../../../src/application/logging/logger';
import { accessLog } from '../../../src/adapters/http/access-log';
import { listen, type Listening } from './listen';

class RecordingLogger implements Logger {
  readonly lines: Array<{ message: string; fields: Record<string, unknown> | undefined }> = [];
  info(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ message, fields });
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ message, fields });
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ message, fields });
  }
}

describe('accessLog', () => {
  let server: Listening;
  let logger: RecordingLogger;

  beforeEach(async () => {
    logger = new RecordingLogger();
    const app = express();
    app.use(accessLog(logger));
    app.use((_req, res) => {
      res.status(418).json({ ok: true });
    });
    server = await listen(app);
  });

  afterEach(async () => {
    await server.close();
  });

  async function waitForLine(): Promise<Record<string, unknown>> {
    for (let attempt = 0; attempt < 100 && logger.lines.length === 0; attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(logger.lines).toHaveLength(1);
    return logger.lines[0]?.fields ?? {};
  }

  it('logs method, path, status and duration for each request', async () => {
    await fetch(`${server.baseUrl}/mcp`, { method: 'POST', body: '{}' });

    const fields = await waitForLine();
    expect(fields).toEqual({ method: 'POST', path: '/mcp', status: 418, durationMs: expect.any(Number) });
  });

  it('never logs the query string, headers or body', async () => {
    const secret = 's3cret-token-value-that-must-not-leak';
    await fetch(`${server.baseUrl}/mcp?access_token=${secret}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secret}` },
      body: JSON.stringify({ secret }),
    });

    const fields = await waitForLine();
    expect(fields.path).toBe('/mcp');
    expect(JSON.stringify(logger.lines)).not.toContain(secret);
  });
});
