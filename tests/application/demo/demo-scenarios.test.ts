import { DEMO_SCENARIOS } from '../../../src/application/demo/demo-scenarios';
import { TerminalFixture } from '../terminal/terminal-fixture';

describe('the demo scenarios', () => {
  let current: TerminalFixture | undefined;

  afterEach(async () => {
    await current?.dispose();
    current = undefined;
  });

  test('are the seed three, in the seed order, with the seed texts under both names', () => {
    expect(DEMO_SCENARIOS.map(({ id, label, command, outcome }) => ({ id, label, command, outcome }))).toEqual([
      { id: 'inspect-workspace', label: 'Inspect workspace', command: 'pwd', outcome: 'A low-risk successful receipt' },
      {
        id: 'approval-cancel',
        label: 'Approval + cancel',
        command: 'sleep 15',
        outcome: 'Approve, pause, resume, then cancel a bounded process',
      },
      {
        id: 'catalog-overview',
        label: 'List top-level files',
        command: 'ls -la',
        outcome: 'Read-only output without a model key',
      },
    ]);
    for (const scenario of DEMO_SCENARIOS) {
      expect(scenario.title).toBe(scenario.label);
      expect(scenario.description).toBe(scenario.outcome);
    }
  });

  /** Polls terminal_receipt until the plan's receipt exists (the command ends asynchronously after a cancel). */
  async function receiptOf(
    fixture: TerminalFixture,
    session_id: string,
    plan_id: string,
  ): Promise<Record<string, unknown>> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const answer = await fixture.ok('terminal_receipt', { session_id, plan_id });
      if (answer.receipt !== null) return answer;
      if (Date.now() > deadline) throw new Error('no receipt after the cancel');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  test('behave as they say under the default (inspect) policy', async () => {
    const fixture = new TerminalFixture();
    current = fixture;
    const [inspect, approval, catalog] = DEMO_SCENARIOS.map((scenario) => scenario.command);
    const pwdReceipt = await fixture.ok('terminal_execute', { command: inspect });
    expect(pwdReceipt).toMatchObject({
      status: 'succeeded',
      exit_code: 0,
      risk: 'low',
      approved: true,
      stdout: `${fixture.root}\n`,
    });

    const sleepPlan = await fixture.ok('terminal_plan', { command: approval });
    expect(sleepPlan).toMatchObject({ status: 'planned', policy: { requires_approval: true, risk: 'medium' } });
    const session_id = sleepPlan.session_id;
    await fixture.ok('terminal_approve', { session_id, plan_id: sleepPlan.id });
    const running = await fixture.ok('terminal_execute', { session_id, plan_id: sleepPlan.id, wait_seconds: 0 });
    expect(running.status).toBe('running');
    expect(await fixture.ok('terminal_pause', { session_id })).toEqual({ paused: true });
    expect(await fixture.ok('terminal_resume', { session_id })).toEqual({ resumed: true });
    expect(await fixture.ok('terminal_cancel', { session_id })).toEqual({ cancelled: true });
    const cancelled = await receiptOf(fixture, session_id as string, sleepPlan.id as string);
    expect(cancelled).toMatchObject({ status: 'cancelled', signal: expect.any(Number) });

    const lsReceipt = await fixture.ok('terminal_execute', { command: catalog });
    expect(lsReceipt).toMatchObject({
      status: 'succeeded',
      risk: 'low',
      approved: true,
      stdout: expect.stringContaining('total'),
    });
  });
});
