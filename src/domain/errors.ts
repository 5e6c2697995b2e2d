import { DOMAIN_ERRORS, type DomainErrorCode, type ErrorCategory } from './error-catalogue.js';

/**
 * Typed domain errors. Each carries a stable machine `code` (an entry of the error catalogue, error-catalogue.ts),
 * a human `message`, optional structured `details` and a `nextStep` telling the caller (often a model) what to do
 * about it. The edges map them to the wire by their code and category, as the catalogue lists (a JSON-RPC error, a
 * tool result with `isError: true`, a web route's status); never by their message.
 */
export abstract class DomainError extends Error {
  abstract readonly code: DomainErrorCode;
  readonly details: Readonly<Record<string, unknown>>;
  readonly nextStep: string | undefined;

  constructor(message: string, details: Record<string, unknown> = {}, nextStep?: string) {
    super(message);
    this.name = new.target.name;
    this.details = Object.freeze({ ...details });
    this.nextStep = nextStep;
  }

  /** What kind of failure this is (the catalogue's category of `code`). */
  get category(): ErrorCategory {
    return DOMAIN_ERRORS[this.code].category;
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
