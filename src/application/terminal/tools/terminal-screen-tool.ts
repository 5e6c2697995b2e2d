import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../tools/tool-definition.js';
import { commandIdField, sessionIdField } from '../terminal-input-fields.js';
import type { TerminalToolkit } from '../terminal-toolkit.js';
import { keyStrokeSchema } from '../interactive/terminal-keys.js';
import {
  screenResultSchema,
  screenView,
  terminalSizeFields,
  waitCondition,
  waitField,
} from '../interactive/terminal-screen-fields.js';

export function terminalScreenTool({ terminals }: Pick<TerminalToolkit, 'terminals'>): ToolDefinition {
  const input = z
    .object({
      session_id: sessionIdField,
      command_id: commandIdField.optional(),
      keys: z
        .array(keyStrokeSchema)
        .max(256)
        .optional()
        .describe('Typed in order: [{"text": "1+41"}, {"key": "enter"}].'),
      resize: z.object(terminalSizeFields).strict().optional().describe('New size.'),
      wait: waitField.optional(),
    })
    .strict();
  return defineTool({
    name: 'terminal_screen',
    title: 'Type at a terminal session',
    description:
      'Type keys at a terminal session, optionally wait, and return its screen and the scrollback since the last read.',
    input,
    output: screenResultSchema,
    annotations: { readOnlyHint: false, destructiveHint: true },
    async call(args, context) {
      const resize = args.resize && { cols: args.resize.cols ?? 120, rows: args.resize.rows ?? 40 };
      const read = await terminals.interact({
        sessionId: args.session_id,
        commandId: args.command_id,
        keys: args.keys,
        resize,
        wait: args.wait && waitCondition(args.wait),
        signal: context.signal,
      });
      return { structured: screenView(read) };
    },
  });
}
