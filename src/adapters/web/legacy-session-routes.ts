import type { Router } from 'express';
import { SessionNotFound } from '../../domain/execution/execution-errors.js';
import { sendWebDomainError } from './web-error-reply.js';
import { principalFrom, type WebChat, type WebSessions } from './web-ports.js';

/**
 * `POST /sessions` → 201 `{session_id}`; `DELETE /sessions/:id` → 200 `{closed: true}` or 404 `unknown_session`.
 * Closing kills the session's processes and forgets its chat conversation (seed §7).
 */
export function mountLegacySessionRoutes(router: Router, sessions: WebSessions, chat: WebChat): void {
  router.post('/sessions', (_req, res) => {
    const sessionId = sessions.create(principalFrom(res.locals));
    res.status(201).json({ session_id: sessionId });
  });

  router.delete('/sessions/:sessionId', async (req, res) => {
    const { sessionId } = req.params;
    try {
      await sessions.close(sessionId);
    } catch (error) {
      if (!(error instanceof SessionNotFound)) throw error;
      sendWebDomainError(res, error);
      return;
    }
    chat.forget(sessionId);
    res.status(200).json({ closed: true });
  });
}
