import { DeepSeekChatModel, type DeepSeekChatModelOptions } from '../../../src/adapters/deepseek/deepseek-chat-model';
import { ChatNotConfigured, ChatProviderError } from '../../../src/domain/chat/chat-errors';
import type { ChatMessage } from '../../../src/domain/chat/chat-model';
import { FakeDeepSeekServer, type FakeReply } from './fake-deepseek-server';

const API_KEY = 'sk-test-key-0123456789abcdef';
const SECRET_IN_BODY = 'sk-live-LEAKED-SECRET-9f8e7d6c5b4a';
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are a terminal planning assistant.' },
  { role: 'user', content: 'How do I list files?' },
];

let fake: FakeDeepSeekServer | undefined;

afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

async function modelAgainst(
  script: FakeReply[],
  overrides: Partial<DeepSeekChatModelOptions> = {},
): Promise<DeepSeekChatModel> {
  fake = new FakeDeepSeekServer(script);
  const baseUrl = await fake.start();
  return new DeepSeekChatModel({
    apiKey: API_KEY,
    baseUrl,
    model: 'deepseek-chat',
    timeoutMs: 2000,
    maxRetries: 2,
    backoffMs: 10,
    maxTokens: 256,
    ...overrides,
  });
}

async function failureOf(promise: Promise<unknown>): Promise<ChatProviderError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ChatProviderError)) throw new Error(`expected ChatProviderError, got ${String(error)}`);
  return error;
}

function serialised(error: Error): string {
  return `${error.message} ${JSON.stringify(error)} ${String(error.stack)}`;
}

describe('DeepSeekChatModel', () => {
  it('without an API key is unavailable and throws ChatNotConfigured before any request', async () => {
    const model = await modelAgainst([{ kind: 'reply', content: 'never' }], { apiKey: undefined });
    expect(model.available).toBe(false);
    await expect(model.complete(MESSAGES, new AbortController().signal)).rejects.toBeInstanceOf(ChatNotConfigured);
    expect(fake?.requests).toHaveLength(0);
  });

  it('posts an OpenAI-compatible non-streaming request with the bearer key and returns the reply text', async () => {
    const model = await modelAgainst([{ kind: 'reply', content: 'Plan `ls -la` with terminal_plan.' }]);
    expect(model.available).toBe(true);
    await expect(model.complete(MESSAGES, new AbortController().signal)).resolves.toBe(
      'Plan `ls -la` with terminal_plan.',
    );
    expect(fake?.requests).toEqual([
      {
        method: 'POST',
        url: '/chat/completions',
        authorization: `Bearer ${API_KEY}`,
        body: { model: 'deepseek-chat', messages: MESSAGES, temperature: 0.2, max_tokens: 256, stream: false },
      },
    ]);
  });

  it('retries a 503 and returns the reply of the following 200', async () => {
    const model = await modelAgainst([
      { kind: 'status', status: 503, body: '{"error":"overloaded"}' },
      { kind: 'reply', content: 'second time lucky' },
    ]);
    await expect(model.complete(MESSAGES, new AbortController().signal)).resolves.toBe('second time lucky');
    expect(fake?.requests).toHaveLength(2);
  });

  it('maps a 401 to a short message without retrying and never leaks the body or the key', async () => {
    const model = await modelAgainst([
      {
        kind: 'status',
        status: 401,
        body: JSON.stringify({ error: { message: `invalid key ${SECRET_IN_BODY} ${API_KEY}` } }),
      },
    ]);
    const error = await failureOf(model.complete(MESSAGES, new AbortController().signal));
    expect(error.message).toBe('DeepSeek rejected the API key');
    expect(error.details).toEqual({ status: 401 });
    expect(serialised(error)).not.toContain(SECRET_IN_BODY);
    expect(serialised(error)).not.toContain(API_KEY);
    expect(fake?.requests).toHaveLength(1);
  });

  it('maps a 404 to the endpoint-or-model message', async () => {
    const model = await modelAgainst([{ kind: 'status', status: 404, body: 'no such model' }]);
    const error = await failureOf(model.complete(MESSAGES, new AbortController().signal));
    expect(error.message).toBe('DeepSeek endpoint or model was not found');
  });

  it('gives up on a persistent 429 after the bounded retries', async () => {
    const model = await modelAgainst([{ kind: 'status', status: 429, body: 'slow down' }], { maxRetries: 1 });
    const error = await failureOf(model.complete(MESSAGES, new AbortController().signal));
    expect(error.message).toBe('DeepSeek rate limit or credit limit reached');
    expect(fake?.requests).toHaveLength(2);
  });

  it('reports a persistent 500 with its status code only', async () => {
    const model = await modelAgainst([{ kind: 'status', status: 500, body: `trace: ${SECRET_IN_BODY}` }]);
    const error = await failureOf(model.complete(MESSAGES, new AbortController().signal));
    expect(error.message).toBe('DeepSeek request failed with HTTP 500');
    expect(serialised(error)).not.toContain(SECRET_IN_BODY);
    expect(fake?.requests).toHaveLength(3);
  });

  it('rejects a 200 whose body is not JSON', async () => {
    const model = await modelAgainst([{ kind: 'raw', body: `<html>${SECRET_IN_BODY}</html>` }]);
    const error = await failureOf(model.complete(MESSAGES, new AbortController().signal));
    expect(error.message).toBe('DeepSeek returned invalid JSON');
    expect(serialised(error)).not.toContain(SECRET_IN_BODY);
  });

  it('rejects a 200 JSON body without choices[0].message.content', async () => {
    const model = await modelAgainst([{ kind: 'raw', body: '{"choices":[]}' }]);
    const error = await failureOf(model.complete(MESSAGES, new AbortController().signal));
    expect(error.message).toBe('DeepSeek returned an unexpected response shape');
  });

  it('times out an attempt that never answers', async () => {
    const model = await modelAgainst([{ kind: 'hang' }], { timeoutMs: 200, maxRetries: 0 });
    const error = await failureOf(model.complete(MESSAGES, new AbortController().signal));
    expect(error.message).toBe('DeepSeek did not answer within 0.2 seconds');
    expect(fake?.requests).toHaveLength(1);
  });

  it('gives up after bounded retries when the connection keeps dropping', async () => {
    const model = await modelAgainst([{ kind: 'reset' }], { maxRetries: 2 });
    const error = await failureOf(model.complete(MESSAGES, new AbortController().signal));
    expect(error.message).toBe('DeepSeek is unavailable after bounded retries');
    expect(fake?.requests).toHaveLength(3);
  });

  it('stops when the caller aborts', async () => {
    const model = await modelAgainst([{ kind: 'hang' }]);
    const controller = new AbortController();
    const pending = model.complete(MESSAGES, controller.signal);
    setTimeout(() => controller.abort(), 50);
    const error = await failureOf(pending);
    expect(error.message).toBe('DeepSeek request was cancelled');
    expect(fake?.requests).toHaveLength(1);
  });
});
