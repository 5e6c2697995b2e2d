import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scrubEnvironment } from '../../../src/adapters/process/scrubbed-environment';
import { NON_INTERACTIVE_ENVIRONMENT } from '../../../src/domain/execution/non-interactive-environment';
import { TRUSTED_PATH } from '../../../src/domain/execution/trusted-launch';

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
    expect(scrubEnvironment(serverEnv, '/work/project/src', '/work/project')).toEqual({
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      PATH: TRUSTED_PATH,
      HOME: '/work/project/src',
      PWD: '/work/project/src',
      TERM_MCP_SANDBOX: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CEILING_DIRECTORIES: '/work',
      PAGER: 'cat',
      GIT_PAGER: 'cat',
      GIT_EDITOR: 'true',
      EDITOR: 'true',
      GIT_TERMINAL_PROMPT: '0',
      DEBIAN_FRONTEND: 'noninteractive',
    });
  });

  it('takes the non-interactive values it is given, but never lets them replace PATH, HOME or the git isolation', () => {
    const nonInteractive = { ...NON_INTERACTIVE_ENVIRONMENT, PAGER: 'less -FRX', EDITOR: 'ed' };
    const environment = scrubEnvironment({ PAGER: 'more' }, '/work/project', '/work/project', nonInteractive);
    expect(environment).toMatchObject({
      PAGER: 'less -FRX',
      EDITOR: 'ed',
      GIT_EDITOR: 'true',
      PATH: TRUSTED_PATH,
      HOME: '/work/project',
    });
  });

  it('copies locale, terminal and temp settings only when the server has them', () => {
    const serverEnv = { LC_ALL: 'C', LC_CTYPE: 'C.UTF-8', TERM: 'xterm', TMPDIR: '/var/tmp', LANG: undefined };
    const environment = scrubEnvironment(serverEnv, '/w');
    expect(environment).toMatchObject({ LC_ALL: 'C', LC_CTYPE: 'C.UTF-8', TERM: 'xterm', TMPDIR: '/var/tmp' });
    expect(Object.keys(environment)).not.toContain('LANG');
  });

  it('keeps git from finding a repository above the workspace', () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'term-mcp-git-'));
    try {
      execFileSync('git', ['init', '-q', parent]);
      const workspace = path.join(parent, 'ws');
      mkdirSync(workspace);
      const run = (env: Record<string, string>) =>
        spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: workspace, env, encoding: 'utf8' });
      expect(run({ PATH: TRUSTED_PATH }).status).toBe(0);
      const isolated = run(scrubEnvironment({}, workspace, workspace));
      expect(isolated.status).not.toBe(0);
      expect(isolated.stderr).toMatch(/not a git repository/);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
