import http from 'node:http';
import { TOKEN, modernHeaders, modernRequest, post, type TestServer } from './http-harness';

export interface SseFrame {
  event: string;
  data: unknown;
}

/**
 * Reads a Server-Sent Events response frame by frame. node:http rather than fetch: an aborted fetch leaves undici
 * opening a spare connection that delays the server's graceful close by seconds.
 */
export class SseClient {
  private request: http.ClientRequest | undefined;
  private chunks: AsyncIterator<Buffer> | undefined;
  private readonly decoder = new TextDecoder();
  private buffer = '';

  constructor(private readonly url: string) {}

  async open(token: string = TOKEN): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
    const request = http.get(this.url, { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' } });
    this.request = request;
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      request.once('response', resolve);
      request.once('error', reject);
    });
    this.chunks = response[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    return { status: response.statusCode ?? 0, headers: response.headers };
  }

  /** The next frame, or undefined once the server ended the stream. Fails after `timeoutMs`. */
  async next(timeoutMs = 5000): Promise<SseFrame | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const frame = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        return parseFrame(frame);
      }
      if (!this.chunks) throw new Error('stream not open');
      const chunk = await withDeadline(this.chunks.next(), deadline);
      if (chunk.done) return undefined;
      this.buffer += this.decoder.decode(chunk.value, { stream: true });
    }
  }

  /** Frames (pings skipped) up to and including the first one of type `last`. */
  async until(last: string, timeoutMs = 10_000): Promise<SseFrame[]> {
    const frames: SseFrame[] = [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const frame = await this.next(Math.max(1, deadline - Date.now()));
      if (frame === undefined)
        throw new Error(`stream ended before "${last}"; got ${frames.map((f) => f.event).join(', ')}`);
      if (frame.event === 'ping') continue;
      frames.push(frame);
      if (frame.event === last) return frames;
    }
  }

  /** Hangs up, as a browser tab does when it goes away. */
  close(): void {
    this.request?.destroy();
  }
}

function parseFrame(frame: string): SseFrame {
  let event = 'message';
  const data: string[] = [];
  for (const line of frame.split('\n')) {
    if (line.startsWith('event: ')) event = line.slice('event: '.length);
    if (line.startsWith('data: ')) data.push(line.slice('data: '.length));
  }
  return { event, data: data.length === 0 ? undefined : (JSON.parse(data.join('\n')) as unknown) };
}

function withDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('timed out waiting for the stream')), Math.max(1, deadline - Date.now()));
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function bearer(token: string = TOKEN): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** The JSON body of a web route call, with its status and headers. */
export async function web(
  server: TestServer,
  method: string,
  path: string,
  options: { body?: unknown; token?: string | null } = {},
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> | undefined; text: string }> {
  const headers: Record<string, string> = options.token === null ? {} : bearer(options.token);
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${server.origin}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

let rpcId = 0;

/** `tools/call` as a 2026-07-28 client; returns the tool result. */
export async function callTool(
  server: TestServer,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; structuredContent: Record<string, unknown> }> {
  rpcId += 1;
  const reply = await post(
    server.url,
    modernRequest('tools/call', rpcId, { name, arguments: args }),
    modernHeaders('tools/call', name),
  );
  const result = reply.json?.result as { isError: boolean; structuredContent: Record<string, unknown> } | undefined;
  if (reply.status !== 200 || result === undefined) throw new Error(`${name} failed: ${reply.status} ${reply.text}`);
  return result;
}

/** Polls `condition` until it holds (generous bound; no timing assertion). */
export async function eventually(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
