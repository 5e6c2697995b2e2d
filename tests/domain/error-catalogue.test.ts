import fs from 'node:fs';
import path from 'node:path';
import { DOMAIN_ERRORS, isDomainErrorCode } from '../../src/domain/error-catalogue';
import { InvalidArgument } from '../../src/domain/errors';
import { SandboxUnavailable, SessionExpired, SessionNotFound } from '../../src/domain/execution/execution-errors';
import { PolicyDenied } from '../../src/domain/terminal/terminal-errors';

describe('error catalogue', () => {
  it('gives every typed error its category from its code', () => {
    expect(new InvalidArgument('x').category).toBe('invalid');
    expect(new SessionNotFound('s').category).toBe('not_found');
    expect(new SessionExpired('s', 'idle_timeout').category).toBe('expired');
    expect(new PolicyDenied('p', 's', ['r']).category).toBe('denied');
    expect(new SandboxUnavailable('no bwrap', 'install it').category).toBe('unavailable');
  });

  it('lists every code with one of the categories', () => {
    const categories = ['invalid', 'not_found', 'expired', 'conflict', 'denied', 'limit', 'unavailable', 'internal'];
    for (const [code, entry] of Object.entries(DOMAIN_ERRORS)) {
      expect({ code, known: categories.includes(entry.category) }).toEqual({ code, known: true });
    }
    expect(isDomainErrorCode('policy_denied')).toBe(true);
    expect(isDomainErrorCode('toString')).toBe(false);
  });

  it('knows every refusal code docs/tools.md documents', () => {
    const docs = fs.readFileSync(path.resolve(__dirname, '../../docs/tools.md'), 'utf8');
    const start = docs.indexOf('| code | message | when |');
    const table = docs.slice(start, docs.indexOf('\n\n', start));
    const rows = table.split('\n').slice(2);
    const documented = rows.flatMap((row) =>
      [...(row.split('|')[1] ?? '').matchAll(/`([a-z_]+)`/g)].map((match) => match[1] as string),
    );
    expect(documented.length).toBeGreaterThan(20);
    expect(documented.filter((code) => !isDomainErrorCode(code))).toEqual([]);
  });
});
