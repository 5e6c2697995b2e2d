import { modern, StdioPeer, type JsonRpcMessage } from '../support/stdio-peer';
import { makeTempWorkspace } from '../support/workspace';

/*
 * Issue 22: concurrency never fails a call. One client keeps many one-shot `terminal_execute` calls in flight; a call
 * that finds every session of its share busy waits for one of them to finish instead of failing with
 * `session_limit_reached`. The wait is bounded: past the queue's bound a call fails at once, with scope `queue`.
 * Real server over STDIO (built dist/main/cli.js), real bubblewrap sandbox (the default).
 */

jest.setTimeout(180_000);

interface Structured {
  status?: string;
  stdout?: string;
  code?: string;
  details?: Record<string, unknown>;
  session_id?: string;
}

function structured(answer: JsonRpcMessage): Structured {
  return (answer.result as { structuredContent?: Structured } | undefined)?.structuredContent ?? {};
}

describe('many terminal_execute calls in flight from one client', () => {
  let peer: StdioPeer | undefined;
  let workspace: ReturnType<typeof makeTempWorkspace> | undefined;

  afterEach(async () => {
    peer?.kill();
    await peer?.exited;
    workspace?.remove();
    peer = undefined;
    workspace = undefined;
  });

  it('64 one-shot calls under the default configuration all succeed, each with its own output', async () => {
    workspace = makeTempWorkspace('term-mcp-concurrent-');
    peer = new StdioPeer({ WORKSPACE_ROOT: workspace.root });
    const current = peer;
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, index) =>
        current.request(
          modern('tools/call', `call-${index}`, {
            name: 'terminal_execute',
            arguments: { command: `echo call ${index}` },
          }),
          170_000,
        ),
      ),
    );

    expect(answers.map((answer) => answer.error)).toEqual(Array.from({ length: 64 }, () => undefined));
    expect(answers.map((answer) => [structured(answer).status, structured(answer).stdout])).toEqual(
      Array.from({ length: 64 }, (_, index) => ['succeeded', `call ${index}\n`]),
    );
    // Every call ran in a one-shot session of its own, and none is left behind.
    expect(new Set(answers.map((answer) => structured(answer).session_id)).size).toBe(64);
    const listed = await current.request(modern('tools/call', 'list', { name: 'terminal_sessions', arguments: {} }));
    expect(structured(listed)).toMatchObject({ sessions: [] });
  });

  it('past the bound of waiting calls, a call fails at once with scope "queue"; the waiting ones run when room comes back', async () => {
    workspace = makeTempWorkspace('term-mcp-concurrent-');
    // One session in all: 32 waiting calls server-wide, 16 of them for one principal.
    peer = new StdioPeer({ WORKSPACE_ROOT: workspace.root, MAX_CONCURRENT_SESSIONS: '1', APPROVAL_MODE: 'trusted' });
    const current = peer;
    const holder = structured(
      await current.request(
        modern('tools/call', 'holder', {
          name: 'terminal_execute',
          arguments: { command: 'sleep 120', wait_seconds: 0 },
        }),
        60_000,
      ),
    );
    expect(holder).toMatchObject({ status: 'running' });

    const since = current.messages.length;
    const ids = Array.from({ length: 17 }, (_, index) => `queued-${index}`);
    for (const id of ids)
      current.send({
        jsonrpc: '2.0',
        ...modern('tools/call', id, { name: 'terminal_execute', arguments: { command: `echo ${id}` } }),
      });
    // Sixteen wait for the one session; the seventeenth finds the queue full and is answered while the sleep runs.
    const refused = await current.waitFor(
      (message) => typeof message.id === 'string' && ids.includes(message.id),
      60_000,
      since,
    );
    expect(structured(refused)).toMatchObject({
      code: 'session_limit_reached',
      details: { maxSessions: 1, scope: 'queue', maxWaiting: 16 },
    });

    const cancelled = await current.request(
      modern('tools/call', 'cancel', {
        name: 'terminal_cancel',
        arguments: { session_id: holder.session_id, command_id: (holder as { command_id?: string }).command_id },
      }),
      60_000,
    );
    expect(cancelled.error).toBeUndefined();
    const waited = await Promise.all(
      ids
        .filter((id) => id !== refused.id)
        .map((id) => current.waitFor((message) => message.id === id, 170_000, since)),
    );
    expect(waited.map((answer) => structured(answer).status)).toEqual(Array.from({ length: 16 }, () => 'succeeded'));
    expect(waited.map((answer) => structured(answer).stdout)).toEqual(
      ids.filter((id) => id !== refused.id).map((id) => `${id}\n`),
    );
  });
});
