import { existsSync } from 'node:fs';
import path from 'node:path';
import { TerminalFixture } from './terminal-fixture';

/** Seed §3.3: every transition of a plan, and every refused one with its typed, actionable error. */
describe('plan state machine', () => {
  let fixture: TerminalFixture;

  beforeEach(() => {
    fixture = new TerminalFixture({ mode: 'confirm' });
  });

  afterEach(async () => {
    await fixture.dispose();
  });

  async function planned(
    command: string,
    sessionId?: string,
  ): Promise<{ session_id: string; plan_id: string; approval_id?: string }> {
    const plan = await fixture.ok('terminal_plan', sessionId ? { command, session_id: sessionId } : { command });
    return {
      session_id: String(plan.session_id),
      plan_id: String(plan.id),
      approval_id: plan.approval_id as string | undefined,
    };
  }

  test('planned -> approved -> succeeded for a command that needs approval', async () => {
    const { session_id, plan_id } = await planned('touch note.txt');
    const approved = await fixture.ok('terminal_approve', { session_id, plan_id });
    expect(approved).toMatchObject({ status: 'approved', approved_at: expect.any(String) });
    const receipt = await fixture.call('terminal_execute', { session_id, plan_id });
    expect(receipt.isError).toBe(false);
    expect(receipt.structuredContent).toMatchObject({
      status: 'succeeded',
      approved: true,
      exit_code: 0,
      risk: 'high',
    });
    expect(existsSync(path.join(fixture.root, 'note.txt'))).toBe(true);
  });

  test('planned -> succeeded without approval for an allowed command', async () => {
    const { session_id, plan_id } = await planned('echo hello');
    const result = await fixture.call('terminal_execute', { session_id, plan_id });
    expect(result.structuredContent).toMatchObject({ status: 'succeeded', stdout: 'hello\n', approved: true });
  });

  test('approving a plan that needs no approval is allowed (seed)', async () => {
    const { session_id, plan_id } = await planned('echo hi');
    expect(await fixture.ok('terminal_approve', { session_id, plan_id })).toMatchObject({ status: 'approved' });
    expect((await fixture.call('terminal_execute', { session_id, plan_id })).isError).toBe(false);
  });

  test('executing a plan that needs approval before approving it is refused', async () => {
    const { session_id, plan_id, approval_id } = await planned('touch note.txt');
    const result = await fixture.call('terminal_execute', { session_id, plan_id });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      code: 'approval_required',
      message: 'plan requires explicit approval',
      details: { planId: plan_id, approvalId: approval_id },
    });
    expect(result.structuredContent.next_step).toContain('terminal_approve');
    expect(existsSync(path.join(fixture.root, 'note.txt'))).toBe(false);
  });

  test('approving twice is refused with the seed message', async () => {
    const { session_id, plan_id } = await planned('touch note.txt');
    await fixture.ok('terminal_approve', { session_id, plan_id });
    const again = await fixture.call('terminal_approve', { session_id, plan_id });
    expect(again.structuredContent).toMatchObject({
      code: 'invalid_plan_transition',
      message: 'plan cannot be approved from approved',
    });
    expect(again.structuredContent.next_step).toContain('terminal_execute');
  });

  test('a plan executes at most once', async () => {
    const { session_id, plan_id } = await planned('echo once');
    await fixture.ok('terminal_execute', { session_id, plan_id });
    const again = await fixture.call('terminal_execute', { session_id, plan_id });
    expect(again.structuredContent).toMatchObject({
      code: 'invalid_plan_transition',
      message: 'plan cannot execute from succeeded',
    });
    expect(again.structuredContent.next_step).toContain('terminal_retry');
  });

  test('an approved plan that ran cannot be approved again', async () => {
    const { session_id, plan_id } = await planned('touch note.txt');
    await fixture.ok('terminal_approve', { session_id, plan_id });
    await fixture.ok('terminal_execute', { session_id, plan_id });
    const approve = await fixture.call('terminal_approve', { session_id, plan_id });
    expect(approve.structuredContent).toMatchObject({ message: 'plan cannot be approved from succeeded' });
    const execute = await fixture.call('terminal_execute', { session_id, plan_id });
    expect(execute.structuredContent).toMatchObject({ message: 'plan cannot execute from succeeded' });
  });

  test('blocked plans can be neither approved nor executed', async () => {
    const { session_id, plan_id } = await planned('ls; rm -rf /');
    const approve = await fixture.call('terminal_approve', { session_id, plan_id });
    expect(approve.structuredContent).toMatchObject({
      code: 'plan_blocked',
      message: 'blocked plans cannot be approved',
    });
    const execute = await fixture.call('terminal_execute', { session_id, plan_id });
    expect(execute.isError).toBe(true);
    expect(execute.structuredContent).toMatchObject({
      code: 'plan_blocked',
      message: 'blocked plans cannot be executed',
      next_step: 'This command is denied by policy; do not retry variants of it. Ask the user.',
    });
  });

  test('a failing command ends the plan as failed and returns its receipt with isError', async () => {
    const { session_id, plan_id } = await planned('ls missing-file');
    const result = await fixture.call('terminal_execute', { session_id, plan_id });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 'failed', exit_code: 2, signal: null });
    expect(String(result.structuredContent.stderr)).toContain('missing-file');
  });

  test('a command over its time limit ends as timed_out', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'cat', timeout_seconds: 0.5 });
    const result = await fixture.call('terminal_execute', {
      session_id: plan.session_id,
      plan_id: plan.id,
      open_stdin: true,
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 'timed_out', exit_code: null, signal: 15 });
  });

  test('retry creates a fresh plan that needs approval again', async () => {
    const { session_id, plan_id, approval_id } = await planned('touch note.txt');
    await fixture.ok('terminal_approve', { session_id, plan_id });
    await fixture.ok('terminal_execute', { session_id, plan_id });
    const retried = await fixture.ok('terminal_retry', { session_id, plan_id });
    expect(retried).toMatchObject({ status: 'planned', command: 'touch note.txt', session_id, cwd: fixture.root });
    expect(retried.id).not.toBe(plan_id);
    expect(retried.approval_id).toEqual(expect.any(String));
    expect(retried.approval_id).not.toBe(approval_id);
    const execute = await fixture.call('terminal_execute', { session_id, plan_id: retried.id });
    expect(execute.structuredContent).toMatchObject({ code: 'approval_required' });
  });

  test('retry keeps the time limit of the earlier plan', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'echo again', timeout_seconds: 3 });
    const retried = await fixture.ok('terminal_retry', { session_id: plan.session_id, plan_id: plan.id });
    expect(retried.limits).toMatchObject({ timeout_seconds: 3 });
  });

  test('retry of a blocked plan judges the command again and stays blocked', async () => {
    const { session_id, plan_id } = await planned('ls; rm -rf /');
    const retried = await fixture.ok('terminal_retry', { session_id, plan_id });
    expect(retried).toMatchObject({ status: 'blocked', policy: { verdict: 'deny' } });
  });

  test('running plans cannot be retried', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'cat' });
    await fixture.ok('terminal_execute', {
      session_id: plan.session_id,
      plan_id: plan.id,
      wait_seconds: 0,
      open_stdin: true,
    });
    const retry = await fixture.call('terminal_retry', { session_id: plan.session_id, plan_id: plan.id });
    expect(retry.structuredContent).toMatchObject({ code: 'plan_running', message: 'running plans cannot be retried' });
    const execute = await fixture.call('terminal_execute', { session_id: plan.session_id, plan_id: plan.id });
    expect(execute.structuredContent).toMatchObject({ message: 'plan cannot execute from running' });
  });

  test('running -> paused -> running -> cancelled', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'sleep 5' });
    await fixture.ok('terminal_approve', { session_id: plan.session_id, plan_id: plan.id });
    const running = await fixture.ok('terminal_execute', {
      session_id: plan.session_id,
      plan_id: plan.id,
      wait_seconds: 0,
    });
    expect(running).toMatchObject({ status: 'running', plan_id: plan.id, stdin_open: false });
    const session_id = plan.session_id;
    expect(await fixture.ok('terminal_pause', { session_id })).toEqual({ paused: true });
    expect(fixture.store.find(String(session_id))?.planById(String(plan.id)).status).toBe('paused');
    expect(await fixture.ok('terminal_pause', { session_id })).toEqual({ paused: false });
    expect(await fixture.ok('terminal_resume', { session_id })).toEqual({ resumed: true });
    expect(await fixture.ok('terminal_resume', { session_id })).toEqual({ resumed: false });
    expect(await fixture.ok('terminal_cancel', { session_id })).toEqual({ cancelled: true });
    expect(await fixture.ok('terminal_cancel', { session_id })).toEqual({ cancelled: false });
    const receipt = await fixture.ok('terminal_receipt', { session_id });
    expect(receipt).toMatchObject({ status: 'cancelled', plan_id: plan.id, approved: true });
  });

  test('a synchronous execute returns the cancelled receipt with isError when the command is cancelled meanwhile', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'sleep 5' });
    await fixture.ok('terminal_approve', { session_id: plan.session_id, plan_id: plan.id });
    const execution = fixture.call('terminal_execute', { session_id: plan.session_id, plan_id: plan.id });
    await waitUntil(() => fixture.store.find(String(plan.session_id))?.planById(String(plan.id)).status === 'running');
    const other = await fixture.ok('terminal_plan', { command: 'echo busy', session_id: plan.session_id });
    const busy = await fixture.call('terminal_execute', { session_id: plan.session_id, plan_id: other.id });
    expect(busy.structuredContent).toMatchObject({
      code: 'process_limit_reached',
      message: 'another command is already running in this session',
    });
    expect(await fixture.ok('terminal_cancel', { session_id: plan.session_id })).toEqual({ cancelled: true });
    const result = await execution;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 'cancelled' });
    // The refused plan was not consumed: it runs once the session is free.
    expect(
      (await fixture.call('terminal_execute', { session_id: plan.session_id, plan_id: other.id })).structuredContent,
    ).toMatchObject({ status: 'succeeded' });
  });

  test('pause, resume and cancel answer false when nothing runs', async () => {
    const { session_id } = await planned('echo idle');
    expect(await fixture.ok('terminal_pause', { session_id })).toEqual({ paused: false });
    expect(await fixture.ok('terminal_resume', { session_id })).toEqual({ resumed: false });
    expect(await fixture.ok('terminal_cancel', { session_id })).toEqual({ cancelled: false });
  });

  test('a plan of another session is refused with the seed message', async () => {
    const first = await planned('echo one');
    const second = await planned('echo two');
    for (const tool of ['terminal_approve', 'terminal_execute', 'terminal_retry']) {
      const result = await fixture.call(tool, { session_id: second.session_id, plan_id: first.plan_id });
      expect(result.structuredContent).toMatchObject({
        code: 'plan_not_found',
        message: 'plan does not belong to this session',
      });
    }
  });

  test('every session-scoped tool refuses an unknown session', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['terminal_approve', { session_id: 'gone', plan_id: 'p' }],
      ['terminal_execute', { session_id: 'gone', plan_id: 'p' }],
      ['terminal_retry', { session_id: 'gone', plan_id: 'p' }],
      ['terminal_pause', { session_id: 'gone' }],
      ['terminal_resume', { session_id: 'gone' }],
      ['terminal_cancel', { session_id: 'gone' }],
      ['terminal_receipt', { session_id: 'gone' }],
      ['terminal_read', { session_id: 'gone' }],
      ['terminal_input', { session_id: 'gone', text: 'x' }],
      ['terminal_session_close', { session_id: 'gone' }],
    ];
    for (const [tool, args] of calls) {
      const result = await fixture.call(tool, args);
      expect({ tool, content: result.structuredContent }).toMatchObject({
        tool,
        content: { code: 'session_not_found', message: 'unknown or expired session' },
      });
    }
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
