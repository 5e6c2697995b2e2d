import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../tools/tool-definition.js';
import { commandIdField, sessionIdField } from '../terminal-input-fields.js';
import type { TerminalToolkit } from '../terminal-toolkit.js';

export function terminalResumeTool({ signals }: Pick<TerminalToolkit, 'signals'>): ToolDefinition {
  return defineTool({
    name: 'terminal_resume',
    title: 'Resume the paused command',
    description: 'Resume a paused process group for one execution session.',
    input: z.object({ session_id: sessionIdField, command_id: commandIdField.optional() }).strict(),
    output: z.object({ resumed: z.boolean() }),
    annotations: { readOnlyHint: false, destructiveHint: false },
    async call(args) {
      return { structured: { resumed: signals.resume({ sessionId: args.session_id, commandId: args.command_id }) } };
    },
  });
}
