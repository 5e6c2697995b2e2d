import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionEvent } from '../../../src/domain/execution/execution-types';
import { TerminalFixture } from './terminal-fixture';

describe('terminal_plan', () => {
  let fixture: TerminalFixture;

  beforeEach(() => {
    fixture = new TerminalFixture({ mode: 'confirm' });
  });

  afterEach(async () => {
    await fixture.dispose();
  });

  test('creates a session when session_id is omitted and returns the seed plan object', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'echo hello' });
    expect(plan).toEqual({
      schema_version: '1.0',
      id: expect.any(String),
      session_id: expect.any(String),
      command: 'echo hello',
      cwd: fixture.root,
      mode: 'confirm',
      status: 'planned',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      approved_at: null,
      policy: {
        allowed: true,
        risk: 'low',
        requires_approval: false,
        reasons: ['read-only command'],
        argv: ['/usr/bin/echo', 'hello'],
        verdict: 'allow',
        matched_rule: 'read_only_command',
      },
      limits: { timeout_seconds: 10, max_output_bytes: 1_048_576, max_processes_per_session: 1 },
      preview: {
        // The fixture's confinement (tests/support/sandbox.ts), reported as the server reports its own.
        confinement: {
          sandbox: 'bubblewrap',
          writable_roots: [fixture.root, '/tmp'],
          network: 'off',
          limits: { memory_bytes: 2 * 1024 ** 3, processes: 1024, file_size_bytes: 256 * 1024 ** 2, cpu_seconds: 120 },
        },
        executable: 'echo',
        files_potentially_touched: [],
        network_requested: false,
        executes_project_code: false,
        max_duration_seconds: 10,
        max_output_bytes: 1_048_576,
        risk: 'low',
      },
      next_step: expect.any(String),
    });
    // The next step names the arguments with this plan's values: its `id` is the plan_id to send.
    expect(plan.next_step).toBe(
      `Call terminal_execute with {"session_id": "${String(plan.session_id)}", "plan_id": "${String(plan.id)}"} to run it.`,
    );
    expect(fixture.store.find(String(plan.session_id))).toBeDefined();
  });

  test('plans `cd src && ls` in src, and answers a cd out of the workspace with a next step naming the cwd argument', async () => {
    mkdirSync(path.join(fixture.root, 'src'));
    const inside = await fixture.ok('terminal_plan', { command: 'cd src && ls' });
    expect(inside).toMatchObject({ status: 'planned', policy: { verdict: 'allow' } });
    const outside = await fixture.ok('terminal_plan', { command: 'cd .. && ls' });
    expect(outside).toMatchObject({ status: 'blocked', policy: { matched_rule: 'cd_outside_workspace' } });
    expect(outside.next_step).toContain('cwd argument');
  });

  test('plans in an existing session and keeps its id', async () => {
    const first = await fixture.ok('terminal_plan', { command: 'pwd' });
    const second = await fixture.ok('terminal_plan', { command: 'ls', session_id: first.session_id });
    expect(second.session_id).toBe(first.session_id);
    expect(second.id).not.toBe(first.id);
    expect(fixture.store.list()).toHaveLength(1);
  });

  test('issues an approval id with an expiry only when the command needs approval', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'touch note.txt' });
    expect(plan.policy).toMatchObject({ requires_approval: true, verdict: 'approval_required', risk: 'high' });
    expect(plan.approval_id).toMatch(/^apr_[A-Za-z0-9_-]{32}$/);
    const expiresAt = Date.parse(String(plan.approval_expires_at));
    expect(expiresAt - Date.parse(String(plan.created_at))).toBeGreaterThanOrEqual(599_000);
    expect(plan.preview).toMatchObject({ files_potentially_touched: ['note.txt'] });
    expect(plan.next_step).toContain('terminal_approve');
  });

  test('a denied command is a successful plan with status blocked and advice not to retry variants', async () => {
    const result = await fixture.call('terminal_plan', { command: 'cat /etc/passwd' });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({
      status: 'blocked',
      policy: { allowed: false, risk: 'blocked', requires_approval: false, argv: [], verdict: 'deny' },
      next_step: 'This command is denied by policy; do not retry variants of it. Ask the user.',
    });
    expect(result.structuredContent).not.toHaveProperty('approval_id');
  });

  test('resolves a relative cwd against the workspace root', async () => {
    mkdirSync(path.join(fixture.root, 'sub'));
    const plan = await fixture.ok('terminal_plan', { command: 'ls', cwd: 'sub' });
    expect(plan.cwd).toBe(path.join(fixture.root, 'sub'));
  });

  test('refuses a cwd outside the workspace without creating a session', async () => {
    const result = await fixture.call('terminal_plan', { command: 'ls', cwd: '../' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'path_outside_workspace' });
    expect(fixture.store.list()).toHaveLength(0);
  });

  test('refuses a cwd that is a file', async () => {
    writeFileSync(path.join(fixture.root, 'file.txt'), 'x');
    const result = await fixture.call('terminal_plan', { command: 'ls', cwd: 'file.txt' });
    expect(result.structuredContent).toMatchObject({
      code: 'invalid_argument',
      message: 'Working directory is not a directory: file.txt',
    });
  });

  test('uses timeout_seconds and refuses one above the configured maximum', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'ls', timeout_seconds: 2.5 });
    expect(plan.limits).toMatchObject({ timeout_seconds: 2.5 });
    const tooLong = await fixture.call('terminal_plan', { command: 'ls', timeout_seconds: 61 });
    expect(tooLong.isError).toBe(true);
    expect(tooLong.structuredContent).toMatchObject({ code: 'invalid_arguments' });
  });

  test('an unknown session is refused with the seed message', async () => {
    const result = await fixture.call('terminal_plan', { command: 'ls', session_id: 'nope' });
    expect(result.structuredContent).toMatchObject({
      code: 'session_not_found',
      message: 'unknown or expired session',
    });
    expect(result.structuredContent.next_step).toEqual(expect.any(String));
  });

  test('publishes policy_decision and plan events of the session through TerminalEvents', async () => {
    const first = await fixture.ok('terminal_plan', { command: 'pwd' });
    const events: ExecutionEvent[] = [];
    fixture.events.subscribe(String(first.session_id), (event) => events.push(event));
    const plan = await fixture.ok('terminal_plan', { command: 'cat /etc/passwd', session_id: first.session_id });
    expect(events.map((event) => event.type)).toEqual(['policy_decision', 'plan']);
    expect(events[0]).toMatchObject({
      verdict: 'deny',
      command: 'cat /etc/passwd',
      reasons: ['path escapes the workspace: /etc/passwd'],
    });
    expect(events[1]).toMatchObject({ planId: plan.id });
  });
});
