/**
 * Who may turn an `approval_id` into an approval. `client`: the MCP client, whose user confirms the
 * approve tool call. `operator`: only a human through the operator route; the MCP tool refuses.
 */
export type ApprovalChannel = 'client' | 'operator';

/** What an approval is bound to: exactly one plan of one session, for one command in one directory. */
export interface ApprovalBinding {
  readonly sessionId: string;
  readonly planId: string;
  readonly command: string;
  readonly cwd: string;
}

/**
 * A single-use, expiring approval slot issued with a plan that needs approval. A value: approving or using it
 * replaces the plan's grant with a new one (`approvedGrant`, `consumedGrant`), never changes it in place.
 */
export interface ApprovalGrant extends ApprovalBinding {
  readonly id: string;
  readonly issuedAtMs: number;
  readonly expiresAtMs: number;
  readonly approvedAtMs: number | null;
  readonly approvedVia: ApprovalChannel | null;
  /** Set when the execution it allowed started: an approval is used once. */
  readonly consumedAtMs: number | null;
}
