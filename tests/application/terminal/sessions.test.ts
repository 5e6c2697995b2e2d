import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { TerminalFixture } from './terminal-fixture';

describe('terminal_sessions and terminal_session_close', () => {
  let fixture: TerminalFixture;

  beforeEach(() => {
    fixture = new TerminalFixture({ mode: 'confirm' });
  });

  afterEach(async () => {
    await fixture.dispose();
  });

  test('lists each session with its cwd, running command and plan counts', async () => {
    const plan = await fixture.ok('terminal_plan', { command: 'cat' });
    const session_id = plan.session_id;
    await fixture.ok('terminal_plan', { command: 'ls; rm -rf /', session_id });
    await fixture.ok('terminal_plan', { command: 'touch a.txt', session_id });
    await fixture.ok('terminal_execute', { command: 'echo done', session_id });
    const started = await fixture.ok('terminal_execute', {
      session_id,
      plan_id: plan.id,
      wait_seconds: 0,
      open_stdin: true,
    });
    const { sessions } = await fixture.ok('terminal_sessions', {});
    expect(sessions).toEqual([
      {
        session_id,
        cwd: fixture.root,
        created_at: expect.any(String),
        last_activity_at: expect.any(String),
        running_command: {
          command_id: started.command_id,
          plan_id: plan.id,
          command: 'cat',
          status: 'running',
          started_at: expect.any(String),
        },
        plans: {
          planned: 1,
          blocked: 1,
          approved: 0,
          running: 1,
          paused: 0,
          succeeded: 1,
          failed: 0,
          cancelled: 0,
          timed_out: 0,
        },
        receipts: 1,
      },
    ]);
  });

  test('an idle session has no running command', async () => {
    await fixture.ok('terminal_plan', { command: 'pwd' });
    const { sessions } = await fixture.ok('terminal_sessions', {});
    expect(sessions).toEqual([expect.objectContaining({ running_command: null, receipts: 0 })]);
  });

  test('lists only the sessions of the calling principal', async () => {
    const alice = await fixture.ok('terminal_plan', { command: 'pwd' }, { principal: 'alice' });
    await fixture.ok('terminal_plan', { command: 'pwd' }, { principal: 'bob' });
    await fixture.ok('terminal_plan', { command: 'pwd' });
    const listed = await fixture.ok('terminal_sessions', {}, { principal: 'alice' });
    expect((listed.sessions as Array<{ session_id: string }>).map((session) => session.session_id)).toEqual([
      alice.session_id,
    ]);
    const local = await fixture.ok('terminal_sessions', {});
    expect(local.sessions).toHaveLength(1);
  });

  test('closing a session kills its running command and forgets it', async () => {
    mkdirSync(path.join(fixture.root, 'sub'));
    const plan = await fixture.ok('terminal_plan', { command: 'sleep 5', cwd: 'sub' });
    await fixture.ok('terminal_approve', { session_id: plan.session_id, plan_id: plan.id });
    await fixture.ok('terminal_execute', { session_id: plan.session_id, plan_id: plan.id, wait_seconds: 0 });
    const command = fixture.store.get(String(plan.session_id)).execution.commands()[0];
    expect(await fixture.ok('terminal_session_close', { session_id: plan.session_id })).toEqual({
      session_id: plan.session_id,
      closed: true,
    });
    expect(command?.outcome().status).toBe('cancelled');
    expect((await fixture.ok('terminal_sessions', {})).sessions).toEqual([]);
    const again = await fixture.call('terminal_session_close', { session_id: plan.session_id });
    expect(again.structuredContent).toMatchObject({ code: 'session_not_found' });
  });

  test("pages through the caller's sessions with an opaque cursor, oldest first", async () => {
    const paged = new TerminalFixture({ maxSessions: 10, pageSize: 2 });
    try {
      const ids: unknown[] = [];
      for (let index = 0; index < 5; index += 1)
        ids.push((await paged.ok('terminal_plan', { command: 'pwd' }, { principal: 'alice' })).session_id);
      await paged.ok('terminal_plan', { command: 'pwd' }, { principal: 'bob' });

      const first = await paged.ok('terminal_sessions', {}, { principal: 'alice' });
      expect(first.next_cursor).toEqual(expect.any(String));
      // A session ending between two pages does not invalidate the cursor.
      await paged.ok('terminal_session_close', { session_id: ids[2] });
      const second = await paged.ok('terminal_sessions', { cursor: first.next_cursor }, { principal: 'alice' });

      const idsOf = (page: Record<string, unknown>): unknown[] =>
        (page.sessions as Array<{ session_id: string }>).map((session) => session.session_id);
      expect(idsOf(first)).toEqual([ids[0], ids[1]]);
      expect(idsOf(second)).toEqual([ids[3], ids[4]]);
      expect(second.next_cursor).toBeUndefined();
    } finally {
      await paged.dispose();
    }
  });

  test('refuses a cursor it did not mint with invalid_cursor', async () => {
    const result = await fixture.call('terminal_sessions', { cursor: 'not-a-cursor' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'invalid_cursor' });
  });
});
