import type { Router } from 'express';
import type { LegacyChat, LegacySessions } from './legacy-web-ports.js';

/**
 * `POST /sessions` → 201 `{session_id}`; `DELETE /sessions/:id` → 200 `{closed: true}`, or the router's error handler
 * answers the `SessionNotFound` (404 `unknown_session`). Closing kills the session's processes and forgets its chat
 * conversation (seed §7).
 */
export function mountLegacySessionRoutes(router: Router, sessions: LegacySessions, chat: LegacyChat): void {
  router.post('/sessions', (_req, res) => {
    const sessionId = sessions.create(principalFrom(res.locals));
    res.status(201).json({ session_id: sessionId });
  });

  router.delete('/sessions/:sessionId', async (req, res) => {
    const { sessionId } = req.params;
    await sessions.close(sessionId);
    chat.forget(sessionId);
    res.status(200).json({ closed: true });
  });
}

/** The principal the transport's auth middleware proved (`res.locals.principal`), when there is one. */
function principalFrom(locals: Record<string, unknown>): string | undefined {
  const principal = locals.principal;
  return typeof principal === 'string' ? principal : undefined;
}
