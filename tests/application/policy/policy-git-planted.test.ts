import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NodePathInspector } from '../../../src/adapters/policy/node-path-inspector';
import { DefaultPolicyEngine } from '../../../src/application/policy/default-policy-engine';
import { DEFAULT_POLICY_SETTINGS } from '../../../src/application/policy/policy-settings';
import type { PolicyMode } from '../../../src/domain/policy/policy-types';

/**
 * Workspace data is attacker data: a repository whose config and attributes name a program for every hook git
 * offers (fsmonitor, clean filter, textconv, external diff, signature check, hooks), and a bare repository
 * planted under another name. Every git command the policy judges read-only is run for real, launched as the
 * policy says, in the environment the server gives children; the planted program must never run.
 */

const GIT_ENVIRONMENT = {
  PATH: '/usr/bin:/bin',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
};

describe('policy: git judged read-only never runs a program the repository names', () => {
  let base: string;
  let root: string;
  let canary: string;

  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, { cwd, env: { ...GIT_ENVIRONMENT, HOME: base }, stdio: 'pipe' });

  beforeAll(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'term-mcp-git-planted-')));
    root = path.join(base, 'ws');
    canary = path.join(base, 'canary');
    const evil = path.join(base, 'evil.sh');
    fs.writeFileSync(evil, `#!/bin/sh\necho "$0 $*" >> '${canary}'\ncat\n`, { mode: 0o755 });
    fs.mkdirSync(root);
    git(root, 'init', '-q');
    git(root, 'config', 'user.email', 'model@example.com');
    git(root, 'config', 'user.name', 'model');
    fs.writeFileSync(path.join(root, 'f.txt'), 'one\n');
    fs.writeFileSync(path.join(root, '.gitattributes'), '* filter=evil diff=evil\n');
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'init');
    for (const [key, value] of [
      ['core.fsmonitor', evil],
      ['filter.evil.clean', evil],
      ['filter.evil.smudge', evil],
      ['diff.evil.textconv', evil],
      ['diff.evil.command', evil],
      ['diff.external', evil],
      ['core.pager', evil],
      ['pager.log', evil],
      ['log.showSignature', 'true'],
      ['gpg.program', evil],
      ['core.hooksPath', path.join(base, 'hooks')],
    ]) {
      git(root, 'config', key as string, value as string);
    }
    fs.appendFileSync(path.join(root, 'f.txt'), 'two\n'); // a worktree change: status and diff would clean it
    // A bare repository under another name, made with the model's own commands, with the same config.
    const notes = path.join(root, 'notes');
    git(root, 'init', '-q', '--bare', 'notes');
    git(notes, 'config', 'core.fsmonitor', evil);
    git(notes, 'config', 'core.pager', evil);
    fs.writeFileSync(path.join(notes, 'hooks', 'post-checkout'), `#!/bin/sh\n'${evil}'\n`, { mode: 0o755 });
  });

  afterAll(() => {
    fs.rmSync(base, { recursive: true, force: true });
  });

  function runAsLaunched(command: string, mode: PolicyMode, cwd: string = root) {
    const engine = new DefaultPolicyEngine(new NodePathInspector(root), { ...DEFAULT_POLICY_SETTINGS, mode });
    const decision = engine.evaluate({ command, cwd });
    if (decision.verdict !== 'allow' || !decision.launch) return { decision, output: null };
    const launch = decision.launch;
    const [file, ...args] = launch.kind === 'argv' ? launch.argv : ['/bin/sh', '-c', launch.script];
    const result = spawnSync(file as string, args, {
      cwd,
      env: { ...GIT_ENVIRONMENT, HOME: cwd },
      encoding: 'utf8',
      timeout: 20_000,
    });
    return { decision, output: result };
  }

  it('the planted programs do run when git is called plainly (the plant works)', () => {
    fs.rmSync(canary, { force: true });
    spawnSync('git', ['log', '-p'], { cwd: root, env: { ...GIT_ENVIRONMENT, HOME: root } });
    spawnSync('git', ['status'], { cwd: root, env: { ...GIT_ENVIRONMENT, HOME: root } });
    expect(fs.readFileSync(canary, 'utf8')).toMatch(/evil\.sh/);
  });

  it.each([
    'git log -p',
    'git log --show-signature -n 1',
    'git show',
    'git show HEAD:f.txt',
    'git --no-pager show HEAD --stat',
    'git diff --cached',
    'git diff --staged HEAD',
    'git branch -a',
    'git ls-files',
    'git rev-parse HEAD',
    'git log -p | head -n 5',
  ])('%j is read-only in every mode and runs without the planted program', (command) => {
    for (const mode of ['inspect', 'confirm', 'trusted'] as const) {
      fs.rmSync(canary, { force: true });
      const { decision, output } = runAsLaunched(command, mode);
      expect(decision.verdict).toBe('allow');
      expect(output?.status).toBe(0);
      expect(fs.existsSync(canary)).toBe(false);
    }
  });

  it.each([
    'git log -p --textconv',
    'git show --ext-diff',
    'git diff --cached --textconv',
    'git log -p --no-textconv --textconv',
  ])("%j is refused: it would turn the repository's diff drivers back on", (command) => {
    fs.rmSync(canary, { force: true });
    expect(runAsLaunched(command, 'trusted').decision).toMatchObject({
      verdict: 'deny',
      matchedRule: 'git_code_option',
    });
    expect(fs.existsSync(canary)).toBe(false);
  });

  it('a bare repository planted under another name is not used, from its own directory or by option', () => {
    fs.rmSync(canary, { force: true });
    const { decision, output } = runAsLaunched('git log', 'inspect', path.join(root, 'notes'));
    expect(decision.verdict).toBe('allow');
    expect(output?.status).not.toBe(0);
    expect(output?.stderr).toMatch(/bare repository/);
    for (const command of ['git -C notes log', 'git --git-dir=notes log', 'git --bare log', 'GIT_DIR=notes git log']) {
      expect(runAsLaunched(command, 'trusted').decision.verdict).toBe('deny');
    }
    expect(fs.existsSync(canary)).toBe(false);
  });

  it('git status and worktree diffs are not judged read-only: they would run the clean filter', () => {
    for (const command of ['git status', 'git diff']) {
      const { decision } = runAsLaunched(command, 'inspect');
      expect(decision).toMatchObject({ verdict: 'approval_required', matchedRule: 'git_worktree_filters' });
      expect(decision.preview.executesProjectCode).toBe(true);
    }
  });
});
