import type { Client } from '@modelcontextprotocol/client';
import { callTool as call, callToolOk as ok, connectSdkOverStdio, type Era } from '../support/sdk-client';
import { makeTempWorkspace } from '../support/workspace';

/**
 * The remaining plan transitions of the seed's state machine, through the official SDK client over STDIO:
 * blocked plans cannot be approved, running plans cannot be retried, a timeout ends in `timed_out`, pause/resume
 * with nothing to act on answer false, and interactive input reaches a running command.
 */

describe.each<Era>(['legacy', 'modern'])('plan transitions through the official SDK client (%s era)', (era) => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  let client: Client;

  beforeAll(async () => {
    workspace = makeTempWorkspace();
    ({ client } = await connectSdkOverStdio(era, { WORKSPACE_ROOT: workspace.root, APPROVAL_MODE: 'trusted' }));
  });

  afterAll(async () => {
    await client.close();
    workspace.remove();
  });

  test('a blocked plan cannot be approved', async () => {
    const plan = await ok(client, 'terminal_plan', { command: 'curl https://example.com' });
    expect(plan).toMatchObject({ status: 'blocked', policy: { allowed: false, risk: 'blocked', verdict: 'deny' } });
    const approved = await call(client, 'terminal_approve', { session_id: plan.session_id, plan_id: plan.id });
    expect(approved).toMatchObject({
      isError: true,
      data: { code: 'plan_blocked', message: 'blocked plans cannot be approved', next_step: expect.any(String) },
    });
  });

  test('a running plan cannot be retried; a timeout ends it as timed_out with isError', async () => {
    const plan = await ok(client, 'terminal_plan', { command: 'sleep 5', timeout_seconds: 1 });
    const session_id = plan.session_id;
    const started = await ok(client, 'terminal_execute', { session_id, plan_id: plan.id, wait_seconds: 0 });
    expect(started).toMatchObject({ status: 'running', plan_id: plan.id });
    const retried = await call(client, 'terminal_retry', { session_id, plan_id: plan.id });
    expect(retried).toMatchObject({
      isError: true,
      data: { message: 'running plans cannot be retried', next_step: expect.any(String) },
    });
    let read = await ok(client, 'terminal_read', { session_id, plan_id: plan.id, wait_seconds: 5 });
    for (let polls = 0; read.finished !== true && polls < 10; polls += 1) {
      read = await ok(client, 'terminal_read', { session_id, plan_id: plan.id, wait_seconds: 5 });
    }
    expect(read).toMatchObject({ status: 'timed_out', finished: true });
    const receipt = await call(client, 'terminal_receipt', { session_id, plan_id: plan.id });
    expect(receipt.data).toMatchObject({ status: 'timed_out', exit_code: null, signal: expect.any(Number) });
    expect(await ok(client, 'terminal_pause', { session_id })).toEqual({ paused: false });
    expect(await ok(client, 'terminal_resume', { session_id })).toEqual({ resumed: false });
  });

  test('interactive input reaches a running command (cat echoes it), then closing stdin ends it', async () => {
    const plan = await ok(client, 'terminal_plan', { command: 'cat' });
    const session_id = plan.session_id;
    const started = await ok(client, 'terminal_execute', {
      session_id,
      plan_id: plan.id,
      wait_seconds: 0,
      open_stdin: true,
    });
    expect(started).toMatchObject({ status: 'running', stdin_open: true });
    expect(await ok(client, 'terminal_input', { session_id, text: 'ping from the model\n' })).toMatchObject({
      bytes_written: 20,
      stdin_closed: false,
    });
    let read = await ok(client, 'terminal_read', { session_id, wait_seconds: 5 });
    expect((read.stdout as { text: string }).text).toBe('ping from the model\n');
    await ok(client, 'terminal_input', { session_id, text: '', close_stdin: true });
    read = await ok(client, 'terminal_read', { session_id, stdout_offset: 20, wait_seconds: 5 });
    for (let polls = 0; read.finished !== true && polls < 10; polls += 1) {
      read = await ok(client, 'terminal_read', { session_id, stdout_offset: 20, wait_seconds: 5 });
    }
    expect(read).toMatchObject({ status: 'succeeded', exit_code: 0, finished: true });
    const late = await call(client, 'terminal_input', { session_id, text: 'too late\n' });
    expect(late.isError).toBe(true);
    expect(late.data).toMatchObject({ next_step: expect.any(String) });
  });
});
