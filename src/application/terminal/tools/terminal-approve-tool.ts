import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../tools/tool-definition.js';
import { planView } from '../plan-view.js';
import { nonEmptyString, planIdField, sessionIdField } from '../terminal-input-fields.js';
import { planSchema } from '../terminal-output-schemas.js';
import type { TerminalToolkit } from '../terminal-toolkit.js';

export function terminalApproveTool({
  approvals,
  settings,
  sandboxReadiness,
}: Pick<TerminalToolkit, 'approvals' | 'settings' | 'sandboxReadiness'>): ToolDefinition {
  return defineTool({
    name: 'terminal_approve',
    title: 'Approve a terminal plan',
    description: 'Explicitly approve a plan that requires confirmation.',
    input: z
      .object({
        session_id: sessionIdField,
        plan_id: planIdField,
        approval_id: nonEmptyString('The approval_id of the plan; when given it must match.').optional(),
      })
      .strict(),
    output: planSchema,
    // Destructive, not read-only (the seed marks it non-destructive): clients then ask their user before calling it,
    // and that confirmation is what the approval stands for (docs/security.md).
    annotations: { readOnlyHint: false, destructiveHint: true },
    async call(args) {
      const plan = approvals.approveFromClient(args.session_id, args.plan_id, args.approval_id);
      return { structured: planView(plan, settings.approvalChannel, sandboxReadiness?.()) };
    },
  });
}
