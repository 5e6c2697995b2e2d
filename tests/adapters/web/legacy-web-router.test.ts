import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { ChildProcessSessionFactory } from '../../../src/adapters/process/child-process-session-factory';
import { createLegacyWebRouter, type LegacyWebRouterOptions } from '../../../src/adapters/web/legacy-web-router';
import type { WebChat, WebSessions } from '../../../src/adapters/web/web-ports';
import { SessionNotFound } from '../../../src/domain/execution/execution-errors';
import type { ExecutionSession } from '../../../src/domain/execution/execution-session';
import { sandboxFor } from '../../support/sandbox';
import { makeTempWorkspace } from '../../support/workspace';

/** Real child-process sessions in a temp directory, counting live event subscriptions. */
class CountingSessions implements WebSessions {
  readonly sessions = new Map<string, ExecutionSession>();
  subscriptions = 0;
  private readonly factory: ChildProcessSessionFactory;
  private next = 0;

  constructor(private readonly cwd: string) {
    this.factory = new ChildProcessSessionFactory({ confinement: sandboxFor(cwd) });
  }

  create(): string {
    this.next += 1;
    const session = this.factory.create({ id: `session-${this.next}`, cwd: this.cwd });
    const subscribe = session.subscribe.bind(session);
    session.subscribe = (listener) => {
      this.subscriptions += 1;
      const unsubscribe = subscribe(listener);
      return () => {
        this.subscriptions -= 1;
        unsubscribe();
      };
    };
    this.sessions.set(session.id, session);
    return session.id;
  }

  find(sessionId: string): ExecutionSession | undefined {
    return this.sessions.get(sessionId);
  }

  async close(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) throw new SessionNotFound(sessionId);
    this.sessions.delete(sessionId);
    await session.close();
  }
}

const noChat: WebChat = {
  available: false,
  send: () => Promise.reject(new Error('not used')),
  forget: () => undefined,
};

describe('createLegacyWebRouter (standalone, real sessions)', () => {
  const workspace = makeTempWorkspace('term-mcp-web-');
  let server: http.Server | undefined;
  let sessions: CountingSessions;
  const requests: http.ClientRequest[] = [];

  async function serve(options: Partial<LegacyWebRouterOptions> = {}): Promise<string> {
    sessions = new CountingSessions(workspace.root);
    const app = express();
    app.use(
      createLegacyWebRouter({
        sessions,
        chat: noChat,
        deprecation: { sunset: 'Fri, 27 Aug 2027 00:00:00 GMT', link: '/docs/compatibility.md' },
        heartbeatMs: 15_000,
        maxRequestBytes: 65_536,
        ...options,
      }),
    );
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
    const deadline = Date.now() + 5000;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  afterEach(async () => {
    for (const request of requests.splice(0)) request.destroy();
    await Promise.all([...sessions.sessions.values()].map((session) => session.close()));
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  afterAll(() => {
    workspace.remove();
  });

  it('sends ping heartbeats on the configured interval', async () => {
    const base = await serve({ heartbeatMs: 30 });
    const sessionId = sessions.create();
    const response = await openStream(`${base}/stream?session_id=${sessionId}`);

    const text = await readUntil(response, /(event: ping\ndata: \{"ts":\d+\}\n\n[^]*){2}/);

    expect(text.startsWith(`event: hello\ndata: {"ok":true,"session":"${sessionId}"}\n\n`)).toBe(true);
    expect(text.match(/event: ping\ndata: \{"ts":\d+\}\n\n/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('drops a reader that stops reading once too much is buffered, and unsubscribes it', async () => {
    const base = await serve({ maxBufferedStreamBytes: 64 * 1024 });
    const sessionId = sessions.create();
    const response = await openStream(`${base}/stream?session_id=${sessionId}`);
    response.pause();
    await waitFor(() => sessions.subscriptions === 1);
    const session = sessions.find(sessionId);
    const text = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 400 && sessions.subscriptions > 0; i += 1) {
      session?.publish({ type: 'output', sessionId, commandId: 'c', stream: 'stdout', text, at: new Date().toISOString() });
      await new Promise((resolve) => setImmediate(resolve));
    }

    await waitFor(() => sessions.subscriptions === 0);
    expect(sessions.subscriptions).toBe(0);
  });

  it('marks its own error answers as deprecated', async () => {
    const base = await serve();
    const response = await fetch(`${base}/sessions/unknown-session`, { method: 'DELETE' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'unknown_session', message: 'unknown or expired session' });
    expect([response.headers.get('deprecation'), response.headers.get('link')]).toEqual(['true', '</docs/compatibility.md>; rel="deprecation"']);
  });
});
