import os from 'node:os';
import { isLoopback, whyNotPublic } from '../../../src/adapters/sandbox/public-address';

/* What the filtering proxy may connect to (issue 26 item 8): decided on addresses alone, no traffic is sent. */

describe('whyNotPublic', () => {
  it.each([
    '0.0.0.0',
    '10.1.2.3',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '127.1.2.3',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '192.0.2.1',
    '198.18.0.1',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fd00::1',
    'fc00::1',
    'ff02::1',
    'fec0::1',
    '2001:db8::1',
    '100::1',
    // IPv6 forms that carry one of them
    '::127.0.0.1',
    '::7f00:1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::10.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::c0a8:101',
    '64:ff9b:1::808:808',
    '2002:7f00:1::1',
    '2002:a00:1::',
  ])('refuses %s', (address) => {
    expect(whyNotPublic(address)).toEqual(expect.any(String));
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '64:ff9b::808:808', '2002:808:808::1'])(
    'lets the public address %s through',
    (address) => {
      expect(whyNotPublic(address)).toBeUndefined();
    },
  );

  it("refuses every address of this machine's interfaces, in every spelling", () => {
    const own = Object.values(os.networkInterfaces()).flatMap((entries) => entries ?? []);
    expect(own.length).toBeGreaterThan(0);
    for (const { address, family } of own) {
      expect(whyNotPublic(address)).toEqual(expect.any(String));
      if (family === 'IPv4') expect(whyNotPublic(`64:ff9b::${address}`)).toEqual(expect.any(String));
    }
  });

  it('refuses what is not an address at all', () => {
    expect(whyNotPublic('localhost')).toBe('not an IP address');
  });
});

describe('isLoopback', () => {
  it.each(['127.0.0.1', '127.9.9.9', '::1', '0:0:0:0:0:0:0:1'])('says %s is loopback', (address) => {
    expect(isLoopback(address)).toBe(true);
  });

  it.each(['10.0.0.1', '::2', 'fe80::1', 'localhost', '::ffff:127.0.0.1', '::127.0.0.1', '64:ff9b::7f00:1'])(
    'says %s is not (an IPv6 spelling of 127/8 is never opened)',
    (address) => {
      expect(isLoopback(address)).toBe(false);
    },
  );
});
