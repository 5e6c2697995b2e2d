import { z } from 'zod';
import { InvalidArgument } from '../../../domain/errors.js';
import { isLiveStatus } from '../../../domain/execution/execution-types.js';
import type { WaitCondition } from '../../../domain/execution/interactive-terminal.js';
import type { ScreenRead } from './terminal-screens.js';

/** Long waits stay short enough for HTTP intermediaries (like terminal_read's). */
export const MAX_WAIT_MS = 60_000;
const MAX_PATTERN_CHARS = 200;

export const terminalSizeFields = {
  cols: z.number().int().min(20).max(500).optional().describe('Default 120.'),
  rows: z.number().int().min(5).max(200).optional().describe('Default 40.'),
};

export const waitField = z
  .object({
    pattern: z.string().min(1).max(MAX_PATTERN_CHARS).optional().describe('Regex on the screen.'),
    quiet_ms: z.number().int().min(10).max(MAX_WAIT_MS).optional().describe('Screen unchanged this long.'),
    exit: z.boolean().optional().describe('Program ended.'),
    timeout_ms: z.number().int().min(0).max(MAX_WAIT_MS),
  })
  .strict()
  .describe('Answer when the first of these happens (else at once).');

export type WaitArgument = z.infer<typeof waitField>;

/** The wait as the terminal takes it; a pattern that is not a valid regular expression is refused. */
export function waitCondition(wait: WaitArgument): WaitCondition {
  let pattern: RegExp | undefined;
  if (wait.pattern !== undefined) {
    try {
      pattern = new RegExp(wait.pattern, 'm');
    } catch (error) {
      throw new InvalidArgument(
        `wait.pattern is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`,
        { pattern: wait.pattern },
        'Send a JavaScript regular expression (without slashes or flags).',
      );
    }
  }
  return {
    ...(pattern ? { pattern } : {}),
    ...(wait.quiet_ms === undefined ? {} : { quietMs: wait.quiet_ms }),
    ...(wait.exit === undefined ? {} : { exit: wait.exit }),
    timeoutMs: wait.timeout_ms,
  };
}

export const screenResultSchema = z.object({
  session_id: z.string(),
  command_id: z.string(),
  plan_id: z.string().nullable(),
  command: z.string(),
  status: z.enum(['running', 'paused', 'succeeded', 'failed', 'timed_out', 'cancelled']),
  exit_code: z.number().int().nullable(),
  finished: z.boolean(),
  screen: z.object({
    text: z.string().describe('The rendered screen, one line per row.'),
    cols: z.number().int(),
    rows: z.number().int(),
    cursor: z.object({ row: z.number().int(), col: z.number().int() }),
    alternate_screen: z.boolean(),
  }),
  scrollback: z.object({
    text: z.string().describe('Lines that scrolled off the top since the previous read.'),
    lines: z.number().int(),
    dropped: z.boolean(),
  }),
  waited: z.enum(['pattern', 'quiet', 'exit', 'timeout', 'none']),
  bytes_sent: z.number().int(),
  next_step: z.string(),
});

export function screenView(read: ScreenRead): z.infer<typeof screenResultSchema> {
  const finished = !isLiveStatus(read.outcome.status);
  const { screen, scrollback } = read;
  const select = `{"session_id": "${read.sessionId}", "command_id": "${read.commandId}"}`;
  return {
    session_id: read.sessionId,
    command_id: read.commandId,
    plan_id: read.planId,
    command: read.command,
    status: read.outcome.status,
    exit_code: read.outcome.exitCode,
    finished,
    screen: {
      text: screen.lines.join('\n'),
      cols: screen.cols,
      rows: screen.rows,
      cursor: { row: screen.cursor.y, col: screen.cursor.x },
      alternate_screen: screen.alternateScreen,
    },
    scrollback: { text: scrollback.lines.join('\n'), lines: scrollback.lines.length, dropped: scrollback.dropped },
    waited: read.waited,
    bytes_sent: read.bytesSent,
    next_step: finished
      ? 'The program has ended: terminal_receipt returns the signed receipt of the terminal session.'
      : `Type with terminal_screen ${select} and keys (with wait to see the result); terminal_cancel closes it.`,
  };
}
