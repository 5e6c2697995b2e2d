import { DomainError } from '../../domain/errors.js';

/** `tools/call` named a tool that is not in the catalog (a protocol error, -32602). */
export class UnknownTool extends DomainError {
  readonly code = 'unknown_tool';
  constructor(name: string) {
    super(`Unknown tool: ${name}`, { name }, 'Call tools/list to see the available tools.');
  }
}
