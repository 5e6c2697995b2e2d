import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { ConfinementReadiness } from '../../domain/execution/command-confinement.js';
import type { NetworkAllowlist } from '../../domain/execution/network-allowlist.js';
import { isLoopback, whyNotPublic } from './public-address.js';

/** Resolves a host name to its addresses (IPv4 or IPv6, as text). */
export type HostResolver = (host: string) => Promise<string[]>;

/** What the proxy decided about one destination (for the server's log). */
export interface ProxyDecision {
  readonly host: string;
  readonly port: number;
  readonly allowed: boolean;
  readonly reason?: string;
}

export interface FilteringProxyOptions {
  readonly allowlist: NetworkAllowlist;
  /** Default: the system resolver (getaddrinfo), every address. Tests map names to local listeners here. */
  readonly resolve?: HostResolver;
  readonly connectTimeoutMs?: number;
  readonly onDecision?: (decision: ProxyDecision) => void;
  /** Where the private directory holding the socket is made (default: the OS temp directory). */
  readonly parentDir?: string;
  /**
   * Loopback ports an operator opened on purpose (TERM_MCP_PROXY_LOOPBACK_PORTS: a local registry mirror), for a host
   * the allow list names exactly (`localhost`, `127.0.0.1`). Default none: only public addresses are reached.
   */
  readonly loopbackPorts?: readonly number[];
}

const SOCKET_NAME = 'proxy.sock';
/** Open client connections at once (every command together): a runaway command cannot exhaust the server's fds. */
const MAX_CONNECTIONS = 512;
/**
 * Open client connections of one command (one channel): 2 000 idle connections from one command must not cut every
 * other command off (issue 26 item 8). A package manager opens a few dozen at most.
 */
export const MAX_CHANNEL_CONNECTIONS = 64;
const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
/** Marks the proxy's own refusals, so a client (and a test) can tell them from a destination's answer. */
export const REFUSAL_HEADER = 'x-term-mcp-proxy';
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'upgrade',
  'host',
]);
const CONNECT_TARGET = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+):(\d{1,5})$/;
const FIX =
  'The filtering proxy that ALLOW_NETWORK needs could not start; check that the temporary directory is writable, or ' +
  'turn ALLOW_NETWORK off, then restart the server.';

async function systemResolve(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

/** Allowed: the addresses to try in order (the resolver's order), at least one. */
type Destination =
  | { readonly addresses: readonly string[]; readonly port: number }
  | { readonly refused: 403 | 502; readonly reason: string };

/**
 * The sandbox's only way out when ALLOW_NETWORK is on: an HTTP proxy (CONNECT tunnels for HTTPS and anything else,
 * absolute-form requests for plain HTTP) that lets through only hosts on the allow list. It listens on a unix socket
 * (mode 0600, in a fresh 0700 directory), never on TCP, so nothing outside this server's user reaches it; the sandbox
 * gets the socket bound in and a socat bridge from 127.0.0.1:3128 inside its own network namespace.
 * A refusal is `403` with the `x-term-mcp-proxy` header; an unreachable allowed destination is `502`.
 */
/** One command's own way into the proxy: a socket of its own, with its own connection cap. */
export interface ProxyChannel {
  readonly socketPath: string;
  /** Stops accepting and ends this command's connections (its sandbox has ended). */
  close(): void;
}

export class FilteringProxy {
  private readonly server: http.Server;
  private readonly resolve: HostResolver;
  private directory: string | undefined;
  private failure: string | undefined = 'not started';
  private channels = 0;
  /** Connections accepted through channels (every command together), bounded by MAX_CONNECTIONS. */
  private channelConnections = 0;

  constructor(private readonly options: FilteringProxyOptions) {
    this.resolve = options.resolve ?? systemResolve;
    this.server = http.createServer({ requireHostHeader: false });
    this.server.maxConnections = MAX_CONNECTIONS;
    this.server.on(
      'request',
      (request: http.IncomingMessage, response: http.ServerResponse) => void this.forward(request, response),
    );
    this.server.on(
      'connect',
      (request: http.IncomingMessage, socket: Duplex, head: Buffer) => void this.tunnel(request, socket, head),
    );
    this.server.on('clientError', (_error: Error, socket: Duplex) => socket.destroy());
    this.server.on('error', (error: Error) => {
      this.failure = `the filtering proxy failed: ${error.message}`;
    });
  }

  /**
   * Starts listening now (a unix socket binds synchronously) and returns the socket's path. Throws when it cannot;
   * `readiness()` says so afterwards too, so commands that need it are refused (fail closed).
   */
  listen(): string {
    try {
      this.directory = mkdtempSync(path.join(this.options.parentDir ?? os.tmpdir(), 'term-mcp-proxy-'));
      const socketPath = path.join(this.directory, SOCKET_NAME);
      this.server.listen(socketPath);
      if (!this.server.listening) throw new Error(`cannot listen on ${socketPath}`);
      chmodSync(socketPath, 0o600);
      // The proxy serves commands; it never keeps the server's process alive on its own.
      this.server.unref();
      this.failure = undefined;
      return socketPath;
    } catch (error) {
      this.failure = `the filtering proxy could not start: ${error instanceof Error ? error.message : String(error)}`;
      this.server.close();
      throw error;
    }
  }

  /**
   * A socket for one command, in the proxy's private directory (mode 0600), bound into that command's sandbox alone.
   * Its connections beyond MAX_CHANNEL_CONNECTIONS (or beyond MAX_CONNECTIONS of every command together) are answered
   * `503` with the refusal header and closed, so one command cannot take the proxy from the others.
   */
  openChannel(): ProxyChannel {
    if (this.directory === undefined || !this.server.listening)
      throw new Error(this.failure ?? 'the filtering proxy is not listening');
    this.channels += 1;
    const socketPath = path.join(this.directory, `channel-${String(this.channels)}.sock`);
    const open = new Set<net.Socket>();
    const channel = net.createServer((socket) => {
      socket.on('error', () => socket.destroy());
      if (open.size >= MAX_CHANNEL_CONNECTIONS || this.channelConnections >= MAX_CONNECTIONS) {
        const limit =
          open.size >= MAX_CHANNEL_CONNECTIONS
            ? `${String(MAX_CHANNEL_CONNECTIONS)} open connections of this command`
            : `${String(MAX_CONNECTIONS)} open connections of every command`;
        endRaw(socket, 503, `too many connections: ${limit}; close some and retry`);
        return;
      }
      open.add(socket);
      this.channelConnections += 1;
      socket.once('close', () => {
        open.delete(socket);
        this.channelConnections -= 1;
      });
      this.server.emit('connection', socket);
    });
    channel.listen(socketPath);
    chmodSync(socketPath, 0o600);
    channel.unref();
    return {
      socketPath,
      close: () => {
        channel.close();
        for (const socket of open) socket.destroy();
        rmSync(socketPath, { force: true });
      },
    };
  }

  get socketPath(): string | undefined {
    return this.directory === undefined ? undefined : path.join(this.directory, SOCKET_NAME);
  }

  readiness(): ConfinementReadiness {
    if (this.failure !== undefined || !this.server.listening)
      return { ready: false, reason: this.failure ?? 'the filtering proxy stopped', fix: FIX };
    return { ready: true };
  }

  /** Stops accepting, ends open tunnels and removes the socket's directory. */
  async close(): Promise<void> {
    this.failure = 'the filtering proxy was closed';
    if (this.server.listening) {
      const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
      this.server.closeAllConnections();
      await closed;
    }
    if (this.directory !== undefined) rmSync(this.directory, { recursive: true, force: true });
  }

  /** Where a written host and port may lead: an allowed, non-local address, or a refusal. */
  private async destination(writtenHost: string, port: number): Promise<Destination> {
    const verdict = this.options.allowlist.judge(writtenHost);
    if (!verdict.allowed) return { refused: 403, reason: verdict.reason };
    let addresses: string[];
    if (verdict.ipLiteral) addresses = [verdict.host.replace(/^\[|\]$/g, '')];
    else {
      try {
        addresses = await this.resolve(verdict.host);
      } catch (error) {
        return {
          refused: 502,
          reason: `cannot resolve ${verdict.host}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
        };
      }
    }
    // Judged after resolution, on the addresses the connection then goes to (by address: no second lookup).
    const openedLoopback = verdict.exact && (this.options.loopbackPorts ?? []).includes(port);
    const refusals: string[] = [];
    const usable = addresses.filter((address) => {
      if (openedLoopback && isLoopback(address)) return true;
      const why = whyNotPublic(address);
      if (why !== undefined) refusals.push(`${address}: ${why}`);
      return why === undefined;
    });
    if (usable.length === 0) {
      return addresses.length === 0
        ? { refused: 502, reason: `${verdict.host} has no address` }
        : { refused: 403, reason: `${verdict.host} reaches no public address (${refusals.join('; ')})` };
    }
    return { addresses: usable, port };
  }

  private decide(host: string, port: number, destination: Destination): void {
    this.options.onDecision?.(
      'refused' in destination
        ? { host, port, allowed: false, reason: destination.reason }
        : { host, port, allowed: true },
    );
  }

  /**
   * Connects to the first address that answers, in order: a name with IPv6 and IPv4 addresses still works on a host
   * without IPv6 connectivity. Throws the last failure.
   */
  private async connectTo(destination: { addresses: readonly string[]; port: number }): Promise<net.Socket> {
    let failure: unknown = new Error('no address');
    for (const address of destination.addresses) {
      try {
        return await this.connectOnce(address, destination.port);
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  }

  private connectOnce(address: string, port: number): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      const upstream = net.connect({ host: address, port });
      upstream.setTimeout(this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, () =>
        upstream.destroy(new Error('connect timeout')),
      );
      upstream.once('connect', () => {
        upstream.setTimeout(0);
        upstream.removeListener('error', reject);
        resolve(upstream);
      });
      upstream.once('error', reject);
    });
  }

  /** CONNECT host:port: a raw tunnel to an allowed destination (HTTPS, git over HTTPS...). */
  private async tunnel(request: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const target = CONNECT_TARGET.exec(request.url ?? '');
    const port = Number(target?.[2]);
    if (target === null || port < 1 || port > 65535) {
      endRaw(client, 400, 'CONNECT needs host:port');
      return;
    }
    const host = target[1] ?? '';
    const destination = await this.destination(host, port);
    this.decide(host, port, destination);
    if ('refused' in destination) {
      endRaw(client, destination.refused, destination.reason);
      return;
    }
    let upstream: net.Socket;
    try {
      upstream = await this.connectTo(destination);
    } catch (error) {
      endRaw(client, 502, `cannot connect to ${host}:${port}: ${(error as Error).message}`);
      return;
    }
    if (client.destroyed) {
      upstream.destroy();
      return;
    }
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    client.pipe(upstream);
    upstream.pipe(client);
  }

  /** An absolute-form request (`GET http://host/path`): plain HTTP, forwarded to an allowed destination. */
  private async forward(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    // A command killed mid-request resets its connection: that must end this exchange, never the server.
    request.on('error', () => response.destroy());
    response.on('error', () => response.destroy());
    let url: URL;
    try {
      url = new URL(request.url ?? '');
    } catch {
      refuse(response, 400, 'a proxy request needs an absolute http:// URL');
      return;
    }
    if (url.protocol !== 'http:') {
      refuse(response, 400, `${url.protocol} is not proxied as a plain request (use CONNECT for https)`);
      return;
    }
    // http://allowed.example@evil.example/: the URL parser already takes evil.example as the host; credentials in a
    // proxied URL have no legitimate use here, so they are refused outright.
    if (url.username !== '' || url.password !== '') {
      refuse(response, 403, 'credentials in the URL are refused');
      return;
    }
    const port = url.port === '' ? 80 : Number(url.port);
    const destination = await this.destination(url.hostname, port);
    this.decide(url.hostname, port, destination);
    if ('refused' in destination) {
      refuse(response, destination.refused, destination.reason);
      return;
    }
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
    }
    // The Host the destination sees is the one that was judged, never a client-chosen one (no virtual-host fronting).
    headers.host = url.host;
    headers.connection = 'close';
    let socket: net.Socket;
    try {
      socket = await this.connectTo(destination);
    } catch (error) {
      refuse(response, 502, `cannot connect to ${url.host}: ${(error as Error).message}`);
      return;
    }
    if (response.destroyed) {
      socket.destroy();
      return;
    }
    const upstream = http.request({
      createConnection: () => socket,
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers,
      timeout: this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    });
    upstream.on('timeout', () => upstream.destroy(new Error('timeout')));
    request.on('close', () => {
      if (!request.complete) upstream.destroy();
    });
    response.on('close', () => upstream.destroy());
    upstream.on('response', (answer) => {
      answer.on('error', () => response.destroy());
      const answerHeaders: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (!HOP_BY_HOP.has(name) && value !== undefined) answerHeaders[name] = value;
      }
      response.writeHead(answer.statusCode ?? 502, answerHeaders);
      answer.pipe(response);
    });
    upstream.on('error', (error) => {
      if (!response.headersSent) refuse(response, 502, `cannot reach ${url.host}: ${error.message}`);
      else response.destroy();
    });
    request.pipe(upstream);
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

function refuse(response: http.ServerResponse, status: number, reason: string): void {
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    [REFUSAL_HEADER]: status === 403 ? 'refused' : 'error',
    connection: 'close',
  });
  response.end(`term-mcp proxy: ${reason}\n`);
}

function endRaw(socket: Duplex, status: number, reason: string): void {
  if (socket.destroyed) return;
  const body = `term-mcp proxy: ${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\n${REFUSAL_HEADER}: ${status === 403 ? 'refused' : 'error'}\r\n` +
      `content-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
