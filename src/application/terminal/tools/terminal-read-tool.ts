import { z } from 'zod';
import { isLiveStatus, type OutputChunk } from '../../../domain/execution/execution-types.js';
import { defineTool, type ToolDefinition } from '../../tools/tool-definition.js';
import type { CommandRead } from '../command-reader.js';
import { commandIdField, nonEmptyString, sessionIdField, waitSecondsField } from '../terminal-input-fields.js';
import { readResultSchema } from '../terminal-output-schemas.js';
import type { TerminalToolkit } from '../terminal-toolkit.js';

const DEFAULT_READ_BYTES = 65_536;
/** Long polls stay short enough for HTTP intermediaries. */
const MAX_READ_WAIT_SECONDS = 60;

export function terminalReadTool({
  reader,
  settings,
  signalNumber,
}: Pick<TerminalToolkit, 'reader' | 'settings' | 'signalNumber'>): ToolDefinition {
  const offset = (stream: string) =>
    z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(`Byte offset to read ${stream} from: next_offset of the previous read (default 0).`);
  const input = z
    .object({
      session_id: sessionIdField,
      command_id: commandIdField.optional(),
      plan_id: nonEmptyString('Read the command started from this plan (instead of command_id).').optional(),
      stdout_offset: offset('stdout'),
      stderr_offset: offset('stderr'),
      max_bytes: z
        .number()
        .int()
        .positive()
        .max(settings.maxOutputBytes)
        .optional()
        .describe(`Most bytes returned per stream (default ${Math.min(DEFAULT_READ_BYTES, settings.maxOutputBytes)}).`),
      wait_seconds: waitSecondsField(
        Math.min(MAX_READ_WAIT_SECONDS, settings.maxTimeoutSeconds),
        'When there is nothing new yet, wait up to this long for new output or the end of the command (default 0).',
      ),
    })
    .strict()
    .refine((args) => args.command_id === undefined || args.plan_id === undefined, {
      message: 'give command_id or plan_id, not both',
      path: ['plan_id'],
    });
  return defineTool({
    name: 'terminal_read',
    title: 'Read command output',
    description:
      'Read the output of a command incrementally: stdout and stderr separately, from byte offsets, with its status, exit code and truncation flags. Poll it for commands started with wait_seconds.',
    input,
    output: readResultSchema,
    annotations: { readOnlyHint: true, destructiveHint: false },
    async call(args, context) {
      const read = await reader.read({
        sessionId: args.session_id,
        commandId: args.command_id,
        planId: args.plan_id,
        stdoutOffset: args.stdout_offset ?? 0,
        stderrOffset: args.stderr_offset ?? 0,
        maxBytes: args.max_bytes ?? Math.min(DEFAULT_READ_BYTES, settings.maxOutputBytes),
        waitSeconds: args.wait_seconds ?? 0,
        signal: context.signal,
      });
      return { structured: readView(read, signalNumber) };
    },
  });
}

function readView(read: CommandRead, signalNumber: (name: string) => number | null): Record<string, unknown> {
  const { outcome, stdout, stderr } = read;
  const finished = !isLiveStatus(outcome.status);
  return {
    session_id: read.sessionId,
    command_id: read.commandId,
    plan_id: read.planId,
    command: read.command,
    status: outcome.status,
    exit_code: outcome.exitCode,
    signal: outcome.signal === null ? null : signalNumber(outcome.signal),
    started_at: outcome.startedAt,
    finished_at: outcome.finishedAt,
    duration_ms: outcome.durationMs,
    stdout: chunkView(stdout),
    stderr: chunkView(stderr),
    output_truncated: stdout.truncated || stderr.truncated,
    finished,
    next_step: readNextStep(finished, stdout, stderr),
  };
}

function chunkView(chunk: OutputChunk): Record<string, unknown> {
  return {
    text: chunk.text,
    offset: chunk.offset,
    next_offset: chunk.nextOffset,
    captured_bytes: chunk.capturedBytes,
    truncated: chunk.truncated,
    complete: chunk.complete,
  };
}

function readNextStep(finished: boolean, stdout: OutputChunk, stderr: OutputChunk): string {
  const offsets = `stdout_offset ${stdout.nextOffset} and stderr_offset ${stderr.nextOffset}`;
  if (!finished) return `Still running: call terminal_read again with ${offsets} (wait_seconds avoids busy polling).`;
  if (!stdout.complete || !stderr.complete)
    return `Finished, with output left: call terminal_read again with ${offsets}.`;
  return 'Finished and fully read: terminal_receipt returns its signed receipt.';
}
