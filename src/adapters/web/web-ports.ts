import type { PlanningChat } from '../../application/chat/planning-chat.js';
import type { ExecutionSession } from '../../domain/execution/execution-session.js';

/** What `/stream` needs of a live session: its id, whether it closed, and its events (plans and commands). */
export type StreamedSession = Pick<ExecutionSession, 'id' | 'closed' | 'subscribe'>;

/** The terminal sessions as the web routes see them (the composition root adapts the session store). */
export interface WebSessions {
  /** Creates a session in the workspace for this principal; returns its id. Throws when the session cap is reached. */
  create(principal: string | undefined): string;
  find(sessionId: string): StreamedSession | undefined;
  /** Closes it and kills its processes. Throws `SessionNotFound` for an unknown id. */
  close(sessionId: string): Promise<void>;
}

/** The planning chat as the `/chat` route uses it. */
export type WebChat = Pick<PlanningChat, 'available' | 'send' | 'forget'>;

/** The principal the transport's auth middleware proved (`res.locals.principal`), when there is one. */
export function principalFrom(locals: Record<string, unknown>): string | undefined {
  const principal = locals.principal;
  return typeof principal === 'string' ? principal : undefined;
}
