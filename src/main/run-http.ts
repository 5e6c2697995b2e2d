import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Container } from 'inversify';
import type { Logger } from '../application/logging/logger.js';
import { isLoopbackHost } from '../adapters/http/index.js';
import { ConfigurationError } from '../domain/errors.js';
import type { Config } from './config.js';
import { buildContainer, shutdownTerminal, type ContainerOverrides } from './container.js';
import { buildHttpApp, type HttpAppHooks } from './http-app.js';
import { logSandboxState } from './sandbox-startup-log.js';
import { warnAboutSeedSettings } from './seed-settings-warning.js';
import { warnAboutBroadWorkspace } from './workspace-warning.js';
import { TYPES } from './types.js';

export interface StartHttpOptions extends HttpAppHooks {
  /** Replace container bindings before anything is resolved (see `buildContainer`). */
  overrides?: ContainerOverrides;
}

export interface HttpServerHandle {
  /** The MCP endpoint, e.g. `http://127.0.0.1:8000/mcp`. */
  url: string;
  /** The bound port (the real one when PORT was 0). */
  port: number;
  container: Container;
  /** Stops accepting, kills every command, then lets requests in flight finish (for a bounded grace period). */
  close(): Promise<void>;
}

/** How long in-flight requests may run after close() before their connections are cut (and their work aborted). */
const SHUTDOWN_GRACE_MS = 10_000;
/** How often a closing server looks for connections whose last request was answered. */
const IDLE_REAP_INTERVAL_MS = 50;

/** HOST:PORT could not be bound (taken, privileged, or not an address of this machine). */
export class ListenError extends Error {
  constructor(
    host: string,
    port: number,
    readonly code: string | undefined,
  ) {
    super(
      `cannot listen on ${host}:${port}: ${LISTEN_PROBLEMS[code ?? ''] ?? 'the address cannot be bound'} (${code ?? 'unknown error'}); choose another with --host/--port or HOST/PORT`,
    );
    this.name = 'ListenError';
  }
}

const LISTEN_PROBLEMS: Readonly<Record<string, string>> = Object.freeze({
  EADDRINUSE: 'the port is already in use',
  EACCES: 'this user may not bind that port',
  EADDRNOTAVAIL: 'the host is not an address of this machine',
});

/**
 * Builds the container and the HTTP app and listens on HOST:PORT. Refuses a non-loopback HOST without a token or
 * JWT configured. On loopback without a token it generates one and, once the port is bound, prints it to stderr
 * once (as the seed did): a start that fails never shows a token nobody can use.
 */
export async function startHttpServer(config: Config, options: StartHttpOptions = {}): Promise<HttpServerHandle> {
  const effective = withBearerToken(config);
  const container = buildContainer(effective, options.overrides);
  const app = buildHttpApp(container, effective, options);
  const server = createServer(app);
  try {
    await listen(server, effective.port, effective.host);
  } catch (error) {
    await shutdownTerminal(container);
    throw new ListenError(effective.host, effective.port, errorCode(error));
  }
  if (effective.token !== config.token) {
    // withBearerToken generated it: show it now that the server can be reached with it.
    process.stderr.write(
      `Generated one-time TERM_MCP_TOKEN (save it before sharing this terminal): ${effective.token}\n`,
    );
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${effective.host.includes(':') ? `[${effective.host}]` : effective.host}:${port}/mcp`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    // Stop accepting first; then kill the commands, so requests waiting on them (terminal_execute) are answered at
    // once with a cancelled receipt and event streams end with `session_closed`; then wait for those answers.
    closing ??= (async () => {
      const stopped = stopServer(server);
      await shutdownTerminal(container);
      await stopped;
    })();
    return closing;
  };
  return { url, port, container, close };
}

/** `term-mcp http`: serves until SIGTERM or SIGINT, then shuts down gracefully and returns exit code 0. */
export async function runHttp(config: Config): Promise<number> {
  const server = await startHttpServer(config);
  const logger = server.container.get<Logger>(TYPES.Logger);
  warnAboutSeedSettings(logger, config);
  warnAboutBroadWorkspace(logger, config);
  logSandboxState(logger, config, server.container);
  // The browser UI is served at the root of the same origin (docs/web.md).
  logger.info('term-mcp http listening', {
    url: server.url,
    ui: new URL('/', server.url).href,
    workspace: config.workspaceRoot,
  });
  const signal = await firstSignal(['SIGTERM', 'SIGINT']);
  logger.info('stopping', { signal });
  await server.close();
  logger.info('stopped');
  return 0;
}

/**
 * The network guard and the generated token (printed by the caller once the port is bound). Without a static token
 * or a JWT configuration a non-loopback bind would expose the terminal to anyone who can reach the port, so it is
 * refused.
 */
function withBearerToken(config: Config): Config {
  const jwtConfigured = config.jwtSecret !== undefined || config.jwtJwks !== undefined;
  if (config.token !== undefined || jwtConfigured) return config;
  if (!isLoopbackHost(config.host)) {
    throw new ConfigurationError(
      `HOST: binding ${config.host} (not loopback) requires TERM_MCP_TOKEN or a JWT configuration (TERM_MCP_JWT_SECRET / TERM_MCP_JWT_JWKS)`,
      { setting: 'HOST' },
    );
  }
  const token = randomBytes(32).toString('base64url');
  // The generated token also signs receipts when no key was configured, as AUTH_TOKEN did in the seed.
  return Object.freeze({ ...config, token, receiptKey: config.receiptKey ?? token });
}

/** Resolves with the first of `signals` received; a second one then gets Node's default (immediate exit). */
function firstSignal(signals: NodeJS.Signals[]): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const listeners = signals.map((signal) => {
      const listener = (): void => {
        for (const [index, other] of signals.entries()) process.off(other, listeners[index] as () => void);
        resolve(signal);
      };
      process.on(signal, listener);
      return listener;
    });
  });
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Stop accepting, then close each keep-alive connection as soon as it is idle (its request answered), and cut
 * whatever is still busy after the grace period.
 */
function stopServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const reapIdle = setInterval(() => server.closeIdleConnections(), IDLE_REAP_INTERVAL_MS);
    const forceClose = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    reapIdle.unref();
    forceClose.unref();
    server.close(() => {
      clearInterval(reapIdle);
      clearTimeout(forceClose);
      resolve();
    });
    server.closeIdleConnections();
  });
}
