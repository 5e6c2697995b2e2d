import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createUiRouter, uiRouteHandlers, type UiRouteOptions } from '../../../src/adapters/web/ui-router';
import type { WebChat } from '../../../src/adapters/web/web-ports';
import { makeTempWorkspace } from '../../support/workspace';
import { CountingTerminalEvents } from './counting-terminal-events';

const noChat: WebChat = {
  available: false,
  send: () => Promise.reject(new Error('not used')),
  forget: () => undefined,
};

const UI_CONFIG = {
  approval_channel: 'client',
  mode: 'safe',
  protocol_version: '2026-07-28',
  chat: { available: false, model: null },
  limits: {
    command_timeout_seconds: 30,
    max_output_bytes: 65_536,
    session_timeout_seconds: 600,
    max_chat_message_chars: 10_000,
  },
} as const;

describe('createUiRouter (standalone, real sessions behind the TerminalEvents port)', () => {
  const workspace = makeTempWorkspace('term-mcp-ui-');
  let server: http.Server | undefined;
  let events: CountingTerminalEvents;
  const requests: http.ClientRequest[] = [];
  const opened: string[] = [];

  async function serve(options: Partial<UiRouteOptions> = {}): Promise<string> {
    events = new CountingTerminalEvents(workspace.root);
    const app = express();
    const handlers = uiRouteHandlers({
      events,
      chat: noChat,
      sessions: {
        create: () => {
          opened.push('opened');
          return events.create();
        },
      },
      heartbeatMs: 15_000,
      maxRequestBytes: 65_536,
      ...options,
    });
    app.use(createUiRouter(handlers, UI_CONFIG));
    const listening = http.createServer(app);
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  }

  function openStream(url: string): Promise<http.IncomingMessage> {
    const request = http.get(url);
    requests.push(request);
    return new Promise((resolve, reject) => {
      request.once('response', resolve);
      request.once('error', reject);
    });
  }

  async function readUntil(response: http.IncomingMessage, pattern: RegExp): Promise<string> {
    let text = '';
    for await (const chunk of response) {
      text += String(chunk);
      if (pattern.test(text)) return text;
    }
    return text;
  }

  async function waitFor(condition: () => boolean): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  afterEach(async () => {
    for (const request of requests.splice(0)) request.destroy();
    await events.closeAll();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    opened.splice(0);
  });

  afterAll(() => {
    workspace.remove();
  });

  it('streams hello, then the session events published on the port, and ends after session_closed', async () => {
    const base = await serve();
    const sessionId = events.create();
    const response = await openStream(`${base}/ui/events?session_id=${sessionId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.deprecation).toBeUndefined();
    await waitFor(() => events.subscriptions === 1);
    events.publish({ type: 'approved', sessionId, planId: 'plan-1', at: '2026-12-03T00:00:00.000Z' });
    await events.close(sessionId);

    const text = await readUntil(response, /event: session_closed\n/);
    const frames = [...text.matchAll(/event: (\w+)\ndata: (.*)\n\n/g)].map(([, event, data]) => [
      event,
      JSON.parse(data ?? 'null') as unknown,
    ]);
    expect(frames.filter(([event]) => event !== 'ping')).toEqual([
      ['hello', { ok: true, session: sessionId }],
      ['approved', { type: 'approved', sessionId, planId: 'plan-1', at: '2026-12-03T00:00:00.000Z' }],
      ['session_closed', { type: 'session_closed', sessionId, at: expect.any(String) }],
    ]);
    await waitFor(() => events.subscriptions === 0);
  });

  it('sends ping heartbeats on the configured interval', async () => {
    const base = await serve({ heartbeatMs: 30 });
    const sessionId = events.create();
    const response = await openStream(`${base}/ui/events?session_id=${sessionId}`);

    const text = await readUntil(response, /(event: ping\ndata: \{"ts":\d+\}\n\n[^]*){2}/);

    expect(text.startsWith(`event: hello\ndata: {"ok":true,"session":"${sessionId}"}\n\n`)).toBe(true);
    expect(text.match(/event: ping\ndata: \{"ts":\d+\}\n\n/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('drops a reader that stops reading once too much is buffered, and unsubscribes it', async () => {
    const base = await serve({ maxBufferedStreamBytes: 64 * 1024 });
    const sessionId = events.create();
    const response = await openStream(`${base}/ui/events?session_id=${sessionId}`);
    response.pause();
    await waitFor(() => events.subscriptions === 1);
    const text = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 400 && events.subscriptions > 0; i += 1) {
      events.publish({
        type: 'output',
        sessionId,
        commandId: 'c',
        stream: 'stdout',
        text,
        at: new Date().toISOString(),
      });
      await new Promise((resolve) => setImmediate(resolve));
    }

    await waitFor(() => events.subscriptions === 0);
    expect(events.subscriptions).toBe(0);
  });

  it('answers 404 unknown_session for a session that is not live and 400 without session_id, undeprecated', async () => {
    const base = await serve();
    const unknown = await fetch(`${base}/ui/events?session_id=no-such-session`);
    const missing = await fetch(`${base}/ui/events`);
    expect([unknown.status, await unknown.json()]).toEqual([
      404,
      { error: 'unknown_session', message: 'unknown or expired session' },
    ]);
    expect([missing.status, await missing.json()]).toEqual([
      400,
      { error: 'invalid_request', message: 'session_id is required' },
    ]);
    expect([unknown.headers.get('deprecation'), missing.headers.get('sunset')]).toEqual([null, null]);
    expect(events.subscriptions).toBe(0);
  });

  it('answers POST /ui/chat 503 chat_not_configured without a model, opening no session, and 400 for a bad body', async () => {
    const base = await serve();
    const post = (body: string): Promise<Response> =>
      fetch(`${base}/ui/chat`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    const unconfigured = await post(JSON.stringify({ message: 'list my files' }));
    const empty = await post(JSON.stringify({ message: '   ' }));
    const broken = await post('{"message":');
    expect([unconfigured.status, await unconfigured.json()]).toEqual([
      503,
      { error: 'chat_not_configured', message: 'The planning chat is not configured (DEEPSEEK_API_KEY is not set)' },
    ]);
    expect([empty.status, ((await empty.json()) as { error: string }).error]).toEqual([400, 'invalid_request']);
    expect([broken.status, ((await broken.json()) as { error: string }).error]).toEqual([400, 'invalid_request']);
    expect(opened).toEqual([]);
  });

  it('serves GET /ui/config as given, with the protocol version the UI speaks', async () => {
    const base = await serve();
    const reply = await fetch(`${base}/ui/config`);
    expect([reply.status, await reply.json()]).toEqual([200, UI_CONFIG]);
  });
});
