import { z } from 'zod';
import { defineTool, type ToolDefinition, type ToolOutcome } from '../../tools/tool-definition.js';
import { commandTask } from '../command-task.js';
import type { ExecutionResult } from '../execution-service.js';
import { nonEmptyString, waitSecondsField } from '../terminal-input-fields.js';
import { objectUnion, receiptSchema, runningExecutionSchema } from '../terminal-output-schemas.js';
import type { TerminalToolkit } from '../terminal-toolkit.js';
import { outputLinks } from '../output-links.js';

export function terminalExecuteTool({
  execution,
  settings,
  reader,
  signals,
}: Pick<TerminalToolkit, 'execution' | 'settings' | 'reader' | 'signals'>): ToolDefinition {
  const input = z
    .object({
      session_id: nonEmptyString(
        'Execution session of the plan. Optional with command: a one-shot session is created, which ends when the command finishes (its receipt stays readable with terminal_receipt).',
      ).optional(),
      plan_id: nonEmptyString('The plan to execute (seed form: session_id + plan_id).').optional(),
      command: nonEmptyString(
        'Plan and execute in one call, for commands that need no approval (instead of plan_id).',
      ).optional(),
      cwd: nonEmptyString('With command: working directory, relative to the workspace root.').optional(),
      timeout_seconds: z
        .number()
        .positive()
        .max(settings.maxTimeoutSeconds)
        .optional()
        .describe('With command: time limit of the command.'),
      wait_seconds: waitSecondsField(
        settings.maxTimeoutSeconds,
        'How long to wait for the command before answering. Omitted: until it finishes. 0: answer at once with status "running" and poll terminal_read.',
      ),
      open_stdin: z
        .boolean()
        .optional()
        .describe('Keep stdin open for terminal_input (default: closed, like /dev/null).'),
      // Issue 24. Terse: the catalogue's size is budgeted (tests/e2e/tool-catalog-size.test.ts); docs/tools.md says more.
      strip_ansi: z.boolean().optional().describe('Strip ANSI.'),
    })
    .strict()
    .refine((args) => (args.plan_id === undefined) !== (args.command === undefined), {
      message: 'give either plan_id (with session_id) or command',
      path: ['plan_id'],
    })
    .refine((args) => args.plan_id === undefined || args.session_id !== undefined, {
      message: 'plan_id needs its session_id',
      path: ['session_id'],
    })
    .refine((args) => args.plan_id === undefined || (args.cwd === undefined && args.timeout_seconds === undefined), {
      message: 'cwd and timeout_seconds belong to the plan; they are only accepted with command',
      path: ['plan_id'],
    });
  return defineTool({
    name: 'terminal_execute',
    title: 'Execute an approved terminal plan',
    description: 'Execute an allowed plan and return a signed receipt.',
    input,
    output: objectUnion([receiptSchema, runningExecutionSchema]),
    annotations: { readOnlyHint: false, destructiveHint: true },
    async call(args, context) {
      // A client that takes tasks gets one when the command outlives the wait, which is then short by default.
      const budget = { stripAnsi: args.strip_ansi };
      const options = {
        waitSeconds: args.wait_seconds ?? context.tasks?.waitSeconds,
        openStdin: args.open_stdin,
        signal: context.signal,
        recording: { budget, owner: context.principal },
        progress: context.progress,
      };
      const result =
        args.plan_id !== undefined && args.session_id !== undefined
          ? await execution.execute(args.session_id, args.plan_id, options)
          : await execution.planAndExecute(
              {
                sessionId: args.session_id,
                command: args.command ?? '',
                cwd: args.cwd,
                timeoutSeconds: args.timeout_seconds,
                owner: context.principal,
              },
              options,
            );
      if (result.kind === 'running' && context.tasks !== undefined) {
        context.tasks.create(
          commandTask(result, {
            reader,
            signals,
            finished: (receipt) => executionOutcome({ kind: 'finished', receipt }, false),
          }),
        );
      }
      return executionOutcome(result, Boolean(args.open_stdin));
    },
  });
}

/** Seed: the receipt is returned in full, with `isError: true` unless the command succeeded. */
function executionOutcome(result: ExecutionResult, stdinOpen: boolean): ToolOutcome {
  if (result.kind === 'finished') {
    return {
      structured: { ...result.receipt },
      isError: result.receipt.status !== 'succeeded',
      links: outputLinks(result.receipt),
    };
  }
  const { plan, command } = result;
  const outcome = command.outcome();
  return {
    structured: {
      status: outcome.status === 'paused' ? 'paused' : 'running',
      session_id: plan.sessionId,
      plan_id: plan.id,
      command_id: command.id,
      command: plan.command,
      started_at: outcome.startedAt,
      stdin_open: stdinOpen,
      next_step: `Poll terminal_read with session_id and command_id ${command.id} (stdout_offset/stderr_offset from the previous read) until it has finished; terminal_receipt then returns the signed receipt.`,
    },
  };
}
