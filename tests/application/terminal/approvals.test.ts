import { mkdirSync, renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { TerminalFixture } from './terminal-fixture';

describe('approvals (client channel)', () => {
  let fixture: TerminalFixture;

  beforeEach(() => {
    fixture = new TerminalFixture({ mode: 'confirm', approvalTtlSeconds: 60 });
  });

  afterEach(async () => {
    await fixture.dispose();
  });

  test('an approval is single-use: consumed when its plan executes', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'touch once.txt' });
    await fixture.ok('terminal_approve', { session_id: plan.session_id, plan_id: plan.id });
    await fixture.ok('terminal_execute', { session_id: plan.session_id, plan_id: plan.id });
    expect(fixture.approvals.pending()).toEqual([]);
    const operator = (): unknown => fixture.approvals.approveAsOperator(String(plan.approval_id));
    expect(operator).toThrow(expect.objectContaining({ code: 'approval_not_found' }));
  });

  test('approval_id, when given, must be the one issued with the plan', async () => {
    const first = await fixture.ok('terminal_plan', { command: 'touch a.txt' });
    const second = await fixture.ok('terminal_plan', { command: 'touch b.txt', session_id: first.session_id });
    const crossed = await fixture.call('terminal_approve', {
      session_id: second.session_id,
      plan_id: second.id,
      approval_id: first.approval_id,
    });
    expect(crossed.structuredContent).toMatchObject({
      code: 'approval_mismatch',
      message: 'the approval is bound to another plan',
    });
    const matching = await fixture.ok('terminal_approve', {
      session_id: second.session_id,
      plan_id: second.id,
      approval_id: second.approval_id,
    });
    expect(matching).toMatchObject({ status: 'approved' });
  });

  test('an approval cannot be used from another session', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'touch a.txt' });
    await fixture.ok('terminal_approve', { session_id: plan.session_id, plan_id: plan.id });
    const other = await fixture.ok('terminal_plan', { command: 'pwd' });
    const result = await fixture.call('terminal_execute', { session_id: other.session_id, plan_id: plan.id });
    expect(result.structuredContent).toMatchObject({ code: 'plan_not_found' });
  });

  test('an approval is bound to the resolved cwd: a directory swapped for a symlink is refused', async () => {
    mkdirSync(path.join(fixture.root, 'work'));
    mkdirSync(path.join(fixture.root, 'elsewhere'));
    const plan = await fixture.ok('terminal_plan', { command: 'touch out.txt', cwd: 'work' });
    await fixture.ok('terminal_approve', { session_id: plan.session_id, plan_id: plan.id });
    renameSync(path.join(fixture.root, 'work'), path.join(fixture.root, 'work-old'));
    symlinkSync(path.join(fixture.root, 'elsewhere'), path.join(fixture.root, 'work'));
    const result = await fixture.call('terminal_execute', { session_id: plan.session_id, plan_id: plan.id });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'cwd_changed' });
  });

  test('the binding check refuses another session, plan, command or cwd', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'touch a.txt' });
    const approved = fixture.approvals.approveFromClient(String(plan.session_id), String(plan.id));
    const binding = {
      sessionId: approved.sessionId,
      planId: approved.id,
      command: approved.command,
      cwd: approved.cwd,
    };
    expect(() => fixture.approvals.assertUsable(approved, binding)).not.toThrow();
    for (const [field, change] of [
      ['session', { sessionId: 'other-session' }],
      ['plan', { planId: 'other-plan' }],
      ['command', { command: 'touch b.txt' }],
      ['cwd', { cwd: path.join(fixture.root, 'sub') }],
    ] as const) {
      expect(() => fixture.approvals.assertUsable(approved, { ...binding, ...change })).toThrow(
        expect.objectContaining({ code: 'approval_mismatch', message: `the approval is bound to another ${field}` }),
      );
    }
  });

  test('an approval expires: approving after the TTL is refused', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'touch late.txt' });
    fixture.advance(60_000);
    const result = await fixture.call('terminal_approve', { session_id: plan.session_id, plan_id: plan.id });
    expect(result.structuredContent).toMatchObject({
      code: 'approval_expired',
      details: { approvalId: plan.approval_id },
    });
    expect(result.structuredContent.next_step).toContain('terminal_retry');
    expect(fixture.approvals.pending()).toEqual([]);
  });

  test('an approval expires: executing an approved plan after the TTL is refused', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'touch late.txt' });
    fixture.advance(59_000);
    await fixture.ok('terminal_approve', { session_id: plan.session_id, plan_id: plan.id });
    fixture.advance(1_000);
    const result = await fixture.call('terminal_execute', { session_id: plan.session_id, plan_id: plan.id });
    expect(result.structuredContent).toMatchObject({ code: 'approval_expired' });
    const retried = await fixture.ok('terminal_retry', { session_id: plan.session_id, plan_id: plan.id });
    expect(retried).toMatchObject({ status: 'planned', approval_id: expect.any(String) });
  });

  test('approving publishes an approved event through TerminalEvents', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'touch a.txt' });
    const events: string[] = [];
    fixture.events.subscribe(String(plan.session_id), (event) => events.push(event.type));
    await fixture.ok('terminal_approve', { session_id: plan.session_id, plan_id: plan.id });
    expect(events).toEqual(['approved']);
  });
});

describe('approvals (operator channel)', () => {
  let fixture: TerminalFixture;

  beforeEach(() => {
    fixture = new TerminalFixture({ mode: 'confirm', channel: 'operator' });
  });

  afterEach(async () => {
    await fixture.dispose();
  });

  test('terminal_approve refuses and names the approval the operator must approve', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'touch op.txt' });
    expect(plan.next_step).toContain(String(plan.approval_id));
    const result = await fixture.call('terminal_approve', { session_id: plan.session_id, plan_id: plan.id });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      code: 'operator_approval_required',
      details: { approvalId: plan.approval_id },
    });
    expect(result.structuredContent.next_step).toContain(`approval_id ${String(plan.approval_id)}`);
    const execute = await fixture.call('terminal_execute', { session_id: plan.session_id, plan_id: plan.id });
    expect(execute.structuredContent).toMatchObject({ code: 'approval_required' });
    expect(execute.structuredContent.next_step).toContain('operator');
  });

  test('the operator approves by approval id, then the plan executes once', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'touch op.txt' });
    expect(fixture.approvals.pending()).toEqual([
      {
        approvalId: plan.approval_id,
        sessionId: plan.session_id,
        planId: plan.id,
        command: 'touch op.txt',
        cwd: fixture.root,
        risk: 'high',
        reasons: ['command can modify workspace files'],
        expiresAt: plan.approval_expires_at,
      },
    ]);
    const approved = fixture.approvals.approveAsOperator(String(plan.approval_id));
    expect(approved).toMatchObject({ status: 'approved', approval: { approvedVia: 'operator' } });
    const receipt = await fixture.call('terminal_execute', { session_id: plan.session_id, plan_id: plan.id });
    expect(receipt.structuredContent).toMatchObject({ status: 'succeeded', approved: true });
  });

  test('an unknown approval id is refused', () => {
    expect(() => fixture.approvals.approveAsOperator('apr_forged')).toThrow(
      expect.objectContaining({ code: 'approval_not_found' }),
    );
  });

  test('approvals of a closed session are gone', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'touch op.txt' });
    await fixture.ok('terminal_session_close', { session_id: plan.session_id });
    expect(fixture.approvals.pending()).toEqual([]);
    expect(() => fixture.approvals.approveAsOperator(String(plan.approval_id))).toThrow(
      expect.objectContaining({ code: 'approval_not_found' }),
    );
  });

  test('plans that need no approval still execute without the operator', async () => {
    const result = await fixture.call('terminal_execute', { command: 'echo free' });
    expect(result.structuredContent).toMatchObject({ status: 'succeeded', stdout: 'free\n' });
  });
});
