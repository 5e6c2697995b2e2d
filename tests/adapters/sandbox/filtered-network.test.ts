import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ChildProcessSessionFactory } from '../../../src/adapters/process/child-process-session-factory';
import type { FilteredNetwork } from '../../../src/adapters/sandbox/bubblewrap-profile';
import { FilteringProxy } from '../../../src/adapters/sandbox/filtering-proxy';
import { SandboxUnavailable } from '../../../src/domain/execution/execution-errors';
import type { ExecutionSession } from '../../../src/domain/execution/execution-session';
import { NetworkAllowlist } from '../../../src/domain/execution/network-allowlist';
import { sandboxFor } from '../../support/sandbox';

/*
 * ALLOW_NETWORK in the real sandbox: the command has its own network namespace and reaches a destination on the
 * host's 127.0.0.1 only through the filtering proxy (socat bridge on 127.0.0.1:3128 inside, proxy environment set),
 * and only for an allowed host name.
 */

jest.setTimeout(60_000);

let workspace: string;
let proxy: FilteringProxy;
let destination: http.Server;
let port: number;
let hits: string[];
const sessions: ExecutionSession[] = [];

function filtered(overrides: Partial<FilteredNetwork> = {}): FilteredNetwork {
  return {
    socatPath: '/usr/bin/socat',
    proxySocketPath: proxy.socketPath ?? '',
    allowedDomains: ['localhost'],
    proxyReadiness: () => proxy.readiness(),
    openChannel: () => proxy.openChannel(),
    ...overrides,
  };
}

async function run(
  script: string,
  network: FilteredNetwork | 'off' = filtered(),
): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  const session = new ChildProcessSessionFactory({
    confinement: sandboxFor(workspace, { network }),
    killGraceMs: 200,
  }).create({ id: `s${sessions.length}`, cwd: workspace });
  sessions.push(session);
  const command = session.start(
    { launch: { kind: 'shell', script }, cwd: workspace, timeoutMs: 30_000, maxOutputBytes: 100_000 },
    script,
  );
  const outcome = await command.finished();
  return {
    exitCode: outcome.exitCode,
    stdout: command.read('stdout', 0, 100_000).text,
    stderr: command.read('stderr', 0, 100_000).text,
  };
}

/** Host pids of the socat bridges started for this test's workspace (the bridge runs in the command's directory). */
function bridgesIn(dir: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return (
          readlinkSync(`/proc/${pid}/cwd`) === dir &&
          readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('/usr/bin/socat\0')
        );
      } catch {
        return false; // ended meanwhile, or not ours to read
      }
    })
    .map(Number);
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  destination = http.createServer((request, response) => {
    hits.push(request.url ?? '');
    response.end(`reached ${request.url ?? ''}\n`);
  });
  await new Promise<void>((resolve) => destination.listen(0, '127.0.0.1', resolve));
  port = (destination.address() as net.AddressInfo).port;
});

afterAll(async () => {
  destination.closeAllConnections();
  await new Promise((resolve) => destination.close(resolve));
});

beforeEach(() => {
  hits = [];
  workspace = mkdtempSync(path.join(os.tmpdir(), 'term-mcp-net-'));
  // The destination's loopback port opened as an operator opens a local mirror (TERM_MCP_PROXY_LOOPBACK_PORTS).
  proxy = new FilteringProxy({ allowlist: new NetworkAllowlist(['localhost']), loopbackPorts: [port] });
  proxy.listen();
});

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
  await proxy.close();
  rmSync(workspace, { recursive: true, force: true });
});

describe('the filtered network in the real sandbox', () => {
  it('reaches an allowed host through the proxy (curl honouring HTTPS_PROXY/HTTP_PROXY), plain and tunnelled', async () => {
    const result = await run(
      `curl -sS --max-time 20 http://localhost:${port}/plain && curl -sS --max-time 20 -p http://localhost:${port}/tunnel && echo "$HTTP_PROXY"`,
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`reached /plain\nreached /tunnel\nhttp://127.0.0.1:3128\n`);
    expect(hits).toEqual(['/plain', '/tunnel']);
  });

  it('works whatever the workspace, even /tmp itself (read-only): the socket is bound where no workspace lies', async () => {
    const session = new ChildProcessSessionFactory({
      confinement: sandboxFor('/tmp', { network: filtered(), workspaceWritable: false }),
      killGraceMs: 200,
    }).create({ id: 'tmp', cwd: '/tmp' });
    sessions.push(session);
    const command = session.start(
      {
        launch: {
          kind: 'argv',
          argv: ['/usr/bin/curl', '-sS', '--max-time', '20', `http://localhost:${port}/from-tmp`],
        },
        cwd: '/tmp',
        timeoutMs: 30_000,
        maxOutputBytes: 1000,
      },
      'curl',
    );
    expect(await command.finished()).toMatchObject({ exitCode: 0 });
    expect(command.read('stdout', 0, 1000).text).toBe('reached /from-tmp\n');
  });

  it('speaks CONNECT to the bridge with nothing but the shell (bash /dev/tcp)', async () => {
    const script = `exec 3<>/dev/tcp/127.0.0.1/3128; printf 'CONNECT localhost:${port} HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\nGET /raw HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3; cat <&3`;
    const result = await run(`bash -c '${script.replaceAll("'", "'\\''")}'`);
    expect(result.stdout).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK/);
    expect(result.stdout).toContain('reached /raw');
  });

  it('refuses a host not on the list (403) and an IP literal, and reaches nothing', async () => {
    const result = await run(
      `curl -s -o /dev/null -w '%{http_code} ' http://registry.evil.example:${port}/; curl -s -o /dev/null -w '%{http_code} ' http://127.0.0.1:${port}/; ` +
        `curl -s -o /dev/null -w '%{http_connect}' -p http://localhost.evil.example:${port}/`,
    );
    // Plain requests: the proxy's answer is the response (403); tunnelled (-p): the refused CONNECT's code.
    expect(result.stdout).toBe('403 403 403');
    expect(hits).toEqual([]);
  });

  it('has no route to the host: a direct connection to the listener on 127.0.0.1 without the proxy fails', async () => {
    const result = await run(
      `curl -sS --noproxy '*' --max-time 10 http://127.0.0.1:${port}/direct; echo "curl=$?"; ` +
        `bash -c 'echo x > /dev/tcp/127.0.0.1/${port}' 2>/dev/null && echo CONNECTED; tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '`,
    );
    expect(result.stdout).toContain('curl=7');
    expect(result.stdout).not.toContain('CONNECTED');
    expect(result.stdout.trim().split('\n').slice(1)).toEqual(['lo']);
    expect(hits).toEqual([]);
  });

  it('refuses every command (sandbox_unavailable) when the proxy has stopped or socat is missing: fail closed', async () => {
    const stopped = sandboxFor(workspace, { network: filtered() });
    await proxy.close();
    const launch = { launch: { kind: 'argv' as const, argv: ['/bin/true'] }, cwd: workspace, environment: {} };
    expect(() => stopped.confine(launch)).toThrow(SandboxUnavailable);
    const noSocat = sandboxFor(workspace, {
      network: filtered({ socatPath: path.join(workspace, 'no-socat'), proxyReadiness: () => ({ ready: true }) }),
    });
    expect(noSocat.readiness()).toMatchObject({
      ready: false,
      reason: expect.stringContaining('socat'),
      fix: expect.stringContaining('apt-get install socat'),
    });
    expect(() => noSocat.confine(launch)).toThrow(SandboxUnavailable);
  });

  it("runs the bridge in the command's process group and PID namespace: pause stops it, and it ends with the command", async () => {
    const session = new ChildProcessSessionFactory({
      confinement: sandboxFor(workspace, { network: filtered() }),
      killGraceMs: 200,
    }).create({ id: 'bridge', cwd: workspace });
    sessions.push(session);
    const command = session.start(
      { launch: { kind: 'argv', argv: ['/bin/sleep', '60'] }, cwd: workspace, timeoutMs: 60_000, maxOutputBytes: 1000 },
      'sleep 60',
    );
    await waitFor(() => bridgesIn(workspace).length > 0, 'the socat bridge to start');
    expect(command.pause()).toBe(true);
    const [bridge] = bridgesIn(workspace);
    await waitFor(
      () => /^State:\s+T/m.test(readFileSync(`/proc/${String(bridge)}/status`, 'utf8')),
      'the bridge to be stopped with the command',
    );
    expect(command.resume()).toBe(true);
    expect(command.cancel()).toBe(true);
    expect((await command.finished()).status).toBe('cancelled');
    await waitFor(() => bridgesIn(workspace).length === 0, 'the bridge to end with the command');
  });

  it("keeps the command's exit status and stdin-less, output-only streams (the bridge writes nothing)", async () => {
    expect(await run('echo out; echo err >&2; exit 3')).toEqual({ exitCode: 3, stdout: 'out\n', stderr: 'err\n' });
  });

  it('says what applies: network filtered, with the allowed domains', () => {
    expect(sandboxFor(workspace, { network: filtered() }).summary()).toMatchObject({
      sandbox: 'bubblewrap',
      network: 'filtered',
      allowed_domains: ['localhost'],
    });
    expect(sandboxFor(workspace).summary()).not.toHaveProperty('allowed_domains');
  });
});
