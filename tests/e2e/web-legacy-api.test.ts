import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { TerminalSessionStore } from '../../src/application/terminal/terminal-session-store';
import { TYPES } from '../../src/main/types';
import { modernHeaders, modernRequest, post, startTestServer, type TestServer } from './http-harness';
import { web } from './web-harness';

const SUNSET = 'Fri, 27 Aug 2027 00:00:00 GMT';
/** Every module of the browser UI (static/*.js): each is served, as JavaScript, without an external URL. */
const UI_MODULES = readdirSync(path.join(__dirname, '..', '..', 'static')).filter((name) => name.endsWith('.js'));
const LINK = '</docs/compatibility.md>; rel="deprecation"';

function deprecationOf(headers: Headers): Record<string, string | null> {
  return { deprecation: headers.get('deprecation'), sunset: headers.get('sunset'), link: headers.get('link') };
}

const DEPRECATED = { deprecation: 'true', sunset: SUNSET, link: LINK };
const NOT_DEPRECATED = { deprecation: null, sunset: null, link: null };

describe('legacy web API over HTTP', () => {
  let server: TestServer;

  beforeEach(async () => {
    server = await startTestServer();
  });

  afterEach(async () => {
    await server.stop();
  });

  it('creates a session with POST /sessions and closes it with DELETE /sessions/{id}', async () => {
    const created = await web(server, 'POST', '/sessions');
    expect(created.status).toBe(201);
    const sessionId = String(created.json?.session_id);
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const registry = server.handle.container.get<TerminalSessionStore>(TYPES.TerminalSessionStore);
    expect(registry.find(sessionId)?.cwd).toBe(server.workspaceRoot);

    const closed = await web(server, 'DELETE', `/sessions/${sessionId}`);
    expect(closed.status).toBe(200);
    expect(closed.json).toEqual({ closed: true });
    expect(registry.find(sessionId)).toBeUndefined();

    const again = await web(server, 'DELETE', `/sessions/${sessionId}`);
    expect(again.status).toBe(404);
    expect(again.json).toEqual({ error: 'unknown_session', message: 'unknown or expired session' });
  });

  it('serves the page its deprecation Link points to, publicly, as markdown', async () => {
    const reply = await fetch(new URL('/docs/compatibility.md', server.handle.url));
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await reply.text()).toContain('# ');
    // Not a docs page, so it falls through to the authenticated routes: never the file outside docs/.
    const traversal = await fetch(new URL('/docs/..%2Fpackage.json', server.handle.url));
    expect(traversal.status).toBe(401);
    expect(await traversal.text()).not.toContain('"devDependencies"');
  });

  it('puts the deprecation headers on every compatibility response, errors and 401s included', async () => {
    const created = await web(server, 'POST', '/sessions');
    const replies = [
      created,
      await web(server, 'DELETE', `/sessions/${String(created.json?.session_id)}`),
      await web(server, 'DELETE', '/sessions/00000000-0000-0000-0000-000000000000'),
      await web(server, 'GET', '/stream?session_id=00000000-0000-0000-0000-000000000000'),
      await web(server, 'GET', '/stream'),
      await web(server, 'POST', '/chat', { body: { message: 'hi' } }),
      await web(server, 'POST', '/sessions', { token: null }),
      await web(server, 'GET', '/stream?session_id=x', { token: null }),
      await web(server, 'POST', '/chat', { body: { message: 'hi' }, token: null }),
    ];
    expect(replies.map((reply) => reply.status)).toEqual([201, 200, 404, 404, 400, 503, 401, 401, 401]);
    for (const reply of replies) expect(deprecationOf(reply.headers)).toEqual(DEPRECATED);
  });

  it('leaves /health, /mcp, the UI and its routes (/ui/config, /ui/events, /ui/chat) without deprecation headers', async () => {
    const health = await web(server, 'GET', '/health', { token: null });
    const mcp = await post(server.url, modernRequest('tools/list', 1), modernHeaders('tools/list'));
    const config = await web(server, 'GET', '/ui/config');
    const page = await web(server, 'GET', '/', { token: null });
    const events = await web(server, 'GET', '/ui/events?session_id=00000000-0000-0000-0000-000000000000');
    const chat = await web(server, 'POST', '/ui/chat', { body: { message: 'hi' } });
    const refused = await web(server, 'GET', '/ui/events?session_id=x', { token: null });
    expect([health, mcp, config, page, events, chat, refused].map((reply) => reply.status)).toEqual([
      200, 200, 200, 200, 404, 503, 401,
    ]);
    for (const reply of [health, mcp, config, page, events, chat, refused])
      expect(deprecationOf(reply.headers)).toEqual(NOT_DEPRECATED);
  });

  it.each([
    ['POST', '/sessions'],
    ['DELETE', '/sessions/00000000-0000-0000-0000-000000000000'],
    ['GET', '/stream?session_id=00000000-0000-0000-0000-000000000000'],
    ['POST', '/chat'],
    ['GET', '/ui/config'],
    ['GET', '/ui/events?session_id=00000000-0000-0000-0000-000000000000'],
    ['POST', '/ui/chat'],
  ])('refuses %s %s without a token (401) and with a wrong one (401)', async (method, path) => {
    const body = method === 'POST' ? { message: 'hi' } : undefined;
    const missing = await web(server, method, path, { body, token: null });
    const wrong = await web(server, method, path, { body, token: 'x'.repeat(40) });
    expect([missing.status, wrong.status]).toEqual([401, 401]);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('gives the UI its settings and no secrets on GET /ui/config', async () => {
    const reply = await web(server, 'GET', '/ui/config');
    expect(reply.json).toEqual({
      approval_channel: 'client',
      mode: 'inspect',
      protocol_version: '2026-07-28',
      chat: { available: false, model: null },
      limits: {
        command_timeout_seconds: 20,
        max_output_bytes: 1_048_576,
        session_timeout_seconds: 3600,
        max_chat_message_chars: 10_000,
      },
    });
    expect(reply.text).not.toContain(server.workspaceRoot);
  });

  it('serves the UI publicly, same-origin only, with relative paths and without external URLs', async () => {
    const page = await web(server, 'GET', '/', { token: null });
    const scripts = await Promise.all(UI_MODULES.map((name) => web(server, 'GET', `/static/${name}`, { token: null })));
    const style = await web(server, 'GET', '/static/app.css', { token: null });
    expect([page.status, style.status, ...scripts.map((script) => script.status)]).toEqual(
      Array(UI_MODULES.length + 2).fill(200),
    );
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    for (const script of scripts) expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    // Relative, so the page also works where a host app mounts term-mcp under a prefix.
    expect(page.text).toContain('<script type="module" src="static/app.js"></script>');
    expect(page.text).not.toMatch(/(src|href)="\//);
    expect(page.text).toContain('Approval-first mission control');
    for (const asset of [page.text, style.text, ...scripts.map((script) => script.text)])
      expect(asset).not.toMatch(/https?:\/\//);
    const code = scripts.map((script) => script.text).join('\n');
    expect(code).toContain('sessionStorage');
    expect(code).not.toContain('localStorage');
    expect(style.text).toContain('@media (max-width: 520px)');
  });

  it('serves xterm.js from its npm package under /vendor, and only the files it names', async () => {
    const xterm = await web(server, 'GET', '/vendor/xterm.mjs', { token: null });
    const fit = await web(server, 'GET', '/vendor/addon-fit.mjs', { token: null });
    const css = await web(server, 'GET', '/vendor/xterm.css', { token: null });
    expect([xterm.status, fit.status, css.status]).toEqual([200, 200, 200]);
    expect(xterm.headers.get('content-type')).toMatch(/javascript/);
    expect(xterm.text).toContain('export{');
    expect(xterm.text).toContain('as Terminal}');
    expect(fit.text).toContain('as FitAddon}');
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    for (const path of ['/vendor/package.json', '/vendor/xterm.js', '/vendor/..%2fpackage.json']) {
      const other = await web(server, 'GET', path, { token: null });
      expect(other.status).toBe(401);
    }
  });

  it('serves nothing outside static/ under /static', async () => {
    const escape = await web(server, 'GET', '/static/..%2fpackage.json', { token: null });
    const missing = await web(server, 'GET', '/static/missing.js', { token: null });
    expect(escape.status).not.toBe(200);
    expect(escape.text).not.toContain('"name": "term-mcp"');
    expect(missing.status).toBe(401);
  });
});
