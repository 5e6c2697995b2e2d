import type { PolicyDecision, PolicyVerdict } from '../../../src/domain/policy/policy-types';
import { TerminalPlan } from '../../../src/domain/terminal/terminal-plan';
import type { FinalPlanStatus, PlanStatus } from '../../../src/domain/terminal/plan-types';

function decision(verdict: PolicyVerdict): PolicyDecision {
  return {
    verdict,
    risk: verdict === 'deny' ? 'blocked' : 'low',
    reasons: [verdict === 'deny' ? 'denied for the test' : 'fine for the test'],
    matchedRule: 'test_rule',
    parts: [],
    ...(verdict === 'deny' ? {} : { launch: { kind: 'argv' as const, argv: ['/bin/true'] } }),
    preview: { executable: 'true', filesPotentiallyTouched: [], networkRequested: false, executesProjectCode: false },
  };
}

function plan(verdict: PolicyVerdict): TerminalPlan {
  return new TerminalPlan({
    id: 'plan-1',
    sessionId: 'session-1',
    command: 'true',
    cwd: '/workspace',
    mode: 'confirm',
    createdAt: '2026-12-03T00:00:00.000Z',
    decision: decision(verdict),
    limits: { timeoutSeconds: 10, maxOutputBytes: 1024, maxProcessesPerSession: 1 },
    confinement: undefined,
    approval: undefined,
  });
}

const NEXT_STEP = (): string => 'approve it first';

/** A plan brought to `status` through its own transitions. */
function planIn(status: PlanStatus): TerminalPlan {
  if (status === 'blocked') return plan('deny');
  const subject = plan('approval_required');
  if (status === 'planned') return subject;
  subject.approve('2026-12-03T00:00:01.000Z');
  if (status === 'approved') return subject;
  subject.start('command-1', NEXT_STEP);
  if (status === 'running') return subject;
  if (status === 'paused') {
    subject.pause();
    return subject;
  }
  subject.finish(status);
  return subject;
}

const FINAL: FinalPlanStatus[] = ['succeeded', 'failed', 'cancelled', 'timed_out'];
const ALL: PlanStatus[] = ['planned', 'blocked', 'approved', 'running', 'paused', ...FINAL];

describe('TerminalPlan: the plan state machine (seed §3.3)', () => {
  it('starts planned, or blocked when the policy denies', () => {
    expect(plan('allow').status).toBe('planned');
    expect(plan('approval_required').status).toBe('planned');
    expect(plan('deny').status).toBe('blocked');
    expect(plan('allow')).toMatchObject({ approvedAt: null, commandId: null, isLive: false });
  });

  it('walks planned -> approved -> running <-> paused -> each final status', () => {
    for (const final of FINAL) {
      const subject = plan('approval_required');
      subject.approve('2026-12-03T00:00:01.000Z');
      expect(subject).toMatchObject({ status: 'approved', approvedAt: '2026-12-03T00:00:01.000Z' });
      subject.start('command-1', NEXT_STEP);
      expect(subject).toMatchObject({ status: 'running', commandId: 'command-1', isLive: true });
      expect(subject.pause()).toBe(true);
      expect(subject).toMatchObject({ status: 'paused', isLive: true });
      expect(subject.resume()).toBe(true);
      subject.finish(final);
      expect(subject).toMatchObject({ status: final, isLive: false, commandId: 'command-1' });
    }
  });

  it('starts a plan that needs no approval straight from planned, and finishes it from paused', () => {
    const subject = plan('allow');
    subject.start('command-2', NEXT_STEP);
    subject.pause();
    subject.finish('cancelled');
    expect(subject.status).toBe('cancelled');
  });

  it.each(ALL.filter((status) => status !== 'planned'))('refuses to approve from %s with the seed message', (status) => {
    const subject = planIn(status);
    const expected = status === 'blocked' ? 'blocked plans cannot be approved' : `plan cannot be approved from ${status}`;
    expect(() => subject.approve('2026-12-03T00:00:02.000Z')).toThrow(expected);
    expect(subject.status).toBe(status);
  });

  it('refuses to approve a blocked plan with its code and reasons', () => {
    expect(() => plan('deny').approve('now')).toThrow(expect.objectContaining({ code: 'plan_blocked', details: expect.objectContaining({ reasons: ['denied for the test'] }) }));
  });

  it.each(ALL.filter((status) => status !== 'planned' && status !== 'approved'))('refuses to execute from %s', (status) => {
    const subject = planIn(status);
    const expected = status === 'blocked' ? 'blocked plans cannot be executed' : `plan cannot execute from ${status}`;
    expect(() => subject.start('command-9', NEXT_STEP)).toThrow(expected);
    expect(subject.status).toBe(status);
    expect(subject.commandId).toBe(status === 'blocked' ? null : 'command-1');
  });

  it('refuses to execute a plan that needs approval before it has one, with the caller\'s next step', () => {
    const subject = plan('approval_required');
    expect(() => subject.start('command-1', NEXT_STEP)).toThrow(
      expect.objectContaining({ code: 'approval_required', message: 'plan requires explicit approval', nextStep: 'approve it first' }),
    );
    expect(subject).toMatchObject({ status: 'planned', commandId: null });
  });

  it('pauses only a running plan and resumes only a paused one (false otherwise, nothing changes)', () => {
    for (const status of ALL) {
      const subject = planIn(status);
      expect(subject.pause()).toBe(status === 'running');
      expect(subject.status).toBe(status === 'running' ? 'paused' : status);
    }
    for (const status of ALL) {
      const subject = planIn(status);
      expect(subject.resume()).toBe(status === 'paused');
      expect(subject.status).toBe(status === 'paused' ? 'running' : status);
    }
  });

  it.each(ALL.filter((status) => status !== 'running' && status !== 'paused'))('refuses to finish from %s (only a started plan ends)', (status) => {
    const subject = planIn(status);
    expect(() => subject.finish('succeeded')).toThrow(`plan cannot finish from ${status}`);
    expect(subject.status).toBe(status);
  });

  it('refuses to retry a live plan, and allows it from every other status', () => {
    for (const status of ALL) {
      const subject = planIn(status);
      if (status === 'running' || status === 'paused') {
        expect(() => subject.assertRetryable()).toThrow(expect.objectContaining({ code: 'plan_running', message: 'running plans cannot be retried' }));
      } else {
        expect(() => subject.assertRetryable()).not.toThrow();
      }
    }
  });
});
