import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../tools/tool-definition.js';
import { commandIdField, sessionIdField } from '../terminal-input-fields.js';
import type { TerminalToolkit } from '../terminal-toolkit.js';

export function terminalCancelTool({ signals }: Pick<TerminalToolkit, 'signals'>): ToolDefinition {
  return defineTool({
    name: 'terminal_cancel',
    title: 'Cancel the active command',
    description: 'Cancel the active command for one session.',
    input: z.object({ session_id: sessionIdField, command_id: commandIdField.optional() }).strict(),
    output: z.object({ cancelled: z.boolean() }),
    annotations: { readOnlyHint: false, destructiveHint: true },
    async call(args) {
      return {
        structured: { cancelled: await signals.cancel({ sessionId: args.session_id, commandId: args.command_id }) },
      };
    },
  });
}
