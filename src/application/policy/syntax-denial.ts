import { CommandTooComplex, type ShellSyntaxError } from '../../domain/policy/policy-errors.js';
import { deny, type Judgement } from './rules/judgement.js';

/** Seed wording for quoting problems; other syntax problems say what was not understood. */
export function syntaxDenial(error: ShellSyntaxError): Judgement {
  if (error instanceof CommandTooComplex) {
    return deny(
      'command_too_complex',
      `command line holds ${error.message} (at most ${error.limit.max} ${error.limit.what} are judged per line)`,
    );
  }
  if (error.reservedWord !== null) {
    return deny('shell_keyword', `shell control structures are not supported: ${error.reservedWord}`);
  }
  return error.quoting
    ? deny('invalid_quoting', 'command quoting is invalid')
    : deny('invalid_syntax', `command syntax is not supported: ${error.message}`);
}
