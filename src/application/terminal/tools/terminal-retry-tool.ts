import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../tools/tool-definition.js';
import { planView } from '../plan-view.js';
import { planIdField, sessionIdField } from '../terminal-input-fields.js';
import { planSchema } from '../terminal-output-schemas.js';
import type { TerminalToolkit } from '../terminal-toolkit.js';

export function terminalRetryTool({
  plans,
  settings,
  sandboxReadiness,
}: Pick<TerminalToolkit, 'plans' | 'settings' | 'sandboxReadiness'>): ToolDefinition {
  return defineTool({
    name: 'terminal_retry',
    title: 'Create a controlled retry plan',
    description:
      'Create a fresh non-executing plan from an earlier command. The new plan must pass policy and approval again.',
    input: z.object({ session_id: sessionIdField, plan_id: planIdField }).strict(),
    output: planSchema,
    annotations: { readOnlyHint: true, destructiveHint: false },
    async call(args) {
      const plan = await plans.retry(args.session_id, args.plan_id);
      return { structured: planView(plan, settings.approvalChannel, sandboxReadiness?.()) };
    },
  });
}
