import type { ExecutionSession, RunningCommand } from '../../domain/execution/execution-session.js';
import {
  isLiveStatus,
  type CommandOutcome,
  type OutputChunk,
  type OutputStream,
} from '../../domain/execution/execution-types.js';
import type { CommandLocator, CommandSelector } from './command-locator.js';
import { receiptsRecorded } from './recorded-receipts.js';
import type { SecretRedactor } from './secret-redactor.js';

export interface ReadRequest extends CommandSelector {
  readonly stdoutOffset: number;
  readonly stderrOffset: number;
  /** Per stream. */
  readonly maxBytes: number;
  /** Wait up to this long for new output or the end when there is nothing new yet (long polling); 0 = answer now. */
  readonly waitSeconds: number;
  readonly signal?: AbortSignal;
}

export interface CommandRead {
  readonly sessionId: string;
  readonly commandId: string;
  readonly planId: string | null;
  readonly command: string;
  readonly outcome: CommandOutcome;
  readonly stdout: OutputChunk;
  readonly stderr: OutputChunk;
}

/** `terminal_read`: a command's output from given offsets, redacted, with long polling. */
export class CommandReader {
  constructor(
    private readonly locator: CommandLocator,
    private readonly redactor: SecretRedactor,
  ) {}

  /** Also reads the command of a one-shot session that has ended, while it is retained. */
  async read(request: ReadRequest): Promise<CommandRead> {
    const { session, terminal, command } = this.locator.findReadable(request);
    if (request.waitSeconds > 0 && !hasNews(command, request)) {
      await waitForNews(session, command, request.waitSeconds, request.signal);
    }
    // A read that reports the end also means the receipt exists: a caller may ask terminal_receipt next.
    if (!isLiveStatus(command.outcome().status)) await receiptsRecorded(terminal);
    const plan = terminal.planOfCommand(command.id);
    const chunk = (stream: OutputStream, offset: number): OutputChunk => {
      const read = command.read(stream, offset, request.maxBytes);
      return { ...read, text: this.redactor.redact(read.text) };
    };
    return {
      sessionId: session.id,
      commandId: command.id,
      planId: plan?.id ?? null,
      command: this.redactor.redact(plan?.command ?? ''),
      // Outcome before the chunks: if it says finished, the chunks taken after it are complete.
      outcome: command.outcome(),
      stdout: chunk('stdout', request.stdoutOffset),
      stderr: chunk('stderr', request.stderrOffset),
    };
  }
}

function hasNews(command: RunningCommand, request: ReadRequest): boolean {
  if (!isLiveStatus(command.outcome().status)) return true;
  return (
    command.read('stdout', request.stdoutOffset, 1).capturedBytes > request.stdoutOffset ||
    command.read('stderr', request.stderrOffset, 1).capturedBytes > request.stderrOffset
  );
}

/** Resolves on the command's next output or its end, after `seconds`, or when the call is aborted. */
function waitForNews(
  session: ExecutionSession,
  command: RunningCommand,
  seconds: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      unsubscribe();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, seconds * 1000);
    const unsubscribe = session.subscribe((event) => {
      if ((event.type === 'output' || event.type === 'command_finished') && event.commandId === command.id) done();
    });
    signal?.addEventListener('abort', done, { once: true });
    // The command may have finished between the check and the subscription.
    if (!isLiveStatus(command.outcome().status)) done();
  });
}
