import fs from 'node:fs';
import path from 'node:path';
import { MAX_LISTED_ENTRIES, MemoizedPathInspector } from '../../../src/application/policy/memoized-path-inspector';
import { DEFAULT_POLICY_SETTINGS } from '../../../src/application/policy/policy-settings';
import type { JudgeContext } from '../../../src/application/policy/rules/judgement';
import type { CommandShape } from '../../../src/application/policy/rules/shell-feature-rule';
import { judgeSimpleCommand, type SimpleCommandJudgement } from '../../../src/application/policy/simple-command-judge';
import { SimpleCommandMemo } from '../../../src/application/policy/simple-command-memo';
import type { SimpleCommand } from '../../../src/application/shell/shell-ast';
import { parseShellCommand } from '../../../src/application/shell/shell-parser';
import { InstalledToolsInspector, PolicyWorkspace } from './policy-workspace';

/** The simple commands of a line, in order. */
function commandsOf(line: string): SimpleCommand[] {
  return parseShellCommand(line).list.items.map((item) => item.pipeline.commands[0] as SimpleCommand);
}

describe('judgements of repeated commands, remembered for one line', () => {
  let workspace: PolicyWorkspace;
  let inspector: MemoizedPathInspector;
  let context: JudgeContext;
  let calls: CommandShape[];
  const counted = (command: CommandShape, at: JudgeContext): SimpleCommandJudgement => {
    calls.push(command);
    return judgeSimpleCommand(command, at);
  };

  beforeEach(() => {
    workspace = new PolicyWorkspace();
    inspector = new MemoizedPathInspector(new InstalledToolsInspector(workspace.root));
    context = { settings: DEFAULT_POLICY_SETTINGS, inspector, cwd: workspace.root };
    calls = [];
  });

  afterEach(() => {
    workspace.cleanup();
  });

  it('judges the same words in the same directory once, and gives the same judgement back', () => {
    const memo = new SimpleCommandMemo(inspector);
    const [first, second, other] = commandsOf('cat README.md; cat README.md; cat src/a.txt');
    const judged = memo.judge(first as SimpleCommand, context, counted);
    expect(memo.judge(second as SimpleCommand, context, counted)).toBe(judged);
    memo.judge(other as SimpleCommand, context, counted);
    expect(calls).toEqual([first, other]);
    expect(judged.judgement).toMatchObject({ verdict: 'allow', rule: 'read_only_command' });
  });

  it('remembers the first command of a program once its name comes back in the line', () => {
    const memo = new SimpleCommandMemo(inspector);
    const [first, other, again] = commandsOf('cat README.md; cat src/a.txt; cat README.md');
    const judged = memo.judge(first as SimpleCommand, context, counted);
    memo.judge(other as SimpleCommand, context, counted);
    expect(memo.judge(again as SimpleCommand, context, counted)).toBe(judged);
    expect(calls).toEqual([first, other]);
  });

  it('judges again in another directory, or in one a cd of the line chose', () => {
    const memo = new SimpleCommandMemo(inspector);
    const [command] = commandsOf('cat a.txt');
    const src = path.join(workspace.root, 'src');
    memo.judge(command as SimpleCommand, context, counted);
    const elsewhere = memo.judge(command as SimpleCommand, { ...context, cwd: src }, counted);
    memo.judge(command as SimpleCommand, { ...context, cwd: src, cwdFromCd: true }, counted);
    expect(calls).toHaveLength(3);
    expect(elsewhere.judgement.verdict).toBe('allow');
  });

  it('always judges a command with a redirection, an assignment or an expansion (the words do not hold all of it)', () => {
    const memo = new SimpleCommandMemo(inspector);
    const lines = ['cat <<E\na\nE', 'cat > out', 'A=1 cat README.md', 'cat $(ls)', 'cat *.md'];
    for (const line of lines) {
      const [command] = commandsOf(line);
      memo.judge(command as SimpleCommand, context, counted);
      memo.judge(command as SimpleCommand, context, counted);
    }
    expect(calls).toHaveLength(lines.length * 2);
  });

  it('judges again a command whose judgement listed a directory: the listing budget is spent every time', () => {
    const memo = new SimpleCommandMemo(inspector);
    fs.mkdirSync(path.join(workspace.root, 'tree'));
    const [command] = commandsOf('cp -a tree copy');
    memo.judge(command as SimpleCommand, context, counted);
    memo.judge(command as SimpleCommand, context, counted);
    expect(calls).toHaveLength(2);
    expect(inspector.listings).toBe(2);
  });

  it('still refuses a line whose repeated copies together list more than the budget allows', () => {
    const tree = path.join(workspace.root, 'tree');
    fs.mkdirSync(tree);
    for (let index = 0; index <= MAX_LISTED_ENTRIES / 2; index += 1) fs.writeFileSync(path.join(tree, `f${index}`), '');
    expect(workspace.evaluate('cp -a tree copy', { mode: 'trusted' }).parts.map((part) => part.rule)).not.toContain(
      'tree_too_large',
    );
    const twice = workspace.evaluate('cp -a tree copy; cp -a tree copy', { mode: 'trusted' });
    expect(twice).toMatchObject({ verdict: 'deny', matchedRule: 'tree_too_large' });
  });

  it('gives every repeat of a command its own part and its own trusted name in the launch', () => {
    const decision = workspace.evaluate('ls;'.repeat(50));
    expect(decision.verdict).toBe('allow');
    expect(decision.parts).toHaveLength(50);
    expect(new Set(decision.parts.map((part) => JSON.stringify(part)))).toEqual(
      new Set([JSON.stringify(decision.parts[0])]),
    );
    const script = decision.launch?.kind === 'shell' ? decision.launch.script : '';
    expect(script.match(/'\/[^']*\/ls'/g)).toHaveLength(50);
  });
});
