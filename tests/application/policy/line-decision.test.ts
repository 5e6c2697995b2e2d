import { LineDecision, type JudgedPart } from '../../../src/application/policy/line-decision';
import { allow, deny, needsApproval } from '../../../src/application/policy/rules/judgement';

const part = (text: string, judgement: Omit<JudgedPart, 'text'>): JudgedPart => ({ text, ...judgement });

describe('LineDecision: the line verdict folded as parts arrive', () => {
  it('the strictest verdict wins, then the highest risk, then the earliest part; reasons by risk, then line order', () => {
    const decision = new LineDecision();
    decision.add(part('a', allow('low', 'read_only_command', 'read-only command', { filesTouched: ['x'] })));
    decision.add(part('b', needsApproval('medium', 'glob_expansion', 'glob', { filesTouched: ['y', 'x'] })));
    decision.add(part('c', needsApproval('high', 'write_command', 'write', { networkRequested: true })));
    decision.add(part('d', needsApproval('medium', 'here_document', 'here')));
    decision.add(part('e', needsApproval('high', 'command_substitution', 'write')));
    expect(decision.outcome()).toEqual({
      verdict: 'approval_required',
      risk: 'high',
      reasons: ['write', 'glob', 'here'],
      matchedRule: 'write_command',
      parts: [
        { text: 'a', verdict: 'allow', rule: 'read_only_command', reason: 'read-only command' },
        { text: 'b', verdict: 'approval_required', rule: 'glob_expansion', reason: 'glob' },
        { text: 'c', verdict: 'approval_required', rule: 'write_command', reason: 'write' },
        { text: 'd', verdict: 'approval_required', rule: 'here_document', reason: 'here' },
        { text: 'e', verdict: 'approval_required', rule: 'command_substitution', reason: 'write' },
      ],
      filesPotentiallyTouched: ['x', 'y'],
      networkRequested: true,
      executesProjectCode: false,
    });
  });

  it('a denial anywhere decides the line, with the blocked risk and only the denials as reasons', () => {
    const decision = new LineDecision();
    decision.add(part('a', needsApproval('high', 'write_command', 'write')));
    decision.add(part('b', deny('path_escape', 'escape', { executesProjectCode: true })));
    decision.add(part('c', deny('always_blocked', 'blocked')));
    expect(decision.outcome()).toMatchObject({
      verdict: 'deny',
      risk: 'blocked',
      reasons: ['escape', 'blocked'],
      matchedRule: 'path_escape',
      executesProjectCode: true,
    });
  });

  it('refuses to decide a line with no part', () => {
    expect(() => new LineDecision().outcome()).toThrow('at least one judged part');
  });
});
