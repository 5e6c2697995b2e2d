import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { findRootOnlyReadable } from '../../../src/adapters/sandbox/root-only-files';

describe('findRootOnlyReadable', () => {
  let tree: string;
  beforeEach(() => {
    tree = mkdtempSync('/var/tmp/term-mcp-root-only-');
    chmodSync(tree, 0o755);
  });
  afterEach(() => rmSync(tree, { recursive: true, force: true }));

  it('finds non-empty files others cannot read and directories others cannot enter, without walking into them or following links', () => {
    const at = (relative: string): string => path.join(tree, relative);
    mkdirSync(at('etc/ssl/private'), { recursive: true });
    writeFileSync(at('etc/ssl/private/key.pem'), 'key');
    chmodSync(at('etc/ssl/private'), 0o700);
    writeFileSync(at('etc/shadow'), 'root:x', { mode: 0o640 });
    writeFileSync(at('etc/hostname'), 'host', { mode: 0o644 });
    writeFileSync(at('etc/lock'), '', { mode: 0o600 });
    mkdirSync(at('kept'));
    writeFileSync(at('kept/secret'), 'x', { mode: 0o600 });
    symlinkSync(at('etc/shadow'), at('link-to-shadow'));
    const reader = { uid: process.getuid?.() ?? 0, groups: process.getgroups?.() ?? [0] };
    if (reader.uid === 0) {
      // Another user's 0600 file and 0700 directory: uid 0 without capabilities cannot read them anyway, no mask.
      writeFileSync(at('etc/postgres.conf'), 'x', { mode: 0o600 });
      mkdirSync(at('etc/postgres-data'), { mode: 0o700 });
      chownSync(at('etc/postgres.conf'), 65534, 65534);
      chownSync(at('etc/postgres-data'), 65534, 65534);
    }
    expect(findRootOnlyReadable([tree], [at('kept')], reader)).toEqual({
      entries: [
        { path: at('etc/shadow'), directory: false },
        { path: at('etc/ssl/private'), directory: true },
      ],
      truncated: false,
    });
  });
});
