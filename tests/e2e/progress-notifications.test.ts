import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { connectV1Client, type V1Connection, type V1Transport } from '../support/sdk-v1-client';
import { modernHeaders, MODERN_META, startTestServer, type TestServer } from './http-harness';

/*
 * Issue 25: a `terminal_execute` that waits, with a progressToken in its `_meta`, sends `notifications/progress` on
 * its own stream (STDIO: stdout; HTTP: that POST's answer, which becomes SSE), with a progress that only grows and the
 * output's last lines as the message; a request without a token gets a plain JSON answer and no notification.
 * Against the built server (STDIO) and a real HTTP server, with the v1 SDK client's `onprogress`.
 */

jest.setTimeout(120_000);

/** Prints a line a second, three times: long enough for the first reports, whatever the machine's load. */
const TICKING = 'for i in 1 2 3 4; do echo tick $i; sleep 1; done';

describe.each<V1Transport>(['stdio', 'http'])('progress over %s (v1 SDK client)', (transport) => {
  let connection: V1Connection;

  beforeAll(async () => {
    connection = await connectV1Client(transport, { APPROVAL_MODE: 'sandboxed' });
  });

  afterAll(async () => {
    await connection.close();
  });

  test('a waiting terminal_execute reports growing progress with the output tail, and none after its result', async () => {
    const reports: Progress[] = [];
    const result = await connection.client.callTool(
      { name: 'terminal_execute', arguments: { command: TICKING } },
      undefined,
      { onprogress: (progress) => reports.push(progress) },
    );
    const reportsAtResult = reports.length;
    expect((result.structuredContent as { status: string }).status).toBe('succeeded');
    expect(reportsAtResult).toBeGreaterThanOrEqual(1);
    const values = reports.map((report) => report.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
    expect(reports.some((report) => /tick \d/.test(report.message ?? ''))).toBe(true);

    // Another call afterwards: its own reports only (the SDK would drop a stray token; none arrive for the old one).
    const later = await connection.client.callTool({ name: 'terminal_execute', arguments: { command: 'echo done' } });
    expect((later.structuredContent as { stdout: string }).stdout).toBe('done\n');
    expect(reports).toHaveLength(reportsAtResult);
  });
});

describe('progress over HTTP goes on the POST that asked for it', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ APPROVAL_MODE: 'sandboxed' });
  });

  afterAll(async () => {
    await server.stop();
  });

  function execute(id: string, meta: Record<string, unknown>): Promise<Response> {
    const body = {
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'terminal_execute', arguments: { command: TICKING }, _meta: { ...MODERN_META, ...meta } },
    };
    return fetch(server.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...modernHeaders('tools/call', 'terminal_execute') },
      body: JSON.stringify(body),
    });
  }

  test('the request with a token gets an SSE answer with its progress then its result; the one without gets plain JSON', async () => {
    const [withToken, without] = await Promise.all([
      execute('with-token', { progressToken: 'token-a' }),
      execute('without-token', {}),
    ]);

    expect(withToken.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await withToken.text())
      .split('\n\n')
      .filter((event) => event.trim() !== '')
      .map(
        (event) =>
          JSON.parse(
            event
              .split('\n')
              .find((line) => line.startsWith('data: '))
              ?.slice(6) ?? 'null',
          ) as Record<string, unknown>,
      );
    const last = events.at(-1) as { id: string; result: { structuredContent: { status: string } } };
    expect(last.id).toBe('with-token');
    expect(last.result.structuredContent.status).toBe('succeeded');
    const notifications = events.slice(0, -1) as Array<{
      method: string;
      params: { progressToken: string; progress: number };
    }>;
    expect(notifications.length).toBeGreaterThanOrEqual(1);
    for (const notification of notifications)
      expect(notification).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'token-a' } });

    expect(without.headers.get('content-type')).toMatch(/^application\/json/);
    const plain = (await without.json()) as { id: string; result: { structuredContent: { status: string } } };
    expect(plain.id).toBe('without-token');
    expect(plain.result.structuredContent.status).toBe('succeeded');
  });
});
