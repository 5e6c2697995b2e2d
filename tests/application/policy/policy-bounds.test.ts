import fs from 'node:fs';
import path from 'node:path';
import { NodePathInspector } from '../../../src/adapters/policy/node-path-inspector';
import { DefaultPolicyEngine } from '../../../src/application/policy/default-policy-engine';
import { DEFAULT_POLICY_SETTINGS } from '../../../src/application/policy/policy-settings';
import { MAX_COMMANDS_PER_LINE, MAX_WORDS_PER_LINE } from '../../../src/application/shell/shell-parser';
import { PolicyWorkspace } from './policy-workspace';

/**
 * Issue 12 §6: with MAX_COMMAND_LENGTH at its 100 000 ceiling, one evaluation's work is bounded: a line holds at
 * most so many simple commands and words, and words whose inspection would grow with the square of their length
 * are refused. Each line here is judged with the real inspector on a real workspace; the first of them ran out of
 * memory (an option cluster of 100 000 letters: a glued value may start after any letter) before the bounds.
 */
describe('policy: the work of one evaluation is bounded', () => {
  let workspace: PolicyWorkspace;
  let engine: DefaultPolicyEngine;

  beforeEach(() => {
    workspace = new PolicyWorkspace();
    engine = new DefaultPolicyEngine(
      new NodePathInspector(workspace.root),
      { ...DEFAULT_POLICY_SETTINGS, mode: 'confirm' },
      100_000,
    );
  });

  afterEach(() => {
    workspace.cleanup();
  });

  const judge = (command: string) => engine.evaluate({ command, cwd: workspace.root });

  it('refuses an option cluster longer than 1 024 characters instead of trying every glued value in it', () => {
    expect(judge(`cat -${'n'.repeat(99_990)}`)).toMatchObject({ verdict: 'deny', matchedRule: 'word_too_long' });
    expect(judge(`cat -n${'a/'.repeat(600)}`)).toMatchObject({ verdict: 'deny', matchedRule: 'word_too_long' });
    // At the default 1 000-character limit no word reaches the bound: a glued link is still found (sort's -o takes
    // the rest of the cluster as its value; cat has no -L, so `cat -nnLINK` is refused as an unknown option).
    fs.symlinkSync(path.join(workspace.base, 'ws-evil', 'x'), path.join(workspace.root, 'LINK'));
    expect(judge(`sort -${'n'.repeat(900)}oLINK`)).toMatchObject({ verdict: 'deny', matchedRule: 'path_escape' });
    expect(judge(`cat -${'n'.repeat(900)}LINK`)).toMatchObject({ verdict: 'deny', matchedRule: 'unknown_option' });
  });

  it('refuses a path-like word longer than PATH_MAX, even one that walks a real deep tree', () => {
    fs.mkdirSync(path.join(workspace.root, ...Array.from({ length: 40 }, () => 'd')), { recursive: true });
    expect(judge(`cat ${'d/'.repeat(40)}${'../'.repeat(1_400)}x`)).toMatchObject({
      verdict: 'deny',
      matchedRule: 'word_too_long',
    });
    expect(judge(`mkdir -p ${'a/'.repeat(2_100)}`)).toMatchObject({ verdict: 'deny', matchedRule: 'word_too_long' });
    expect(judge(`cat ${'d/'.repeat(40)}x`)).toMatchObject({ verdict: 'allow' });
  });

  it('accepts one long quoted word or a long here-document: one word costs one look-up', () => {
    expect(judge(`echo '${'x '.repeat(49_000)}'`)).toMatchObject({
      verdict: 'allow',
      matchedRule: 'read_only_command',
    });
    expect(judge(`cat <<'E'\n${'a b c\n'.repeat(16_000)}E`)).toMatchObject({
      verdict: 'approval_required',
      matchedRule: 'here_document',
    });
  });

  it(`judges up to ${MAX_COMMANDS_PER_LINE} simple commands and refuses one more, backtick bodies included`, () => {
    const commands = (count: number) => Array.from({ length: count }, (_, index) => `cat f${index}`).join(';');
    const atTheBound = judge(commands(MAX_COMMANDS_PER_LINE));
    expect(atTheBound.verdict).toBe('allow');
    expect(atTheBound.parts).toHaveLength(MAX_COMMANDS_PER_LINE);
    expect(judge(commands(MAX_COMMANDS_PER_LINE + 1))).toMatchObject({
      verdict: 'deny',
      matchedRule: 'command_too_complex',
      reasons: [
        `command line holds more than ${MAX_COMMANDS_PER_LINE} simple commands (at most ${MAX_COMMANDS_PER_LINE} commands are judged per line)`,
      ],
    });
    expect(judge(`echo \`${commands(MAX_COMMANDS_PER_LINE)}\``)).toMatchObject({
      verdict: 'deny',
      matchedRule: 'command_too_complex',
    });
  });

  it(`judges up to ${MAX_WORDS_PER_LINE} words and refuses one more (redirection targets count)`, () => {
    const operands = (count: number) => Array.from({ length: count }, (_, index) => ` f${index}`).join('');
    expect(judge(`cat${operands(MAX_WORDS_PER_LINE - 1)}`).verdict).toBe('allow');
    expect(judge(`cat${operands(MAX_WORDS_PER_LINE)}`)).toMatchObject({
      verdict: 'deny',
      matchedRule: 'command_too_complex',
    });
    expect(judge(`cat${operands(MAX_WORDS_PER_LINE - 2)} >out`)).toMatchObject({ verdict: 'approval_required' });
    expect(judge(`cat${operands(MAX_WORDS_PER_LINE - 1)} >out`)).toMatchObject({
      verdict: 'deny',
      matchedRule: 'command_too_complex',
    });
  });

  it('never reaches a bound at the default 1 000-character limit (the verdicts there are unchanged)', () => {
    const defaults = new DefaultPolicyEngine(new NodePathInspector(workspace.root), DEFAULT_POLICY_SETTINGS);
    for (const line of ['a;'.repeat(500), `echo${' a'.repeat(498)}`, `cat <${' a<'.repeat(330)}a`]) {
      expect(defaults.evaluate({ command: line, cwd: workspace.root }).matchedRule).not.toBe('command_too_complex');
    }
  });
});
