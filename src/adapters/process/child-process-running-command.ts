import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
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
import { OutputBuffer } from './output-buffer.js';
import { groupIsAlive, signalGroup, terminateGroup } from './process-group.js';

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
  private readonly child: ChildProcess | undefined;
  private readonly startedAtMs: number;
  private readonly output: Record<OutputStream, OutputBuffer>;
  /** Per stream: bytes already published as output events (or skipped while nobody listened). */
  private readonly publishedBytes: Record<OutputStream, number> = { stdout: 0, stderr: 0 };
  private readonly finishedPromise: Promise<CommandOutcome>;
  private resolveFinished: (outcome: CommandOutcome) => void = () => undefined;
  private exit: { code: number | null; signal: string | null } | undefined;
  private final: FinalState | undefined;
  private runOnOpenChanges: readonly string[] | undefined;
  private termination: TerminationReason | undefined;
  private terminating: Promise<void> | undefined;
  private paused = false;
  /** Set once no process of the group is left: from then on its id may belong to someone else and is never signalled. */
  private groupGone = false;
  private inputClosed = false;
  private deadlineTimer: NodeJS.Timeout | undefined;
  private settleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ChildProcessCommandOptions) {
    this.id = options.id;
    this.startedAtMs = options.now();
    const limit = options.launch.maxOutputBytes;
    this.output = { stdout: new OutputBuffer(limit), stderr: new OutputBuffer(limit) };
    this.finishedPromise = new Promise((resolve) => {
      this.resolveFinished = resolve;
    });
    options.events.publish({ type: 'command_started', command: options.commandText, ...this.eventHeader() });

    const { file, args, cwd, environment } = options.confined;
    let child: ChildProcess;
    try {
      child = spawn(file, [...args], {
        cwd,
        env: environment,
        detached: true,
        // A closed stdin is /dev/null (the seed's DEVNULL): no pipe to create and shut for most commands.
        stdio: [options.launch.stdin === 'open' ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      });
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
    const valid =
      Number.isSafeInteger(offset) && Number.isSafeInteger(maxBytes) && offset >= 0 && maxBytes > 0;
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
    if (this.pid === undefined || this.groupGone) return Promise.resolve();
    this.terminating ??= this.killGroup(this.pid);
    return this.terminating;
  }

  private async killGroup(groupId: number): Promise<void> {
    this.groupGone = await terminateGroup(groupId, this.options.killGraceMs);
  }

  private async deadlineReached(): Promise<void> {
    this.deadlineTimer = undefined;
    await this.terminate('timed_out');
  }

  private captureOutput(child: ChildProcess): void {
    this.captureStream('stdout', child.stdout);
    this.captureStream('stderr', child.stderr);
  }

  private captureStream(stream: OutputStream, readable: Readable | null): void {
    const buffer = this.output[stream];
    if (!readable) {
      buffer.end();
      return;
    }
    // Flowing mode drains the pipe continuously, so a child is never blocked by a full pipe, even after the cap.
    readable.on('data', (chunk: Buffer) => {
      buffer.append(chunk);
      this.publishOutput(stream);
    });
    readable.on('close', () => {
      buffer.end();
      this.publishOutput(stream);
      if (this.exit && this.output.stdout.ended && this.output.stderr.ended) this.finalize();
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
    if (this.output.stdout.ended && this.output.stderr.ended) {
      this.finalize();
      return;
    }
    // Background members may hold the pipes open for a long time; the leader's outcome does not wait for them.
    this.settleTimer = setTimeout(() => this.finalize(), this.options.outputSettleMs).unref();
  }

  private failToStart(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.output.stderr.append(Buffer.from(`${message}\n`));
    this.output.stdout.end();
    this.output.stderr.end();
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
    void this.noteWhetherGroupIsGone();
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
    if (this.pid !== undefined && (await groupIsAlive(this.pid))) return;
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
