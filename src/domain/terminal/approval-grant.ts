import type { ApprovalBinding, ApprovalChannel, ApprovalGrant } from './approval-types.js';
import { ApprovalExpired, ApprovalMismatch, ApprovalNotFound } from './terminal-errors.js';

/** The wire form of an instant (ISO 8601 UTC with milliseconds). */
function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}

export function grantExpired(grant: ApprovalGrant, nowMs: number): boolean {
  return nowMs >= grant.expiresAtMs;
}

/** The grant approved now through `via`; an expired grant cannot be approved. */
export function approvedGrant(grant: ApprovalGrant, via: ApprovalChannel, nowMs: number): ApprovalGrant {
  if (grantExpired(grant, nowMs)) throw new ApprovalExpired(grant.id, grant.planId, isoAt(grant.expiresAtMs));
  return { ...grant, approvedAtMs: nowMs, approvedVia: via };
}

/** The grant used by the execution that started now: it can never be presented again. */
export function consumedGrant(grant: ApprovalGrant, nowMs: number): ApprovalGrant {
  return { ...grant, consumedAtMs: nowMs };
}

/**
 * Execute-time check: the plan's approval was given, is unused and unexpired, and is bound to exactly this session,
 * plan, command and cwd.
 */
export function assertGrantUsable(
  grant: ApprovalGrant | undefined,
  planId: string,
  current: ApprovalBinding,
  nowMs: number,
): void {
  if (!grant || grant.approvedAtMs === null || grant.consumedAtMs !== null)
    throw new ApprovalNotFound(grant?.id ?? planId);
  if (grantExpired(grant, nowMs)) throw new ApprovalExpired(grant.id, planId, isoAt(grant.expiresAtMs));
  if (grant.sessionId !== current.sessionId) throw new ApprovalMismatch(grant.id, planId, 'session');
  if (grant.planId !== current.planId) throw new ApprovalMismatch(grant.id, planId, 'plan');
  if (grant.command !== current.command) throw new ApprovalMismatch(grant.id, planId, 'command');
  if (grant.cwd !== current.cwd) throw new ApprovalMismatch(grant.id, planId, 'cwd');
}
