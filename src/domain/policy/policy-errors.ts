import { DomainError } from '../errors.js';

/** A policy file (TERM_MCP_POLICY) is malformed or tries to weaken the hard floor. The message names the field. */
export class PolicyFileInvalid extends DomainError {
  readonly code = 'policy_file_invalid';

  constructor(message: string, field: string | null) {
    super(message, field === null ? {} : { field }, 'Fix the named field in the policy file and restart the server.');
  }
}

/** A command line is not valid shell, or uses syntax the parser does not support. Always ends in a denial. */
export class ShellSyntaxError extends DomainError {
  readonly code = 'shell_syntax_error';

  constructor(
    message: string,
    readonly position: number,
    /** The problem is an unterminated quote, escape or substitution. */
    readonly quoting: boolean,
    /** The problem is a shell reserved word (`if`, `for`, `[[`, ...) where a command name belongs. */
    readonly reservedWord: string | null = null,
  ) {
    super(message, reservedWord === null ? { position, quoting } : { position, quoting, reservedWord });
  }
}

/**
 * A command line holds more words or simple commands than one evaluation judges. Judging is synchronous, so the
 * bound keeps the event-loop pause of one evaluation short however long the configured line limit is.
 */
export class CommandTooComplex extends ShellSyntaxError {
  constructor(
    message: string,
    position: number,
    readonly limit: { readonly what: 'words' | 'commands'; readonly max: number },
  ) {
    super(message, position, false);
  }
}
