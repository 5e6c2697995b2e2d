import type { Router } from 'express';
import { McpDispatcher } from '../../../src/application/mcp/dispatcher';
import type { FeatureHandler } from '../../../src/application/mcp/feature-handlers';
import { DEFAULT_CACHE_POLICY } from '../../../src/application/mcp/server-identity';
import { VersionNegotiator } from '../../../src/application/mcp/version-negotiator';
import type { Logger } from '../../../src/application/logging/logger';
import { createMcpHttpApp, type HttpSettings, type McpMessageHandler } from '../../../src/adapters/http/index';
import { listen, rawRequest, type Listening } from './listen';

const TOKEN = 'the-static-token-of-this-test-is-long-enough';
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

const SETTINGS: HttpSettings = {
  host: '127.0.0.1',
  token: TOKEN,
  maxRequestBytes: 4096,
  rateLimitPerMinute: 1000,
  maxLegacySessions: 5,
  sessionTimeoutSeconds: 60,
  trustProxy: false,
};

class RecordingLogger implements Logger {
  readonly errors: string[] = [];
  info(): void {}
  warn(): void {}
  error(message: string): void {
    this.errors.push(message);
  }
}

/** The real dispatcher with hand-made features: one that waits until it is cancelled, one that records its calls. */
function dispatcherWith(features: Record<string, FeatureHandler>, logger: Logger): McpDispatcher {
  return new McpDispatcher({
    negotiator: new VersionNegotiator(),
    serverInfo: { name: 'term-mcp', version: '0.0.0-test' },
    instructions: 'test',
    features: new Map(Object.entries(features)),
    cache: DEFAULT_CACHE_POLICY,
    logger,
  });
}

function modernHeaders(method: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    Authorization: `Bearer ${TOKEN}`,
    Accept: 'application/json, text/event-stream',
    'Content-Type': 'application/json',
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': method,
    ...extra,
  };
}

describe('createMcpHttpApp', () => {
  let server: Listening | undefined;
  let logger: RecordingLogger;

  beforeEach(() => {
    logger = new RecordingLogger();
  });

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function serve(
    dispatcher: McpMessageHandler,
    extra: {
      mountProtected?: (router: Router) => void;
      mountPublic?: (router: Router) => void;
      settings?: Partial<HttpSettings>;
    } = {},
  ): Promise<Listening> {
    const app = createMcpHttpApp({
      dispatcher,
      logger,
      settings: { ...SETTINGS, ...extra.settings },
      serverInfo: { name: 'term-mcp', version: '0.0.0-test' },
      mountProtected: extra.mountProtected,
      mountPublic: extra.mountPublic,
    });
    server = await listen(app);
    return server;
  }

  it('never dispatches a request whose headers contradict its body', async () => {
    const calls: string[] = [];
    const { baseUrl } = await serve(
      dispatcherWith(
        {
          'tools/call': async ({ params }) => {
            calls.push(String(params?.name));
            return { body: {} };
          },
        },
        logger,
      ),
    );

    const response = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: modernHeaders('tools/call', { 'Mcp-Name': 'harmless_tool' }),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'dangerous_tool', _meta: META },
      }),
    });

    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32020);
    expect(calls).toEqual([]);
  });

  it('aborts the request signal when the client disconnects', async () => {
    let observed: (reason: unknown) => void = () => undefined;
    const aborted = new Promise<unknown>((resolve) => {
      observed = resolve;
    });
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const waitForCancel: FeatureHandler = ({ signal }) =>
      new Promise((_resolve, reject) => {
        started();
        signal.addEventListener('abort', () => {
          observed(signal.reason);
          reject(new Error('cancelled'));
        });
      });
    const { baseUrl } = await serve(dispatcherWith({ 'tools/call': waitForCancel }, logger));
    const client = new AbortController();

    const request = fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: modernHeaders('tools/call', { 'Mcp-Name': 'wait' }),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait', _meta: META } }),
      signal: client.signal,
    }).catch((error: unknown) => error);
    await running;
    client.abort();

    await expect(aborted).resolves.toEqual(new Error('the client disconnected'));
    await request;
  });

  it('answers an internal error with HTTP 500 and -32603, without details', async () => {
    const { baseUrl } = await serve(
      dispatcherWith(
        {
          'tools/list': async () => {
            throw new Error('disk on fire');
          },
        },
        logger,
      ),
    );

    const response = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: modernHeaders('tools/list'),
      body: JSON.stringify({ jsonrpc: '2.0', id: 'x', method: 'tools/list', params: { _meta: META } }),
    });

    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 'x',
      error: { code: -32603, message: 'Internal error' },
    });
  });

  it('answers 500 -32603 when the dispatcher itself throws, and logs it', async () => {
    const broken: McpMessageHandler = {
      dispatch: async () => {
        throw new Error('broken dispatcher');
      },
    };
    const { baseUrl } = await serve(broken);

    const response = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: modernHeaders('tools/list'),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }),
    });

    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32603, message: 'Internal error' },
    });
    expect(logger.errors).toEqual(['http request failed']);
  });

  describe('chain order', () => {
    const idle = (): McpMessageHandler => dispatcherWith({}, logger);

    it('serves /health before every guard (forged Origin and Host, no token)', async () => {
      const { port } = await serve(idle());

      const response = await rawRequest(port, {
        path: '/health',
        headers: { Host: 'evil.example', Origin: 'https://evil.example' },
      });

      expect(response.status).toBe(200);
      expect(JSON.parse(response.body)).toEqual({ status: 'ok', name: 'term-mcp', version: '0.0.0-test' });
    });

    it('checks the Origin before authentication', async () => {
      const { baseUrl } = await serve(idle());

      const response = await fetch(`${baseUrl}/mcp`, {
        method: 'POST',
        headers: { Origin: 'https://evil.example' },
        body: '{}',
      });

      expect(response.status).toBe(403);
    });

    it('limits the body size before authentication', async () => {
      const { baseUrl } = await serve(idle());

      const response = await fetch(`${baseUrl}/mcp`, { method: 'POST', body: 'x'.repeat(5000) });

      expect(response.status).toBe(413);
    });

    it('sets the security headers on every answer after /health, rejections included', async () => {
      const { baseUrl } = await serve(idle());

      const response = await fetch(`${baseUrl}/mcp`, { method: 'POST', body: '{}' });

      expect(response.status).toBe(401);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('mounts public routes before auth and protected routes after it, with the principal', async () => {
      const { baseUrl } = await serve(idle(), {
        mountPublic: (router) =>
          router.get('/ui', (_req, res) => {
            res.send('ui');
          }),
        mountProtected: (router) =>
          router.get('/sessions', (_req, res) => {
            res.json({ principal: res.locals.principal as unknown });
          }),
      });

      expect((await fetch(`${baseUrl}/ui`)).status).toBe(200);
      expect((await fetch(`${baseUrl}/sessions`)).status).toBe(401);
      const authorized = await fetch(`${baseUrl}/sessions`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(await authorized.json()).toEqual({ principal: 'static-token' });
    });

    it('serves the protected resource metadata without a token when JWTs are configured', async () => {
      const { baseUrl } = await serve(idle(), {
        settings: {
          jwtSecret: 'a-jwt-secret-that-is-longer-than-thirty-two',
          jwtIssuer: 'https://issuer.example',
          jwtAudience: 'term-mcp',
        },
      });

      const response = await fetch(`${baseUrl}/.well-known/oauth-protected-resource`);

      expect(response.status).toBe(200);
    });
  });

  it('refuses an incomplete JWT configuration when the app is built', () => {
    expect(() =>
      createMcpHttpApp({
        dispatcher: dispatcherWith({}, logger),
        logger,
        settings: { ...SETTINGS, jwtSecret: 'a-jwt-secret-that-is-longer-than-thirty-two' },
        serverInfo: { name: 'term-mcp', version: '0' },
      }),
    ).toThrow(/TERM_MCP_JWT_ISSUER/);
  });
});
