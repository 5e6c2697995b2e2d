import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLegacyWebRouter, legacyWebMounts } from '../../../src/adapters/legacy-web/legacy-web-router';
import { uiRouteHandlers } from '../../../src/adapters/web/ui-router';
import type { WebChat } from '../../../src/adapters/web/web-ports';
import { SessionNotFound } from '../../../src/domain/execution/execution-errors';
import { makeTempWorkspace } from '../../support/workspace';
import { CountingTerminalEvents } from '../web/counting-terminal-events';

const noChat: WebChat = {
  available: false,
  send: () => Promise.reject(new Error('not used')),
  forget: () => undefined,
};

const DEPRECATION = { sunset: 'Fri, 27 Aug 2027 00:00:00 GMT', link: '/docs/compatibility.md' };

/**
 * The deprecated routes on their own, over real sessions: they lend the current web adapter's handlers (stream,
 * chat, errors) and add only `/sessions` and the deprecation headers.
 */
describe('createLegacyWebRouter (standalone, real sessions)', () => {
  const workspace = makeTempWorkspace('term-mcp-legacy-web-');
  let server: http.Server | undefined;
  let events: CountingTerminalEvents;
  const forgotten: string[] = [];
  const requests: http.ClientRequest[] = [];

  async function serve(app = express()): Promise<string> {
    const listening = http.createServer(app);
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  }

  function options(): Parameters<typeof createLegacyWebRouter>[0] {
    events = new CountingTerminalEvents(workspace.root);
    const sessions = {
      create: () => events.create(),
      close: async (sessionId: string) => {
        if (!events.sessions.has(sessionId)) throw new SessionNotFound(sessionId);
        await events.close(sessionId);
      },
    };
    const chat: WebChat = { ...noChat, forget: (sessionId) => void forgotten.push(sessionId) };
    const current = uiRouteHandlers({ events, chat, sessions, heartbeatMs: 15_000, maxRequestBytes: 65_536 });
    return { sessions, chat, current, deprecation: DEPRECATION };
  }

  function expectDeprecated(response: Response | http.IncomingMessage): void {
    const header = (name: string): string | null =>
      response instanceof Response
        ? response.headers.get(name)
        : ((response.headers[name] as string | undefined) ?? null);
    expect([header('deprecation'), header('sunset'), header('link')]).toEqual([
      'true',
      DEPRECATION.sunset,
      '</docs/compatibility.md>; rel="deprecation"',
    ]);
  }

  afterEach(async () => {
    for (const request of requests.splice(0)) request.destroy();
    await events.closeAll();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    forgotten.splice(0);
  });

  afterAll(() => {
    workspace.remove();
  });

  it("creates and closes sessions, forgetting the closed session's chat, each answer deprecated", async () => {
    const app = express();
    app.use(createLegacyWebRouter(options()));
    const base = await serve(app);
    const created = await fetch(`${base}/sessions`, { method: 'POST' });
    const { session_id: sessionId } = (await created.json()) as { session_id: string };
    expect(created.status).toBe(201);
    expectDeprecated(created);
    expect(events.sessions.has(sessionId)).toBe(true);

    const closed = await fetch(`${base}/sessions/${sessionId}`, { method: 'DELETE' });
    expect([closed.status, await closed.json()]).toEqual([200, { closed: true }]);
    expectDeprecated(closed);
    expect(events.sessions.has(sessionId)).toBe(false);
    expect(forgotten).toEqual([sessionId]);
  });

  it('marks its own error answers as deprecated', async () => {
    const app = express();
    app.use(createLegacyWebRouter(options()));
    const base = await serve(app);
    const response = await fetch(`${base}/sessions/unknown-session`, { method: 'DELETE' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'unknown_session', message: 'unknown or expired session' });
    expectDeprecated(response);
    const chat = await fetch(`${base}/chat`, { method: 'POST', body: '{"message":"hi"}' });
    expect([chat.status, ((await chat.json()) as { error: string }).error]).toEqual([503, 'chat_not_configured']);
    expectDeprecated(chat);
    expect(forgotten).toEqual([]);
  });

  it('serves GET /stream with the current stream handler, deprecated', async () => {
    const app = express();
    app.use(createLegacyWebRouter(options()));
    const base = await serve(app);
    const sessionId = events.create();
    const request = http.get(`${base}/stream?session_id=${sessionId}`);
    requests.push(request);
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      request.once('response', resolve);
      request.once('error', reject);
    });
    expect(response.statusCode).toBe(200);
    expectDeprecated(response);
    let text = '';
    for await (const chunk of response) {
      text += String(chunk);
      if (text.includes('\n\n')) break;
    }
    expect(text).toBe(`event: hello\ndata: {"ok":true,"session":"${sessionId}"}\n\n`);
  });

  it('as two hooks: the deprecation headers before auth (so a 401 carries them), the routes behind it', async () => {
    const mounts = legacyWebMounts(options());
    const app = express();
    const publicRoutes = express.Router();
    mounts.mountPublic(publicRoutes);
    app.use(publicRoutes);
    app.use((_req, res) => {
      res.status(401).json({ error: 'unauthorized' });
    });
    const base = await serve(app);
    const refused = await fetch(`${base}/sessions`, { method: 'POST' });
    expect(refused.status).toBe(401);
    expectDeprecated(refused);
    const other = await fetch(`${base}/ui/config`);
    expect([other.status, other.headers.get('deprecation')]).toEqual([401, null]);
  });
});
