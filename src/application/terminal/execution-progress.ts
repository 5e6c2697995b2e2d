import type { RunningCommand } from '../../domain/execution/execution-session.js';
import type { OutputStream } from '../../domain/execution/execution-types.js';
import type { ProgressReporter } from '../tools/tool-definition.js';
import { stripTerminalEscapes } from './output-view.js';

/** How often a waiting `terminal_execute` reports (issue 25): often enough to reset a client's timeout, rarely enough to cost nothing. */
export const PROGRESS_INTERVAL_MS = 1000;
/** Bytes of the end of the output read for a report, and characters of it sent. */
const TAIL_BYTES = 512;
const TAIL_CHARACTERS = 200;

/**
 * While a call waits for its command: every interval, `notifications/progress` with the seconds waited as the
 * progress (it only grows) and the last lines of the output as the message, redacted like receipts. Returns the stop
 * function; the timer never keeps the process alive.
 */
export function reportProgress(
  command: RunningCommand,
  report: ProgressReporter,
  redact: (text: string) => string,
  intervalMs = PROGRESS_INTERVAL_MS,
): () => void {
  let ticks = 0;
  let stopped = false;
  const timer = setInterval(() => {
    ticks += 1;
    const progress = ticks;
    void outputTail(command).then(
      (tail) => {
        if (!stopped)
          report(
            progress * (intervalMs / 1000),
            tail === '' ? `running for ${progress * (intervalMs / 1000)} s, no output yet` : redact(tail),
          );
      },
      () => undefined,
    );
  }, intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/** The last lines the command wrote (stdout, or stderr when stdout is empty), without terminal escapes. */
async function outputTail(command: RunningCommand): Promise<string> {
  for (const stream of ['stdout', 'stderr'] as const satisfies readonly OutputStream[]) {
    const tail = (await lastBytes(command, stream)).trim();
    if (tail !== '') return tail.slice(-TAIL_CHARACTERS);
  }
  return '';
}

async function lastBytes(command: RunningCommand, stream: OutputStream): Promise<string> {
  const output = command.capturedOutput?.(stream);
  if (output !== undefined) {
    const from = Math.max(0, output.keptBytes - TAIL_BYTES);
    const bytes = Buffer.from(await output.readBytes(from, TAIL_BYTES));
    // The first bytes may be the end of a character cut by the offset: U+FFFD there is dropped with the first line.
    return stripTerminalEscapes(bytes.toString('utf8'))
      .split('\n')
      .slice(from > 0 ? 1 : 0)
      .join('\n');
  }
  const captured = command.read(stream, 0, 1).capturedBytes;
  return stripTerminalEscapes(command.read(stream, Math.max(0, captured - TAIL_BYTES), TAIL_BYTES).text);
}
