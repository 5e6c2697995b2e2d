import type { ExecutionSession, RunningCommand } from '../../domain/execution/execution-session.js';
import type { CommandOutcome, OutputChunk, OutputStream } from '../../domain/execution/execution-types.js';
import { CommandNotFound } from '../../domain/execution/execution-errors.js';
import type { TerminalPlan } from '../../domain/terminal/plan-types.js';
import { NoCommandYet, PlanNotStarted } from '../../domain/terminal/terminal-errors.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import { readableLedger } from './readable-session.js';
import type { SecretRedactor } from './secret-redactor.js';
import type { SessionLedger, SessionLedgers } from './session-ledger.js';

/** Which command of a session: by id, by the plan that started it, or (neither) the latest one. */
export interface CommandSelector {
  readonly sessionId: string;
  readonly commandId?: string;
  readonly planId?: string;
}

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

export interface InputRequest extends CommandSelector {
  readonly text: string;
  readonly closeStdin: boolean;
}

export interface CommandControlOptions {
  readonly registry: SessionRegistry;
  readonly ledgers: SessionLedgers;
  readonly redactor: SecretRedactor;
}

/** Pause, resume, cancel, read and feed the commands of a session (seed pause/resume/cancel, plus read and input). */
export class CommandControl {
  constructor(private readonly options: CommandControlOptions) {}

  /** Seed `{paused}`: false when no command is running or it is already paused. */
  pause(selector: CommandSelector): boolean {
    const target = this.liveTarget(selector);
    if (!target?.command.pause()) return false;
    if (target.plan) target.plan.status = 'paused';
    return true;
  }

  resume(selector: CommandSelector): boolean {
    const target = this.liveTarget(selector);
    if (!target?.command.resume()) return false;
    if (target.plan) target.plan.status = 'running';
    return true;
  }

  /** Seed `{cancelled}`: terminates the process group and resolves once the command's receipt is recorded. */
  async cancel(selector: CommandSelector): Promise<boolean> {
    const target = this.liveTarget(selector);
    if (!target?.command.cancel()) return false;
    await (target.ledger.pendingReceipt(target.command.id) ?? target.command.finished());
    return true;
  }

  /** Also reads the command of a one-shot session that has ended, while its ledger is retained. */
  async read(request: ReadRequest): Promise<CommandRead> {
    const ledger = readableLedger(this.options.registry, this.options.ledgers, request.sessionId);
    const { session } = ledger;
    const command = this.select(session, ledger, request);
    if (request.waitSeconds > 0 && !this.hasNews(command, request)) {
      await waitForNews(session, command, request.waitSeconds, request.signal);
    }
    // A read that reports the end also means the receipt exists: a caller may ask terminal_receipt next.
    const receipt = ledger.pendingReceipt(command.id);
    if (receipt && !isLive(command.outcome())) await settledWithin(receipt, RECEIPT_SETTLE_MS);
    const plan = ledger.planOfCommand(command.id);
    const { redactor } = this.options;
    const chunk = (stream: OutputStream, offset: number): OutputChunk => {
      const read = command.read(stream, offset, request.maxBytes);
      return { ...read, text: redactor.redact(read.text) };
    };
    return {
      sessionId: session.id,
      commandId: command.id,
      planId: plan?.id ?? null,
      command: redactor.redact(plan?.command ?? ''),
      // Outcome before the chunks: if it says finished, the chunks taken after it are complete.
      outcome: command.outcome(),
      stdout: chunk('stdout', request.stdoutOffset),
      stderr: chunk('stderr', request.stderrOffset),
    };
  }

  /** Writes to the command's stdin, then closes it when asked; returns the bytes written. */
  async input(request: InputRequest): Promise<{ commandId: string; bytesWritten: number }> {
    const { command } = this.target(request);
    if (request.text.length > 0) await command.writeInput(request.text);
    if (request.closeStdin) command.closeInput();
    return { commandId: command.id, bytesWritten: new TextEncoder().encode(request.text).length };
  }

  private hasNews(command: RunningCommand, request: ReadRequest): boolean {
    const { status } = command.outcome();
    if (status !== 'running' && status !== 'paused') return true;
    return (
      command.read('stdout', request.stdoutOffset, 1).capturedBytes > request.stdoutOffset ||
      command.read('stderr', request.stderrOffset, 1).capturedBytes > request.stderrOffset
    );
  }

  /** The selected command; for pause/resume/cancel without a selector, the latest one still alive. */
  private liveTarget(selector: CommandSelector): { ledger: SessionLedger; command: RunningCommand; plan: TerminalPlan | undefined } | undefined {
    const session = this.options.registry.get(selector.sessionId);
    const ledger = this.options.ledgers.of(session);
    const command =
      selector.commandId === undefined && selector.planId === undefined
        ? [...session.commands()].reverse().find((candidate) => isLive(candidate.outcome()))
        : this.select(session, ledger, selector);
    return command ? { ledger, command, plan: ledger.planOfCommand(command.id) } : undefined;
  }

  private target(selector: CommandSelector): { session: ExecutionSession; ledger: SessionLedger; command: RunningCommand } {
    const session = this.options.registry.get(selector.sessionId);
    const ledger = this.options.ledgers.of(session);
    return { session, ledger, command: this.select(session, ledger, selector) };
  }

  private select(session: ExecutionSession, ledger: SessionLedger, selector: CommandSelector): RunningCommand {
    if (selector.commandId !== undefined) {
      const command = session.command(selector.commandId);
      if (!command) throw new CommandNotFound(selector.commandId);
      return command;
    }
    if (selector.planId !== undefined) {
      const plan = ledger.plan(selector.planId);
      if (plan.commandId === null) throw new PlanNotStarted(plan.id, plan.status);
      const command = session.command(plan.commandId);
      if (!command) throw new CommandNotFound(plan.commandId);
      return command;
    }
    const latest = session.commands().at(-1);
    if (!latest) throw new NoCommandYet(session.id);
    return latest;
  }
}

/** How long a read that saw the end waits for the receipt (the process group is being reaped meanwhile). */
const RECEIPT_SETTLE_MS = 3000;

/** Waits for the promise to settle, at most `ms`; never throws. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([promise.then(() => undefined, () => undefined), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function isLive(outcome: CommandOutcome): boolean {
  return outcome.status === 'running' || outcome.status === 'paused';
}

/** Resolves on the command's next output or its end, after `seconds`, or when the call is aborted. */
function waitForNews(session: ExecutionSession, command: RunningCommand, seconds: number, signal: AbortSignal | undefined): Promise<void> {
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
    if (!isLive(command.outcome())) done();
  });
}
