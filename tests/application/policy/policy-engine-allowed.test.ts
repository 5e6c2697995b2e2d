import { GIT_LAUNCH_SETTINGS } from '../../../src/application/policy/rules/git-rule';
import { PolicyWorkspace } from './policy-workspace';

describe('policy engine: commands it allows', () => {
  let workspace: PolicyWorkspace;

  beforeEach(() => {
    workspace = new PolicyWorkspace();
  });

  afterEach(() => {
    workspace.cleanup();
  });

  it.each([
    ['ls', ['/usr/bin/ls']],
    ['ls -la', ['/usr/bin/ls', '-la']],
    ['pwd', ['/usr/bin/pwd']],
    ['cat README.md', ['/usr/bin/cat', 'README.md']],
    ['echo hello', ['/usr/bin/echo', 'hello']],
    ['echo \'a b\' "c"', ['/usr/bin/echo', 'a b', 'c']],
    ['grep -n foo src/a.txt', ['/usr/bin/grep', '-n', 'foo', 'src/a.txt']],
    ['cat inner-link/a.txt', ['/usr/bin/cat', 'inner-link/a.txt']],
    ['[ -f README.md ]', ['/usr/bin/[', '-f', 'README.md', ']']],
    ['ls;', ['/usr/bin/ls']],
  ])('allows %j in inspect mode as an argv without a shell', (command, argv) => {
    const decision = workspace.evaluate(command);
    expect(decision).toMatchObject({
      verdict: 'allow',
      risk: 'low',
      matchedRule: 'read_only_command',
      reasons: ['read-only command'],
    });
    expect(decision.launch).toEqual({ kind: 'argv', argv });
  });

  it.each([
    'date',
    'date +%Y-%m-%d',
    'date -u +%s',
    'date -d "next week" +%F',
    'date --date=@0 -u',
    'date -r README.md',
    'date -I',
  ])('allows %j: reading or formatting the date, never setting it', (command) => {
    expect(workspace.evaluate(command)).toMatchObject({ verdict: 'allow', matchedRule: 'read_only_command' });
  });

  it('allows read-only git subcommands', () => {
    for (const command of [
      'git log --oneline -n 5',
      'git diff --cached',
      'git diff --staged HEAD',
      'git branch -a',
      'git --no-pager show HEAD',
      'git ls-files',
    ]) {
      expect(workspace.evaluate(command)).toMatchObject({
        verdict: 'allow',
        risk: 'low',
        matchedRule: 'read_only_git',
        reasons: ['read-only git command'],
      });
    }
  });

  it('reviews git status and worktree diffs unless trusted: they run the filter programs the repository names', () => {
    for (const command of ['git status', 'git diff', 'git diff HEAD']) {
      for (const mode of ['inspect', 'confirm'] as const) {
        expect(workspace.evaluate(command, { mode })).toMatchObject({
          verdict: 'approval_required',
          risk: 'medium',
          matchedRule: 'git_worktree_filters',
        });
      }
      const trusted = workspace.evaluate(command, { mode: 'trusted' });
      expect(trusted).toMatchObject({ verdict: 'allow', matchedRule: 'git_worktree_filters' });
      expect(trusted.preview.executesProjectCode).toBe(true);
    }
  });

  it('builds the launch script of a long list in one pass, every name replaced', () => {
    const decision = workspace.engine({}).evaluate({ command: 'ls;'.repeat(300), cwd: workspace.root });
    expect(decision.launch).toEqual({ kind: 'shell', script: "'/usr/bin/ls';".repeat(300) });
  });

  it('launches git with settings the repository cannot override, and diff drivers off', () => {
    const log = workspace.evaluate('git log -p');
    expect(log.launch).toEqual({
      kind: 'argv',
      argv: ['/usr/bin/git', ...GIT_LAUNCH_SETTINGS, 'log', '--no-textconv', '--no-ext-diff', '-p'],
    });
    const piped = workspace.evaluate('git --no-pager show HEAD | head -n 1');
    expect(piped.launch).toEqual({
      kind: 'shell',
      script: `'/usr/bin/git' ${GIT_LAUNCH_SETTINGS.map((a) => `'${a}'`).join(' ')} --no-pager show '--no-textconv' '--no-ext-diff' HEAD | '/usr/bin/head' -n 1`,
    });
    expect(workspace.evaluate('git branch -a').launch).toEqual({
      kind: 'argv',
      argv: ['/usr/bin/git', ...GIT_LAUNCH_SETTINGS, 'branch', '-a'],
    });
  });

  it('runs a pipeline of allowed commands through the fixed shell with trusted executable paths', () => {
    const decision = workspace.evaluate('ls | grep x');
    expect(decision).toMatchObject({ verdict: 'allow', risk: 'low', matchedRule: 'read_only_command' });
    expect(decision.launch).toEqual({ kind: 'shell', script: "'/usr/bin/ls' | '/usr/bin/grep' x" });
    expect(decision.parts).toEqual([
      { text: 'ls', verdict: 'allow', rule: 'read_only_command', reason: 'read-only command' },
      { text: 'grep x', verdict: 'allow', rule: 'read_only_command', reason: 'read-only command' },
    ]);
  });

  it('allows a list of allowed commands and rewrites every command name', () => {
    expect(workspace.evaluate('ls && pwd').launch).toEqual({
      kind: 'shell',
      script: "'/usr/bin/ls' && '/usr/bin/pwd'",
    });
    expect(workspace.evaluate('l\\s 2>/dev/null || "echo" none').launch).toEqual({
      kind: 'shell',
      script: "'/usr/bin/ls' 2>/dev/null || '/usr/bin/echo' none",
    });
  });

  it('allows descriptor duplication and discarding output', () => {
    for (const command of ['ls 2>&1 | grep x', 'echo hi >&2', 'ls > /dev/null', 'cat < README.md']) {
      expect(workspace.evaluate(command).verdict).toBe('allow');
    }
  });

  it('needs approval for sleep in inspect and confirm, not in trusted', () => {
    for (const mode of ['inspect', 'confirm'] as const) {
      expect(workspace.evaluate('sleep 1', { mode })).toMatchObject({
        verdict: 'approval_required',
        risk: 'medium',
        matchedRule: 'long_running_process',
        reasons: ['long-running process requires an explicit approval'],
        launch: { kind: 'argv', argv: ['/usr/bin/sleep', '1'] },
      });
    }
    expect(workspace.evaluate('sleep 1', { mode: 'trusted' })).toMatchObject({ verdict: 'allow', risk: 'medium' });
  });

  it('turns an output redirection into a write: denied in inspect, approval in confirm, allowed in trusted', () => {
    expect(workspace.evaluate('echo hi > out.txt')).toMatchObject({
      verdict: 'deny',
      matchedRule: 'write_command',
      reasons: ['write commands are disabled in inspect mode'],
    });
    const confirm = workspace.evaluate('echo hi > out.txt', { mode: 'confirm' });
    expect(confirm).toMatchObject({
      verdict: 'approval_required',
      risk: 'high',
      reasons: ['command can modify workspace files'],
    });
    expect(confirm.launch).toEqual({ kind: 'shell', script: "'/usr/bin/echo' hi > out.txt" });
    expect(confirm.preview.filesPotentiallyTouched).toEqual(['out.txt']);
    expect(workspace.evaluate('echo hi >> out.txt', { mode: 'trusted' })).toMatchObject({
      verdict: 'allow',
      risk: 'high',
    });
  });

  it('needs approval for a command substitution whose commands are allowed, in every mode', () => {
    for (const mode of ['inspect', 'confirm', 'trusted'] as const) {
      const decision = workspace.evaluate('echo "$(ls)"', { mode });
      expect(decision).toMatchObject({
        verdict: 'approval_required',
        risk: 'high',
        matchedRule: 'command_substitution',
      });
      expect(decision.reasons[0]).toBe('command substitution output becomes part of the command');
      expect(decision.launch).toEqual({ kind: 'shell', script: `'/usr/bin/echo' "$('/usr/bin/ls')"` });
    }
  });

  it('needs approval for a glob in every mode, since its matches are unknown', () => {
    for (const mode of ['inspect', 'trusted'] as const) {
      expect(workspace.evaluate('cat src/*.txt', { mode })).toMatchObject({
        verdict: 'approval_required',
        risk: 'medium',
        matchedRule: 'glob_expansion',
        launch: { kind: 'shell', script: "'/usr/bin/cat' src/*.txt" },
      });
    }
  });

  it('needs approval for a literal here-document unless trusted', () => {
    const command = "cat <<'EOF'\n$(not run)\nEOF";
    expect(workspace.evaluate(command)).toMatchObject({ verdict: 'approval_required', matchedRule: 'here_document' });
    expect(workspace.evaluate(command, { mode: 'trusted' })).toMatchObject({
      verdict: 'allow',
      launch: { kind: 'shell', script: "'/usr/bin/cat' <<'EOF'\n$(not run)\nEOF" },
    });
  });

  it('reports the seed preview facts', () => {
    expect(workspace.evaluate('cat README.md').preview).toEqual({
      executable: 'cat',
      filesPotentiallyTouched: [],
      networkRequested: false,
      executesProjectCode: false,
    });
    expect(workspace.evaluate('touch a b && mkdir -p c', { mode: 'confirm' }).preview.filesPotentiallyTouched).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(workspace.evaluate('git add README.md', { mode: 'confirm' }).preview.filesPotentiallyTouched).toEqual([
      'repository state',
    ]);
    expect(workspace.evaluate('npm install', { mode: 'confirm', allowNetwork: true }).preview).toEqual({
      executable: 'npm',
      filesPotentiallyTouched: [],
      networkRequested: true,
      executesProjectCode: true,
    });
  });

  it('allows literal lookalikes of dangerous syntax when quoted', () => {
    for (const command of [
      "echo '$(rm -rf .)'",
      "echo 'a;b|c&d'",
      "grep -n 'foo$' README.md",
      "echo '~'",
      'echo \\*',
    ]) {
      expect(workspace.evaluate(command)).toMatchObject({ verdict: 'allow', launch: { kind: 'argv' } });
    }
  });
});
