import type { CapturedOutput } from './captured-output.js';
import type { InteractiveTerminal } from './interactive-terminal.js';
import type { CommandLaunch, CommandOutcome, ExecutionEvent, OutputChunk, OutputStream } from './execution-types.js';

/** One started command inside a session. */
export interface RunningCommand {
  readonly id: string;
  readonly pid: number | undefined;
  /** Present for a terminal session (a launch with `terminal`): its screen, keys and size. */
  readonly terminal?: InteractiveTerminal;
  outcome(): CommandOutcome;
  /**
   * Once finished: the confinement's own message when it could not be set up for this command (the command never
   * ran), else undefined.
   */
  setupFailure(): string | undefined;
  /** Resolves when the process group is gone and its outcome is final. */
  finished(): Promise<CommandOutcome>;
  read(stream: OutputStream, offset: number, maxBytes: number): OutputChunk;
  /** The whole output of a stream, by byte range (optional: a command that keeps only `read`'s capped capture). */
  capturedOutput?(stream: OutputStream): CapturedOutput;
  /** Deletes the kept output (its spool files); later reads of it fail. Idempotent. */
  discardOutput?(): void;
  /** Writes to the command's stdin. Throws when the command has ended or stdin was closed. */
  writeInput(data: string): Promise<void>;
  closeInput(): void;
  /** SIGSTOP / SIGCONT to the whole process group; false when not applicable (not running, already paused). */
  pause(): boolean;
  resume(): boolean;
  /** Terminates the whole process group (TERM, then KILL after a grace period). False when already ended. */
  cancel(): boolean;
}

/**
 * Port: an execution session, an application handle (not an MCP transport session) with its own cwd,
 * scrubbed environment and running processes. Closing it kills every process group it started.
 */
export interface ExecutionSession {
  readonly id: string;
  readonly createdAt: string;
  /** Default working directory (absolute, inside the workspace). */
  readonly cwd: string;
  /** Milliseconds since the epoch of the last use; the terminal session store expires idle sessions from it. */
  lastActivityMs(): number;
  touch(): void;
  /** Starts a command. Throws a typed error when the per-session process limit is reached. */
  start(launch: CommandLaunch, commandText: string): RunningCommand;
  command(commandId: string): RunningCommand | undefined;
  commands(): readonly RunningCommand[];
  /** Subscribes to this session's events; returns the unsubscribe function. */
  subscribe(listener: (event: ExecutionEvent) => void): () => void;
  publish(event: ExecutionEvent): void;
  /**
   * Kills every process the session started and resolves once they are gone. `promptly` (the server is shutting
   * down): do not wait for a patient, cheap check to see a group empty; look it up now (a closing session too).
   */
  close(options?: { readonly promptly?: boolean }): Promise<void>;
  readonly closed: boolean;
}

export interface ExecutionSessionFactory {
  create(options: { id: string; cwd: string }): ExecutionSession;
}
