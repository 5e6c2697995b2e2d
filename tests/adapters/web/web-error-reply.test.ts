import { InvalidArgument } from '../../../src/domain/errors';
import { SessionNotFound } from '../../../src/domain/execution/execution-errors';
import { ApprovalNotFound } from '../../../src/domain/terminal/terminal-errors';
import { webErrorStatus } from '../../../src/adapters/web/web-error-reply';

describe('webErrorStatus', () => {
  it('answers a typed error by its code, whatever its message says', () => {
    // The message of this error reads like a missing session; the code (invalid_argument) decides.
    expect(webErrorStatus(new InvalidArgument('unknown or expired session'))).toEqual({
      status: 400,
      body: { error: 'invalid_request', message: 'unknown or expired session' },
    });
    expect(webErrorStatus(new SessionNotFound('s1'))).toEqual({
      status: 404,
      body: { error: 'unknown_session', message: 'unknown or expired session' },
    });
    expect(webErrorStatus(new ApprovalNotFound('a1'))).toEqual({
      status: 404,
      body: { error: 'approval_not_found', message: 'unknown, used or expired approval' },
    });
  });

  it('answers anything untyped with a bare 500 that carries no detail', () => {
    expect(webErrorStatus(new Error('secret path /home/x'))).toEqual({
      status: 500,
      body: { error: 'internal_error', message: 'The server could not complete the request' },
    });
  });
});
