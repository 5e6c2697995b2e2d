import type { CommandStatus } from '../../../src/domain/execution/execution-types';
import type { PolicyDecision, PolicyVerdict } from '../../../src/domain/policy/policy-types';
import { TerminalPlan, type PlanCommand } from '../../../src/domain/terminal/terminal-plan';
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
const APPROVED_AT_MS = Date.parse('2026-12-03T00:00:01.000Z');
const STARTED_AT_MS = APPROVED_AT_MS + 1000;

/** A command as its plan sees it: an id and a status, which the test moves as the process adapter would. */
class CommandStub implements PlanCommand {
  status: CommandStatus = 'running';
  constructor(readonly id: string) {}
  outcome(): ReturnType<PlanCommand['outcome']> {
    return {
      status: this.status,
      exitCode: null,
      signal: null,
      startedAt: '2026-12-03T00:00:02.000Z',
      finishedAt: null,
      durationMs: null,
      truncated: false,
    };
  }
}

/** A plan brought to `status` through its own transitions. */
function planIn(status: PlanStatus): TerminalPlan {
  if (status === 'blocked') return plan('deny');
  const subject = plan('approval_required');
  if (status === 'planned') return subject;
  subject.approve(APPROVED_AT_MS, 'client');
  if (status === 'approved') return subject;
  const command = new CommandStub('command-1');
  subject.start(command, STARTED_AT_MS, NEXT_STEP);
  if (status === 'running') return subject;
  if (status === 'paused') {
    command.status = 'paused';
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
      subject.approve(APPROVED_AT_MS, 'client');
      expect(subject).toMatchObject({ status: 'approved', approvedAt: '2026-12-03T00:00:01.000Z' });
      const command = new CommandStub('command-1');
      subject.start(command, STARTED_AT_MS, NEXT_STEP);
      expect(subject).toMatchObject({ status: 'running', commandId: 'command-1', isLive: true });
      command.status = 'paused';
      expect(subject).toMatchObject({ status: 'paused', isLive: true });
      command.status = 'running';
      expect(subject.status).toBe('running');
      subject.finish(final);
      expect(subject).toMatchObject({ status: final, isLive: false, commandId: 'command-1' });
    }
  });

  it('starts a plan that needs no approval straight from planned, and finishes it from paused', () => {
    const subject = plan('allow');
    const command = new CommandStub('command-2');
    subject.start(command, STARTED_AT_MS, NEXT_STEP);
    command.status = 'paused';
    subject.finish('cancelled');
    expect(subject.status).toBe('cancelled');
  });

  it('stays live until its receipt is recorded, even when its command has already ended', () => {
    const subject = plan('allow');
    const command = new CommandStub('command-3');
    subject.start(command, STARTED_AT_MS, NEXT_STEP);
    command.status = 'succeeded';
    expect(subject).toMatchObject({ status: 'running', isLive: true });
    subject.finish('succeeded');
    expect(subject).toMatchObject({ status: 'succeeded', isLive: false });
  });

  it.each(ALL.filter((status) => status !== 'planned'))(
    'refuses to approve from %s with the seed message',
    (status) => {
      const subject = planIn(status);
      const expected =
        status === 'blocked' ? 'blocked plans cannot be approved' : `plan cannot be approved from ${status}`;
      expect(() => subject.approve(APPROVED_AT_MS + 1000, 'client')).toThrow(expected);
      expect(subject.status).toBe(status);
    },
  );

  it('refuses to approve a blocked plan with its code and reasons', () => {
    expect(() => plan('deny').approve(APPROVED_AT_MS, 'client')).toThrow(
      expect.objectContaining({
        code: 'plan_blocked',
        details: expect.objectContaining({ reasons: ['denied for the test'] }),
      }),
    );
  });

  it.each(ALL.filter((status) => status !== 'planned' && status !== 'approved'))(
    'refuses to execute from %s',
    (status) => {
      const subject = planIn(status);
      const expected = status === 'blocked' ? 'blocked plans cannot be executed' : `plan cannot execute from ${status}`;
      expect(() => subject.start(new CommandStub('command-9'), STARTED_AT_MS, NEXT_STEP)).toThrow(expected);
      expect(subject.status).toBe(status);
      expect(subject.commandId).toBe(status === 'blocked' ? null : 'command-1');
    },
  );

  it("refuses to execute a plan that needs approval before it has one, with the caller's next step", () => {
    const subject = plan('approval_required');
    expect(() => subject.start(new CommandStub('command-1'), STARTED_AT_MS, NEXT_STEP)).toThrow(
      expect.objectContaining({
        code: 'approval_required',
        message: 'plan requires explicit approval',
        nextStep: 'approve it first',
      }),
    );
    expect(subject).toMatchObject({ status: 'planned', commandId: null });
  });

  it('reads running or paused from its command only while it is started and unfinished', () => {
    for (const status of ALL) {
      const subject = planIn(status);
      expect(subject.isLive).toBe(status === 'running' || status === 'paused');
      expect(subject.commandId).toBe(
        status === 'planned' || status === 'approved' || status === 'blocked' ? null : 'command-1',
      );
    }
  });

  it('replaces its approval grant with a new value when approved and when started, never changing the old one', () => {
    const grant = {
      id: 'approval-1',
      sessionId: 'session-1',
      planId: 'plan-1',
      command: 'true',
      cwd: '/workspace',
      issuedAtMs: APPROVED_AT_MS - 1000,
      expiresAtMs: APPROVED_AT_MS + 60_000,
      approvedAtMs: null,
      approvedVia: null,
      consumedAtMs: null,
    };
    const subject = new TerminalPlan({
      ...plan('approval_required'),
      id: 'plan-1',
      sessionId: 'session-1',
      approval: grant,
    });
    subject.approve(APPROVED_AT_MS, 'operator');
    const approved = subject.approval;
    expect(approved).toEqual({ ...grant, approvedAtMs: APPROVED_AT_MS, approvedVia: 'operator' });
    subject.start(new CommandStub('command-1'), STARTED_AT_MS, NEXT_STEP);
    expect(subject.approval).toEqual({
      ...grant,
      approvedAtMs: APPROVED_AT_MS,
      approvedVia: 'operator',
      consumedAtMs: STARTED_AT_MS,
    });
    expect(grant).toMatchObject({ approvedAtMs: null, approvedVia: null, consumedAtMs: null });
    expect(approved?.consumedAtMs).toBeNull();
  });

  it('refuses to approve with an expired grant, and stays planned', () => {
    const grant = {
      id: 'approval-2',
      sessionId: 'session-1',
      planId: 'plan-1',
      command: 'true',
      cwd: '/workspace',
      issuedAtMs: APPROVED_AT_MS - 2000,
      expiresAtMs: APPROVED_AT_MS,
      approvedAtMs: null,
      approvedVia: null,
      consumedAtMs: null,
    };
    const subject = new TerminalPlan({ ...plan('approval_required'), approval: grant });
    expect(() => subject.approve(APPROVED_AT_MS, 'client')).toThrow(
      expect.objectContaining({ code: 'approval_expired' }),
    );
    expect(subject).toMatchObject({ status: 'planned', approval: grant });
  });

  it.each(ALL.filter((status) => status !== 'running' && status !== 'paused'))(
    'refuses to finish from %s (only a started plan ends)',
    (status) => {
      const subject = planIn(status);
      expect(() => subject.finish('succeeded')).toThrow(`plan cannot finish from ${status}`);
      expect(subject.status).toBe(status);
    },
  );

  it('refuses to retry a live plan, and allows it from every other status', () => {
    for (const status of ALL) {
      const subject = planIn(status);
      if (status === 'running' || status === 'paused') {
        expect(() => subject.assertRetryable()).toThrow(
          expect.objectContaining({ code: 'plan_running', message: 'running plans cannot be retried' }),
        );
      } else {
        expect(() => subject.assertRetryable()).not.toThrow();
      }
    }
  });
});
