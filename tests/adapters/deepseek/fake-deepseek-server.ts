import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake answers to one request, in order; the last entry repeats. */
export type FakeReply =
  | { kind: 'reply'; content: string }
  | { kind: 'status'; status: number; body: string }
  | { kind: 'raw'; body: string }
  | { kind: 'hang' }
  | { kind: 'reset' };

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly body: unknown;
}

/** DeepSeek's `chat.completion` response shape. */
export function completion(content: string): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_767_225_600,
    model: 'deepseek-chat',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

/** A local stand-in for the DeepSeek API on 127.0.0.1 (random port) that answers from a script. */
export class FakeDeepSeekServer {
  readonly requests: RecordedRequest[] = [];
  private readonly server = http.createServer((req, res) => this.handle(req, res));
  private readonly hanging = new Set<http.ServerResponse>();

  constructor(private readonly script: FakeReply[]) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      this.requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
      });
      const reply = this.script[Math.min(this.requests.length - 1, this.script.length - 1)] ?? { kind: 'hang' };
      this.answer(reply, res);
    });
  }

  private answer(reply: FakeReply, res: http.ServerResponse): void {
    switch (reply.kind) {
      case 'reply':
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(completion(reply.content)));
        return;
      case 'status':
        res.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(reply.body);
        return;
      case 'raw':
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(reply.body);
        return;
      case 'hang':
        this.hanging.add(res);
        return;
      case 'reset':
        res.socket?.destroy();
        return;
    }
  }
}
