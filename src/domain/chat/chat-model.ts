/** One message of a chat conversation, in the OpenAI-compatible shape the providers share. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/**
 * Port: a language model that answers a conversation with text. The text is advice for a human: nothing it says
 * is ever executed. Implementations throw `ChatNotConfigured` (before any network) or `ChatProviderError`.
 */
export interface ChatModel {
  /** False when the model cannot answer at all (no API key): the UI hides the chat panel. */
  readonly available: boolean;
  complete(messages: readonly ChatMessage[], signal: AbortSignal): Promise<string>;
}
