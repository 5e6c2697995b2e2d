import type { TerminalSessionStore } from '../../src/application/terminal/terminal-session-store';
import type { ExecutionEvent } from '../../src/domain/execution/execution-types';
import { TYPES } from '../../src/main/types';
import { startTestServer, type TestServer } from './http-harness';
import { SseClient, callTool, eventually, web } from './web-harness';

/** Event types in order, with consecutive `output` frames folded into one (output may arrive in chunks). */
function eventTypes(frames: Array<{ event: string }>): string[] {
  return frames
    .map((frame) => frame.event)
    .filter((event, index, all) => event !== 'output' || all[index - 1] !== 'output');
}

describe('GET /stream (execution-event SSE)', () => {
  let server: TestServer;
  let stream: SseClient | undefined;

  beforeEach(async () => {
    server = await startTestServer();
  });

  afterEach(async () => {
    stream?.close();
    stream = undefined;
    await server.stop();
  });

  async function newSession(): Promise<string> {
    return String((await web(server, 'POST', '/sessions')).json?.session_id);
  }

  function registry(): TerminalSessionStore {
    return server.handle.container.get<TerminalSessionStore>(TYPES.TerminalSessionStore);
  }

  it('streams hello, then the events of a real `echo hello` run, in order', async () => {
    const sessionId = await newSession();
    stream = new SseClient(`${server.origin}/stream?session_id=${sessionId}`);
    const response = await stream.open();
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['x-accel-buffering']).toBe('no');
    expect(response.headers.deprecation).toBe('true');
    expect(await stream.next()).toEqual({ event: 'hello', data: { ok: true, session: sessionId } });

    const plan = await callTool(server, 'terminal_plan', { command: 'echo hello', session_id: sessionId });
    const planId = String(plan.structuredContent.id);
    const executed = await callTool(server, 'terminal_execute', { session_id: sessionId, plan_id: planId });
    expect(executed.structuredContent.status).toBe('succeeded');

    const frames = await stream.until('command_finished');
    expect(eventTypes(frames)).toEqual(['policy_decision', 'plan', 'command_started', 'output', 'command_finished']);
    for (const frame of frames) expect(frame.data).toMatchObject({ type: frame.event, sessionId });
    expect(frames[0]?.data).toMatchObject({ command: 'echo hello', verdict: 'allow' });
    expect(frames[1]?.data).toMatchObject({ planId });
    const commandId = (frames[2]?.data as { commandId: string }).commandId;
    const output = frames
      .filter((frame) => frame.event === 'output')
      .map((frame) => frame.data as Extract<ExecutionEvent, { type: 'output' }>);
    expect(output.map((event) => event.text).join('')).toBe('hello\n');
    expect(output.every((event) => event.stream === 'stdout' && event.commandId === commandId)).toBe(true);
    expect((frames.at(-1)?.data as Extract<ExecutionEvent, { type: 'command_finished' }>).outcome).toMatchObject({
      status: 'succeeded',
      exitCode: 0,
      signal: null,
    });
  });

  it('ends the stream after session_closed when the session is closed', async () => {
    const sessionId = await newSession();
    stream = new SseClient(`${server.origin}/stream?session_id=${sessionId}`);
    await stream.open();
    await stream.next();

    expect((await web(server, 'DELETE', `/sessions/${sessionId}`)).status).toBe(200);

    expect(await stream.until('session_closed')).toEqual([
      { event: 'session_closed', data: { type: 'session_closed', sessionId, at: expect.any(String) } },
    ]);
    expect(await stream.next()).toBeUndefined();
  });

  it('releases its subscription when the client disconnects', async () => {
    const sessionId = await newSession();
    const session = registry().get(sessionId).execution;
    let subscriptions = 0;
    const subscribe = session.subscribe.bind(session);
    session.subscribe = (listener) => {
      subscriptions += 1;
      const unsubscribe = subscribe(listener);
      return () => {
        subscriptions -= 1;
        unsubscribe();
      };
    };
    stream = new SseClient(`${server.origin}/stream?session_id=${sessionId}`);
    await stream.open();
    await stream.next();
    expect(subscriptions).toBe(1);

    stream.close();

    await eventually(() => subscriptions === 0);
    expect(subscriptions).toBe(0);
  });

  it('answers 404 unknown_session for a session that does not exist, and 400 without session_id', async () => {
    const unknown = await web(server, 'GET', '/stream?session_id=00000000-0000-0000-0000-000000000000');
    const missing = await web(server, 'GET', '/stream');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: 'unknown_session', message: 'unknown or expired session' });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ error: 'invalid_request', message: 'session_id is required' });
  });
});
