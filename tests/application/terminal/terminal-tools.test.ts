import { TerminalFixture } from './terminal-fixture';

const SEED_TOOLS = [
  [
    'terminal_plan',
    'Plan a bounded terminal command',
    'Validate a command against the workspace policy and create a non-executing plan.',
    ['command'],
    { readOnlyHint: true, destructiveHint: false },
  ],
  [
    'terminal_approve',
    'Approve a terminal plan',
    'Explicitly approve a plan that requires confirmation.',
    ['session_id', 'plan_id'],
    { readOnlyHint: false, destructiveHint: true },
  ],
  [
    'terminal_execute',
    'Execute an approved terminal plan',
    'Execute an allowed plan and return a signed receipt.',
    [],
    { readOnlyHint: false, destructiveHint: true },
  ],
  [
    'terminal_retry',
    'Create a controlled retry plan',
    'Create a fresh non-executing plan from an earlier command. The new plan must pass policy and approval again.',
    ['session_id', 'plan_id'],
    { readOnlyHint: true, destructiveHint: false },
  ],
  [
    'terminal_pause',
    'Pause the active command',
    'Pause the active process group for one execution session.',
    ['session_id'],
    { readOnlyHint: false, destructiveHint: false },
  ],
  [
    'terminal_resume',
    'Resume the paused command',
    'Resume a paused process group for one execution session.',
    ['session_id'],
    { readOnlyHint: false, destructiveHint: false },
  ],
  [
    'terminal_cancel',
    'Cancel the active command',
    'Cancel the active command for one session.',
    ['session_id'],
    { readOnlyHint: false, destructiveHint: true },
  ],
  [
    'terminal_receipt',
    'Read the latest signed receipt',
    'Read the latest execution receipt for one session.',
    ['session_id'],
    { readOnlyHint: true, destructiveHint: false },
  ],
] as const;

describe('terminal tool catalog', () => {
  let fixture: TerminalFixture;

  beforeAll(() => {
    fixture = new TerminalFixture();
  });

  afterAll(async () => {
    await fixture.dispose();
  });

  test('lists the seed tools first, then ours, in a fixed order', () => {
    expect(fixture.catalog.list().map((tool) => tool.name)).toEqual([
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
    ]);
  });

  test.each(SEED_TOOLS)(
    '%s keeps the seed title, description and required inputs',
    (name, title, description, required, hints) => {
      const tool = fixture.catalog.list().find((candidate) => candidate.name === name);
      expect(tool).toMatchObject({ title, description, outputSchema: { type: 'object' } });
      // The title is the tool's own (2025-06-18 on), not repeated in the hints.
      expect(tool?.annotations).toEqual(hints);
      expect(tool?.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect((tool?.inputSchema.required as string[] | undefined) ?? []).toEqual(required);
    },
  );

  test('every input and output schema has an object root', () => {
    for (const tool of fixture.catalog.list()) {
      expect({ name: tool.name, input: tool.inputSchema.type, output: tool.outputSchema.type }).toEqual({
        name: tool.name,
        input: 'object',
        output: 'object',
      });
    }
  });

  test('the plan timeout is bounded by the configured maximum in the schema', () => {
    const plan = fixture.catalog.list().find((tool) => tool.name === 'terminal_plan');
    expect((plan?.inputSchema.properties as Record<string, Record<string, unknown>>).timeout_seconds).toMatchObject({
      type: 'number',
      maximum: 60,
    });
  });
});
