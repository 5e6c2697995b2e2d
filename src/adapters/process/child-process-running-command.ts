import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { CommandNotRunning, InputClosed, OutputRangeInvalid } from '../../domain/execution/execution-errors.js';
import type { RunningCommand } from '../../domain/execution/execution-session.js';
import type {
  CommandLaunch,
  CommandOutcome,
  CommandStatus,
  ExecutionEvent,
  OutputChunk,
  OutputStream,
} from '../../domain/execution/execution-types.js';
import type { ConfinedLaunch } from '../../domain/execution/command-confinement.js';
import type { CapturedOutput } from '../../domain/execution/captured-output.js';
import type { InteractiveTerminal } from '../../domain/execution/interactive-terminal.js';
import { OutputBuffer } from './output-buffer.js';
import { StreamSpool, type SpoolSettings } from './stream-spool.js';
import { groupIsAlive, signalGroup, terminateGroup } from './process-group.js';

/** Writes the launcher's set-up input to descriptor 3 and closes it; a launcher that died early only loses it. */
function writeSetupInput(child: ChildProcess, input: Uint8Array): void {
  const channel = child.stdio[3] as Writable | null | undefined;
  if (!channel) return;
  channel.on('error', () => undefined);
  channel.end(input);
}

/** How a command talks back to its session. */
export interface CommandEventSink {
  publish(event: ExecutionEvent): void;
  /** Output events are only decoded when someone listens (a 100 MB stream should cost nothing extra otherwise). */
  hasListeners(): boolean;
  commandFinished(): void;
}

export interface ChildProcessCommandOptions {
  readonly id: string;
  readonly sessionId: string;
  readonly launch: CommandLaunch;
  readonly commandText: string;
  /** What to spawn: the command inside its confinement (its launcher, environment and directory). */
  readonly confined: ConfinedLaunch;
  /** Between SIGTERM and SIGKILL. */
  readonly killGraceMs: number;
  /** After the leader exits, how long to wait for its pipes to close before the outcome is final anyway. */
  readonly outputSettleMs: number;
  readonly now: () => number;
  readonly events: CommandEventSink;
  /** Where the whole output is kept beyond the in-memory capture; without it, only the capture can be read back. */
  readonly spool?: SpoolSettings;
  /** Sees every stdout byte as it arrives, including bytes beyond the output cap (a terminal session's screen). */
  readonly onStdout?: (chunk: Buffer) => void;
  /** A terminal session's terminal (its stdin is the keyboard). */
  readonly terminal?: InteractiveTerminal;
}

type TerminationReason = 'cancelled' | 'timed_out';

interface FinalState {
  readonly status: CommandStatus;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly finishedAtMs: number;
}

/**
 * One command run as the leader of its own process group (`detached`), so that pause, resume, timeout, cancel and
 * session close reach every process it started. The outcome is final when the leader has exited and its pipes have
 * closed (or settled); background members that outlive the leader are still killed at the command's deadline, when
 * the command is evicted, and when the session closes.
 */
export class ChildProcessRunningCommand implements RunningCommand {
  readonly id: string;
  readonly pid: number | undefined;
  readonly terminal: InteractiveTerminal | undefined;
  private readonly child: ChildProcess | undefined;
  private readonly startedAtMs: number;
  private readonly output: Record<OutputStream, OutputBuffer>;
  private readonly spools: Record<OutputStream, StreamSpool>;
  /** Per stream: bytes already published as output events (or skipped while nobody listened). */
  private readonly publishedBytes: Record<OutputStream, number> = { stdout: 0, stderr: 0 };
  private readonly finishedPromise: Promise<CommandOutcome>;
  private resolveFinished: (outcome: CommandOutcome) => void = () => undefined;
  private exit: { code: number | null; signal: string | null } | undefined;
  private final: FinalState | undefined;
  private runOnOpenChanges: readonly string[] | undefined;
  private termination: TerminationReason | undefined;
  private terminating: Promise<void> | undefined;
  /** Whether the group outlived its leader, checked once when the outcome became final. */
  private groupCheck: Promise<void> | undefined;
  /** Aborted when the check must stop being patient (the server shuts down). */
  private readonly settleNow = new AbortController();
  private paused = false;
  /** Set once no process of the group is left: from then on its id may belong to someone else and is never signalled. */
  private groupGone = false;
  private inputClosed = false;
  /** With a set-up report: whether the launcher started the command (undefined until its report is complete). */
  private setupReport: { completed: boolean | undefined } | undefined;
  private deadlineTimer: NodeJS.Timeout | undefined;
  private settleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ChildProcessCommandOptions) {
    this.id = options.id;
    this.terminal = options.terminal;
    this.startedAtMs = options.now();
    const limit = options.launch.maxOutputBytes;
    this.output = { stdout: new OutputBuffer(limit), stderr: new OutputBuffer(limit) };
    const spoolOf = (stream: OutputStream): StreamSpool =>
      StreamSpool.create(
        options.spool,
        `${options.id.replace(/[^A-Za-z0-9_-]/g, '_')}.${stream}`,
        limit,
        (offset, length) => this.output[stream].bytes(offset, length),
      );
    this.spools = { stdout: spoolOf('stdout'), stderr: spoolOf('stderr') };
    this.finishedPromise = new Promise((resolve) => {
      this.resolveFinished = resolve;
    });
    options.events.publish({ type: 'command_started', command: options.commandText, ...this.eventHeader() });

    const { file, args, cwd, environment, setupInput, setupCompleted } = options.confined;
    let child: ChildProcess;
    try {
      child = spawn(file, [...args], {
        cwd,
        env: environment,
        detached: true,
        // A closed stdin is /dev/null (the seed's DEVNULL): no pipe to create and shut for most commands. Descriptor
        // 3 only carries the launcher's set-up input (it reads it to the end and closes it before the command runs),
        // 4 its set-up report (both only when the confinement asks for them).
        stdio: [
          options.launch.stdin === 'open' ? 'pipe' : 'ignore',
          'pipe',
          'pipe',
          setupInput === undefined ? 'ignore' : 'pipe',
          setupCompleted === undefined ? 'ignore' : 'pipe',
        ],
      });
      if (setupInput !== undefined) writeSetupInput(child, setupInput);
    } catch (error) {
      // Invalid arguments (a NUL byte, say) throw synchronously instead of emitting 'error'.
      this.failToStart(error);
      return;
    }
    this.child = child;
    this.pid = child.pid;
    // A failed spawn (ENOENT, EACCES...) has no pid and reports its reason as 'error'. Later 'error's (only a failed
    // child.kill, which is never used) still need a listener, or they would crash the server.
    child.on('error', (error) => {
      if (this.pid === undefined) this.failToStart(error);
    });
    if (this.pid === undefined) return;
    this.captureOutput(child);
    if (setupCompleted !== undefined) this.captureSetupReport(child, setupCompleted);
    child.stdin?.on('error', () => {
      // EPIPE when the process stops reading; pending writes reject through their callbacks.
      this.inputClosed = true;
    });
    child.on('exit', (code, signal) => this.leaderExited(code, signal));
    this.deadlineTimer = setTimeout(() => void this.deadlineReached(), options.launch.timeoutMs).unref();
  }

  outcome(): CommandOutcome {
    const finishedAtMs = this.final?.finishedAtMs ?? null;
    return {
      status: this.final?.status ?? (this.paused ? 'paused' : 'running'),
      exitCode: this.final?.exitCode ?? null,
      signal: this.final?.signal ?? null,
      startedAt: new Date(this.startedAtMs).toISOString(),
      finishedAt: finishedAtMs === null ? null : new Date(finishedAtMs).toISOString(),
      durationMs: finishedAtMs === null ? null : finishedAtMs - this.startedAtMs,
      truncated: this.output.stdout.truncated || this.output.stderr.truncated,
      ...(this.runOnOpenChanges === undefined ? {} : { runOnOpenChanges: this.runOnOpenChanges }),
    };
  }

  /** True once the outcome is final (the leader exited); background members may still be alive. */
  get ended(): boolean {
    return this.final !== undefined;
  }

  finished(): Promise<CommandOutcome> {
    return this.finishedPromise;
  }

  read(stream: OutputStream, offset: number, maxBytes: number): OutputChunk {
    const buffer = this.output[stream];
    const valid = Number.isSafeInteger(offset) && Number.isSafeInteger(maxBytes) && offset >= 0 && maxBytes > 0;
    if (!valid || offset > buffer.capturedBytes) {
      throw new OutputRangeInvalid(stream, offset, maxBytes, buffer.capturedBytes);
    }
    const { text, nextOffset } = buffer.read(offset, maxBytes);
    return {
      stream,
      text,
      offset,
      nextOffset,
      capturedBytes: buffer.capturedBytes,
      truncated: buffer.truncated,
      complete: buffer.ended && nextOffset === buffer.capturedBytes,
    };
  }

  capturedOutput(stream: OutputStream): CapturedOutput {
    return this.spools[stream];
  }

  discardOutput(): void {
    this.spools.stdout.discard();
    this.spools.stderr.discard();
  }

  async writeInput(data: string): Promise<void> {
    const stdin = this.child?.stdin;
    if (this.final) throw new CommandNotRunning(this.id, this.final.status);
    if (!stdin || this.inputClosed || !stdin.writable) throw new InputClosed(this.id);
    await new Promise<void>((resolve, reject) => {
      stdin.write(data, (error) => (error ? reject(new InputClosed(this.id)) : resolve()));
    });
  }

  closeInput(): void {
    this.inputClosed = true;
    this.child?.stdin?.end();
  }

  pause(): boolean {
    if (this.pid === undefined || this.final || this.paused || this.termination) return false;
    if (!signalGroup(this.pid, 'SIGSTOP')) return false;
    this.paused = true;
    this.options.events.publish({ type: 'command_paused', ...this.eventHeader() });
    return true;
  }

  resume(): boolean {
    if (this.pid === undefined || this.final || !this.paused || this.termination) return false;
    if (!signalGroup(this.pid, 'SIGCONT')) return false;
    this.paused = false;
    this.options.events.publish({ type: 'command_resumed', ...this.eventHeader() });
    return true;
  }

  cancel(): boolean {
    if (this.final || this.termination) return false;
    void this.terminate('cancelled');
    return true;
  }

  /**
   * Kills the whole group, even when the leader is already gone (its background members may not be). A command
   * still running ends as `reason`. Resolves when the group is gone; safe to call repeatedly.
   */
  terminate(reason: TerminationReason): Promise<void> {
    if (!this.final && !this.termination) this.termination = reason;
    this.paused = false;
    this.clearDeadline();
    const groupId = this.pid;
    if (groupId === undefined || this.groupGone) return Promise.resolve();
    this.terminating ??= this.groupCheck ? this.endLeftovers(groupId, this.groupCheck) : this.killGroup(groupId);
    return this.terminating;
  }

  /**
   * The group check started with the outcome stops waiting for the group to empty by itself and looks it up now (a
   * /proc scan, shared with the other commands doing the same): for a server that is shutting down.
   */
  settleGroupCheckNow(): void {
    this.settleNow.abort();
  }

  private async killGroup(groupId: number): Promise<void> {
    this.groupGone = await terminateGroup(groupId, this.options.killGraceMs);
  }

  /**
   * After the outcome: whatever the leader left behind is asked to stop at once, and the check started with the
   * outcome (cheap until it gives up) says when the group is gone; only a group that outlasts it is killed. A
   * sandboxed command's usual leftover is bubblewrap's PID-namespace init waiting to be reaped, which a second poll
   * with its own /proc scan would only pay for again.
   */
  private async endLeftovers(groupId: number, groupCheck: Promise<void>): Promise<void> {
    signalGroup(groupId, 'SIGCONT');
    signalGroup(groupId, 'SIGTERM');
    await groupCheck;
    if (!this.groupGone) await this.killGroup(groupId);
  }

  private async deadlineReached(): Promise<void> {
    this.deadlineTimer = undefined;
    await this.terminate('timed_out');
  }

  /** Collects the launcher's set-up report; the outcome waits for it like it waits for stdout and stderr. */
  private captureSetupReport(child: ChildProcess, setupCompleted: (report: string) => boolean): void {
    const channel = child.stdio[4] as Readable | null | undefined;
    if (!channel) return;
    let report = '';
    this.setupReport = { completed: undefined };
    channel.setEncoding('utf8');
    channel.on('data', (text: string) => {
      report += text;
    });
    channel.on('close', () => {
      this.setupReport = { completed: setupCompleted(report) };
      if (this.exit && this.everythingCaptured()) this.finalize();
    });
  }

  /** Both output streams closed, and the set-up report (if any) complete. */
  private everythingCaptured(): boolean {
    const reported = this.setupReport === undefined || this.setupReport.completed !== undefined;
    return this.output.stdout.ended && this.output.stderr.ended && reported;
  }

  setupFailure(): string | undefined {
    // A launcher that was killed (timeout, cancel) never reports an exit code either: that is not a set-up failure.
    if (this.final === undefined || this.setupReport?.completed !== false || this.termination !== undefined)
      return undefined;
    if (this.exit?.signal !== null || this.exit.code === 0) return undefined;
    const lines = this.output.stderr.read(0, this.output.stderr.capturedBytes).text.trim().split('\n');
    return lines.at(-1) ?? 'the launcher failed before the command started';
  }

  private captureOutput(child: ChildProcess): void {
    this.captureStream('stdout', child.stdout);
    this.captureStream('stderr', child.stderr);
  }

  private captureStream(stream: OutputStream, readable: Readable | null): void {
    const buffer = this.output[stream];
    const spool = this.spools[stream];
    if (!readable) {
      buffer.end();
      spool.end();
      return;
    }
    // Flowing mode drains the pipe continuously, so a child is never blocked by a full pipe, even after the cap.
    const tap = stream === 'stdout' ? this.options.onStdout : undefined;
    readable.on('data', (chunk: Buffer) => {
      tap?.(chunk);
      buffer.append(chunk);
      spool.append(chunk);
      this.publishOutput(stream);
    });
    readable.on('close', () => {
      buffer.end();
      spool.end();
      this.publishOutput(stream);
      if (this.exit && this.everythingCaptured()) this.finalize();
    });
  }

  private publishOutput(stream: OutputStream): void {
    const buffer = this.output[stream];
    const from = this.publishedBytes[stream];
    const to = buffer.completeEnd();
    if (to <= from) return;
    this.publishedBytes[stream] = to;
    if (!this.options.events.hasListeners()) return;
    const text = buffer.read(from, to - from).text;
    this.options.events.publish({ type: 'output', stream, text, ...this.eventHeader() });
  }

  private leaderExited(code: number | null, signal: NodeJS.Signals | null): void {
    this.exit = { code, signal };
    if (this.everythingCaptured()) {
      this.finalize();
      return;
    }
    // Background members may hold the pipes open for a long time; the leader's outcome does not wait for them. The
    // timer is checked before the pipes are polled in each turn of the event loop, so when a turn ran longer than the
    // settle time (many calls at once) it would fire before output already waiting in the pipe is read: the outcome
    // is made final one poll later (setImmediate runs after the poll phase), with that output.
    this.settleTimer = setTimeout(() => setImmediate(() => this.finalize()), this.options.outputSettleMs).unref();
  }

  private failToStart(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.output.stderr.append(Buffer.from(`${message}\n`));
    this.spools.stderr.append(Buffer.from(`${message}\n`));
    this.output.stdout.end();
    this.output.stderr.end();
    this.spools.stdout.end();
    this.spools.stderr.end();
    this.publishOutput('stderr');
    this.exit = { code: null, signal: null };
    this.finalize();
  }

  private finalize(): void {
    if (this.final || !this.exit) return;
    clearTimeout(this.settleTimer);
    const { code, signal } = this.exit;
    const status: CommandStatus = this.termination ?? (code === 0 ? 'succeeded' : 'failed');
    this.final = { status, exitCode: code, signal, finishedAtMs: this.options.now() };
    this.runOnOpenChanges = this.finishConfinement();
    this.paused = false;
    this.groupCheck = this.noteWhetherGroupIsGone();
    const outcome = this.outcome();
    this.options.events.publish({ type: 'command_finished', outcome, ...this.eventHeader() });
    this.options.events.commandFinished();
    void (this.terminating ?? Promise.resolve()).then(() => this.resolveFinished(outcome));
  }

  /** The launcher has exited: the confinement releases its set-up and says what run-on-open paths changed. */
  private finishConfinement(): readonly string[] | undefined {
    const { finish } = this.options.confined;
    if (!finish) return undefined;
    try {
      return finish();
    } catch (error) {
      // Fail closed: a comparison that could not be made is reported as such, never as "nothing changed".
      return [`(could not compare the run-on-open files: ${error instanceof Error ? error.message : String(error)})`];
    }
  }

  /** The deadline stays armed only while background members outlive the leader. */
  private async noteWhetherGroupIsGone(): Promise<void> {
    if (this.pid !== undefined && (await groupIsAlive(this.pid, this.settleNow.signal))) return;
    this.groupGone = true;
    this.clearDeadline();
  }

  private clearDeadline(): void {
    clearTimeout(this.deadlineTimer);
    this.deadlineTimer = undefined;
  }

  private eventHeader(): { sessionId: string; commandId: string; at: string } {
    return { sessionId: this.options.sessionId, commandId: this.id, at: new Date(this.options.now()).toISOString() };
  }
}
