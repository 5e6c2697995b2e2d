import { DomainError } from '../errors.js';

/** The optional planning chat has no model (no API key). Everything else keeps working without it. */
export class ChatNotConfigured extends DomainError {
  readonly code = 'chat_not_configured';
  constructor() {
    super(
      'The planning chat is not configured (DEEPSEEK_API_KEY is not set)',
      {},
      'Set DEEPSEEK_API_KEY to enable the chat; the terminal tools work without it.',
    );
  }
}

/**
 * The model provider failed. The message is short and safe to show: it never carries the provider's response
 * body, headers or the API key (a provider may echo the key or internal details back).
 */
export class ChatProviderError extends DomainError {
  readonly code = 'chat_provider_error';
  constructor(message: string, details: { status?: number } = {}) {
    super(message, details, 'Retry later; the terminal tools remain available without the model.');
  }
}
