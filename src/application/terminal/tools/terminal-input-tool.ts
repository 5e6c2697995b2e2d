import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../tools/tool-definition.js';
import { commandIdField, nonEmptyString, sessionIdField } from '../terminal-input-fields.js';
import type { TerminalToolkit } from '../terminal-toolkit.js';

export function terminalInputTool({ stdin }: Pick<TerminalToolkit, 'stdin'>): ToolDefinition {
  const input = z
    .object({
      session_id: sessionIdField,
      text: z
        .string()
        .describe('Text written to stdin as is (add "\\n" to end a line). May be empty with close_stdin.'),
      command_id: commandIdField.optional(),
      plan_id: nonEmptyString('Send to the command started from this plan (instead of command_id).').optional(),
      close_stdin: z.boolean().optional().describe('Close stdin after writing (end of input).'),
    })
    .strict()
    .refine((args) => args.text.length > 0 || args.close_stdin === true, {
      message: 'text must be non-empty unless close_stdin is true',
      path: ['text'],
    })
    .refine((args) => args.command_id === undefined || args.plan_id === undefined, {
      message: 'give command_id or plan_id, not both',
      path: ['plan_id'],
    });
  return defineTool({
    name: 'terminal_input',
    title: 'Send input to a running command',
    description:
      'Send text to the stdin of a running command started with open_stdin: true, optionally closing stdin. The input goes to the approved process only; it is never run by a shell.',
    input,
    output: z.object({
      session_id: z.string(),
      command_id: z.string(),
      bytes_written: z.number().int(),
      stdin_closed: z.boolean(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true },
    async call(args) {
      const closeStdin = args.close_stdin === true;
      const { commandId, bytesWritten } = await stdin.write({
        sessionId: args.session_id,
        commandId: args.command_id,
        planId: args.plan_id,
        text: args.text,
        closeStdin,
      });
      return {
        structured: {
          session_id: args.session_id,
          command_id: commandId,
          bytes_written: bytesWritten,
          stdin_closed: closeStdin,
        },
      };
    },
  });
}
