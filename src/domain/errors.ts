/**
 * Typed domain errors. Each carries a stable machine `code`, a human `message`, optional structured `details`
 * and a `nextStep` telling the caller (often a model) what to do about it. They are mapped to the wire in one
 * place per edge (a JSON-RPC error or a tool result with `isError: true`); nothing here knows about JSON-RPC.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  readonly details: Readonly<Record<string, unknown>>;
  readonly nextStep: string | undefined;

  constructor(message: string, details: Record<string, unknown> = {}, nextStep?: string) {
    super(message);
    this.name = new.target.name;
    this.details = Object.freeze({ ...details });
    this.nextStep = nextStep;
  }
}

/** A value supplied by the caller is malformed or out of range (maps to -32602 / an isError tool result). */
export class InvalidArgument extends DomainError {
  readonly code = 'invalid_argument';
}

/** An opaque pagination cursor that this server did not mint, or no longer understands. */
export class InvalidCursor extends DomainError {
  readonly code = 'invalid_cursor';
  constructor() {
    super('Invalid pagination cursor', {}, 'Restart listing without a cursor.');
  }
}

/** Configuration given at start-up is wrong. The message names the variable or flag. */
export class ConfigurationError extends DomainError {
  readonly code = 'configuration_error';
}
