// HTTP and MCP calls of the browser UI. Every URL is relative to the page's base, so the UI works at `/` and under a
// prefix where a host app mounts term-mcp (`/terminal/`). Failures become `RequestFailed` with a `code` the UI maps
// to words for people (words.js); message text from the server is never used to decide anything.

const CLIENT_INFO = { name: 'term-mcp-mission-control', version: '2.0.0' };

export class RequestFailed extends Error {
  /**
   * @param {string} code  a tool error code (`session_not_found`…), an HTTP route code (`unknown_session`…), or one of
   *                       ours: `unreachable`, `unauthorized`, `rate_limited`, `too_large`, `not_available`, `http_error`, `rpc_error`,
   *                       `not_connected` (an MCP call before `ui/config` named the protocol version)
   * @param {object} [details]
   */
  constructor(code, details = {}) {
    super(code);
    this.code = code;
    this.details = details;
  }
}

/** The page's base (`/terminal/` on a host that mounts term-mcp there), where `mcp`, `ui/config`… live. */
export function baseUrl() {
  return new URL('.', document.baseURI);
}

export function urlOf(path) {
  return new URL(path, baseUrl());
}

let token = '';

export function setToken(value) {
  token = value;
}

/** The MCP protocol version the server asked for in `GET ui/config` (`protocol_version`); the UI has no constant. */
let protocolVersion = '';

export function setProtocolVersion(value) {
  protocolVersion = typeof value === 'string' ? value : '';
}

function authHeaders() {
  return token === '' ? {} : { Authorization: `Bearer ${token}` };
}

/** fetch that turns "the server did not answer at all" into `unreachable` instead of "Failed to fetch". */
async function send(path, init) {
  try {
    return await fetch(urlOf(path), { cache: 'no-store', ...init });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new RequestFailed('unreachable');
  }
}

export async function readJson(response) {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function failureOf(status, body) {
  if (status === 401) return new RequestFailed('unauthorized');
  if (status === 429) return new RequestFailed('rate_limited');
  if (status === 413) return new RequestFailed('too_large');
  if (status === 404 && (body === null || body?.error === 'not_found' || typeof body?.error !== 'string')) {
    return new RequestFailed('not_available', { status });
  }
  if (typeof body?.error === 'string') return new RequestFailed(body.error, { status, message: body.message });
  return new RequestFailed('http_error', { status });
}

/**
 * A JSON route (`ui/config`, `ui/chat`, `receipts/*`, `demo/scenarios`, `mcp/info`). `accept` lists extra statuses whose
 * JSON body is an answer, not a failure (the receipt validator answers 400 for an invalid receipt).
 */
export async function api(path, { method = 'GET', body, auth = true, accept = [], signal } = {}) {
  const headers = auth ? authHeaders() : {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await send(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const json = await readJson(response);
  if (!response.ok && !accept.includes(response.status)) throw failureOf(response.status, json);
  return json;
}

/** One SSE frame (`event:` / `data:` lines; `:` comments ignored) as `{ event, data }`. */
function parseSseFrame(frame) {
  let event = 'message';
  const data = [];
  for (const line of frame.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return { event, data: data.join('\n') };
}

/** Calls `onFrame` for every frame of an SSE body until it ends or `onFrame` returns true. */
async function readSse(response, onFrame) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer = (buffer + value).replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = parseSseFrame(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (onFrame(frame) === true) {
        await reader.cancel();
        return;
      }
    }
  }
}

/**
 * The session's events (`GET ui/events`), read with fetch because EventSource cannot send a bearer header.
 * Resolves when the server ends the stream; rejects with `RequestFailed` when it cannot be opened or drops.
 */
export async function followEvents(sessionId, signal, onEvent) {
  const response = await send(`ui/events?session_id=${encodeURIComponent(sessionId)}`, {
    headers: { ...authHeaders(), Accept: 'text/event-stream' },
    signal,
  });
  if (!response.ok) throw failureOf(response.status, await readJson(response));
  try {
    await readSse(response, (frame) => {
      if (frame.data !== '' && frame.event !== 'ping' && frame.event !== 'hello')
        onEvent(frame.event, JSON.parse(frame.data));
      return false;
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new RequestFailed('unreachable');
  }
}

let rpcId = 0;

async function readRpcReply(response, id) {
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.includes('text/event-stream')) return readJson(response);
  let reply = null;
  await readSse(response, (frame) => {
    const message = frame.data === '' ? null : JSON.parse(frame.data);
    if (message && message.id === id && ('result' in message || 'error' in message)) {
      reply = message;
      return true;
    }
    return false;
  });
  return reply;
}

/** A refusal carries `{code, message, next_step, details}`; a failed or cancelled execution carries its receipt. */
function isRefusal(structured) {
  return (
    typeof structured?.code === 'string' && typeof structured?.message === 'string' && !('signature' in structured)
  );
}

/**
 * `tools/call` over `POST mcp` as a stateless request of the protocol version the server named in `ui/config`.
 * Returns the `structuredContent`; a refusal throws `RequestFailed(code)` (its `next_step` is written for the model
 * and is not shown to people).
 */
export async function callTool(name, args) {
  // Only after `ui/config` answered: a request without a version would be refused by the server anyway.
  if (protocolVersion === '') throw new RequestFailed('not_connected');
  rpcId += 1;
  const id = rpcId;
  const request = {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name,
      arguments: args,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': protocolVersion,
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
  const response = await send('mcp', {
    method: 'POST',
    headers: {
      ...authHeaders(),
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': protocolVersion,
      'Mcp-Method': 'tools/call',
      'Mcp-Name': name,
    },
    body: JSON.stringify(request),
  });
  let reply;
  try {
    reply = await readRpcReply(response, id);
  } catch {
    throw new RequestFailed('unreachable');
  }
  if (response.status === 401) throw new RequestFailed('unauthorized');
  if (response.status === 429) throw new RequestFailed('rate_limited');
  if (!reply) throw new RequestFailed('http_error', { status: response.status });
  if (reply.error) throw new RequestFailed('rpc_error', { rpcCode: reply.error.code });
  const structured = reply.result?.structuredContent ?? {};
  if (reply.result?.isError && isRefusal(structured))
    throw new RequestFailed(structured.code, structured.details ?? {});
  return structured;
}
