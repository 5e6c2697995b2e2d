import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import type { PendingApproval } from '../../application/terminal/approval-service.js';
import type { TerminalPlan } from '../../domain/terminal/terminal-plan.js';
import { sendWebError, webErrorHandler } from './web-error-reply.js';

/** What the operator routes need from the approval service. */
export interface OperatorApprovals {
  approveAsOperator(approvalId: string): TerminalPlan;
  pending(): PendingApproval[];
}

export interface OperatorRouterOptions {
  /** TERM_MCP_OPERATOR_TOKEN. Unset: the operator routes do not exist (404). */
  readonly operatorToken: string | undefined;
  readonly approvals: OperatorApprovals;
}

/**
 * The human approval channel, deliberately separate from MCP: `Authorization: Bearer <TERM_MCP_OPERATOR_TOKEN>`,
 * never the MCP token, so a model holding the MCP token cannot approve its own plans.
 * `GET /operator/approvals` lists pending approvals; `POST /operator/approvals/:approvalId` approves one.
 * Not deprecated: this is the operator channel of `TERM_MCP_APPROVAL=operator`.
 */
export function createOperatorRouter(options: OperatorRouterOptions): Router {
  const router = Router();
  router.use('/operator', operatorAuth(options.operatorToken));
  router.get('/operator/approvals', (_req, res) => {
    res.status(200).json({ approvals: options.approvals.pending().map(wirePending) });
  });
  router.post('/operator/approvals/:approvalId', (req, res) => {
    const plan = options.approvals.approveAsOperator(req.params.approvalId);
    res.status(200).json({
      approved: true,
      approval_id: req.params.approvalId,
      plan_id: plan.id,
      session_id: plan.sessionId,
      command: plan.command,
      approved_at: plan.approvedAt,
    });
  });
  router.use('/operator', webErrorHandler());
  return router;
}

function operatorAuth(operatorToken: string | undefined): RequestHandler {
  const expected = operatorToken === undefined ? undefined : sha256(operatorToken);
  return (req, res, next) => {
    if (expected === undefined) {
      sendWebError(res, 404, 'not_found', 'No operator token is configured (TERM_MCP_OPERATOR_TOKEN)');
      return;
    }
    const presented = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '')?.[1];
    // Hashing both sides first makes the comparison constant-time whatever the guess's length.
    if (presented === undefined || !timingSafeEqual(sha256(presented), expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="term-mcp-operator"');
      sendWebError(res, 401, 'unauthorized', 'Send Authorization: Bearer <TERM_MCP_OPERATOR_TOKEN>');
      return;
    }
    next();
  };
}

function wirePending(approval: PendingApproval): Record<string, unknown> {
  return {
    approval_id: approval.approvalId,
    session_id: approval.sessionId,
    plan_id: approval.planId,
    command: approval.command,
    cwd: approval.cwd,
    risk: approval.risk,
    reasons: [...approval.reasons],
    expires_at: approval.expiresAt,
  };
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
