import { FakeDeepSeekServer } from '../adapters/deepseek/fake-deepseek-server';
import { startTestServer, type TestServer } from './http-harness';
import { SseClient, callTool, web } from './web-harness';

/**
 * The browser UI's current routes on a real server, with sessions over MCP as the UI opens them: `GET /ui/events`
 * (the session's events, read through the TerminalEvents port) and `POST /ui/chat`. Neither is deprecated.
 */
describe('the UI routes /ui/events and /ui/chat', () => {
  let server: TestServer | undefined;
  let deepseek: FakeDeepSeekServer | undefined;
  let stream: SseClient | undefined;

  afterEach(async () => {
    stream?.close();
    stream = undefined;
    await server?.stop();
    await deepseek?.stop();
    server = undefined;
    deepseek = undefined;
  });

  it('streams the events of a session opened by terminal_plan: a real run, then session_closed, and ends', async () => {
    server = await startTestServer();
    const plan = await callTool(server, 'terminal_plan', { command: 'echo from-ui-events' });
    const sessionId = String(plan.structuredContent.session_id);
    stream = new SseClient(`${server.origin}/ui/events?session_id=${sessionId}`);
    const opened = await stream.open();
    expect(opened.status).toBe(200);
    expect(opened.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect([opened.headers.deprecation, opened.headers.sunset]).toEqual([undefined, undefined]);
    expect(await stream.next()).toEqual({ event: 'hello', data: { ok: true, session: sessionId } });

    const executed = await callTool(server, 'terminal_execute', {
      session_id: sessionId,
      plan_id: String(plan.structuredContent.id),
    });
    expect(executed.structuredContent.status).toBe('succeeded');
    const frames = await stream.until('command_finished');
    expect(frames[0]?.event).toBe('command_started');
    expect(
      frames
        .filter((frame) => frame.event === 'output')
        .map((frame) => (frame.data as { text: string }).text)
        .join(''),
    ).toBe('from-ui-events\n');
    for (const frame of frames) expect(frame.data).toMatchObject({ type: frame.event, sessionId });

    await callTool(server, 'terminal_session_close', { session_id: sessionId });
    expect(await stream.until('session_closed')).toEqual([
      { event: 'session_closed', data: { type: 'session_closed', sessionId, at: expect.any(String) } },
    ]);
    expect(await stream.next()).toBeUndefined();
  });

  it('opens the session of a first chat question for the caller, so its MCP tools list it', async () => {
    deepseek = new FakeDeepSeekServer([{ kind: 'reply', content: 'Plan this:\n```sh\nls -la\n```' }]);
    const base = await deepseek.start();
    server = await startTestServer({
      DEEPSEEK_API_KEY: 'sk-e2e-deepseek-key-0123456789',
      DEEPSEEK_BASE_URL: base,
      DEEPSEEK_MAX_RETRIES: '0',
    });
    const reply = await web(server, 'POST', '/ui/chat', { body: { message: 'what is here?' } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('deprecation')).toBeNull();
    const sessionId = String(reply.json?.session_id);
    expect(reply.json?.plans).toEqual([
      expect.objectContaining({ command: 'ls -la', status: 'planned', verdict: 'allow' }),
    ]);

    const listed = await callTool(server, 'terminal_sessions', {});
    const sessions = listed.structuredContent.sessions as Array<{ session_id: string; plans: Record<string, number> }>;
    expect(sessions.map((session) => session.session_id)).toEqual([sessionId]);
    expect(sessions[0]?.plans.planned).toBe(1);
  });
});
