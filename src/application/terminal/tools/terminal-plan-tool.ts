import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../tools/tool-definition.js';
import { planView } from '../plan-view.js';
import { nonEmptyString } from '../terminal-input-fields.js';
import { planSchema } from '../terminal-output-schemas.js';
import type { TerminalToolkit } from '../terminal-toolkit.js';

export function terminalPlanTool({
  plans,
  settings,
  sandboxReadiness,
}: Pick<TerminalToolkit, 'plans' | 'settings' | 'sandboxReadiness'>): ToolDefinition {
  const input = z
    .object({
      command: nonEmptyString('The command line to judge. It is never executed by planning.'),
      session_id: nonEmptyString('Execution session to plan in; omitted: a new session is created.').optional(),
      cwd: nonEmptyString(
        'Working directory, relative to the workspace root (default: the session directory).',
      ).optional(),
      timeout_seconds: z
        .number()
        .positive()
        .max(settings.maxTimeoutSeconds)
        .optional()
        .describe(`Time limit of the command (default ${settings.defaultTimeoutSeconds}).`),
    })
    .strict();
  return defineTool({
    name: 'terminal_plan',
    title: 'Plan a bounded terminal command',
    description: 'Validate a command against the workspace policy and create a non-executing plan.',
    input,
    output: planSchema,
    annotations: { readOnlyHint: true, destructiveHint: false },
    async call(args, context) {
      const plan = await plans.plan({
        command: args.command,
        sessionId: args.session_id,
        cwd: args.cwd,
        timeoutSeconds: args.timeout_seconds,
        owner: context.principal,
      });
      // A denied command is a successful plan with status "blocked" (seed: a structured denial, not an error).
      return { structured: planView(plan, settings.approvalChannel, sandboxReadiness?.()) };
    },
  });
}
