import type { PlanningChat } from '../../application/chat/planning-chat.js';

/** The terminal sessions as the web routes see them (the composition root adapts the application's sessions). */
export interface WebSessions {
  /** Creates a session in the workspace for this principal; returns its id. Throws when the session cap is reached. */
  create(principal: string | undefined): string;
}

/** The planning chat as the chat route uses it. */
export type WebChat = Pick<PlanningChat, 'available' | 'send' | 'forget'>;

/** The principal the transport's auth middleware proved (`res.locals.principal`), when there is one. */
export function principalFrom(locals: Record<string, unknown>): string | undefined {
  const principal = locals.principal;
  return typeof principal === 'string' ? principal : undefined;
}
