import { toolErrorResult, type CallToolResult } from '../../../src/application/tools/tool-catalog';
import { outputSchemaProblem } from '../../support/output-schema-check';
import { TerminalFixture } from './terminal-fixture';

/**
 * 2025-11-25 server/tools: "If an output schema is provided: Servers MUST provide structured results that conform to
 * this schema." Every result shape each terminal tool can produce (each success variant and each kind of refusal) is
 * produced for real here and checked against the tool's full output contract (ToolCatalog.outputContract) and the
 * compact schema tools/list declares, with the ajv validator that
 * `@modelcontextprotocol/sdk` 1.x clients run (the fixture also checks every call it makes).
 */
describe('every terminal tool result conforms to the declared outputSchema', () => {
  let fixture: TerminalFixture;
  const seen: Array<{ tool: string; kind: string }> = [];

  // A fresh fixture per test: each starts with an empty session registry.
  beforeEach(() => {
    fixture = new TerminalFixture({ mode: 'confirm', defaultTimeoutSeconds: 30 });
  });

  afterEach(async () => {
    await fixture.dispose();
  });

  /** Calls a tool, checks the result against the declared schema, and records what kind of result it was. */
  async function produce(
    tool: string,
    args: Record<string, unknown>,
    expected: { isError: boolean; code?: string },
  ): Promise<Record<string, unknown>> {
    const result: CallToolResult = await fixture.call(tool, args);
    expect(outputSchemaProblem(fixture.contract(tool), result.structuredContent)).toBeUndefined();
    expect(outputSchemaProblem(fixture.descriptor(tool).outputSchema, result.structuredContent)).toBeUndefined();
    expect({ tool, isError: result.isError }).toEqual({ tool, isError: expected.isError });
    if (expected.code !== undefined) {
      expect(result.structuredContent).toMatchObject({ code: expected.code, message: expect.any(String) });
      expect(result.content[0]?.text).toContain(`Error ${expected.code}: ${String(result.structuredContent.message)}`);
      if (typeof result.structuredContent.next_step === 'string')
        expect(result.content[0]?.text).toContain(`Next step: ${result.structuredContent.next_step}`);
    }
    seen.push({ tool, kind: expected.code ?? (expected.isError ? 'failed-payload' : 'success') });
    return result.structuredContent;
  }

  async function approvedLongCommand(sessionId: unknown): Promise<{ session_id: unknown; plan_id: unknown }> {
    const plan = await produce('terminal_plan', { command: 'sleep 20', session_id: sessionId }, { isError: false });
    await produce('terminal_approve', { session_id: plan.session_id, plan_id: plan.id }, { isError: false });
    return { session_id: plan.session_id, plan_id: plan.id };
  }

  test('terminal_plan: planned, needing approval, blocked; invalid arguments; unknown session', async () => {
    await produce('terminal_plan', { command: 'pwd' }, { isError: false });
    await produce('terminal_plan', { command: 'touch made.txt' }, { isError: false });
    expect(await produce('terminal_plan', { command: 'cat /etc/passwd' }, { isError: false })).toMatchObject({
      status: 'blocked',
    });
    await produce('terminal_plan', {}, { isError: true, code: 'invalid_arguments' });
    await produce(
      'terminal_plan',
      { command: 'pwd', session_id: 'no-such-session' },
      { isError: true, code: 'session_not_found' },
    );
  });

  test('terminal_approve: approved; mismatch; unknown plan; blocked plan', async () => {
    const first = await produce('terminal_plan', { command: 'touch a.txt' }, { isError: false });
    const second = await produce(
      'terminal_plan',
      { command: 'touch b.txt', session_id: first.session_id },
      { isError: false },
    );
    await produce(
      'terminal_approve',
      { session_id: second.session_id, plan_id: second.id, approval_id: first.approval_id },
      { isError: true, code: 'approval_mismatch' },
    );
    await produce('terminal_approve', { session_id: first.session_id, plan_id: first.id }, { isError: false });
    await produce(
      'terminal_approve',
      { session_id: first.session_id, plan_id: 'no-such-plan' },
      { isError: true, code: 'plan_not_found' },
    );
    const blocked = await produce(
      'terminal_plan',
      { command: 'cat /etc/passwd', session_id: first.session_id },
      { isError: false },
    );
    await produce(
      'terminal_approve',
      { session_id: first.session_id, plan_id: blocked.id },
      { isError: true, code: 'plan_blocked' },
    );
  });

  test('terminal_execute: receipts (succeeded, failed), running; denied, approval required, invalid arguments', async () => {
    const oneShot = await produce('terminal_execute', { command: 'pwd' }, { isError: false });
    expect(oneShot).toMatchObject({ status: 'succeeded' });
    // A one-shot session ends with its command: planning in it again is refused, its receipt stays readable.
    await produce(
      'terminal_plan',
      { command: 'pwd', session_id: oneShot.session_id },
      { isError: true, code: 'session_expired' },
    );
    const opened = await produce('terminal_plan', { command: 'pwd' }, { isError: false });
    const session_id = opened.session_id;
    expect(await produce('terminal_execute', { command: 'pwd', session_id }, { isError: false })).toMatchObject({
      status: 'succeeded',
    });
    const failed = await produce('terminal_plan', { command: 'ls no-such-file', session_id }, { isError: false });
    if (failed.status !== 'planned')
      await produce('terminal_approve', { session_id: failed.session_id, plan_id: failed.id }, { isError: false });
    expect(
      await produce('terminal_execute', { session_id: failed.session_id, plan_id: failed.id }, { isError: true }),
    ).toMatchObject({ status: 'failed' });
    const long = await approvedLongCommand(session_id);
    expect(await produce('terminal_execute', { ...long, wait_seconds: 0 }, { isError: false })).toMatchObject({
      status: 'running',
    });
    await produce('terminal_cancel', { session_id: long.session_id }, { isError: false });
    await produce(
      'terminal_execute',
      { command: 'cat /etc/passwd', session_id },
      { isError: true, code: 'policy_denied' },
    );
    await produce(
      'terminal_execute',
      { command: 'touch c.txt', session_id },
      { isError: true, code: 'approval_required' },
    );
    await produce('terminal_execute', { plan_id: 'p' }, { isError: true, code: 'invalid_arguments' });
    await produce(
      'terminal_execute',
      { session_id: 'no-such-session', plan_id: 'p' },
      { isError: true, code: 'session_not_found' },
    );
  });

  test('terminal_retry, terminal_receipt: success shapes and refusals', async () => {
    const opened = await produce('terminal_plan', { command: 'pwd' }, { isError: false });
    const executed = await produce(
      'terminal_execute',
      { command: 'pwd', session_id: opened.session_id },
      { isError: false },
    );
    await produce('terminal_retry', { session_id: executed.session_id, plan_id: executed.plan_id }, { isError: false });
    await produce(
      'terminal_retry',
      { session_id: executed.session_id, plan_id: 'no-such-plan' },
      { isError: true, code: 'plan_not_found' },
    );
    await produce('terminal_receipt', { session_id: executed.session_id }, { isError: false });
    const fresh = await produce('terminal_plan', { command: 'touch x.txt' }, { isError: false });
    expect(await produce('terminal_receipt', { session_id: fresh.session_id }, { isError: false })).toEqual({
      receipt: null,
    });
    await produce('terminal_receipt', { session_id: 'no-such-session' }, { isError: true, code: 'session_not_found' });
  });

  test('terminal_pause, terminal_resume, terminal_read, terminal_input, terminal_cancel on a running command, and their refusals', async () => {
    const plan = await produce('terminal_plan', { command: 'cat' }, { isError: false });
    if (plan.status !== 'planned')
      await produce('terminal_approve', { session_id: plan.session_id, plan_id: plan.id }, { isError: false });
    const running = await produce(
      'terminal_execute',
      { session_id: plan.session_id, plan_id: plan.id, wait_seconds: 0, open_stdin: true },
      { isError: false },
    );
    const target = { session_id: running.session_id, command_id: running.command_id };
    await produce('terminal_input', { ...target, text: 'hello\n' }, { isError: false });
    await produce('terminal_read', { ...target, wait_seconds: 5 }, { isError: false });
    await produce('terminal_pause', target, { isError: false });
    await produce('terminal_resume', target, { isError: false });
    await produce(
      'terminal_read',
      { session_id: running.session_id, command_id: 'no-such-command' },
      { isError: true, code: 'command_not_found' },
    );
    await produce('terminal_input', { ...target, text: '' }, { isError: true, code: 'invalid_arguments' });
    await produce('terminal_cancel', target, { isError: false });
    await produce('terminal_input', { ...target, text: 'late\n' }, { isError: true, code: 'command_not_running' });
    await produce('terminal_pause', { session_id: 'no-such-session' }, { isError: true, code: 'session_not_found' });
    await produce('terminal_resume', { session_id: 'no-such-session' }, { isError: true, code: 'session_not_found' });
    await produce('terminal_cancel', { session_id: 'no-such-session' }, { isError: true, code: 'session_not_found' });
  });

  test('terminal_open and terminal_screen: approval required, opened, typed, ended; refusals', async () => {
    const refused = await produce('terminal_open', { command: 'cat' }, { isError: true, code: 'approval_required' });
    const { sessionId, planId } = refused.details as { sessionId: string; planId: string };
    await produce('terminal_approve', { session_id: sessionId, plan_id: planId }, { isError: false });
    await produce(
      'terminal_open',
      { session_id: sessionId, plan_id: planId, cols: 40 },
      { isError: true, code: 'invalid_arguments' },
    );
    const opened = await produce(
      'terminal_open',
      { session_id: sessionId, plan_id: planId, wait: { timeout_ms: 0 } },
      { isError: false },
    );
    const target = { session_id: opened.session_id, command_id: opened.command_id };
    const typed = await produce(
      'terminal_screen',
      { ...target, keys: [{ text: 'hi' }, { key: 'enter' }], wait: { pattern: '^hi\\nhi$', timeout_ms: 20_000 } },
      { isError: false },
    );
    expect(typed).toMatchObject({ waited: 'pattern', screen: { cols: 120, rows: 40 } });
    await produce(
      'terminal_screen',
      { ...target, wait: { pattern: '(', timeout_ms: 0 } },
      { isError: true, code: 'invalid_argument' },
    );
    await produce(
      'terminal_screen',
      { ...target, keys: [{ key: 'f13' }] },
      { isError: true, code: 'invalid_arguments' },
    );
    expect(
      await produce(
        'terminal_screen',
        { ...target, keys: [{ key: 'ctrl_d' }], wait: { exit: true, timeout_ms: 20_000 } },
        { isError: false },
      ),
    ).toMatchObject({ finished: true });
    await produce('terminal_open', { plan_id: planId }, { isError: true, code: 'invalid_arguments' });
    const piped = await produce('terminal_execute', { command: 'pwd', session_id: sessionId }, { isError: false });
    await produce(
      'terminal_screen',
      { session_id: sessionId, command_id: piped.command_id },
      { isError: true, code: 'invalid_argument' },
    );
  });

  test('terminal_sessions and terminal_session_close: success shapes and refusals', async () => {
    await produce('terminal_sessions', {}, { isError: false });
    await produce('terminal_sessions', { extra: true }, { isError: true, code: 'invalid_arguments' });
    const plan = await produce('terminal_plan', { command: 'pwd' }, { isError: false });
    await produce('terminal_session_close', { session_id: plan.session_id }, { isError: false });
    await produce(
      'terminal_session_close',
      { session_id: plan.session_id },
      { isError: true, code: 'session_not_found' },
    );
  });

  test('every tool was exercised with at least one success and one refusal', () => {
    for (const { name } of fixture.catalog.list()) {
      const kinds = seen.filter((entry) => entry.tool === name).map((entry) => entry.kind);
      expect({
        name,
        success: kinds.includes('success'),
        refusal: kinds.some((kind) => kind !== 'success' && kind !== 'failed-payload'),
      }).toEqual({
        name,
        success: true,
        refusal: true,
      });
    }
  });

  test('any refusal the catalog can build (every code, with or without a next step, any details) conforms for every tool', () => {
    const refusals = [
      toolErrorResult('policy_denied', 'denied', 'Ask the user.', { reasons: ['x'], nested: { a: [1, null] } }),
      toolErrorResult('session_limit_reached', 'full', undefined, {}),
    ];
    for (const tool of fixture.catalog.list()) {
      for (const refusal of refusals)
        expect({ tool: tool.name, problem: outputSchemaProblem(tool.outputSchema, refusal.structuredContent) }).toEqual(
          { tool: tool.name, problem: undefined },
        );
    }
  });
});
