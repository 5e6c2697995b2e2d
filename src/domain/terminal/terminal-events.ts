import type { ExecutionEvent } from '../execution/execution-types.js';

/**
 * The plan and command events of terminal sessions, as the UI's current event stream reads them. The application
 * publishes (plans, approvals, commands); an adapter (the web event stream) subscribes. A port, so the stream does
 * not reach into the process adapter's listener set.
 */
export interface TerminalEvents {
  /**
   * Every later event of one terminal session, in order, until the returned function is called. Returns undefined
   * when no live session has this id (the caller answers `session_not_found`).
   */
  subscribe(sessionId: string, listener: (event: ExecutionEvent) => void): (() => void) | undefined;
  /** Hands one event to the subscribers of its session. */
  publish(event: ExecutionEvent): void;
}
