import { livePidsRunning, pollUntil } from '../support/live-processes';
import { MODERN_META, StdioPeer, type JsonRpcMessage } from '../support/stdio-peer';
import { makeTempWorkspace } from '../support/workspace';
import {
  ACCEPT_BOTH,
  TOKEN,
  legacyHeaders,
  openLegacySession,
  post,
  startTestServer,
  type Reply,
  type TestServer,
} from './http-harness';

/**
 * `notifications/cancelled` for an in-flight `terminal_execute` (2025-11-25 utilities/cancellation): the command is
 * stopped, the receiver sends NO response for the cancelled request, and the receipt stays readable.
 */

/** A `sleep` duration no other test uses, so the /proc scan finds only this test's command. */
function uniqueSleep(offset: number): string[] {
  return ['/usr/bin/sleep', String(4000 + offset * 1000 + (process.pid % 997))];
}

type Era = 'legacy' | 'modern';

describe('cancellation over STDIO (raw JSON-RPC)', () => {
  let peer: StdioPeer;
  let workspace: ReturnType<typeof makeTempWorkspace>;

  beforeEach(() => {
    workspace = makeTempWorkspace();
    peer = new StdioPeer({ WORKSPACE_ROOT: workspace.root, APPROVAL_MODE: 'trusted' });
  });

  afterEach(async () => {
    peer.kill();
    await peer.exited;
    workspace.remove();
  });

  test.each<[Era, number]>([
    ['legacy', 0],
    ['modern', 1],
  ])(
    '%s era: the cancelled execute gets no answer, its command is killed, its receipt says cancelled',
    async (era, offset) => {
      const marker = uniqueSleep(offset);
      const params = (body: Record<string, unknown>): Record<string, unknown> =>
        era === 'modern' ? { ...body, _meta: MODERN_META } : body;
      if (era === 'legacy') {
        const init = await peer.request({
          id: 'init',
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        });
        expect(init.result).toBeDefined();
        peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      }
      const call = async (
        id: string,
        name: string,
        args: Record<string, unknown>,
      ): Promise<Record<string, unknown>> => {
        const answer = await peer.request(
          { id, method: 'tools/call', params: params({ name, arguments: args }) },
          20_000,
        );
        return (answer.result?.structuredContent ?? {}) as Record<string, unknown>;
      };
      const plan = await call('plan', 'terminal_plan', { command: `sleep ${marker[1]}` });
      expect(plan).toMatchObject({ status: 'planned' });

      peer.send({
        jsonrpc: '2.0',
        id: 'exec',
        method: 'tools/call',
        params: params({ name: 'terminal_execute', arguments: { session_id: plan.session_id, plan_id: plan.id } }),
      });
      await pollUntil(() => livePidsRunning(marker).length === 1, 'the command to start');
      peer.send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 'exec', reason: 'the user changed their mind' },
      });

      await pollUntil(() => livePidsRunning(marker).length === 0, 'the command to be killed');
      let receipt: Record<string, unknown> = {};
      let poll = 0;
      await pollUntil(async () => {
        poll += 1;
        receipt = await call(`receipt-${poll}`, 'terminal_receipt', { session_id: plan.session_id, plan_id: plan.id });
        return receipt.status === 'cancelled';
      }, 'the cancelled receipt');
      expect(receipt).toMatchObject({ status: 'cancelled', plan_id: plan.id, signature: expect.any(String) });
      // One more round trip: had the server answered the cancelled request, that answer would be on stdout by now.
      await call('last', 'terminal_sessions', {});
      expect(peer.messages.filter((message: JsonRpcMessage) => message.id === 'exec')).toEqual([]);
      expect(peer.strayStdout).toEqual([]);
    },
    90_000,
  );
});

describe('cancellation over HTTP (legacy session, raw requests)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ APPROVAL_MODE: 'trusted' });
  });

  afterAll(async () => {
    await server.stop();
  });

  test('the cancelled execute POST is answered 202 with no JSON-RPC response, its command is killed, its receipt says cancelled', async () => {
    const marker = uniqueSleep(2);
    const sessionId = await openLegacySession(server.url);
    const headers = legacyHeaders(sessionId);
    const call = async (id: string, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const reply = await post(
        server.url,
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } },
        headers,
      );
      return ((reply.json?.result as Record<string, unknown> | undefined)?.structuredContent ?? {}) as Record<
        string,
        unknown
      >;
    };
    const plan = await call('plan', 'terminal_plan', { command: `sleep ${marker[1]}` });
    expect(plan).toMatchObject({ status: 'planned' });

    const execution: Promise<Reply> = post(
      server.url,
      {
        jsonrpc: '2.0',
        id: 'exec',
        method: 'tools/call',
        params: { name: 'terminal_execute', arguments: { session_id: plan.session_id, plan_id: plan.id } },
      },
      headers,
    );
    await pollUntil(() => livePidsRunning(marker).length === 1, 'the command to start');
    const notified = await post(
      server.url,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'exec' } },
      headers,
    );
    expect(notified.status).toBe(202);

    const answer = await execution;
    expect({ status: answer.status, body: answer.text }).toEqual({ status: 202, body: '' });
    await pollUntil(() => livePidsRunning(marker).length === 0, 'the command to be killed');
    expect(await call('receipt', 'terminal_receipt', { session_id: plan.session_id, plan_id: plan.id })).toMatchObject({
      status: 'cancelled',
      plan_id: plan.id,
    });
  }, 90_000);

  test('a notifications/cancelled for a request that already finished changes nothing', async () => {
    const sessionId = await openLegacySession(server.url);
    const headers = { ...legacyHeaders(sessionId), Accept: ACCEPT_BOTH, Authorization: `Bearer ${TOKEN}` };
    const done = await post(
      server.url,
      {
        jsonrpc: '2.0',
        id: 'done',
        method: 'tools/call',
        params: { name: 'terminal_execute', arguments: { command: 'echo finished' } },
      },
      headers,
    );
    expect(done.json).toMatchObject({
      id: 'done',
      result: { isError: false, structuredContent: { status: 'succeeded' } },
    });

    const late = await post(
      server.url,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'done' } },
      headers,
    );
    const next = await post(
      server.url,
      {
        jsonrpc: '2.0',
        id: 'done',
        method: 'tools/call',
        params: { name: 'terminal_execute', arguments: { command: 'echo again' } },
      },
      headers,
    );

    expect(late.status).toBe(202);
    expect(next.json).toMatchObject({
      id: 'done',
      result: { isError: false, structuredContent: { stdout: 'again\n' } },
    });
  });
});
