import type { LaunchForm } from '../policy/policy-types.js';
import type { TerminalSize } from './interactive-terminal.js';

export type CommandStatus = 'running' | 'paused' | 'succeeded' | 'failed' | 'timed_out' | 'cancelled';
export type OutputStream = 'stdout' | 'stderr';

/** Everything needed to start one command. The policy has already allowed it. */
export interface CommandLaunch {
  readonly launch: LaunchForm;
  /** Absolute, inside the workspace. */
  readonly cwd: string;
  readonly timeoutMs: number;
  /** Per stream; bytes beyond it are dropped and `truncated` is set. */
  readonly maxOutputBytes: number;
  /** `open`: stdin is a pipe for `writeInput`; `closed` (the default): the command reads end-of-file at once. */
  readonly stdin?: 'open' | 'closed';
  /** A terminal session: the command runs on a pseudo-terminal of this size inside its confinement (stdin open). */
  readonly terminal?: TerminalSize;
}

/** A slice of captured output, read from a byte offset. */
export interface OutputChunk {
  readonly stream: OutputStream;
  /** UTF-8 text of the bytes in [offset, nextOffset). A multi-byte character is never split. */
  readonly text: string;
  readonly offset: number;
  readonly nextOffset: number;
  /** Bytes captured so far (capped at maxOutputBytes). */
  readonly capturedBytes: number;
  /** The stream produced more than maxOutputBytes; the rest was dropped. */
  readonly truncated: boolean;
  /** No more bytes will ever arrive on this stream (the process ended and everything was read). */
  readonly complete: boolean;
}

/** A running or paused command (or plan): it still holds its processes. The one test for it. */
export function isLiveStatus(status: string): status is 'running' | 'paused' {
  return status === 'running' || status === 'paused';
}

export interface CommandOutcome {
  readonly status: CommandStatus;
  readonly exitCode: number | null;
  /** Signal name that ended the process (e.g. `SIGKILL`), if any. */
  readonly signal: string | null;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly durationMs: number | null;
  readonly truncated: boolean;
  /** Run-on-open paths the command changed (see `ConfinedLaunch.finish`); absent where none were compared. */
  readonly runOnOpenChanges?: readonly string[];
}

/** Execution events a session publishes (the web adapter streams them as SSE). */
export type ExecutionEvent =
  | { type: 'command_started'; sessionId: string; commandId: string; command: string; at: string }
  | { type: 'output'; sessionId: string; commandId: string; stream: OutputStream; text: string; at: string }
  | { type: 'command_paused' | 'command_resumed'; sessionId: string; commandId: string; at: string }
  | { type: 'command_finished'; sessionId: string; commandId: string; outcome: CommandOutcome; at: string }
  | {
      type: 'policy_decision';
      sessionId: string;
      command: string;
      verdict: string;
      reasons: readonly string[];
      at: string;
    }
  | { type: 'plan' | 'approved'; sessionId: string; planId: string; at: string }
  | { type: 'session_closed'; sessionId: string; at: string };
