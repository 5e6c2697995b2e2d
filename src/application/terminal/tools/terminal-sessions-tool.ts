import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../tools/tool-definition.js';
import type { SessionSummary } from '../session-overview.js';
import { planStatusSchema } from '../terminal-output-schemas.js';
import type { TerminalToolkit } from '../terminal-toolkit.js';

const planCountsSchema = z.object(
  Object.fromEntries(planStatusSchema.options.map((status) => [status, z.number().int()])) as Record<
    z.infer<typeof planStatusSchema>,
    z.ZodNumber
  >,
);

const sessionSchema = z.object({
  session_id: z.string(),
  cwd: z.string(),
  created_at: z.string(),
  last_activity_at: z.string(),
  running_command: z
    .object({
      command_id: z.string(),
      plan_id: z.string().nullable(),
      command: z.string(),
      status: z.enum(['running', 'paused', 'succeeded', 'failed', 'cancelled', 'timed_out']),
      started_at: z.string(),
    })
    .nullable(),
  plans: planCountsSchema,
  receipts: z.number().int(),
});

export function terminalSessionsTool({ sessions }: Pick<TerminalToolkit, 'sessions'>): ToolDefinition {
  return defineTool({
    name: 'terminal_sessions',
    title: 'List execution sessions',
    description:
      'List your live execution sessions with their working directory, running command and plan counts, oldest first. When next_cursor is present, call again with it as cursor for the next page.',
    input: z
      .object({
        cursor: z.string().min(1).optional().describe('next_cursor of the previous page (omit for the first page).'),
      })
      .strict(),
    output: z.object({
      sessions: z.array(sessionSchema),
      next_cursor: z.string().optional().describe('Present when more sessions follow: pass it as cursor.'),
    }),
    annotations: { readOnlyHint: true, destructiveHint: false },
    async call(args, context) {
      const page = sessions.list(context.principal, args.cursor);
      const listed = page.sessions.map(sessionView);
      return {
        structured:
          page.nextCursor === undefined ? { sessions: listed } : { sessions: listed, next_cursor: page.nextCursor },
      };
    },
  });
}

function sessionView(summary: SessionSummary): z.infer<typeof sessionSchema> {
  const running = summary.runningCommand;
  return {
    session_id: summary.sessionId,
    cwd: summary.cwd,
    created_at: summary.createdAt,
    last_activity_at: summary.lastActivityAt,
    running_command: running
      ? {
          command_id: running.commandId,
          plan_id: running.planId,
          command: running.command,
          status: running.status,
          started_at: running.startedAt,
        }
      : null,
    plans: { ...summary.planCounts },
    receipts: summary.receipts,
  };
}
