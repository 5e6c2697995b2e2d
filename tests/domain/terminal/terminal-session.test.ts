import { ChildProcessSessionFactory } from '../../../src/adapters/process/child-process-session-factory';
import type { ExecutionEvent } from '../../../src/domain/execution/execution-types';
import type { PolicyDecision } from '../../../src/domain/policy/policy-types';
import type { ApprovalGrant } from '../../../src/domain/terminal/approval-types';
import type { ExecutionReceipt } from '../../../src/domain/terminal/receipt-types';
import { TerminalPlan } from '../../../src/domain/terminal/terminal-plan';
import { TerminalSession } from '../../../src/domain/terminal/terminal-session';
import { waitFor } from '../../adapters/process/process-probe';
import { sandboxFor } from '../../support/sandbox';
import { makeTempWorkspace } from '../../support/workspace';

const NOW_MS = Date.parse('2026-12-03T10:00:00.000Z');
const NEXT_STEP = (): string => 'approve it first';

function decision(argv: string[], verdict: PolicyDecision['verdict']): PolicyDecision {
  return {
    verdict,
    risk: 'low',
    reasons: ['judged for the test'],
    matchedRule: 'test_rule',
    parts: [],
    launch: { kind: 'argv', argv },
    preview: {
      executable: argv[0] ?? '',
      filesPotentiallyTouched: [],
      networkRequested: false,
      executesProjectCode: false,
    },
  };
}

/** A real execution session (child processes in the real sandbox) inside the aggregate, with its recorded events. */
describe('TerminalSession (the aggregate)', () => {
  const workspace = makeTempWorkspace('term-mcp-aggregate-');
  const factory = new ChildProcessSessionFactory({ killGraceMs: 200, confinement: sandboxFor(workspace.root) });
  let terminal: TerminalSession;
  let recorded: ExecutionEvent[];

  function planOf(id: string, argv: string[], approval?: ApprovalGrant): TerminalPlan {
    return new TerminalPlan({
      id,
      sessionId: terminal.id,
      command: argv.join(' '),
      cwd: workspace.root,
      mode: 'confirm',
      createdAt: new Date(NOW_MS).toISOString(),
      decision: decision(argv, approval ? 'approval_required' : 'allow'),
      limits: { timeoutSeconds: 10, maxOutputBytes: 1024, maxProcessesPerSession: 4 },
      confinement: undefined,
      approval,
    });
  }

  function launchOf(plan: TerminalPlan): Parameters<TerminalSession['start']>[1] {
    const { launch } = plan.decision;
    if (!launch) throw new Error('the test plan has no launch');
    return { launch, cwd: plan.cwd, timeoutMs: 10_000, maxOutputBytes: 1024 };
  }

  beforeEach(() => {
    recorded = [];
    terminal = new TerminalSession(factory.create({ id: 'session-1', cwd: workspace.root }), (event) =>
      recorded.push(event),
    );
  });

  afterEach(async () => {
    await terminal.close(Date.now(), 'closed');
  });

  afterAll(() => workspace.remove());

  it('records policy_decision then plan for each plan, and finds it again', () => {
    const plan = planOf('plan-1', ['/bin/true']);
    terminal.plan(plan);

    expect(recorded.map((event) => event.type)).toEqual(['policy_decision', 'plan']);
    expect(recorded[1]).toMatchObject({ sessionId: 'session-1', planId: 'plan-1' });
    expect(terminal.planById('plan-1')).toBe(plan);
    expect(() => terminal.planById('plan-2')).toThrow(expect.objectContaining({ code: 'plan_not_found' }));
  });

  it('approves through a new grant value, records approved, and uses the grant when the command starts', async () => {
    const grant: ApprovalGrant = {
      id: 'approval-1',
      sessionId: 'session-1',
      planId: 'plan-1',
      command: '/bin/true',
      cwd: workspace.root,
      issuedAtMs: NOW_MS,
      expiresAtMs: NOW_MS + 60_000,
      approvedAtMs: null,
      approvedVia: null,
      consumedAtMs: null,
    };
    const plan = planOf('plan-1', ['/bin/true'], grant);
    terminal.plan(plan);

    terminal.approve(plan, 'client', NOW_MS + 1);
    expect(recorded.at(-1)).toMatchObject({
      type: 'approved',
      planId: 'plan-1',
      at: new Date(NOW_MS + 1).toISOString(),
    });
    expect(terminal.planWithApproval('approval-1')).toBe(plan);
    expect(plan.approval).toEqual({ ...grant, approvedAtMs: NOW_MS + 1, approvedVia: 'client' });

    const command = terminal.start(plan, launchOf(plan), NOW_MS + 2, NEXT_STEP);
    expect(plan.approval).toEqual({
      ...grant,
      approvedAtMs: NOW_MS + 1,
      approvedVia: 'client',
      consumedAtMs: NOW_MS + 2,
    });
    expect(grant.consumedAtMs).toBeNull();
    await command.finished();
  });

  it("reads a started plan's running and paused status from its real command, and finishes it with its receipt", async () => {
    const plan = planOf('plan-1', ['/bin/sleep', '30']);
    terminal.plan(plan);
    const command = terminal.start(plan, launchOf(plan), NOW_MS, NEXT_STEP);
    expect(plan).toMatchObject({ status: 'running', commandId: command.id });

    expect(terminal.pause(command)).toBe(true);
    expect(plan.status).toBe('paused');
    expect(terminal.pause(command)).toBe(false);
    expect(terminal.resume(command)).toBe(true);
    expect(plan.status).toBe('running');

    command.cancel();
    await command.finished();
    // Until the receipt is recorded the plan is still live (a retry would be refused).
    expect(plan.isLive).toBe(true);
    const receipt = { plan_id: plan.id, status: 'cancelled' } as unknown as ExecutionReceipt;
    terminal.finish(plan, receipt);
    expect(plan.status).toBe('cancelled');
    expect(terminal.latestReceipt()).toBe(receipt);
    expect(terminal.receiptOfPlan(plan.id)).toBe(receipt);
  });

  it('refuses to start a plan that needs approval before it has one, and starts nothing', () => {
    const unapproved = planOf('plan-2', ['/bin/true'], {
      id: 'approval-2',
      sessionId: 'session-1',
      planId: 'plan-2',
      command: '/bin/true',
      cwd: workspace.root,
      issuedAtMs: NOW_MS,
      expiresAtMs: NOW_MS + 60_000,
      approvedAtMs: null,
      approvedVia: null,
      consumedAtMs: null,
    });
    terminal.plan(unapproved);

    expect(() => terminal.start(unapproved, launchOf(unapproved), NOW_MS, NEXT_STEP)).toThrow(
      expect.objectContaining({ code: 'approval_required' }),
    );
    expect(unapproved).toMatchObject({ status: 'planned', commandId: null });
    expect(terminal.execution.commands()).toHaveLength(0);
  });

  it('starts its retention clock when it ends, keeps the first end, and kills its processes', async () => {
    const plan = planOf('plan-1', ['/bin/sleep', '30']);
    terminal.plan(plan);
    const command = terminal.start(plan, launchOf(plan), NOW_MS, NEXT_STEP);

    await terminal.close(NOW_MS + 5, 'one_shot_finished');
    await terminal.close(NOW_MS + 9, 'closed');

    expect(terminal).toMatchObject({ endedAtMs: NOW_MS + 5, endReason: 'one_shot_finished' });
    expect(terminal.execution.closed).toBe(true);
    await waitFor(() => command.outcome().status !== 'running', 'the command to end with its session');
  });
});
