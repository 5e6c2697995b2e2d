import fs from 'node:fs';
import path from 'node:path';
import type { PolicyMode } from '../../../src/domain/policy/policy-types';
import { PolicyWorkspace } from './policy-workspace';

/** `cd` as dash runs it: the rest of the list is judged where it goes (README.md, src/a.txt, etc-link -> /etc, inner-link -> src). */
describe('cd is the shell builtin', () => {
  let workspace: PolicyWorkspace;
  beforeEach(() => {
    workspace = new PolicyWorkspace();
    fs.mkdirSync(path.join(workspace.root, 'src', 'deep'));
  });
  afterEach(() => {
    workspace.cleanup();
  });

  const judge = (line: string, mode: PolicyMode = 'inspect') => {
    const decision = workspace.evaluate(line, { mode });
    return { verdict: decision.verdict, rule: decision.matchedRule, reason: decision.reasons[0] };
  };

  it('judges the rest of an && list in the directory, and launches cd as the builtin', () => {
    expect(judge('cd src && ls')).toMatchObject({ verdict: 'allow', rule: 'cd_builtin' });
    expect(judge('cd src && cat a.txt ../README.md')).toMatchObject({ verdict: 'allow' });
    expect(judge('cd src/deep && cat ../../README.md')).toMatchObject({ verdict: 'allow' });
    expect(judge('cd src && cat ../../x')).toMatchObject({ verdict: 'deny', rule: 'path_escape' });
    expect(workspace.evaluate('cd src && ls', {}).launch).toEqual({ kind: 'shell', script: "cd src && '/usr/bin/ls'" });
  });

  it('judges what follows ; or || also where the line was, since cd may fail', () => {
    expect(judge('cd src; cat ../README.md')).toMatchObject({ verdict: 'deny', rule: 'path_escape' });
    expect(judge('cd src || cat ../README.md')).toMatchObject({ verdict: 'deny', rule: 'path_escape' });
    expect(judge('cd src && cat a.txt; cat ../README.md')).toMatchObject({ verdict: 'deny', rule: 'path_escape' });
    expect(judge('cd src; cat README.md a.txt')).toMatchObject({ verdict: 'allow' });
  });

  it('accepts a directory the line creates first', () => {
    expect(judge('mkdir b && cd b && touch x', 'confirm')).toMatchObject({
      verdict: 'approval_required',
      rule: 'write_command',
    });
    expect(judge('mkdir b && cd b && cat ../../x', 'confirm')).toMatchObject({ verdict: 'deny', rule: 'path_escape' });
  });

  it('refuses leaving the workspace, links, HOME, OLDPWD and options, naming the cwd argument', () => {
    for (const [line, rule] of [
      ['cd .. && ls', 'cd_outside_workspace'],
      ['cd / && ls', 'cd_outside_workspace'],
      ['cd etc-link && ls', 'cd_outside_workspace'],
      ['cd inner-link && ls', 'cd_symlink'],
      ['cd src && cd .. && cd .. && ls', 'cd_outside_workspace'],
      ['cd', 'cd_form'],
      ['cd -', 'cd_form'],
      ['cd -P src', 'cd_form'],
      ['cd README.md', 'cd_not_directory'],
      ['cd $(echo src) && ls', 'cd_dynamic_target'],
    ] as const) {
      for (const mode of ['inspect', 'confirm', 'trusted'] as const) {
        const got = judge(line, mode);
        expect({ line, mode, verdict: got.verdict, rule: got.rule }).toEqual({ line, mode, verdict: 'deny', rule });
        expect(got.reason).toContain('set the cwd argument');
      }
    }
  });

  it('refuses a line that could run in more than 8 directories', () => {
    fs.mkdirSync(path.join(workspace.root, 'd0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8'), { recursive: true });
    const line = ['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8'].map((name) => `cd ${name}`).join('; ');
    expect(judge(`${line}; ls`)).toMatchObject({ verdict: 'deny', rule: 'cd_too_many' });
  });
});
