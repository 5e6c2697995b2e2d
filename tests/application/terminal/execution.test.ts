import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TerminalFixture } from './terminal-fixture';

describe('terminal_execute, terminal_read and terminal_input', () => {
  let fixture: TerminalFixture;

  beforeEach(() => {
    fixture = new TerminalFixture({ mode: 'inspect' });
  });

  afterEach(async () => {
    await fixture.dispose();
  });

  test('a one-shot terminal_execute {command} judges its command once; a planned one is judged again at execute time', async () => {
    const oneShot = await fixture.ok('terminal_execute', { command: 'echo hi' });
    expect(oneShot).toMatchObject({ status: 'succeeded', exit_code: 0 });
    expect(fixture.evaluations).toEqual(['echo hi']);

    const plan = await fixture.ok('terminal_plan', { command: 'echo again' });
    await fixture.ok('terminal_execute', { session_id: plan.session_id, plan_id: plan.id });
    expect(fixture.evaluations).toEqual(['echo hi', 'echo again', 'echo again']);
  });

  test('a one-shot terminal_execute {command} still refuses what the policy denies, and starts nothing', async () => {
    const refused = await fixture.call('terminal_execute', { command: 'rm -rf .' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ code: 'policy_denied' });
    expect(fixture.evaluations).toEqual(['rm -rf .']);
  });

  test('wait_seconds 0 starts in the background; terminal_read polls the output until it has finished', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'cat' });
    const started = await fixture.ok('terminal_execute', {
      session_id: plan.session_id,
      plan_id: plan.id,
      wait_seconds: 0,
      open_stdin: true,
    });
    expect(started).toEqual({
      status: 'running',
      session_id: plan.session_id,
      plan_id: plan.id,
      command_id: expect.any(String),
      command: 'cat',
      started_at: expect.any(String),
      stdin_open: true,
      next_step: expect.stringContaining('terminal_read'),
    });
    const session_id = plan.session_id;
    const empty = await fixture.ok('terminal_read', { session_id });
    expect(empty).toMatchObject({
      status: 'running',
      finished: false,
      command_id: started.command_id,
      plan_id: plan.id,
      exit_code: null,
    });
    expect(empty.stdout).toEqual({
      text: '',
      offset: 0,
      next_offset: 0,
      captured_bytes: 0,
      truncated: false,
      complete: false,
    });

    await fixture.ok('terminal_input', { session_id, text: 'first line\n' });
    const first = await fixture.ok('terminal_read', { session_id, wait_seconds: 5 });
    expect(first.stdout).toMatchObject({ text: 'first line\n', offset: 0, next_offset: 11 });

    const input = await fixture.ok('terminal_input', { session_id, text: 'second\n', close_stdin: true });
    expect(input).toEqual({ session_id, command_id: started.command_id, bytes_written: 7, stdin_closed: true });
    let text = '';
    let offset = 11;
    let read: Record<string, unknown> = { finished: false };
    for (let polls = 0; !read.finished && polls < 20; polls += 1) {
      read = await fixture.ok('terminal_read', { session_id, stdout_offset: offset, wait_seconds: 5 });
      const stdout = read.stdout as { text: string; next_offset: number };
      text += stdout.text;
      offset = stdout.next_offset;
    }
    expect(text).toBe('second\n');
    expect(read).toMatchObject({
      status: 'succeeded',
      exit_code: 0,
      signal: null,
      finished: true,
      output_truncated: false,
    });
    expect(read.stdout).toMatchObject({ next_offset: 18, captured_bytes: 18, complete: true });
    expect(read.stderr).toMatchObject({ text: '', complete: true });
    expect(read.next_step).toContain('terminal_receipt');

    const receipt = await fixture.ok('terminal_receipt', { session_id });
    expect(receipt).toMatchObject({
      status: 'succeeded',
      stdout: 'first line\nsecond\n',
      command_id: started.command_id,
    });
  });

  test('wait_seconds bounds the wait and returns the running command', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'cat' });
    const result = await fixture.ok('terminal_execute', {
      session_id: plan.session_id,
      plan_id: plan.id,
      wait_seconds: 0.2,
      open_stdin: true,
    });
    expect(result).toMatchObject({ status: 'running' });
    expect(await fixture.ok('terminal_cancel', { session_id: plan.session_id })).toEqual({ cancelled: true });
  });

  test('terminal_read reads in slices with max_bytes and by plan_id', async () => {
    const result = await fixture.ok('terminal_execute', { command: 'echo abcdefgh' });
    const slice = await fixture.ok('terminal_read', {
      session_id: result.session_id,
      plan_id: result.plan_id,
      max_bytes: 4,
    });
    expect(slice.stdout).toMatchObject({ text: 'abcd', next_offset: 4, captured_bytes: 9, complete: false });
    expect(slice.next_step).toContain('stdout_offset 4');
    const rest = await fixture.ok('terminal_read', {
      session_id: result.session_id,
      command_id: result.command_id,
      stdout_offset: 4,
    });
    expect(rest.stdout).toMatchObject({ text: 'efgh\n', complete: true });
  });

  test('terminal_read refuses an offset beyond the captured output', async () => {
    const result = await fixture.ok('terminal_execute', { command: 'echo hi' });
    const read = await fixture.call('terminal_read', { session_id: result.session_id, stdout_offset: 99 });
    expect(read.structuredContent).toMatchObject({ code: 'output_range_invalid' });
  });

  test('terminal_read before any command, and for a plan that never ran, says what to do', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'echo later' });
    const none = await fixture.call('terminal_read', { session_id: plan.session_id });
    expect(none.structuredContent).toMatchObject({
      code: 'no_command',
      next_step: expect.stringContaining('terminal_execute'),
    });
    const notStarted = await fixture.call('terminal_read', { session_id: plan.session_id, plan_id: plan.id });
    expect(notStarted.structuredContent).toMatchObject({ code: 'plan_not_started' });
  });

  test('terminal_input is refused when stdin was not opened', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'sleep 5' });
    await fixture.ok('terminal_approve', { session_id: plan.session_id, plan_id: plan.id });
    await fixture.ok('terminal_execute', { session_id: plan.session_id, plan_id: plan.id, wait_seconds: 0 });
    const input = await fixture.call('terminal_input', { session_id: plan.session_id, text: 'y\n' });
    expect(input.structuredContent).toMatchObject({ code: 'input_closed' });
  });

  test('terminal_input is refused once the command has ended', async () => {
    const session = await fixture.ok('terminal_plan', { command: 'pwd' });
    const result = await fixture.ok('terminal_execute', { command: 'echo done', session_id: session.session_id });
    const input = await fixture.call('terminal_input', { session_id: result.session_id, text: 'late\n' });
    expect(input.structuredContent).toMatchObject({ code: 'command_not_running' });
  });

  test('command plans and executes in one call, in a one-shot session that ends with its receipt', async () => {
    const result = await fixture.call('terminal_execute', { command: 'pwd' });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({
      status: 'succeeded',
      stdout: `${fixture.root}\n`,
      cwd: fixture.root,
    });
    const session_id = String(result.structuredContent.session_id);
    expect(fixture.store.find(session_id)).toBeUndefined();
    expect(fixture.store.list()).toEqual([]);
  });

  test("a finished one-shot session's receipt and output stay readable; other tools say it ended", async () => {
    const receipt = await fixture.ok('terminal_execute', { command: 'echo kept' });
    const { session_id, plan_id } = receipt;

    expect(await fixture.ok('terminal_receipt', { session_id })).toEqual(receipt);
    expect(await fixture.ok('terminal_receipt', { session_id, plan_id })).toEqual(receipt);
    const read = await fixture.ok('terminal_read', { session_id });
    expect(read).toMatchObject({
      status: 'succeeded',
      finished: true,
      exit_code: 0,
      stdout: { text: 'kept\n', complete: true },
    });
    const replan = await fixture.call('terminal_plan', { command: 'pwd', session_id });
    expect(replan.isError).toBe(true);
    expect(replan.structuredContent).toMatchObject({
      code: 'session_expired',
      details: { sessionId: session_id, reason: 'one_shot_finished' },
      next_step: 'Start a new session with terminal_plan (omit session_id) and use the session_id it returns.',
    });
    expect((await fixture.call('terminal_input', { session_id, text: 'x' })).structuredContent).toMatchObject({
      code: 'session_expired',
    });
  });

  test('a one-shot started with wait_seconds 0 stays live while it runs, then ends with its receipt', async () => {
    const started = await fixture.ok('terminal_execute', { command: 'echo later', wait_seconds: 0 });
    const session_id = String(started.session_id);
    expect(fixture.store.find(session_id)).toBeDefined();
    let stdout = '';
    let read: Record<string, unknown> = { finished: false };
    while (read.finished !== true) {
      // From the previous offsets, so each read waits for news instead of spinning.
      read = await fixture.ok('terminal_read', {
        session_id,
        wait_seconds: 10,
        stdout_offset: Buffer.byteLength(stdout),
      });
      stdout += (read.stdout as { text: string }).text;
    }
    expect(stdout).toBe('later\n');
    await waitUntil(() => fixture.store.find(session_id) === undefined);
    expect(await fixture.ok('terminal_receipt', { session_id })).toMatchObject({
      status: 'succeeded',
      stdout: 'later\n',
    });
  });

  test('a denied one-shot ends its session at once; one needing approval keeps it for the approval', async () => {
    const denied = await fixture.call('terminal_execute', { command: 'cat /etc/passwd' });
    const needsApproval = await fixture.call('terminal_execute', { command: 'sleep 1' });
    const deniedSession = String((denied.structuredContent.details as { sessionId: string }).sessionId);
    const approvalSession = String((needsApproval.structuredContent.details as { sessionId: string }).sessionId);
    expect(fixture.store.find(deniedSession)).toBeUndefined();
    expect(fixture.store.find(approvalSession)).toBeDefined();
  });

  test('command that needs approval is planned but not executed, and the error names the plan', async () => {
    const result = await fixture.call('terminal_execute', { command: 'sleep 1' });
    expect(result.structuredContent).toMatchObject({
      code: 'approval_required',
      details: { planId: expect.any(String), approvalId: expect.any(String) },
    });
  });

  test('command that is denied is refused with policy_denied', async () => {
    const result = await fixture.call('terminal_execute', { command: 'cat /etc/passwd' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      code: 'policy_denied',
      details: { reasons: ['path escapes the workspace: /etc/passwd'] },
      next_step: 'This command is denied by policy; do not retry variants of it. Ask the user.',
    });
  });

  test('the policy is judged again at execute time: a stricter verdict refuses with policy_changed', async () => {
    writeFileSync(path.join(fixture.root, 'notes.txt'), 'notes\n');
    const plan = await fixture.ok('terminal_plan', { command: 'cat notes.txt' });
    expect(plan.status).toBe('planned');
    rmSync(path.join(fixture.root, 'notes.txt'));
    symlinkSync('/etc/hostname', path.join(fixture.root, 'notes.txt'));
    const result = await fixture.call('terminal_execute', { session_id: plan.session_id, plan_id: plan.id });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      code: 'policy_changed',
      details: { planned: 'allow', now: 'deny' },
    });
    expect(result.structuredContent.next_step).toContain('terminal_plan');
  });

  test('a cancelled tool call cancels the command it is waiting for', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'cat' });
    const abort = new AbortController();
    const pending = fixture.call(
      'terminal_execute',
      { session_id: plan.session_id, plan_id: plan.id, open_stdin: true },
      { signal: abort.signal },
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    abort.abort();
    const result = await pending;
    expect(result.structuredContent).toMatchObject({ status: 'cancelled' });
  });

  test('arguments are strict: unknown keys, blank strings and conflicting forms are invalid arguments', async () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['terminal_plan', { command: 'ls', extra: 1 }],
      ['terminal_plan', { command: '   ' }],
      ['terminal_plan', {}],
      ['terminal_execute', { session_id: 's' }],
      ['terminal_execute', { session_id: 's', plan_id: 'p', command: 'ls' }],
      ['terminal_execute', { plan_id: 'p' }],
      ['terminal_execute', { session_id: 's', plan_id: 'p', cwd: 'x' }],
      ['terminal_input', { session_id: 's', text: '' }],
      ['terminal_read', { session_id: 's', stdout_offset: -1 }],
      ['terminal_sessions', { session_id: 's' }],
    ];
    for (const [tool, args] of cases) {
      const result = await fixture.call(tool, args);
      expect({ tool, args, content: result.structuredContent }).toMatchObject({
        tool,
        args,
        content: { code: 'invalid_arguments' },
      });
    }
  });
});

/** Polls a condition (bounded), for state that changes right after a tool call returns. */
async function waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
