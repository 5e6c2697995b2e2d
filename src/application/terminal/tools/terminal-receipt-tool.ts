import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../tools/tool-definition.js';
import { nonEmptyString, sessionIdField } from '../terminal-input-fields.js';
import { objectUnion, receiptSchema } from '../terminal-output-schemas.js';
import type { TerminalToolkit } from '../terminal-toolkit.js';
import { outputLinks } from '../output-links.js';

export function terminalReceiptTool({ execution }: Pick<TerminalToolkit, 'execution'>): ToolDefinition {
  return defineTool({
    name: 'terminal_receipt',
    title: 'Read the latest signed receipt',
    description: 'Read the latest execution receipt for one session.',
    input: z
      .object({
        session_id: sessionIdField,
        plan_id: nonEmptyString('The receipt of this plan instead of the latest one.').optional(),
      })
      .strict(),
    output: objectUnion([receiptSchema, z.object({ receipt: z.null() })]),
    annotations: { readOnlyHint: true, destructiveHint: false },
    async call(args) {
      const receipt = await execution.receipt(args.session_id, args.plan_id);
      return receipt ? { structured: { ...receipt }, links: outputLinks(receipt) } : { structured: { receipt: null } };
    },
  });
}
