import { scrubEnvironment, TRUSTED_PATH } from '../../../src/adapters/process/scrubbed-environment';

describe('scrubEnvironment', () => {
  it('keeps only the allowlisted variables and sets the fixed ones', () => {
    const serverEnv = {
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      TERM_MCP_TOKEN: 'secret-xyz',
      DEEPSEEK_API_KEY: 'sk-live',
      AUTH_TOKEN: 'bearer',
      PATH: '/workspace/bin:/usr/bin',
      HOME: '/root',
      NODE_OPTIONS: '--require evil.js',
    };
    expect(scrubEnvironment(serverEnv, '/work/project')).toEqual({
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      PATH: TRUSTED_PATH,
      HOME: '/work/project',
      PWD: '/work/project',
      TERM_MCP_SANDBOX: '1',
    });
  });

  it('copies locale, terminal and temp settings only when the server has them', () => {
    const serverEnv = { LC_ALL: 'C', LC_CTYPE: 'C.UTF-8', TERM: 'xterm', TMPDIR: '/var/tmp', LANG: undefined };
    const environment = scrubEnvironment(serverEnv, '/w');
    expect(environment).toMatchObject({ LC_ALL: 'C', LC_CTYPE: 'C.UTF-8', TERM: 'xterm', TMPDIR: '/var/tmp' });
    expect(Object.keys(environment)).not.toContain('LANG');
  });
});
