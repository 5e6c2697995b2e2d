import { isAtOrBelow } from '../../../src/domain/workspace/path-containment';

describe('isAtOrBelow: the one containment check (workspace files, policy paths, sandbox profile)', () => {
  test.each([
    ['/ws', '/ws'],
    ['/ws', '/ws/a'],
    ['/ws', '/ws/a/b.txt'],
    ['/ws', '/ws/..notes'],
    ['/ws', '/ws/.../x'],
    ['/', '/'],
    ['/', '/etc/passwd'],
  ])('%s holds %s', (root, candidate) => {
    expect(isAtOrBelow(root, candidate)).toBe(true);
  });

  test.each([
    ['/ws', '/ws-evil'],
    ['/ws', '/ws-evil/a'],
    ['/ws', '/w'],
    ['/ws', '/'],
    ['/ws/a', '/ws'],
    ['/ws', '/other/ws'],
    ['/ws', 'ws/a'],
  ])('%s does not hold %s', (root, candidate) => {
    expect(isAtOrBelow(root, candidate)).toBe(false);
  });
});
