import { SecretRedactor } from '../../../src/application/terminal/secret-redactor';

describe('SecretRedactor', () => {
  test('replaces configured secret values literally, longest first', () => {
    const redactor = new SecretRedactor(['abcdefgh12', 'abcdefgh1234', undefined]);
    expect(redactor.redact('x abcdefgh1234 y abcdefgh12 z')).toBe('x [REDACTED] y [REDACTED] z');
  });

  test('ignores literals too short to redact without mangling ordinary output', () => {
    expect(new SecretRedactor(['k', 'short']).redact('keep short words')).toBe('keep short words');
  });

  test.each([
    ['API_KEY=abc123', 'API_KEY=[REDACTED]'],
    ['api-key: abc,next', 'api-key: [REDACTED],next'],
    ['Authorization = Bearer', 'Authorization = [REDACTED]'],
    ['password=hunter2;x', 'password=[REDACTED];x'],
    ['SECRET:s3 more', 'SECRET:[REDACTED] more'],
    ['token=a token=b', 'token=[REDACTED] token=[REDACTED]'],
    ['tokens=kept', 'tokens=kept'],
    ['no secrets here', 'no secrets here'],
  ])('seed pattern: %s', (input, output) => {
    expect(new SecretRedactor([]).redact(input)).toBe(output);
  });

  test('redacts every string inside objects and arrays, keeping other values', () => {
    const redactor = new SecretRedactor(['supersecretvalue']);
    expect(
      redactor.redactDeep({
        argv: ['x', 'supersecretvalue'],
        nested: { note: 'token=1' },
        count: 2,
        ok: true,
        none: null,
      }),
    ).toEqual({
      argv: ['x', '[REDACTED]'],
      nested: { note: 'token=[REDACTED]' },
      count: 2,
      ok: true,
      none: null,
    });
  });
});
