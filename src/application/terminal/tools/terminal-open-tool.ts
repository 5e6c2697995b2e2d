import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../tools/tool-definition.js';
import { nonEmptyString } from '../terminal-input-fields.js';
import type { TerminalToolkit } from '../terminal-toolkit.js';
import {
  screenResultSchema,
  screenView,
  terminalSizeFields,
  waitCondition,
  waitField,
} from '../interactive/terminal-screen-fields.js';

const DEFAULT_SIZE = { cols: 120, rows: 40 };
/** The first screen usually is a prompt: wait for the program to settle, briefly. */
const DEFAULT_OPEN_WAIT = { quiet_ms: 300, timeout_ms: 5000 };

export function terminalOpenTool({
  execution,
  terminals,
  settings,
}: Pick<TerminalToolkit, 'execution' | 'terminals' | 'settings'>): ToolDefinition {
  const input = z
    .object({
      command: nonEmptyString('Program to run (python3, bash, less f, vim f).').optional(),
      session_id: nonEmptyString("Session to open it in (with plan_id: the plan's).").optional(),
      plan_id: nonEmptyString('An approved terminal plan (instead of command).').optional(),
      cwd: nonEmptyString('Working directory in the workspace.').optional(),
      ...terminalSizeFields,
      timeout_seconds: z
        .number()
        .positive()
        .max(settings.maxTimeoutSeconds)
        .optional()
        .describe(`Closed after (default ${String(settings.maxTimeoutSeconds)}).`),
      wait: waitField.optional(),
    })
    .strict()
    .refine((args) => (args.plan_id === undefined) !== (args.command === undefined), {
      message: 'give either command or plan_id (with session_id)',
      path: ['plan_id'],
    })
    .refine((args) => args.plan_id === undefined || args.session_id !== undefined, {
      message: 'plan_id needs its session_id',
      path: ['session_id'],
    })
    .refine(
      (args) =>
        args.plan_id === undefined ||
        [args.cwd, args.cols, args.rows, args.timeout_seconds].every((field) => field === undefined),
      {
        message: 'cwd, cols, rows and timeout_seconds belong to the plan; they are only accepted with command',
        path: ['plan_id'],
      },
    );
  return defineTool({
    name: 'terminal_open',
    title: 'Open a terminal session',
    description:
      'Run an interactive program on a terminal inside the sandbox and return its screen; type with terminal_screen. Needs approval except in sandboxed mode.',
    input,
    output: screenResultSchema,
    annotations: { readOnlyHint: false, destructiveHint: true },
    async call(args, context) {
      const options = { waitSeconds: 0, signal: context.signal };
      const result =
        args.plan_id !== undefined && args.session_id !== undefined
          ? await execution.execute(args.session_id, args.plan_id, options)
          : await execution.planAndExecute(
              {
                sessionId: args.session_id,
                command: args.command ?? '',
                cwd: args.cwd,
                timeoutSeconds: args.timeout_seconds ?? settings.maxTimeoutSeconds,
                owner: context.principal,
                terminal: { cols: args.cols ?? DEFAULT_SIZE.cols, rows: args.rows ?? DEFAULT_SIZE.rows },
              },
              options,
            );
      const selector =
        result.kind === 'running'
          ? { sessionId: result.plan.sessionId, commandId: result.command.id }
          : { sessionId: result.receipt.session_id, commandId: result.receipt.command_id };
      const read = await terminals.interact({
        ...selector,
        wait: waitCondition(args.wait ?? DEFAULT_OPEN_WAIT),
        signal: context.signal,
      });
      return { structured: screenView(read) };
    },
  });
}
