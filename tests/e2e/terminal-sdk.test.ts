import type { Client } from '@modelcontextprotocol/client';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { callTool as call, callToolOk as ok, connectSdkOverStdio, type Era } from '../support/sdk-client';
import { makeTempWorkspace } from '../support/workspace';

/**
 * The terminal tools through the official MCP TypeScript SDK client against the built `term-mcp stdio`, in both
 * protocol eras. The client validates every successful structured result against the tool's outputSchema.
 */

const TOOL_ORDER = [
  'terminal_plan',
  'terminal_approve',
  'terminal_execute',
  'terminal_retry',
  'terminal_pause',
  'terminal_resume',
  'terminal_cancel',
  'terminal_receipt',
  'terminal_read',
  'terminal_input',
  'terminal_session_close',
  'terminal_sessions',
  'terminal_open',
  'terminal_screen',
];

describe.each<Era>(['legacy', 'modern'])('terminal tools over stdio with the official SDK (%s era)', (era) => {
  describe('inspect mode', () => {
    let workspace: ReturnType<typeof makeTempWorkspace>;
    let client: Client;

    beforeAll(async () => {
      workspace = makeTempWorkspace();
      writeFileSync(path.join(workspace.root, 'hello.txt'), 'hello\n');
      ({ client } = await connectSdkOverStdio(era, { WORKSPACE_ROOT: workspace.root }));
    });

    afterAll(async () => {
      await client.close();
      workspace.remove();
    });

    test('tools/list has the fourteen terminal tools in order, each with input and output schemas', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(TOOL_ORDER);
      for (const tool of tools) {
        expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
        expect(tool.outputSchema).toMatchObject({ type: 'object' });
        expect(tool.annotations).toMatchObject({
          readOnlyHint: expect.any(Boolean),
          destructiveHint: expect.any(Boolean),
        });
      }
    });

    test('plan -> execute -> read for ls', async () => {
      const plan = await ok(client, 'terminal_plan', { command: 'ls' });
      expect(plan).toMatchObject({ status: 'planned', policy: { verdict: 'allow' } });
      const receipt = await ok(client, 'terminal_execute', { session_id: plan.session_id, plan_id: plan.id });
      expect(receipt).toMatchObject({
        status: 'succeeded',
        stdout: 'hello.txt\n',
        signature: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      const read = await ok(client, 'terminal_read', { session_id: plan.session_id });
      expect(read).toMatchObject({
        status: 'succeeded',
        finished: true,
        stdout: { text: 'hello.txt\n', complete: true },
      });
    });

    test('echo hello in the background (wait_seconds 0), polled with terminal_read', async () => {
      const started = await ok(client, 'terminal_execute', { command: 'echo hello', wait_seconds: 0 });
      expect(started).toMatchObject({ status: 'running', command_id: expect.any(String) });
      // Each poll reads from where the last one stopped, so it long-polls for the end instead of returning at once.
      const selector = { session_id: started.session_id, command_id: started.command_id, wait_seconds: 5 };
      let read = await ok(client, 'terminal_read', selector);
      let text = '';
      for (let polls = 0; polls < 20; polls += 1) {
        const stdout = read.stdout as { text: string; next_offset: number };
        text += stdout.text;
        if (read.finished) break;
        read = await ok(client, 'terminal_read', { ...selector, stdout_offset: stdout.next_offset });
      }
      expect(text).toBe('hello\n');
      expect(read).toMatchObject({ status: 'succeeded', exit_code: 0, finished: true });
      const receipt = await ok(client, 'terminal_receipt', { session_id: started.session_id });
      expect(receipt).toMatchObject({ status: 'succeeded', stdout: 'hello\n', command_id: started.command_id });
    });

    test.each(['cat /etc/passwd', 'ls; rm -rf /'])(
      '%s plans as blocked, and executing it is an actionable tool error',
      async (command) => {
        const planned = await call(client, 'terminal_plan', { command });
        expect(planned.isError).toBe(false);
        expect(planned.data).toMatchObject({ status: 'blocked', policy: { allowed: false, verdict: 'deny' } });
        const executed = await call(client, 'terminal_execute', {
          session_id: planned.data.session_id,
          plan_id: planned.data.id,
        });
        expect(executed.isError).toBe(true);
        expect(executed.data).toMatchObject({
          code: 'plan_blocked',
          message: 'blocked plans cannot be executed',
          next_step: expect.stringContaining('do not retry'),
        });
      },
    );

    test('sleep 5 needs approval, then pauses, resumes and is cancelled', async () => {
      const plan = await ok(client, 'terminal_plan', { command: 'sleep 5' });
      expect(plan).toMatchObject({ policy: { requires_approval: true }, approval_id: expect.any(String) });
      const session_id = plan.session_id;
      await ok(client, 'terminal_approve', { session_id, plan_id: plan.id });
      const execution = call(client, 'terminal_execute', { session_id, plan_id: plan.id });
      let sessions = await ok(client, 'terminal_sessions', {});
      for (let polls = 0; !runningIn(sessions, session_id) && polls < 100; polls += 1)
        sessions = await ok(client, 'terminal_sessions', {});
      expect(await ok(client, 'terminal_pause', { session_id })).toEqual({ paused: true });
      expect(await ok(client, 'terminal_resume', { session_id })).toEqual({ resumed: true });
      expect(await ok(client, 'terminal_cancel', { session_id })).toEqual({ cancelled: true });
      const result = await execution;
      expect(result.isError).toBe(true);
      expect(result.data).toMatchObject({ status: 'cancelled', plan_id: plan.id });
      expect(await ok(client, 'terminal_receipt', { session_id })).toMatchObject({ status: 'cancelled' });
      expect(await ok(client, 'terminal_cancel', { session_id })).toEqual({ cancelled: false });
    });

    test('an unknown tool is a JSON-RPC -32602 error', async () => {
      await expect(client.callTool({ name: 'terminal_nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    });

    test('unknown argument keys are an actionable tool error', async () => {
      const result = await call(client, 'terminal_plan', { command: 'ls', shell: true });
      expect(result.isError).toBe(true);
      expect(result.data).toMatchObject({ code: 'invalid_arguments', next_step: expect.any(String) });
    });
  });

  describe('confirm mode', () => {
    let workspace: ReturnType<typeof makeTempWorkspace>;
    let client: Client;

    beforeAll(async () => {
      workspace = makeTempWorkspace();
      ({ client } = await connectSdkOverStdio(era, { WORKSPACE_ROOT: workspace.root, APPROVAL_MODE: 'confirm' }));
    });

    afterAll(async () => {
      await client.close();
      workspace.remove();
    });

    test('plan -> approve -> execute for touch note.txt, with every refused transition', async () => {
      const plan = await ok(client, 'terminal_plan', { command: 'touch note.txt' });
      expect(plan).toMatchObject({
        status: 'planned',
        mode: 'confirm',
        policy: { requires_approval: true, risk: 'high' },
      });
      const session_id = plan.session_id;

      const early = await call(client, 'terminal_execute', { session_id, plan_id: plan.id });
      expect(early).toMatchObject({
        isError: true,
        data: { code: 'approval_required', message: 'plan requires explicit approval' },
      });
      expect(existsSync(path.join(workspace.root, 'note.txt'))).toBe(false);

      expect(await ok(client, 'terminal_approve', { session_id, plan_id: plan.id })).toMatchObject({
        status: 'approved',
      });
      const twice = await call(client, 'terminal_approve', { session_id, plan_id: plan.id });
      expect(twice).toMatchObject({
        isError: true,
        data: { code: 'invalid_plan_transition', message: 'plan cannot be approved from approved' },
      });

      const receipt = await ok(client, 'terminal_execute', { session_id, plan_id: plan.id });
      expect(receipt).toMatchObject({ status: 'succeeded', approved: true, risk: 'high', mode: 'confirm' });
      expect(existsSync(path.join(workspace.root, 'note.txt'))).toBe(true);

      const again = await call(client, 'terminal_execute', { session_id, plan_id: plan.id });
      expect(again).toMatchObject({
        isError: true,
        data: { message: 'plan cannot execute from succeeded', next_step: expect.stringContaining('terminal_retry') },
      });

      const retried = await ok(client, 'terminal_retry', { session_id, plan_id: plan.id });
      expect(retried).toMatchObject({ status: 'planned', command: 'touch note.txt', approval_id: expect.any(String) });
      expect(retried.id).not.toBe(plan.id);

      expect(await ok(client, 'terminal_receipt', { session_id })).toEqual(receipt);
      const sessions = await ok(client, 'terminal_sessions', {});
      expect(sessions.sessions).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            session_id,
            plans: expect.objectContaining({ succeeded: 1, planned: 1 }),
            receipts: 1,
          }),
        ]),
      );
      expect(await ok(client, 'terminal_session_close', { session_id })).toEqual({ session_id, closed: true });
      const closed = await call(client, 'terminal_receipt', { session_id });
      expect(closed).toMatchObject({
        isError: true,
        data: { code: 'session_not_found', message: 'unknown or expired session' },
      });
    });

    test('a plan of another session and a missing session are actionable tool errors', async () => {
      const first = await ok(client, 'terminal_plan', { command: 'echo one' });
      const second = await ok(client, 'terminal_plan', { command: 'echo two' });
      const crossed = await call(client, 'terminal_execute', { session_id: second.session_id, plan_id: first.id });
      expect(crossed).toMatchObject({
        isError: true,
        data: {
          code: 'plan_not_found',
          message: 'plan does not belong to this session',
          next_step: expect.any(String),
        },
      });
      const missing = await call(client, 'terminal_pause', { session_id: 'no-such-session' });
      expect(missing).toMatchObject({
        isError: true,
        data: { code: 'session_not_found', next_step: expect.any(String) },
      });
    });
  });
});

function runningIn(listing: Record<string, unknown>, sessionId: unknown): boolean {
  const sessions = listing.sessions as Array<{ session_id: string; running_command: { status: string } | null }>;
  return sessions.some((session) => session.session_id === sessionId && session.running_command?.status === 'running');
}
