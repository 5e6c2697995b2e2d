import { DomainError } from '../errors.js';
import type { CommandStatus, OutputStream } from './execution-types.js';

/*
 * Errors of execution sessions and the commands running in them. Messages of the session errors keep the seed's
 * wording ("unknown or expired session", ...) because clients already match on them. Next steps name no MCP tool: the
 * tool layer attaches the tool-naming ones (application/tools/tool-next-steps.ts).
 */

/** No live session with this id: never created, closed, or expired after being idle. */
export class SessionNotFound extends DomainError {
  readonly code = 'session_not_found';
  constructor(sessionId: string) {
    super(
      'unknown or expired session',
      { sessionId },
      'Start a new session (plan the command again without a session_id) and use the id it returns.',
    );
  }
}

/** What the next step of an ended session says: every ended session is replaced the same way. */
const NEW_SESSION_NEXT_STEP = 'Start a new session (plan without a session_id) and use the session_id it returns.';

/** Why a session the server knew is gone (closing one on request forgets it: its id is then `session_not_found`). */
export type SessionEndReason = 'idle_timeout' | 'evicted' | 'one_shot_finished';

/** The session ended on its own: idle for longer than SESSION_TIMEOUT, or a one-shot session whose command finished. */
export class SessionExpired extends DomainError {
  readonly code = 'session_expired';
  constructor(sessionId: string, reason: Exclude<SessionEndReason, 'evicted'>) {
    super(
      reason === 'one_shot_finished'
        ? 'one-shot session ended: it ended when its command finished (its receipt and output stay readable for a while)'
        : 'session expired: it was idle for longer than the session timeout',
      { sessionId, reason },
      NEW_SESSION_NEXT_STEP,
    );
  }
}

/** The session was idle and the least recently used when a new one needed its place (the cap was reached). */
export class SessionEvicted extends DomainError {
  readonly code = 'session_evicted';
  constructor(sessionId: string) {
    super(
      'session evicted: it was the least recently used idle session when the session cap was reached',
      { sessionId, reason: 'evicted' },
      NEW_SESSION_NEXT_STEP,
    );
  }
}

const SESSION_LIMIT_NEXT_STEP = {
  principal:
    'Every one of your sessions is running a command: wait for one to finish, or cancel one, then retry; or plan in an existing session_id.',
  server:
    'Every session of the server is running a command: wait for one to finish, or cancel one of yours, then retry.',
  queue: 'Too many of your calls are already waiting for a session: wait for some of them to answer, then retry.',
} as const;

/**
 * Every session within the cap runs a command, so none can make room (idle sessions are evicted instead); or, for a
 * call that waits for room (`queue`), the bounded queue of waiting calls is full.
 */
export class SessionLimitReached extends DomainError {
  readonly code = 'session_limit_reached';
  constructor(maxSessions: number, scope: 'server' | 'principal' | 'queue', maxWaiting?: number) {
    super(
      scope === 'queue'
        ? 'maximum concurrent sessions reached, and the queue of calls waiting for one is full'
        : 'maximum concurrent sessions reached',
      scope === 'queue' ? { maxSessions, scope, maxWaiting } : { maxSessions, scope },
      SESSION_LIMIT_NEXT_STEP[scope],
    );
  }
}

/** The session already runs as many commands as it may. */
export class ProcessLimitReached extends DomainError {
  readonly code = 'process_limit_reached';
  constructor(limit: number) {
    super(
      limit === 1
        ? 'another command is already running in this session'
        : `this session already runs the maximum of ${limit} commands`,
      { limit },
      'Wait for the running command to finish, or cancel it, then retry.',
    );
  }
}

export class CommandNotFound extends DomainError {
  readonly code = 'command_not_found';
  constructor(commandId: string) {
    super(
      'unknown command in this session',
      { commandId },
      'Use a command id returned by this session; old finished commands are forgotten.',
    );
  }
}

/** The command has already ended, so it cannot take input or signals any more. */
export class CommandNotRunning extends DomainError {
  readonly code = 'command_not_running';
  constructor(commandId: string, status: CommandStatus) {
    super(
      `command is not running (status: ${status})`,
      { commandId, status },
      'Read its output or outcome instead, or start the command again.',
    );
  }
}

/** stdin of the command was closed (by `closeInput` or because the process stopped reading). */
export class InputClosed extends DomainError {
  readonly code = 'input_closed';
  constructor(commandId: string) {
    super(
      'the input of this command is closed',
      { commandId },
      'Input can only be sent before it is closed; start the command again to send more.',
    );
  }
}

/** A read of captured output outside the bytes captured so far. */
export class OutputRangeInvalid extends DomainError {
  readonly code = 'output_range_invalid';
  constructor(stream: OutputStream, offset: number, maxBytes: number, capturedBytes: number) {
    super(
      `cannot read ${stream} at offset ${offset} (max ${maxBytes} bytes): ${capturedBytes} bytes captured`,
      { stream, offset, maxBytes, capturedBytes },
      'Read from offset 0 or from the nextOffset of the previous read, with a positive maxBytes.',
    );
  }
}

/**
 * The sandbox started for this command could not be set up (bwrap refused a mount: a link planted where it binds a
 * protected path, say): this command never ran; the sandbox itself works (that is `sandbox_unavailable`).
 */
export class SandboxSetupFailed extends DomainError {
  readonly code = 'sandbox_setup_failed';
  constructor(commandId: string, launcherMessage: string) {
    super(
      `the sandbox could not be set up for this command, which did not run: ${launcherMessage}`,
      { commandId, launcherMessage },
      SETUP_FAILED_NEXT_STEP,
    );
  }
}

const SETUP_FAILED_NEXT_STEP =
  "The message is bubblewrap's own and names the path it could not set up: most often a working directory the " +
  'sandbox cannot enter (its permissions) or a path that changed while the sandbox was being made. Links and files in ' +
  'the workspace do not cause this. Fix that path, or ask the user to, then retry the plan.';

/** The OS sandbox cannot start here, so no command may run (fail closed rather than run unconfined). */
export class SandboxUnavailable extends DomainError {
  readonly code = 'sandbox_unavailable';
  constructor(reason: string, fix: string) {
    super(`the command sandbox is unavailable: ${reason}`, { reason }, fix);
  }
}
