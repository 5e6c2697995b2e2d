import type { Readable, Writable } from 'node:stream';
import type { Express } from 'express';
import type { Container } from 'inversify';
import type { Logger } from '../application/logging/logger.js';
import { LegacyHandshake } from '../application/mcp/connection-state.js';
import type { McpDispatcher } from '../application/mcp/dispatcher.js';
import type { JsonRpcResponse } from '../application/mcp/jsonrpc.js';
import { serveStdio } from '../adapters/stdio/stdio-server.js';
import { ConfigurationError } from '../domain/errors.js';
import { loadConfig, type Config, type ConfigFlags } from './config.js';
import { buildContainer, shutdownTerminal, type ContainerOverrides } from './container.js';
import { buildHttpApp, type HttpAppHooks } from './http-app.js';
import { bindPorts, type TermMcpPorts } from './ports.js';
import { TYPES } from './types.js';

export interface TermMcpOptions {
  /**
   * Settings by their environment-variable names, exactly as the CLI reads them (docs/configuration.md), e.g.
   * `{ WORKSPACE_ROOT: '/srv/repo', TERM_MCP_TOKEN: '…' }`. Nothing is read from `process.env` unless you pass it.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** The CLI flags (`workspace`, `mode`, `approval`, `host`, `port`, `policy`); they win over `env`. */
  flags?: ConfigFlags;
  /** The host's own ports (its `PolicyEngine`, `WorkspaceFS`, `Logger`, ...), each checked against its port type. */
  ports?: TermMcpPorts;
  /**
   * Low-level escape hatch: rebinds anything in the container after the ports, e.g. in tests. Prefer `ports`: it is
   * type-checked and its names are a stable API; the container's other identifiers are not.
   */
  overrides?: ContainerOverrides;
}

/** term-mcp embedded in another Node app: the same container, dispatcher and adapters the CLI uses. */
export interface TermMcp {
  readonly config: Config;
  readonly container: Container;
  readonly dispatcher: McpDispatcher;
  /** Handles one JSON-RPC message in-process (a modern request, or a legacy one after `initialize` on `handshake`). */
  handle(message: unknown, handshake?: LegacyHandshake): Promise<JsonRpcResponse | undefined>;
  /**
   * The Streamable HTTP app: `POST /mcp`, `/health`, the web UI and the deprecated web routes, behind the whole
   * security chain. Mount it at the root (`host.use(termMcp.httpApp())` serves `/mcp`) or under a prefix
   * (`host.use('/terminal', …)` serves `/terminal/mcp`). Needs `TERM_MCP_TOKEN` or a JWT configuration.
   */
  httpApp(hooks?: HttpAppHooks): Express;
  /** Serves MCP over STDIO on the given streams (default: this process's stdin/stdout) until the input ends. */
  serveStdio(streams?: { input: Readable; output: Writable }): Promise<void>;
  /** Kills every running command and closes every execution session. */
  close(): Promise<void>;
}

export function createTermMcp(options: TermMcpOptions = {}): TermMcp {
  const config = loadConfig({ ...options.env }, options.flags);
  const container = buildContainer(config, (built) => {
    if (options.ports !== undefined) bindPorts(built, options.ports);
    options.overrides?.(built);
  });
  const dispatcher = container.get<McpDispatcher>(TYPES.Dispatcher);
  return {
    config,
    container,
    dispatcher,
    handle: (message, handshake = new LegacyHandshake()) =>
      dispatcher.handle(message, { transport: 'stdio', handshake }),
    httpApp(hooks) {
      if (config.token === undefined && config.jwtSecret === undefined && config.jwtJwks === undefined) {
        throw new ConfigurationError('TERM_MCP_TOKEN: the HTTP app needs a bearer token or a JWT configuration', {
          setting: 'TERM_MCP_TOKEN',
        });
      }
      return buildHttpApp(container, config, hooks);
    },
    serveStdio(streams = { input: process.stdin, output: process.stdout }) {
      return serveStdio({ ...streams, handler: dispatcher, logger: container.get<Logger>(TYPES.Logger) });
    },
    close: () => shutdownTerminal(container),
  };
}
