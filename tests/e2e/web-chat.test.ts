import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TerminalSessionStore } from '../../src/application/terminal/terminal-session-store';
import { TYPES } from '../../src/main/types';
import { FakeDeepSeekServer, type FakeReply } from '../adapters/deepseek/fake-deepseek-server';
import { startTestServer, type TestServer } from './http-harness';
import { web } from './web-harness';

const API_KEY = 'sk-e2e-deepseek-key-0123456789';
const LEAKY_SECRET = 'sk-live-PROVIDER-ECHOED-SECRET-42';

const SUGGESTING_REPLY = [
  'Nothing runs from here. You could plan:',
  '```sh',
  'ls -la',
  'rm -rf /',
  'touch model-created.txt',
  '```',
  'CMD: touch cmd-marker.txt',
].join('\n');

describe('POST /chat (planning chat)', () => {
  let server: TestServer | undefined;
  let deepseek: FakeDeepSeekServer | undefined;

  afterEach(async () => {
    await server?.stop();
    await deepseek?.stop();
    server = undefined;
    deepseek = undefined;
  });

  async function startWithFake(script: FakeReply[]): Promise<TestServer> {
    deepseek = new FakeDeepSeekServer(script);
    const baseUrl = await deepseek.start();
    server = await startTestServer({
      DEEPSEEK_API_KEY: API_KEY,
      DEEPSEEK_BASE_URL: baseUrl,
      DEEPSEEK_MAX_RETRIES: '1',
      DEEPSEEK_BACKOFF: '0.01',
    });
    return server;
  }

  it('answers 503 chat_not_configured without an API key, and creates no session', async () => {
    server = await startTestServer();
    const reply = await web(server, 'POST', '/chat', { body: { message: 'list my files' } });
    expect(reply.status).toBe(503);
    expect(reply.json).toEqual({
      error: 'chat_not_configured',
      message: 'The planning chat is not configured (DEEPSEEK_API_KEY is not set)',
    });
    expect(server.handle.container.get<TerminalSessionStore>(TYPES.TerminalSessionStore).list()).toHaveLength(0);
  });

  it('returns the reply with its suggestions planned, a destructive one blocked, and runs nothing', async () => {
    const running = await startWithFake([{ kind: 'reply', content: SUGGESTING_REPLY }]);
    const reply = await web(running, 'POST', '/chat', { body: { message: 'clean up my workspace' } });

    expect(reply.status).toBe(200);
    const sessionId = String(reply.json?.session_id);
    expect(reply.json?.message).toBe(SUGGESTING_REPLY);
    const plans = reply.json?.plans as Array<Record<string, unknown>>;
    expect(plans.map((plan) => [plan.command, plan.verdict, plan.status])).toEqual([
      ['ls -la', 'allow', 'planned'],
      ['rm -rf /', 'deny', 'blocked'],
      ['touch model-created.txt', 'deny', 'blocked'],
    ]);
    expect(plans[1]).toMatchObject({ risk: 'blocked', requires_approval: false, plan_id: expect.any(String) });
    expect((plans[1]?.reasons as string[]).length).toBeGreaterThan(0);

    const session = running.handle.container
      .get<TerminalSessionStore>(TYPES.TerminalSessionStore)
      .get(sessionId).execution;
    expect(session.commands()).toHaveLength(0);
    expect(existsSync(path.join(running.workspaceRoot, 'model-created.txt'))).toBe(false);
    expect(existsSync(path.join(running.workspaceRoot, 'cmd-marker.txt'))).toBe(false);
    expect(deepseek?.requests[0]?.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('continues the conversation of the session it is given', async () => {
    const running = await startWithFake([
      { kind: 'reply', content: 'first answer' },
      { kind: 'reply', content: 'second answer' },
    ]);
    const first = await web(running, 'POST', '/chat', { body: { message: 'first question' } });
    const second = await web(running, 'POST', '/chat', {
      body: { message: 'second question', session_id: first.json?.session_id },
    });

    expect(second.json).toEqual({ message: 'second answer', session_id: first.json?.session_id, plans: [] });
    const sent = (deepseek?.requests[1]?.body as { messages: Array<{ role: string; content: string }> }).messages;
    expect(sent.slice(1)).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'second question' },
    ]);
  });

  it('maps a provider failure to 502 chat_unavailable without leaking its body or the key', async () => {
    const running = await startWithFake([
      { kind: 'status', status: 401, body: JSON.stringify({ error: `bad key ${LEAKY_SECRET} ${API_KEY}` }) },
    ]);
    const reply = await web(running, 'POST', '/chat', { body: { message: 'hello' } });

    expect(reply.status).toBe(502);
    expect(reply.json).toEqual({ error: 'chat_unavailable', message: 'DeepSeek rejected the API key' });
    expect(reply.text).not.toContain(LEAKY_SECRET);
    expect(reply.text).not.toContain(API_KEY);
  });

  it.each([
    ['no message', {}, 'message is required'],
    ['a blank message', { message: '  ' }, 'message is required'],
    ['a 10,001-character message', { message: 'x'.repeat(10_001) }, 'message cannot exceed 10000 characters'],
    [
      'a malformed session_id',
      { message: 'hi', session_id: 'bad id' },
      'session_id must be 8-128 letters, digits, or hyphens',
    ],
  ])('answers 400 invalid_request for %s', async (_label, body, message) => {
    const running = await startWithFake([{ kind: 'reply', content: 'unused' }]);
    const reply = await web(running, 'POST', '/chat', { body });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({ error: 'invalid_request', message });
    expect(deepseek?.requests).toHaveLength(0);
  });

  it('answers 404 unknown_session for a session id that is not live', async () => {
    const running = await startWithFake([{ kind: 'reply', content: 'unused' }]);
    const reply = await web(running, 'POST', '/chat', {
      body: { message: 'hi', session_id: '00000000-0000-0000-0000-000000000000' },
    });
    expect(reply.status).toBe(404);
    expect(reply.json).toEqual({ error: 'unknown_session', message: 'unknown or expired session' });
  });
});
