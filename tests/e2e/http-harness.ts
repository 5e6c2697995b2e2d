import { loadConfig } from '../../src/main/config';
import { startHttpServer, type HttpServerHandle } from '../../src/main/run-http';
import { makeTempWorkspace } from '../support/workspace';

/** The static bearer token of every HTTP end-to-end server. */
export const TOKEN = 'e2e-static-token-that-is-longer-than-thirty-two-chars';
export const JWT_SECRET = 'e2e-jwt-secret-that-is-longer-than-thirty-two-chars';
export const JWT_ISSUER = 'https://issuer.e2e.example';
export const JWT_AUDIENCE = 'term-mcp-e2e';

export const MODERN_META = Object.freeze({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw-fetch', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
});
export const ACCEPT_BOTH = 'application/json, text/event-stream';

export interface TestServer {
  handle: HttpServerHandle;
  /** The MCP endpoint URL. */
  url: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  workspaceRoot: string;
  stop(): Promise<void>;
}

/** A real `term-mcp http` server (in process) on 127.0.0.1, random port, temp workspace, quiet logs. */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const workspace = makeTempWorkspace('term-mcp-http-');
  try {
    const config = loadConfig(
      {
        WORKSPACE_ROOT: workspace.root,
        TERM_MCP_TOKEN: TOKEN,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'error',
        ...env,
      },
      {},
    );
    const handle = await startHttpServer(config);
    return {
      handle,
      url: handle.url,
      origin: new URL(handle.url).origin,
      port: handle.port,
      workspaceRoot: workspace.root,
      stop: async () => {
        await handle.close();
        workspace.remove();
      },
    };
  } catch (error) {
    workspace.remove();
    throw error;
  }
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is empty. */
  json: Record<string, unknown> | undefined;
}

/** POSTs a raw body (a string is sent as it is) and reads the whole answer. */
export async function post(url: string, body: unknown, headers: Record<string, string>): Promise<Reply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return read(response);
}

export async function read(response: Response): Promise<Reply> {
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
  };
}

/** The headers a 2026-07-28 client sends for `method` (plus `Mcp-Name` when given). */
export function modernHeaders(method: string, name?: string, token: string = TOKEN): Record<string, string> {
  return {
    Authorization: `Bearer ${token}`,
    Accept: ACCEPT_BOTH,
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': method,
    ...(name === undefined ? {} : { 'Mcp-Name': name }),
  };
}

export function modernRequest(
  method: string,
  id: string | number,
  params: Record<string, unknown> = {},
): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } };
}

export const INITIALIZE = Object.freeze({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-fetch', version: '1.0.0' } },
});

/** A completed legacy handshake over raw HTTP: initialize, then `notifications/initialized`. Returns the session id. */
export async function openLegacySession(url: string, token: string = TOKEN): Promise<string> {
  const initialized = await post(url, INITIALIZE, { Authorization: `Bearer ${token}`, Accept: ACCEPT_BOTH });
  const sessionId = initialized.headers.get('mcp-session-id');
  if (initialized.status !== 200 || sessionId === null)
    throw new Error(`initialize failed: ${initialized.status} ${initialized.text}`);
  const notified = await post(
    url,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    legacyHeaders(sessionId, token),
  );
  if (notified.status !== 202) throw new Error(`notifications/initialized failed: ${notified.status} ${notified.text}`);
  return sessionId;
}

export function legacyHeaders(sessionId: string, token: string = TOKEN): Record<string, string> {
  return {
    Authorization: `Bearer ${token}`,
    Accept: ACCEPT_BOTH,
    'Mcp-Session-Id': sessionId,
    'MCP-Protocol-Version': '2025-11-25',
  };
}
