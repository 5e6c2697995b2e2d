import type { Router } from 'express';
import { ChatRequestSchema } from '../../application/chat/chat-request.js';
import type { PlannedCommand } from '../../application/chat/command-planner.js';
import { InvalidArgument } from '../../domain/errors.js';
import { sendWebDomainError } from './web-error-reply.js';
import type { WebChat } from './web-ports.js';

/**
 * `POST /chat` `{message, session_id?}` → 200 `{message, session_id, plans}`. The reply is text; `plans` are the
 * commands it suggested, planned by the policy and never run. Errors: 400 `invalid_request`, 404 `unknown_session`,
 * 503 `chat_not_configured`, 502 `chat_unavailable` (short message, never the provider's body).
 */
export function mountChatRoute(router: Router, chat: WebChat): void {
  router.post('/chat', async (req, res) => {
    const parsed = ChatRequestSchema.safeParse(req.body ?? {});
    if (!parsed.success) {
      sendWebDomainError(res, new InvalidArgument(parsed.error.issues[0]?.message ?? 'invalid request'));
      return;
    }
    // A client that hangs up stops the provider request too.
    const abandoned = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abandoned.abort();
    });
    const turn = await chat.send(parsed.data, abandoned.signal);
    res.status(200).json({ message: turn.message, session_id: turn.sessionId, plans: turn.plans.map(wirePlan) });
  });
}

function wirePlan(plan: PlannedCommand): Record<string, unknown> {
  return {
    command: plan.command,
    plan_id: plan.planId ?? null,
    status: plan.status,
    verdict: plan.verdict,
    risk: plan.risk,
    requires_approval: plan.requiresApproval,
    reasons: [...plan.reasons],
  };
}
