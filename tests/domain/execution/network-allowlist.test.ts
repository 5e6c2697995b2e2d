import {
  DEFAULT_ALLOWED_DOMAINS,
  NetworkAllowlist,
  allowlistEntryProblem,
} from '../../../src/domain/execution/network-allowlist';

const list = new NetworkAllowlist(['registry.npmjs.org', '*.example.com', 'localhost', '10.0.0.5', '[::1]']);

describe('NetworkAllowlist', () => {
  it.each([
    ['registry.npmjs.org', true],
    ['REGISTRY.npmjs.org', true],
    ['registry.npmjs.org.', true],
    ['a.example.com', true],
    ['deep.a.example.com', true],
    ['localhost', true],
    ['10.0.0.5', true],
    ['[::1]', true],
  ])('allows %s', (host, allowed) => {
    expect(list.judge(host).allowed).toBe(allowed);
  });

  it.each([
    ['example.com', 'a wildcard is for strict subdomains only'],
    ['npmjs.org', 'the parent of an exact entry'],
    ['evil-registry.npmjs.org', 'a sibling'],
    ['registry.npmjs.org.evil.net', 'an allowed name as a prefix'],
    ['evilexample.com', 'a suffix without the dot'],
    ['registry.npmjs.org@evil.net', 'credentials in the host'],
    ['evil.net%2f.example.com', 'percent-encoding'],
    ['a.example.com..', 'two trailing dots'],
    ['127.0.0.1', 'an IP literal not listed'],
    ['0x0a.0.0.5', 'another spelling of a listed address'],
    ['167772165', 'the listed address as one number'],
    ['[0:0::1]', 'another spelling of a listed IPv6 address'],
    ['[::ffff:127.0.0.1]', 'an IPv4-mapped address'],
    ['169.254.169.254', 'the cloud metadata address'],
    ['', 'nothing'],
    ['under_score.example.com', 'characters a host name cannot have'],
  ])('refuses %s (%s)', (host) => {
    expect(list.judge(host)).toMatchObject({ allowed: false, reason: expect.any(String) });
  });

  it('says whether the entry that allowed a host names it exactly', () => {
    expect(list.judge('localhost')).toEqual({ allowed: true, host: 'localhost', exact: true, ipLiteral: false });
    expect(list.judge('A.Example.com.')).toEqual({
      allowed: true,
      host: 'a.example.com',
      exact: false,
      ipLiteral: false,
    });
    expect(list.judge('10.0.0.5')).toEqual({ allowed: true, host: '10.0.0.5', exact: true, ipLiteral: true });
  });

  it.each([
    '*',
    '*.com',
    'example',
    '*example.com',
    'a.*.example.com',
    'http://example.com',
    'example.com/path',
    'example.com:443',
    '0x7f.1',
    '1.2.3',
    '::1',
    '[nope]',
    'a..b',
  ])('rejects the entry %s', (entry) => {
    expect(allowlistEntryProblem(entry)).toEqual(expect.any(String));
    expect(() => new NetworkAllowlist([entry])).toThrow(entry);
  });

  it('accepts its own default list', () => {
    expect(DEFAULT_ALLOWED_DOMAINS.map(allowlistEntryProblem).filter((problem) => problem !== undefined)).toEqual([]);
    expect(new NetworkAllowlist(DEFAULT_ALLOWED_DOMAINS).judge('files.pythonhosted.org').allowed).toBe(true);
  });
});
