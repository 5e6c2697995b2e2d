import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ConfigurationError } from '../../src/domain/errors';
import { loadConfig } from '../../src/main/config';
import { runHttp, startHttpServer, type HttpServerHandle } from '../../src/main/run-http';
import type { TerminalSessionStore } from '../../src/application/terminal/terminal-session-store';
import { TYPES } from '../../src/main/types';
import { isAlive } from '../adapters/process/process-probe';
import { makeTempWorkspace } from '../support/workspace';
import { TOKEN, modernHeaders, modernRequest, post } from './http-harness';

/** `term-mcp http` start-up and shutdown: the bind guard, the generated token, graceful close. */
describe('startHttpServer and runHttp', () => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  let handle: HttpServerHandle | undefined;

  beforeEach(() => {
    workspace = makeTempWorkspace('term-mcp-http-server-');
  });

  afterEach(async () => {
    await handle?.close();
    handle = undefined;
    jest.restoreAllMocks();
    workspace.remove();
  });

  function config(env: Record<string, string>) {
    return loadConfig({ WORKSPACE_ROOT: workspace.root, PORT: '0', LOG_LEVEL: 'error', ...env }, {});
  }

  it('listens on 127.0.0.1 with a random port and reports the MCP endpoint URL', async () => {
    handle = await startHttpServer(config({ TERM_MCP_TOKEN: TOKEN }));

    expect(handle.port).toBeGreaterThan(0);
    expect(handle.url).toBe(`http://127.0.0.1:${handle.port}/mcp`);
    expect((await fetch(new URL('/health', handle.url))).status).toBe(200);
  });

  it('refuses to bind a non-loopback HOST without a token or JWT configuration, naming HOST', async () => {
    const attempt = startHttpServer(config({ HOST: '0.0.0.0' }));

    await expect(attempt).rejects.toThrow(ConfigurationError);
    await expect(attempt).rejects.toThrow(/^HOST: binding 0\.0\.0\.0 \(not loopback\) requires TERM_MCP_TOKEN/);
  });

  it('generates a token on loopback when none is configured, prints it to stderr once, and accepts it', async () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);

    handle = await startHttpServer(config({}));

    const printed = stderr.mock.calls
      .map(([chunk]) => String(chunk))
      .filter((line) => line.includes('Generated one-time TERM_MCP_TOKEN'));
    expect(printed).toHaveLength(1);
    const token = /: (\S+)\n$/.exec(printed[0] ?? '')?.[1] ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(
      (await post(handle.url, modernRequest('tools/list', 1), modernHeaders('tools/list', undefined, token))).status,
    ).toBe(200);
    expect(
      (await post(handle.url, modernRequest('tools/list', 1), modernHeaders('tools/list', undefined, TOKEN))).status,
    ).toBe(401);
  });

  it('generates no token when JWTs are configured', async () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);

    handle = await startHttpServer(
      config({
        TERM_MCP_JWT_SECRET: 'a-jwt-secret-that-is-longer-than-thirty-two',
        TERM_MCP_JWT_ISSUER: 'https://issuer.example',
        TERM_MCP_JWT_AUDIENCE: 'term-mcp',
      }),
    );

    expect(stderr.mock.calls.some(([chunk]) => String(chunk).includes('Generated'))).toBe(false);
  });

  it('rejects when the port is already taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;

    try {
      await expect(startHttpServer(config({ TERM_MCP_TOKEN: TOKEN, PORT: String(port) }))).rejects.toThrow(
        /EADDRINUSE/,
      );
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('prints no generated token when the port is taken: the start fails first', async () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;

    try {
      await expect(startHttpServer(config({ PORT: String(port) }))).rejects.toThrow(
        `cannot listen on 127.0.0.1:${port}: the port is already in use (EADDRINUSE)`,
      );
      expect(stderr.mock.calls.some(([chunk]) => String(chunk).includes('Generated'))).toBe(false);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('close() stops accepting connections at once, and resolves only after the request in flight has finished', async () => {
    const events: string[] = [];
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived: () => void = () => undefined;
    const inFlight = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    handle = await startHttpServer(config({ TERM_MCP_TOKEN: TOKEN }), {
      mountProtected: (router) =>
        router.get('/slow', async (_req, res) => {
          arrived();
          await released;
          events.push('request answered');
          res.json({ finished: true });
        }),
    });
    const url = handle.url;
    const slow = fetch(new URL('/slow', url), { headers: { Authorization: `Bearer ${TOKEN}` } });
    await inFlight;

    const closing = handle.close().then(() => {
      events.push('close resolved');
    });
    // The only open connection is busy with /slow, so this needs a new one: refused, the listener is already closed.
    await expect(fetch(new URL('/health', url))).rejects.toThrow();
    release();

    const response = await slow;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ finished: true });
    await closing;
    // close() waited for the request: had it resolved early, 'close resolved' would come first.
    expect(events).toEqual(['request answered', 'close resolved']);
  });

  it('close() kills running commands: a waiting terminal_execute is answered with its cancelled receipt', async () => {
    handle = await startHttpServer(config({ TERM_MCP_TOKEN: TOKEN, APPROVAL_MODE: 'trusted' }));
    const execution = post(
      handle.url,
      modernRequest('tools/call', 1, { name: 'terminal_execute', arguments: { command: 'sleep 30' } }),
      modernHeaders('tools/call', 'terminal_execute'),
    );
    const registry = handle.container.get<TerminalSessionStore>(TYPES.TerminalSessionStore);
    let pid: number | undefined;
    // Waits for the command to have started, however loaded the machine (the deadline is only the failure bound).
    const deadline = Date.now() + 60_000;
    while (pid === undefined && Date.now() < deadline) {
      pid = registry.list().flatMap((session) => session.execution.commands())[0]?.pid;
      if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(pid).toEqual(expect.any(Number));
    expect(isAlive(pid as number)).toBe(true);

    await handle.close();
    handle = undefined;

    const answer = await execution;
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ result: { isError: true, structuredContent: { status: 'cancelled' } } });
    // `cancelled`, not `succeeded`: the close killed `sleep 30` instead of waiting for it.
    expect(isAlive(pid as number)).toBe(false);
  });

  it('runHttp serves until SIGTERM, then shuts down and returns 0', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const exitCode = runHttp(config({ TERM_MCP_TOKEN: TOKEN, PORT: String(port) }));
    const health = `http://127.0.0.1:${port}/health`;
    await waitUntil(async () => (await fetch(health).catch(() => undefined))?.status === 200);
    process.emit('SIGTERM');

    await expect(exitCode).resolves.toBe(0);
    await expect(fetch(health)).rejects.toThrow();
    expect(process.listenerCount('SIGTERM')).toBe(0);
    expect(process.listenerCount('SIGINT')).toBe(0);
  });
});

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
