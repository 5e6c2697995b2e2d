import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { ChatNotConfigured, ChatProviderError } from '../../domain/chat/chat-errors.js';
import type { ChatMessage, ChatModel } from '../../domain/chat/chat-model.js';

export interface DeepSeekChatModelOptions {
  /** Absent: the model is unavailable and `complete` throws `ChatNotConfigured` without touching the network. */
  readonly apiKey: string | undefined;
  /** e.g. `https://api.deepseek.com`; `/chat/completions` is appended. */
  readonly baseUrl: string;
  readonly model: string;
  /** Per attempt. */
  readonly timeoutMs: number;
  /** Extra attempts after the first, on network errors, timeouts, 429 and 5xx. */
  readonly maxRetries: number;
  /** Wait before retry n (0-based) is `backoffMs * 2 ** n` (seed §9). */
  readonly backoffMs: number;
  readonly maxTokens: number;
  readonly temperature?: number;
}

/** The part of an OpenAI-compatible `chat.completion` response this adapter reads. */
const CompletionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
});

/** Why one attempt failed, when another attempt may succeed. */
type RetryableFailure = { kind: 'network' } | { kind: 'timeout' } | { kind: 'status'; status: number };
type AttemptOutcome = { kind: 'reply'; text: string } | RetryableFailure;

const RETRYABLE_STATUS = (status: number): boolean => status === 429 || status >= 500;

/**
 * DeepSeek (or any OpenAI-compatible provider) over `POST <base>/chat/completions`, non-streaming. Errors are mapped
 * to short fixed messages: the provider's body, headers and the key never reach an error, a log or the client.
 */
export class DeepSeekChatModel implements ChatModel {
  readonly available: boolean;
  private readonly endpoint: string;

  constructor(private readonly options: DeepSeekChatModelOptions) {
    this.available = options.apiKey !== undefined && options.apiKey !== '';
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  async complete(messages: readonly ChatMessage[], signal: AbortSignal): Promise<string> {
    const apiKey = this.options.apiKey;
    if (apiKey === undefined || apiKey === '') throw new ChatNotConfigured();
    const body = JSON.stringify({
      model: this.options.model,
      messages,
      temperature: this.options.temperature ?? 0.2,
      max_tokens: this.options.maxTokens,
      stream: false,
    });
    let failure: RetryableFailure = { kind: 'network' };
    for (let attempt = 0; attempt <= this.options.maxRetries; attempt += 1) {
      if (attempt > 0) await this.backoff(attempt - 1, signal);
      const outcome = await this.attempt(apiKey, body, signal);
      if (outcome.kind === 'reply') return outcome.text;
      failure = outcome;
    }
    throw exhausted(failure, this.options.timeoutMs);
  }

  /** One request: the reply text, a retryable failure, or a thrown final `ChatProviderError`. */
  private async attempt(apiKey: string, body: string, signal: AbortSignal): Promise<AttemptOutcome> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json' },
        body,
        signal: AbortSignal.any([signal, timeout]),
      });
    } catch {
      if (signal.aborted) throw new ChatProviderError('DeepSeek request was cancelled');
      return { kind: timeout.aborted ? 'timeout' : 'network' };
    }
    if (!response.ok) {
      // The body may echo secrets or internals: drop it unread.
      await response.body?.cancel().catch(() => undefined);
      if (RETRYABLE_STATUS(response.status)) return { kind: 'status', status: response.status };
      throw statusError(response.status);
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      if (signal.aborted) throw new ChatProviderError('DeepSeek request was cancelled');
      return { kind: timeout.aborted ? 'timeout' : 'network' };
    }
    return { kind: 'reply', text: parseReply(text) };
  }

  private async backoff(retry: number, signal: AbortSignal): Promise<void> {
    try {
      await sleep(this.options.backoffMs * 2 ** retry, undefined, { signal });
    } catch {
      throw new ChatProviderError('DeepSeek request was cancelled');
    }
  }
}

function parseReply(text: string): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ChatProviderError('DeepSeek returned invalid JSON');
  }
  const parsed = CompletionSchema.safeParse(json);
  const first = parsed.success ? parsed.data.choices[0] : undefined;
  if (first === undefined) throw new ChatProviderError('DeepSeek returned an unexpected response shape');
  return first.message.content;
}

/** Seed §9 status mapping, for statuses that are not retried (or no longer). */
function statusError(status: number): ChatProviderError {
  switch (status) {
    case 401:
      return new ChatProviderError('DeepSeek rejected the API key', { status });
    case 404:
      return new ChatProviderError('DeepSeek endpoint or model was not found', { status });
    case 429:
      return new ChatProviderError('DeepSeek rate limit or credit limit reached', { status });
    default:
      return new ChatProviderError(`DeepSeek request failed with HTTP ${status}`, { status });
  }
}

function exhausted(failure: RetryableFailure, timeoutMs: number): ChatProviderError {
  switch (failure.kind) {
    case 'network':
      return new ChatProviderError('DeepSeek is unavailable after bounded retries');
    case 'timeout':
      return new ChatProviderError(`DeepSeek did not answer within ${timeoutMs / 1000} seconds`);
    case 'status':
      return statusError(failure.status);
  }
}
