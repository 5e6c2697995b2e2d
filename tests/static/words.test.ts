import { webErrorOf } from '../../src/adapters/web/web-error-codes';
import { DOMAIN_ERRORS, type DomainErrorCode } from '../../src/domain/error-catalogue';

/** static/words.js is a browser module without type declarations; these are the parts under test. */
interface WordsModule {
  SENTENCES: Record<string, string>;
  SESSION_ENDED_CODES: readonly string[];
  saysSessionEnded(error: unknown): boolean;
  sentenceFor(error: unknown): string;
}

const { SENTENCES, SESSION_ENDED_CODES, saysSessionEnded, sentenceFor } =
  jest.requireActual<WordsModule>('../../static/words.js');

/** Codes the UI makes up itself for failures that carry no server code (see static/api.js `RequestFailed`). */
const UI_CODES = [
  'unreachable',
  'unauthorized',
  'rate_limited',
  'too_large',
  'not_available',
  'operator_unauthorized',
  'rpc_error',
  'http_error',
  'server_stopped',
  'not_connected',
];

const codes = Object.keys(DOMAIN_ERRORS) as DomainErrorCode[];
/** Every code the server can answer with: tool refusal / JSON-RPC data codes, and the web routes' `error` codes. */
const serverCodes = new Set<string>([...codes, ...codes.map((code) => webErrorOf(code).error)]);

describe('static/words.js speaks the error catalogue', () => {
  it('names only codes the server answers with, or the UI’s own', () => {
    const unknown = Object.keys(SENTENCES).filter((code) => !serverCodes.has(code) && !UI_CODES.includes(code));
    expect(unknown).toEqual([]);
  });

  it('treats exactly the session codes of the not_found and expired categories as an ended session', () => {
    const sessionGone = codes.filter(
      (code) => code.startsWith('session_') && ['not_found', 'expired'].includes(DOMAIN_ERRORS[code].category),
    );
    const expected = new Set([...sessionGone, ...sessionGone.map((code) => webErrorOf(code).error)]);
    expect([...SESSION_ENDED_CODES].sort()).toEqual([...expected].sort());
    expect(saysSessionEnded({ code: 'session_expired' })).toBe(true);
    expect(saysSessionEnded({ code: 'plan_not_found' })).toBe(false);
  });

  it('chooses the sentence from the code, never from the message', () => {
    const sentence = sentenceFor({ code: 'policy_denied', message: 'unknown or expired session' });
    expect(sentence).toBe(SENTENCES.policy_denied);
  });
});
