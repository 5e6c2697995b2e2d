import { webErrorOf } from '../../../src/adapters/web/web-error-codes';

describe('web routes: typed errors keep the seed statuses and codes', () => {
  it('names the seed codes where the seed had its own', () => {
    expect(webErrorOf('invalid_argument')).toEqual({ status: 400, error: 'invalid_request' });
    expect(webErrorOf('session_not_found')).toEqual({ status: 404, error: 'unknown_session' });
    expect(webErrorOf('chat_provider_error')).toEqual({ status: 502, error: 'chat_unavailable' });
  });

  it('gives the rest their category status and their own code', () => {
    expect(webErrorOf('session_expired')).toEqual({ status: 404, error: 'session_expired' });
    expect(webErrorOf('session_evicted')).toEqual({ status: 404, error: 'session_evicted' });
    expect(webErrorOf('chat_not_configured')).toEqual({ status: 503, error: 'chat_not_configured' });
    expect(webErrorOf('plan_blocked')).toEqual({ status: 409, error: 'plan_blocked' });
    expect(webErrorOf('approval_expired')).toEqual({ status: 409, error: 'approval_expired' });
  });
});
