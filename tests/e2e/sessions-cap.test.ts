import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { SignJWT } from 'jose';
import { callTool, callToolOk, connectSdkOverStdio } from '../support/sdk-client';
import { web } from './web-harness';
import { CLI_PATH, REPO_ROOT, makeTempWorkspace } from '../support/workspace';
import {
  ACCEPT_BOTH,
  INITIALIZE,
  JWT_AUDIENCE,
  JWT_ISSUER,
  JWT_SECRET,
  TOKEN,
  legacyHeaders,
  modernHeaders,
  modernRequest,
  openLegacySession,
  post,
  startTestServer,
  type TestServer,
} from './http-harness';

/**
 * Clients that behave normally never meet a session cap (issue 14 part 3): one-shot executions end their session,
 * idle sessions make room for new ones (least recently used first), a session with work in flight is never taken,
 * and one principal cannot lock another out. Real servers, real processes, the official SDK client.
 */

const JWT_ENV = {
  TERM_MCP_JWT_SECRET: JWT_SECRET,
  TERM_MCP_JWT_ISSUER: JWT_ISSUER,
  TERM_MCP_JWT_AUDIENCE: JWT_AUDIENCE,
};
const NEW_SESSION_NEXT_STEP =
  'Start a new session with terminal_plan (omit session_id) and use the session_id it returns.';

async function tokenFor(subject: string): Promise<string> {
  return new SignJWT({ iss: JWT_ISSUER, aud: JWT_AUDIENCE, sub: subject })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(JWT_SECRET));
}

/** A modern (stateless) tools/call over raw HTTP as `token`; returns whether it failed and its structured content. */
async function callAs(
  server: TestServer,
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; data: Record<string, unknown> }> {
  const reply = await post(
    server.url,
    modernRequest('tools/call', `${name}-call`, { name, arguments: args }),
    modernHeaders('tools/call', name, token),
  );
  if (reply.status !== 200) throw new Error(`${name}: HTTP ${reply.status} ${reply.text}`);
  const result = reply.json?.result as { isError?: boolean; structuredContent: Record<string, unknown> };
  return { isError: result.isError === true, data: result.structuredContent };
}

async function okAs(
  server: TestServer,
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const { isError, data } = await callAs(server, token, name, args);
  if (isError) throw new Error(`${name} failed: ${JSON.stringify(data)}`);
  return data;
}

/** Plans `sleep 30`, approves it, and starts it in the background in a new session; returns the session id. */
async function startSleepAs(server: TestServer, token: string): Promise<string> {
  const plan = await okAs(server, token, 'terminal_plan', { command: 'sleep 30' });
  await okAs(server, token, 'terminal_approve', { session_id: plan.session_id, plan_id: plan.id });
  const started = await okAs(server, token, 'terminal_execute', {
    session_id: plan.session_id,
    plan_id: plan.id,
    wait_seconds: 0,
  });
  expect(started.status).toBe('running');
  return String(plan.session_id);
}

describe('one-shot executions and plans never run out of sessions', () => {
  describe('over STDIO (the built CLI, default caps)', () => {
    let workspace: ReturnType<typeof makeTempWorkspace>;
    let client: Client;

    beforeAll(async () => {
      workspace = makeTempWorkspace();
      ({ client } = await connectSdkOverStdio('legacy', { WORKSPACE_ROOT: workspace.root }));
    });

    afterAll(async () => {
      await client.close();
      workspace.remove();
    });

    test('50 one-shot terminal_execute calls in a row all succeed and hold no session', async () => {
      const receipts: Array<Record<string, unknown>> = [];
      for (let index = 0; index < 50; index += 1) {
        receipts.push(await callToolOk(client, 'terminal_execute', { command: `echo one-shot ${index}` }));
      }

      expect(receipts.map((receipt) => receipt.stdout)).toEqual(
        Array.from({ length: 50 }, (_, index) => `one-shot ${index}\n`),
      );
      expect(new Set(receipts.map((receipt) => receipt.session_id)).size).toBe(50);
      expect((await callToolOk(client, 'terminal_sessions', {})).sessions).toEqual([]);
    }, 120_000);

    test("a finished one-shot session's receipt and output stay readable; planning in it says it ended", async () => {
      const receipt = await callToolOk(client, 'terminal_execute', { command: 'echo kept for later' });
      const { session_id } = receipt;

      expect(await callToolOk(client, 'terminal_receipt', { session_id })).toEqual(receipt);
      expect(await callToolOk(client, 'terminal_read', { session_id })).toMatchObject({
        finished: true,
        stdout: { text: 'kept for later\n' },
      });
      const replan = await callTool(client, 'terminal_plan', { command: 'pwd', session_id });
      expect(replan).toEqual({
        isError: true,
        data: expect.objectContaining({
          code: 'session_expired',
          details: { sessionId: session_id, reason: 'one_shot_finished' },
          next_step: NEW_SESSION_NEXT_STEP,
        }),
      });
    });

    test('30 terminal_plan calls without session_id (denied ones included) all succeed; the oldest idle ones are evicted', async () => {
      const plans: Array<Record<string, unknown>> = [];
      for (let index = 0; index < 30; index += 1) {
        plans.push(await callToolOk(client, 'terminal_plan', { command: index % 2 === 0 ? 'pwd' : 'cat /etc/passwd' }));
      }

      expect(plans.filter((plan) => plan.status === 'blocked')).toHaveLength(15);
      const evicted = await callTool(client, 'terminal_plan', { command: 'pwd', session_id: plans[0]?.session_id });
      expect(evicted).toEqual({
        isError: true,
        data: expect.objectContaining({
          code: 'session_evicted',
          message: expect.stringContaining('least recently used idle session'),
          next_step: NEW_SESSION_NEXT_STEP,
        }),
      });
      const newest = await callToolOk(client, 'terminal_plan', { command: 'ls', session_id: plans[29]?.session_id });
      expect(newest.session_id).toBe(plans[29]?.session_id);
      const unknown = await callTool(client, 'terminal_plan', {
        command: 'pwd',
        session_id: '00000000-0000-4000-8000-000000000000',
      });
      expect(unknown.data).toMatchObject({ code: 'session_not_found' });
    }, 60_000);
  });

  describe('over HTTP (default caps, the official SDK client)', () => {
    let server: TestServer;
    let client: Client;

    beforeAll(async () => {
      server = await startTestServer();
      client = new Client({ name: 'term-mcp-sessions-tests', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
        }),
      );
    });

    afterAll(async () => {
      await client.close();
      await server.stop();
    });

    test('50 one-shot terminal_execute calls in a row all succeed and hold no session', async () => {
      for (let index = 0; index < 50; index += 1) {
        const receipt = await callToolOk(client, 'terminal_execute', { command: `echo http ${index}` });
        expect(receipt).toMatchObject({ status: 'succeeded', stdout: `http ${index}\n` });
      }

      expect((await callToolOk(client, 'terminal_sessions', {})).sessions).toEqual([]);
    }, 120_000);
  });
});

describe('execution sessions at the cap over HTTP, with two principals', () => {
  let server: TestServer;
  let alice: string;
  let bob: string;

  beforeEach(async () => {
    // 4 sessions in all; each principal's share is 2 (half, rounded up).
    server = await startTestServer({ ...JWT_ENV, MAX_CONCURRENT_SESSIONS: '4' });
    [alice, bob] = await Promise.all([tokenFor('alice'), tokenFor('bob')]);
  });

  afterEach(async () => {
    await server.stop();
  });

  test('a session with a running command is never evicted; an idle one is, and says so', async () => {
    const running = await startSleepAs(server, alice);
    const idle = String((await okAs(server, alice, 'terminal_plan', { command: 'pwd' })).session_id);

    const fresh = await okAs(server, alice, 'terminal_plan', { command: 'pwd' });

    const evicted = await callAs(server, alice, 'terminal_plan', { command: 'pwd', session_id: idle });
    expect(evicted).toEqual({
      isError: true,
      data: expect.objectContaining({
        code: 'session_evicted',
        details: { sessionId: idle, reason: 'evicted' },
        next_step: NEW_SESSION_NEXT_STEP,
      }),
    });
    const listed = await okAs(server, alice, 'terminal_sessions', {});
    expect((listed.sessions as Array<{ session_id: string }>).map((session) => session.session_id)).toEqual([
      running,
      fresh.session_id,
    ]);
    expect(await okAs(server, alice, 'terminal_read', { session_id: running })).toMatchObject({ status: 'running' });
  }, 60_000);

  test('one principal whose share runs commands does not block another principal', async () => {
    await startSleepAs(server, alice);
    await startSleepAs(server, alice);

    const refused = await callAs(server, alice, 'terminal_plan', { command: 'pwd' });
    expect(refused).toEqual({
      isError: true,
      data: expect.objectContaining({ code: 'session_limit_reached', details: { maxSessions: 2, scope: 'principal' } }),
    });
    for (let index = 0; index < 5; index += 1) {
      expect(await okAs(server, bob, 'terminal_plan', { command: 'pwd' })).toMatchObject({ status: 'planned' });
    }
    expect(await okAs(server, bob, 'terminal_execute', { command: 'echo bob runs' })).toMatchObject({
      status: 'succeeded',
      stdout: 'bob runs\n',
    });
  }, 60_000);

  test('terminal_sessions pages with a cursor', async () => {
    const server2 = await startTestServer({
      MAX_CONCURRENT_SESSIONS: '10',
      TERM_MCP_MAX_SESSIONS_PER_PRINCIPAL: '10',
      TERM_MCP_PAGE_SIZE: '2',
    });
    try {
      const ids: unknown[] = [];
      for (let index = 0; index < 5; index += 1)
        ids.push((await okAs(server2, TOKEN, 'terminal_plan', { command: 'pwd' })).session_id);
      const seen: unknown[] = [];
      let cursor: unknown;
      let pages = 0;
      do {
        const page = await okAs(server2, TOKEN, 'terminal_sessions', cursor === undefined ? {} : { cursor });
        seen.push(...(page.sessions as Array<{ session_id: string }>).map((session) => session.session_id));
        cursor = page.next_cursor;
        pages += 1;
      } while (cursor !== undefined);

      expect(pages).toBe(3);
      expect(seen).toEqual(ids);
    } finally {
      await server2.stop();
    }
  }, 60_000);
});

describe('the web API (the browser UI opens a session per load)', () => {
  test('30 POST /sessions in a row (default cap) all answer 201; the oldest idle ones are evicted', async () => {
    const server = await startTestServer();
    try {
      const ids: string[] = [];
      for (let index = 0; index < 30; index += 1) {
        const created = await web(server, 'POST', '/sessions');
        expect(created.status).toBe(201);
        ids.push(String(created.json?.session_id));
      }

      const evicted = await callAs(server, TOKEN, 'terminal_plan', { command: 'pwd', session_id: ids[0] });
      expect(evicted.data).toMatchObject({ code: 'session_evicted' });
      expect(await okAs(server, TOKEN, 'terminal_plan', { command: 'pwd', session_id: ids[29] })).toMatchObject({
        session_id: ids[29],
      });
    } finally {
      await server.stop();
    }
  }, 60_000);
});

describe('legacy HTTP transport sessions at the cap', () => {
  test('200 initializes without DELETE all succeed at a cap of 100 with eviction after 0 s; the oldest sessions answer 404', async () => {
    // The default cap (10 000) and eviction delay (900 s) keep every session here: tests/e2e/http-legacy-sessions-long-lived.test.ts.
    const server = await startTestServer({
      TERM_MCP_MAX_LEGACY_SESSIONS: '100',
      TERM_MCP_LEGACY_SESSION_EVICTABLE_AFTER: '0',
    });
    try {
      const ids: string[] = [];
      for (let index = 0; index < 200; index += 1) ids.push(await openLegacySession(server.url));

      const oldest = await post(
        server.url,
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        legacyHeaders(ids[0] ?? ''),
      );
      const newest = await post(
        server.url,
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        legacyHeaders(ids[199] ?? ''),
      );
      expect(oldest.status).toBe(404);
      expect(oldest.json).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32600,
          message:
            'Session not found: the server ended it to make room (it was the least recently used idle session); initialize a new session',
        },
      });
      expect(newest.status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 120_000);

  test('the Inspector CLI (which never sends DELETE) keeps connecting past the cap', async () => {
    // Cap 2, so a principal's share is 1: every run after the first ends the previous run's idle session.
    const server = await startTestServer({
      TERM_MCP_MAX_LEGACY_SESSIONS: '2',
      TERM_MCP_LEGACY_SESSION_EVICTABLE_AFTER: '0',
    });
    try {
      const inspector = path.join(REPO_ROOT, 'node_modules', '.bin', 'mcp-inspector');
      for (let run = 0; run < 4; run += 1) {
        const { stdout } = await promisify(execFile)(
          inspector,
          [
            '--cli',
            server.url,
            '--header',
            `Authorization: Bearer ${TOKEN}`,
            '--method',
            'tools/call',
            '--tool-name',
            'terminal_execute',
            '--tool-arg',
            `command=echo inspector ${run}`,
            '--format',
            'json',
          ],
          { timeout: 60_000 },
        );
        const output = JSON.parse(stdout) as {
          result: { isError: boolean; structuredContent: Record<string, unknown> };
        };
        expect(output.result).toMatchObject({
          isError: false,
          structuredContent: { status: 'succeeded', stdout: `inspector ${run}\n` },
        });
      }
    } finally {
      await server.stop();
    }
  }, 180_000);

  test('a session with a request in flight is never evicted, and one busy principal does not block another', async () => {
    const server = await startTestServer({
      ...JWT_ENV,
      TERM_MCP_MAX_LEGACY_SESSIONS: '4',
      TERM_MCP_LEGACY_SESSION_EVICTABLE_AFTER: '0',
      APPROVAL_MODE: 'trusted',
    });
    try {
      const [alice, bob] = await Promise.all([tokenFor('alice'), tokenFor('bob')]);
      const busy = await openLegacySession(server.url, alice);
      const call = (id: string, body: Record<string, unknown>, token: string) =>
        post(server.url, body, legacyHeaders(id, token));
      // In flight until cancelled below, however slow the machine.
      const inFlight = call(
        busy,
        {
          jsonrpc: '2.0',
          id: 'slow',
          method: 'tools/call',
          params: { name: 'terminal_execute', arguments: { command: 'sleep 30' } },
        },
        alice,
      );
      await waitFor(() => hasRunningCommand(server, alice));
      const other = await openLegacySession(server.url, alice);

      // Alice's share is 2: each new session of hers ends her idle one, never the busy one.
      for (let index = 0; index < 3; index += 1) await openLegacySession(server.url, alice);
      const bobs = [await openLegacySession(server.url, bob), await openLegacySession(server.url, bob)];

      await cancelRunning(server, alice);
      const slow = await inFlight;
      expect(slow.status).toBe(200);
      expect((slow.json?.result as { structuredContent: Record<string, unknown> }).structuredContent).toMatchObject({
        status: 'cancelled',
      });
      expect((await call(busy, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, alice)).status).toBe(200);
      const ended = await call(other, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, alice);
      expect(ended.status).toBe(404);
      expect((ended.json?.error as { message: string }).message).toContain('the server ended it to make room');
      // To another principal the same id is just unknown: its existence never leaks.
      const probed = await call(other, { jsonrpc: '2.0', id: 6, method: 'tools/list' }, bob);
      expect(probed.json?.error).toEqual({ code: -32600, message: 'Session not found: initialize a new session' });
      for (const id of bobs)
        expect((await call(id, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, bob)).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 60_000);

  test('refuses an initialize with 503 only when every session of the principal is serving a request', async () => {
    const server = await startTestServer({
      TERM_MCP_MAX_LEGACY_SESSIONS: '1',
      TERM_MCP_LEGACY_SESSION_EVICTABLE_AFTER: '0',
      APPROVAL_MODE: 'trusted',
    });
    try {
      const busy = await openLegacySession(server.url);
      const inFlight = post(
        server.url,
        {
          jsonrpc: '2.0',
          id: 'slow',
          method: 'tools/call',
          params: { name: 'terminal_execute', arguments: { command: 'sleep 30' } },
        },
        legacyHeaders(busy),
      );
      await waitFor(() => hasRunningCommand(server, TOKEN));

      const refused = await post(server.url, INITIALIZE, { Authorization: `Bearer ${TOKEN}`, Accept: ACCEPT_BOTH });
      await cancelRunning(server, TOKEN);
      expect((await inFlight).status).toBe(200);
      const accepted = await post(server.url, INITIALIZE, { Authorization: `Bearer ${TOKEN}`, Accept: ACCEPT_BOTH });

      expect(refused.status).toBe(503);
      expect(refused.json).toEqual({
        jsonrpc: '2.0',
        id: 'init',
        error: {
          code: -32600,
          message:
            'Too many sessions: every session is serving a request or was used recently; retry later (or end an unused one with DELETE /mcp)',
        },
      });
      expect(accepted.status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 60_000);
});

/** The execution session of the principal running a command, if any: asked statelessly (2026-07-28), no transport session. */
async function runningSession(server: TestServer, token: string): Promise<string | undefined> {
  const { sessions } = await okAs(server, token, 'terminal_sessions', {});
  return (sessions as Array<{ session_id: string; running_command: unknown }>).find(
    (session) => session.running_command !== null,
  )?.session_id;
}

async function hasRunningCommand(server: TestServer, token: string): Promise<boolean> {
  return (await runningSession(server, token)) !== undefined;
}

/** Cancels the principal's running command (statelessly), which ends the legacy request waiting for it. */
async function cancelRunning(server: TestServer, token: string): Promise<void> {
  const sessionId = await runningSession(server, token);
  if (sessionId === undefined) throw new Error('no running command to cancel');
  expect(await okAs(server, token, 'terminal_cancel', { session_id: sessionId })).toEqual({ cancelled: true });
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('with @modelcontextprotocol/sdk 1.x over STDIO (validates every successful result against its outputSchema)', () => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  let client: V1Client;

  beforeAll(async () => {
    workspace = makeTempWorkspace();
    client = new V1Client({ name: 'term-mcp-sessions-v1', version: '1.0.0' });
    await client.connect(
      new V1StdioClientTransport({
        command: process.execPath,
        args: [CLI_PATH, 'stdio'],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', WORKSPACE_ROOT: workspace.root, TERM_MCP_PAGE_SIZE: '2' },
        stderr: 'pipe',
      }),
    );
  });

  afterAll(async () => {
    await client.close();
    workspace.remove();
  });

  test('50 one-shot executions in a row, then terminal_sessions paged with its cursor', async () => {
    for (let index = 0; index < 50; index += 1) {
      const result = await client.callTool({ name: 'terminal_execute', arguments: { command: `echo v1 ${index}` } });
      expect(result.structuredContent).toMatchObject({ status: 'succeeded', stdout: `v1 ${index}\n` });
    }
    const planned: unknown[] = [];
    for (let index = 0; index < 3; index += 1) {
      const plan = (await client.callTool({ name: 'terminal_plan', arguments: { command: 'pwd' } }))
        .structuredContent as Record<string, unknown>;
      planned.push(plan.session_id);
    }

    const first = (await client.callTool({ name: 'terminal_sessions', arguments: {} })).structuredContent as Record<
      string,
      unknown
    >;
    const second = (await client.callTool({ name: 'terminal_sessions', arguments: { cursor: first.next_cursor } }))
      .structuredContent as Record<string, unknown>;

    const idsOf = (page: Record<string, unknown>): unknown[] =>
      (page.sessions as Array<{ session_id: string }>).map((session) => session.session_id);
    expect(idsOf(first)).toEqual(planned.slice(0, 2));
    expect(idsOf(second)).toEqual(planned.slice(2));
    expect(second.next_cursor).toBeUndefined();
  }, 120_000);
});
