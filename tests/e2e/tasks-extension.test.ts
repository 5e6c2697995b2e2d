import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { SignJWT } from 'jose';
import { livePidsRunning, pollUntil } from '../support/live-processes';
import { StdioPeer } from '../support/stdio-peer';
import { CLI_PATH, makeTempWorkspace } from '../support/workspace';
import {
  ACCEPT_BOTH,
  JWT_AUDIENCE,
  JWT_ISSUER,
  JWT_SECRET,
  MODERN_META,
  TOKEN,
  type Reply,
  read,
} from './http-harness';

/**
 * The tasks extension (ext-tasks draft of 2026-07-28, issue 25) against the built CLI over real HTTP: long commands
 * answer with a task, tasks/get shows the output tail and then the signed receipt, tasks/cancel leaves no process, and
 * a task is visible to the principal that created it only. Real sandboxed processes; every wait is on a condition.
 */

const TASKS = 'io.modelcontextprotocol/tasks';
const TASKS_META = Object.freeze({
  ...MODERN_META,
  'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
});

interface Server {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

let workspace: ReturnType<typeof makeTempWorkspace>;
let server: Server;
let alice: string;
let mallory: string;
let nextId = 1;

async function tokenFor(subject: string): Promise<string> {
  return new SignJWT({ iss: JWT_ISSUER, aud: JWT_AUDIENCE, sub: subject })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(JWT_SECRET));
}

/** `term-mcp http` from dist/main/cli.js on a random loopback port; resolves once it logs its URL. */
async function startCli(root: string): Promise<Server> {
  const child = spawn(process.execPath, [CLI_PATH, 'http', '--host', '127.0.0.1', '--port', '0', '--workspace', root], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      TERM_MCP_TOKEN: TOKEN,
      TERM_MCP_JWT_SECRET: JWT_SECRET,
      TERM_MCP_JWT_ISSUER: JWT_ISSUER,
      TERM_MCP_JWT_AUDIENCE: JWT_AUDIENCE,
      RATE_LIMIT_PER_MINUTE: '100000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`term-mcp http exited ${String(code)} before listening`)));
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (entry.message === 'term-mcp http listening') resolve(String(entry.url));
    });
  });
  return { child, url, exited };
}

/** One modern request as `token`, with the routing headers a 2026-07-28 client sends. */
async function rpc(
  method: string,
  params: Record<string, unknown>,
  { token, name, meta = TASKS_META }: { token: string; name?: string; meta?: Record<string, unknown> },
): Promise<Reply> {
  const body = { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta } };
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Authorization: `Bearer ${token}`,
    Accept: ACCEPT_BOTH,
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': method,
    ...(name === undefined ? {} : { 'Mcp-Name': name }),
  };
  return read(await fetch(server.url, { method: 'POST', headers, body: JSON.stringify(body) }));
}

async function resultOf(reply: Reply): Promise<Record<string, unknown>> {
  if (reply.status !== 200 || reply.json?.result === undefined) throw new Error(`HTTP ${reply.status} ${reply.text}`);
  return reply.json.result as Record<string, unknown>;
}

async function callTool(
  token: string,
  name: string,
  args: Record<string, unknown>,
  meta?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return resultOf(await rpc('tools/call', { name, arguments: args }, { token, name, meta }));
}

async function getTask(token: string, taskId: string): Promise<Record<string, unknown>> {
  return resultOf(await rpc('tasks/get', { taskId }, { token, name: taskId }));
}

/** Plans `command` as alice, approves it (it needs approval in the default mode), and executes it with `execute`. */
async function planApproveExecute(
  command: string,
  execute: Record<string, unknown> = {},
  meta?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const plan = (await callTool(alice, 'terminal_plan', { command })).structuredContent as Record<string, unknown>;
  const approved = await callTool(alice, 'terminal_approve', { session_id: plan.session_id, plan_id: plan.id });
  expect(approved.isError).toBe(false);
  return callTool(alice, 'terminal_execute', { session_id: plan.session_id, plan_id: plan.id, ...execute }, meta);
}

async function waitForStatus(taskId: string, status: string): Promise<Record<string, unknown>> {
  let task: Record<string, unknown> = {};
  await pollUntil(
    async () => {
      task = await getTask(alice, taskId);
      return task.status === status;
    },
    `task ${taskId} to be ${status}`,
    60_000,
  );
  return task;
}

/** The PID namespace (`pid:[inode]`) of a live process. */
function pidNamespaceOf(pid: number): string {
  return readlinkSync(`/proc/${pid}/ns/pid`);
}

/**
 * Live processes in that PID namespace, read from /proc. A zombie is not one: it has ended, and only waits for a
 * reaper (in a container whose PID 1 does not reap, an orphaned zombie stays listed until the container ends).
 */
function processesInNamespace(namespace: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/ns/pid`) !== namespace) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) pids.push(Number(entry));
    } catch {
      // Ended while we looked.
    }
  }
  return pids;
}

/** `ps` itself: the lines whose arguments are exactly `argv`. */
function psLinesRunning(argv: string[]): string[] {
  const listing = spawnSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' }).stdout;
  return listing.split('\n').filter((line) => {
    const [stat, ...args] = line.trim().split(/\s+/);
    return stat !== undefined && !stat.startsWith('Z') && args.join(' ') === argv.join(' ');
  });
}

beforeAll(async () => {
  workspace = makeTempWorkspace('term-mcp-tasks-');
  server = await startCli(workspace.root);
  alice = await tokenFor('alice');
  mallory = await tokenFor('mallory');
}, 60_000);

afterAll(async () => {
  server.child.kill('SIGTERM');
  await server.exited;
  workspace.remove();
});

describe('the tasks extension over HTTP (built CLI)', () => {
  test('server/discover advertises io.modelcontextprotocol/tasks under capabilities.extensions', async () => {
    const discovered = await resultOf(await rpc('server/discover', {}, { token: alice }));
    expect(discovered.capabilities).toMatchObject({ extensions: { [TASKS]: {} } });
    expect(discovered.capabilities).not.toHaveProperty('tasks');
  });

  test('a five-minute command answers with a task while it runs; tasks/get shows its redacted output tail; tasks/cancel leaves no process', async () => {
    const marker = ['/usr/bin/sleep', String(300 + (process.pid % 97))];
    const created = await planApproveExecute(`echo started-marker password=hunter2-canary; sleep ${marker[1]}`);
    expect(created).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: expect.any(Number),
      pollIntervalMs: expect.any(Number),
    });
    expect(created).not.toHaveProperty('content');
    const taskId = String(created.taskId);
    // The command is alive after the call answered: the answer did not wait for it.
    await pollUntil(() => livePidsRunning(marker).length === 1, 'the sleep to run');

    let working: Record<string, unknown> = {};
    await pollUntil(async () => {
      working = await getTask(alice, taskId);
      return String(working.statusMessage ?? '').includes('started-marker');
    }, 'the output tail in the status message');
    expect(working).toMatchObject({ taskId, status: 'working', resultType: 'complete' });
    // The tail is redacted like terminal_read: a secret the command prints does not reach the client in clear.
    expect(working.statusMessage).toContain('password=[REDACTED]');
    expect(working.statusMessage).not.toContain('hunter2-canary');
    expect(working).not.toHaveProperty('result');

    const [pid] = livePidsRunning(marker);
    const namespace = pidNamespaceOf(pid ?? 0);
    expect(processesInNamespace(namespace).length).toBeGreaterThan(0);

    const ack = await resultOf(await rpc('tasks/cancel', { taskId }, { token: alice, name: taskId }));
    expect(ack).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    await waitForStatus(taskId, 'cancelled');
    expect(livePidsRunning(marker)).toEqual([]);
    expect(psLinesRunning(marker)).toEqual([]);
    expect(processesInNamespace(namespace)).toEqual([]);

    // Cancelling an ended task is the same empty ack (idempotent).
    const again = await resultOf(await rpc('tasks/cancel', { taskId }, { token: alice, name: taskId }));
    expect(again.resultType).toBe('complete');
    expect(again).not.toHaveProperty('status');
  }, 120_000);

  test('a non-zero exit ends completed with the signed receipt as an isError result', async () => {
    const created = await planApproveExecute('sleep 1; ls no-such-file', { wait_seconds: 0 });
    expect(created.resultType).toBe('task');
    const done = await waitForStatus(String(created.taskId), 'completed');
    const result = done.result as {
      isError: boolean;
      structuredContent: Record<string, unknown>;
      content: Array<{ text: string }>;
    };
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 'failed', exit_code: 2, signature: expect.any(String) });
    expect(JSON.parse(result.content[0]?.text ?? '{}')).toEqual(result.structuredContent);
    expect(done).not.toHaveProperty('error');
  }, 120_000);

  test('a command that ends within the wait answers with its receipt, not a task', async () => {
    const result = await planApproveExecute('echo quick', { wait_seconds: 60 });
    expect(result.resultType).toBe('complete');
    expect(result).not.toHaveProperty('taskId');
    expect(result.structuredContent).toMatchObject({ status: 'succeeded', exit_code: 0 });
  }, 60_000);

  test('a client that does not declare the extension keeps the terminal_read flow', async () => {
    const running = await planApproveExecute(`sleep ${200 + (process.pid % 97)}`, { wait_seconds: 0 }, MODERN_META);
    expect(running.resultType).toBe('complete');
    expect(running).not.toHaveProperty('taskId');
    const structured = running.structuredContent as Record<string, unknown>;
    expect(structured).toMatchObject({ status: 'running', command_id: expect.any(String) });
    const cancelled = await callTool(alice, 'terminal_cancel', {
      session_id: structured.session_id,
      command_id: structured.command_id,
    });
    expect(cancelled.structuredContent).toEqual({ cancelled: true });
  }, 60_000);

  test('tasks/get without the extension declared is -32021 naming it', async () => {
    const reply = await rpc(
      'tasks/get',
      { taskId: 'task_whatever' },
      { token: alice, name: 'task_whatever', meta: MODERN_META },
    );
    expect(reply.json?.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
  });

  test('another principal gets -32602 for the task, as for an unknown id, and cannot cancel it', async () => {
    const marker = ['/usr/bin/sleep', String(400 + (process.pid % 97))];
    const created = await planApproveExecute(`sleep ${marker[1]}`, { wait_seconds: 0 });
    const taskId = String(created.taskId);
    await pollUntil(() => livePidsRunning(marker).length === 1, 'the sleep to run');

    const foreign = await rpc('tasks/get', { taskId }, { token: mallory, name: taskId });
    const unknown = await rpc(
      'tasks/get',
      { taskId: 'task_no-such-task' },
      { token: mallory, name: 'task_no-such-task' },
    );
    expect(foreign.json?.error).toMatchObject({ code: -32602, message: 'Unknown task' });
    expect(unknown.json?.error).toMatchObject({ code: -32602, message: 'Unknown task' });
    const staticToken = await rpc('tasks/get', { taskId }, { token: TOKEN, name: taskId });
    expect(staticToken.json?.error).toMatchObject({ code: -32602 });
    const cancel = await rpc('tasks/cancel', { taskId }, { token: mallory, name: taskId });
    expect(cancel.json?.error).toMatchObject({ code: -32602 });
    const update = await rpc('tasks/update', { taskId, inputResponses: {} }, { token: mallory, name: taskId });
    expect(update.json?.error).toMatchObject({ code: -32602 });

    // Still alice's, still running.
    expect((await getTask(alice, taskId)).status).toBe('working');
    expect(livePidsRunning(marker)).toHaveLength(1);
    await resultOf(await rpc('tasks/cancel', { taskId }, { token: alice, name: taskId }));
    await waitForStatus(taskId, 'cancelled');
    expect(livePidsRunning(marker)).toEqual([]);
  }, 120_000);

  test('task ids carry 256 random bits and differ', async () => {
    const first = await planApproveExecute('sleep 1', { wait_seconds: 0 });
    const second = await planApproveExecute('sleep 1', { wait_seconds: 0 });
    const ids = [String(first.taskId), String(second.taskId)];
    for (const id of ids) expect(Buffer.from(id.replace(/^task_/, ''), 'base64url')).toHaveLength(32);
    expect(ids[0]).not.toBe(ids[1]);
    await Promise.all(ids.map((id) => waitForStatus(id, 'completed')));
  }, 120_000);

  test('Mcp-Name routes tasks/*: a header that differs from params.taskId is 400 + -32020 and reaches no task', async () => {
    const created = await planApproveExecute('sleep 1', { wait_seconds: 0 });
    const taskId = String(created.taskId);
    const mismatched = await rpc('tasks/get', { taskId }, { token: alice, name: 'task_other' });
    expect(mismatched.status).toBe(400);
    expect(mismatched.json?.error).toMatchObject({ code: -32020 });
    const missing = await rpc('tasks/get', { taskId }, { token: alice });
    expect(missing.status).toBe(400);
    expect(missing.json?.error).toMatchObject({ code: -32020 });
    await waitForStatus(taskId, 'completed');
  }, 60_000);

  test('tasks/result and tasks/list are not methods of the extension (-32601)', async () => {
    const result = await rpc('tasks/result', { taskId: 'task_x' }, { token: alice });
    const list = await rpc('tasks/list', {}, { token: alice });
    expect(result.json?.error).toMatchObject({ code: -32601 });
    expect(list.json?.error).toMatchObject({ code: -32601 });
  });
});

describe('the tasks extension over STDIO (built CLI)', () => {
  let stdioWorkspace: ReturnType<typeof makeTempWorkspace>;
  let peer: StdioPeer;
  const request = (method: string, id: string, params: Record<string, unknown>): ReturnType<StdioPeer['request']> =>
    peer.request({ jsonrpc: '2.0', id, method, params: { ...params, _meta: TASKS_META } }, 60_000);
  const structured = async (
    id: string,
    name: string,
    args: Record<string, unknown>,
  ): Promise<Record<string, unknown>> =>
    ((await request('tools/call', id, { name, arguments: args })).result?.structuredContent ?? {}) as Record<
      string,
      unknown
    >;

  beforeAll(() => {
    stdioWorkspace = makeTempWorkspace('term-mcp-tasks-stdio-');
    peer = new StdioPeer({ WORKSPACE_ROOT: stdioWorkspace.root });
  });

  afterAll(async () => {
    await peer.end();
    stdioWorkspace.remove();
  });

  test('the parent process gets a task for a long command, sees it working, and cancels it: no process is left', async () => {
    const marker = ['/usr/bin/sleep', String(500 + (process.pid % 97))];
    const plan = await structured('plan', 'terminal_plan', { command: `sleep ${marker[1]}` });
    await structured('approve', 'terminal_approve', { session_id: plan.session_id, plan_id: plan.id });
    const created =
      (
        await request('tools/call', 'execute', {
          name: 'terminal_execute',
          arguments: { session_id: plan.session_id, plan_id: plan.id },
        })
      ).result ?? {};
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = String(created.taskId);
    await pollUntil(() => livePidsRunning(marker).length === 1, 'the sleep to run');
    expect((await request('tasks/get', 'get-working', { taskId })).result).toMatchObject({ taskId, status: 'working' });

    expect((await request('tasks/cancel', 'cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    let status: unknown;
    let polls = 0;
    await pollUntil(
      async () => {
        status = (await request('tasks/get', `get-${(polls += 1)}`, { taskId })).result?.status;
        return status === 'cancelled';
      },
      'the task to be cancelled',
      60_000,
    );
    expect(livePidsRunning(marker)).toEqual([]);
  }, 120_000);
});
