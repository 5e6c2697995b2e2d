import { DomainError } from '../errors.js';

/** `prompts/get` named a prompt this server does not offer (2026-07-28 server/prompts: -32602). */
export class UnknownPrompt extends DomainError {
  readonly code = 'unknown_prompt';
  constructor(name: string) {
    super(`Unknown prompt: ${name}`, { name }, 'Call prompts/list for the available prompt names.');
  }
}
