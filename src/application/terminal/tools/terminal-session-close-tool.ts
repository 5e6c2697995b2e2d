import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../tools/tool-definition.js';
import { sessionIdField } from '../terminal-input-fields.js';
import type { TerminalToolkit } from '../terminal-toolkit.js';

export function terminalSessionCloseTool({
  sessions,
  outputs,
}: Pick<TerminalToolkit, 'sessions' | 'outputs'>): ToolDefinition {
  return defineTool({
    name: 'terminal_session_close',
    title: 'Close an execution session',
    description: 'Close one execution session: kill its running commands and forget its plans and receipts.',
    input: z.object({ session_id: sessionIdField }).strict(),
    output: z.object({ session_id: z.string(), closed: z.literal(true) }),
    annotations: { readOnlyHint: false, destructiveHint: true },
    async call(args) {
      await sessions.close(args.session_id);
      outputs?.discardSession(args.session_id);
      return { structured: { session_id: args.session_id, closed: true } };
    },
  });
}
