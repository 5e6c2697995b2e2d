import { statSync, existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  FilteringProxy,
  MAX_CHANNEL_CONNECTIONS,
  type ProxyDecision,
} from '../../../src/adapters/sandbox/filtering-proxy';
import { NetworkAllowlist } from '../../../src/domain/execution/network-allowlist';

/*
 * The filtering proxy against real sockets: a destination HTTP server on 127.0.0.1 (random port), the proxy on its
 * unix socket, and raw clients speaking CONNECT and absolute-form requests to it.
 */

interface Destination {
  port: number;
  requests: Array<{ url: string; headers: http.IncomingHttpHeaders }>;
  close(): Promise<void>;
}

async function openDestination(): Promise<Destination> {
  const requests: Destination['requests'] = [];
  const server = http.createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    response.end(`hello from destination ${request.url ?? ''}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes raw bytes to the proxy's socket and collects everything it answers until it closes. */
function exchange(socketPath: string, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = net.connect(socketPath);
    let answer = '';
    client.setEncoding('utf8');
    client.on('data', (chunk: string) => {
      answer += chunk;
    });
    client.on('close', () => resolve(answer));
    client.on('error', reject);
    client.write(bytes);
  });
}

let destination: Destination;
let proxy: FilteringProxy;
let socketPath: string;
let resolved: string[];
let decisions: ProxyDecision[];

const REBIND = 'rebind.example.com';

beforeEach(async () => {
  destination = await openDestination();
  resolved = [];
  decisions = [];
  proxy = new FilteringProxy({
    allowlist: new NetworkAllowlist(['localhost', '*.example.com', 'nowhere.invalid']),
    resolve: async (host) => {
      resolved.push(host);
      // ::1 first, where nothing listens (the destination is on 127.0.0.1 only): every allowed exchange below also
      // shows that the proxy goes on to the next address when one does not answer.
      if (host === 'localhost') return ['::1', '127.0.0.1'];
      if (host === REBIND) return ['127.0.0.1', '169.254.169.254'];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    },
    onDecision: (decision) => decisions.push(decision),
    // The destination's loopback port, opened as an operator opens a local mirror (TERM_MCP_PROXY_LOOPBACK_PORTS).
    loopbackPorts: [destination.port],
  });
  socketPath = proxy.listen();
});

afterEach(async () => {
  await proxy.close();
  await destination.close();
});

describe('FilteringProxy', () => {
  it('listens on a unix socket only its user can reach, in a private directory', () => {
    expect(statSync(socketPath).isSocket()).toBe(true);
    expect(statSync(socketPath).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(socketPath)).mode & 0o777).toBe(0o700);
    expect(proxy.readiness()).toEqual({ ready: true });
  });

  it('forwards a plain HTTP request to an allowed host, with the Host it judged and without proxy credentials', async () => {
    const answer = await exchange(
      socketPath,
      `GET http://localhost:${destination.port}/pkg?x=1 HTTP/1.1\r\nHost: evil.net\r\nProxy-Authorization: Basic c2VjcmV0\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('hello from destination /pkg?x=1');
    expect(destination.requests).toHaveLength(1);
    expect(destination.requests[0]?.headers.host).toBe(`localhost:${destination.port}`);
    expect(destination.requests[0]?.headers['proxy-authorization']).toBeUndefined();
    expect(decisions).toEqual([{ host: 'localhost', port: destination.port, allowed: true }]);
  });

  it('tunnels CONNECT to an allowed host', async () => {
    const answer = await exchange(
      socketPath,
      `CONNECT localhost:${destination.port} HTTP/1.1\r\nHost: localhost:${destination.port}\r\n\r\nGET /tunnelled HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK/);
    expect(answer).toContain('hello from destination /tunnelled');
  });

  it.each([
    [
      'CONNECT to a host not on the list',
      (port: number) => `CONNECT evil.net:${port} HTTP/1.1\r\nHost: evil.net\r\n\r\n`,
    ],
    [
      'a plain request to a host not on the list',
      (port: number) => `GET http://evil.net:${port}/ HTTP/1.1\r\nHost: evil.net\r\nConnection: close\r\n\r\n`,
    ],
    ['CONNECT to an IP literal', (port: number) => `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: x\r\n\r\n`],
    [
      'a plain request to an IP literal',
      (port: number) => `GET http://127.0.0.1:${port}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    ],
    [
      'a plain request to a numeric spelling of 127.0.0.1',
      (port: number) => `GET http://2130706433:${port}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    ],
    [
      'CONNECT to a numeric spelling of 127.0.0.1',
      (port: number) => `CONNECT 0x7f.1:${port} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ],
    [
      'an allowed name hiding another host behind @',
      (port: number) => `GET http://localhost:${port}@evil.net/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    ],
    [
      'credentials in an allowed URL',
      (port: number) => `GET http://user:pw@localhost:${port}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    ],
    [
      'CONNECT with credentials in the target',
      (port: number) => `CONNECT localhost@evil.net:${port} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ],
    [
      'a wildcard-allowed name that resolves to local addresses (DNS rebinding, cloud metadata)',
      (port: number) => `CONNECT ${REBIND}:${port} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ],
  ])('refuses %s with 403, reaching nothing', async (_what, request) => {
    const answer = await exchange(socketPath, request(destination.port));
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(answer.toLowerCase()).toContain('x-term-mcp-proxy: refused');
    expect(destination.requests).toHaveLength(0);
    expect(resolved.filter((host) => host !== REBIND)).toEqual([]);
  });

  it("refuses an allowed name that resolves to this machine's own interface addresses, deciding before any connect", async () => {
    const own = Object.values(os.networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .map((entry) => entry.address)
      .filter((address) => !address.startsWith('127.') && address !== '::1');
    const ownProxy = new FilteringProxy({
      allowlist: new NetworkAllowlist(['own.example.com', 'localhost']),
      // The resolver seam: the name resolves to the machine's own addresses (its IPv4, its IPv6 ULA or link-local).
      resolve: (host) => Promise.resolve(host === 'own.example.com' ? [...own, '127.0.0.1'] : ['127.0.0.1']),
      onDecision: (decision) => decisions.push(decision),
    });
    try {
      const socket = ownProxy.listen();
      const viaName = await exchange(socket, `CONNECT own.example.com:${destination.port} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(viaName).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
      for (const address of own) expect(viaName).toContain(address);
      // localhost is allowed by name, but its port was not opened: loopback stays closed.
      expect(
        await exchange(
          socket,
          `GET http://localhost:${destination.port}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        ),
      ).toMatch(/^HTTP\/1\.1 403 /);
      expect(decisions).toEqual([
        {
          host: 'own.example.com',
          port: destination.port,
          allowed: false,
          reason: expect.stringContaining('127.0.0.1: not a public address'),
        },
        { host: 'localhost', port: destination.port, allowed: false, reason: expect.stringContaining('127.0.0.1') },
      ]);
      expect(destination.requests).toHaveLength(0);
    } finally {
      await ownProxy.close();
    }
  });

  it.each([
    '[::127.0.0.1]',
    '[64:ff9b::7f00:1]',
    '[::ffff:127.0.0.1]',
    '[64:ff9b:1::a00:1]',
    '[2002:7f00:1::1]',
    '127.0.0.1',
  ])('refuses the allowed IP literal %s (a loopback in another spelling) before any connect', async (literal) => {
    const literalProxy = new FilteringProxy({
      allowlist: new NetworkAllowlist([literal]),
      onDecision: (decision) => decisions.push(decision),
    });
    try {
      const answer = await exchange(
        literalProxy.listen(),
        `CONNECT ${literal}:${destination.port} HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
      expect(decisions).toEqual([expect.objectContaining({ allowed: false })]);
      expect(destination.requests).toHaveLength(0);
    } finally {
      await literalProxy.close();
    }
  });

  it('answers 502 when no address of an allowed host answers', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const unreachable = new FilteringProxy({
      allowlist: new NetworkAllowlist(['localhost']),
      resolve: () => Promise.resolve(['::1', '127.0.0.1']),
      loopbackPorts: [closedPort],
    });
    try {
      const socket = unreachable.listen();
      expect(await exchange(socket, `CONNECT localhost:${closedPort} HTTP/1.1\r\nHost: x\r\n\r\n`)).toMatch(
        /^HTTP\/1\.1 502 /,
      );
      expect(
        await exchange(socket, `GET http://localhost:${closedPort}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      ).toMatch(/^HTTP\/1\.1 502 /);
    } finally {
      await unreachable.close();
    }
  });

  it('answers 502 for an allowed host that does not resolve, and 400 for requests that are not proxy requests', async () => {
    expect(await exchange(socketPath, 'CONNECT nowhere.invalid:443 HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 502 /,
    );
    expect(await exchange(socketPath, 'GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 400 /,
    );
    expect(await exchange(socketPath, 'CONNECT localhost HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    expect(
      await exchange(
        socketPath,
        `GET https://localhost:${destination.port}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      ),
    ).toMatch(/^HTTP\/1\.1 400 /);
    expect(destination.requests).toHaveLength(0);
  });

  it('survives clients that vanish mid-request and mid-tunnel, and keeps serving', async () => {
    for (const partial of [
      `POST http://localhost:${destination.port}/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nonly-a-little`,
      `CONNECT localhost:${destination.port} HTTP/1.1\r\nHost: x\r\n\r\nGET /half`,
      'CONNECT localh',
    ]) {
      await new Promise<void>((resolve) => {
        const client = net.connect(socketPath, () => {
          client.write(partial);
          setTimeout(() => {
            client.destroy();
            resolve();
          }, 100);
        });
        client.on('error', () => resolve());
      });
    }
    const answer = await exchange(
      socketPath,
      `GET http://localhost:${destination.port}/after HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toContain('hello from destination /after');
    expect(proxy.readiness()).toEqual({ ready: true });
  });

  it("caps one command's open connections: its next one gets 503, another command's channel is still served", async () => {
    const greedy = proxy.openChannel();
    const other = proxy.openChannel();
    const idle: net.Socket[] = [];
    try {
      expect(statSync(greedy.socketPath).mode & 0o777).toBe(0o600);
      // Idle connections, as a command that opens 2 000 and sends nothing; each is accepted once it answers nothing.
      for (let index = 0; index < MAX_CHANNEL_CONNECTIONS; index += 1) {
        idle.push(
          await new Promise<net.Socket>((resolve, reject) => {
            const socket = net.connect(greedy.socketPath, () => resolve(socket));
            socket.on('error', reject);
          }),
        );
      }
      const refused = await exchange(
        greedy.socketPath,
        `GET http://localhost:${destination.port}/greedy HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      expect(refused).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
      expect(refused).toContain(`${String(MAX_CHANNEL_CONNECTIONS)} open connections of this command`);
      const served = await exchange(
        other.socketPath,
        `GET http://localhost:${destination.port}/other HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      expect(served).toContain('hello from destination /other');
      expect(destination.requests.map((request) => request.url)).toEqual(['/other']);
    } finally {
      for (const socket of idle) socket.destroy();
      greedy.close();
      other.close();
    }
    expect(existsSync(greedy.socketPath)).toBe(false);
  });

  it('is unavailable after close, with its directory removed', async () => {
    await proxy.close();
    expect(existsSync(path.dirname(socketPath))).toBe(false);
    expect(proxy.readiness()).toMatchObject({ ready: false, fix: expect.stringContaining('ALLOW_NETWORK') });
  });

  it('reports that it cannot start, and stays unavailable (fail closed)', () => {
    const broken = new FilteringProxy({
      allowlist: new NetworkAllowlist(['localhost']),
      parentDir: path.join(os.tmpdir(), 'no-such-dir-for-the-proxy'),
    });
    expect(() => broken.listen()).toThrow();
    expect(broken.readiness()).toMatchObject({ ready: false, reason: expect.stringContaining('could not start') });
  });
});
