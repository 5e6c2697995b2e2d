import type { SessionRegistry } from '../application/sessions/session-registry.js';
import type { ExecutionEvent } from '../domain/execution/execution-types.js';
import type { TerminalEvents } from '../domain/terminal/terminal-events.js';
import { typedModule } from './typed-module.js';
import { TYPES } from './types.js';

/**
 * A stop-gap `TerminalEvents` over today's source of those events: each execution session's own listener set
 * (`ExecutionSession.subscribe` / `publish`), found in the session registry. The UI's event stream reads the port,
 * never a session, so when the terminal store feeds the port itself this file and its line in `modules/index.ts`
 * go, and its binding of `TYPES.TerminalEvents` takes over.
 */
export class RegistryTerminalEvents implements TerminalEvents {
  constructor(private readonly registry: Pick<SessionRegistry, 'find'>) {}

  subscribe(sessionId: string, listener: (event: ExecutionEvent) => void): (() => void) | undefined {
    // `find` does not mark the session as used: a watching page does not keep an idle session alive.
    const session = this.registry.find(sessionId);
    // A closing session has already said `session_closed`; a new subscriber would wait for nothing.
    if (session === undefined || session.closed) return undefined;
    return session.subscribe(listener);
  }

  publish(event: ExecutionEvent): void {
    this.registry.find(event.sessionId)?.publish(event);
  }
}

export const registryTerminalEventsModule = typedModule(({ bind }) => {
  bind(TYPES.TerminalEvents).toResolvedValue((registry: SessionRegistry) => new RegistryTerminalEvents(registry), [TYPES.SessionRegistry]);
});
