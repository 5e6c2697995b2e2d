import { isLoopbackHost } from '../../../src/adapters/http/loopback';

describe('isLoopbackHost', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]'])('treats %s as loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each(['0.0.0.0', '::', '192.168.1.10', 'example.com', '127.0.0.1.example.com', 'localhost.evil'])(
    'treats %s as reachable from the network',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
});
