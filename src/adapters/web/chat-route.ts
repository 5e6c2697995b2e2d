import express, { type RequestHandler } from 'express';
import { ChatRequestSchema } from '../../application/chat/chat-request.js';
import type { PlannedCommand } from '../../application/chat/command-planner.js';
import { ChatNotConfigured } from '../../domain/chat/chat-errors.js';
import { InvalidArgument } from '../../domain/errors.js';
import { principalFrom, type WebChat, type WebSessions } from './web-ports.js';

export interface ChatRouteOptions {
  readonly chat: WebChat;
  /** Opens the session of a first question that names none, owned by the caller (so its MCP tools see it). */
  readonly sessions: Pick<WebSessions, 'create'>;
  readonly maxRequestBytes: number;
}

/**
 * `POST … {message, session_id?}` → 200 `{message, session_id, plans}`, mounted at `POST /ui/chat`. The reply is
 * text; `plans` are the commands it suggested, planned by the policy and never run. Typed errors go to the router's
 * error handler: 400 `invalid_request`, 404 `unknown_session`, 503 `chat_not_configured`, 502 `chat_unavailable`
 * (short message, never the provider's body). Returns the body parser and the handler, in order.
 */
export function chatHandlers({ chat, sessions, maxRequestBytes }: ChatRouteOptions): RequestHandler[] {
  // A no-op when the transport already read the body.
  const body = express.json({ limit: maxRequestBytes, type: () => true });
  const handler: RequestHandler = async (req, res) => {
    const parsed = ChatRequestSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw new InvalidArgument(parsed.error.issues[0]?.message ?? 'invalid request');
    // Checked before a session is opened, so a chat without a model leaves nothing behind.
    if (!chat.available) throw new ChatNotConfigured();
    const sessionId = parsed.data.session_id ?? sessions.create(principalFrom(res.locals));
    // A client that hangs up stops the provider request too.
    const abandoned = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abandoned.abort();
    });
    const turn = await chat.send({ ...parsed.data, session_id: sessionId }, abandoned.signal);
    res.status(200).json({ message: turn.message, session_id: turn.sessionId, plans: turn.plans.map(wirePlan) });
  };
  return [body, handler];
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
