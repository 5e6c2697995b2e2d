import type { ConfinementSummary } from '../execution/command-confinement.js';
import type { RunningCommand } from '../execution/execution-session.js';
import type { TerminalSize } from '../execution/interactive-terminal.js';
import type { PolicyDecision, PolicyMode } from '../policy/policy-types.js';
import { approvedGrant, consumedGrant } from './approval-grant.js';
import type { ApprovalChannel, ApprovalGrant } from './approval-types.js';
import type { FinalPlanStatus, PlanLimits, PlanStatus } from './plan-types.js';
import { ApprovalRequired, InvalidPlanTransition, PlanBlocked, PlanRunning } from './terminal-errors.js';

/** What is fixed about a plan when it is planned: the command, where, the policy's decision and the bounds. */
export interface PlanFacts {
  readonly id: string;
  readonly sessionId: string;
  readonly command: string;
  /** Absolute and resolved (no symlinks), inside the workspace. */
  readonly cwd: string;
  readonly mode: PolicyMode;
  readonly createdAt: string;
  readonly decision: PolicyDecision;
  readonly limits: PlanLimits;
  /** The OS confinement the command will run in (copied into its receipt). */
  readonly confinement: ConfinementSummary | undefined;
  /** Issued with the plan, only when the decision requires approval. */
  readonly approval: ApprovalGrant | undefined;
  /** A terminal session (issue 24): the command runs on a pseudo-terminal of this size. */
  readonly terminal?: TerminalSize;
}

/** What a started plan knows of its command: its id and its live status (running or paused). */
export type PlanCommand = Pick<RunningCommand, 'id' | 'outcome'>;

/**
 * One command judged by the policy in one session (seed §3.3), and the only place its status changes:
 *   planned -> approved -> running <-> paused -> succeeded | failed | cancelled | timed_out; blocked is final.
 * Each transition checks the current status and refuses with the seed's error (planning never executes anything;
 * a plan executes at most once). Once started, running or paused is read from its command (never copied); the
 * final status is its receipt's. Its approval grant is a value, replaced when approved and when used.
 * Changed only through its `TerminalSession`, which records the events.
 */
export class TerminalPlan implements PlanFacts {
  readonly id: string;
  readonly sessionId: string;
  readonly command: string;
  readonly cwd: string;
  readonly mode: PolicyMode;
  readonly createdAt: string;
  readonly decision: PolicyDecision;
  readonly limits: PlanLimits;
  readonly confinement: ConfinementSummary | undefined;
  private grant: ApprovalGrant | undefined;
  /** Before it starts: planned, approved or blocked. */
  private unstartedStatus: PlanStatus;
  readonly terminal: TerminalSize | undefined;
  private approvedAtIso: string | null = null;
  private startedCommand: PlanCommand | null = null;
  private finalStatus: FinalPlanStatus | null = null;

  constructor(facts: PlanFacts) {
    this.id = facts.id;
    this.sessionId = facts.sessionId;
    this.command = facts.command;
    this.cwd = facts.cwd;
    this.mode = facts.mode;
    this.createdAt = facts.createdAt;
    this.decision = facts.decision;
    this.limits = facts.limits;
    this.confinement = facts.confinement;
    this.grant = facts.approval;
    this.unstartedStatus = facts.decision.verdict === 'deny' ? 'blocked' : 'planned';
    this.terminal = facts.terminal;
  }

  get status(): PlanStatus {
    if (this.finalStatus !== null) return this.finalStatus;
    if (this.startedCommand === null) return this.unstartedStatus;
    // Until its receipt is recorded the plan is live, whatever its command's process did meanwhile.
    return this.startedCommand.outcome().status === 'paused' ? 'paused' : 'running';
  }

  /** Issued with the plan, only when the decision requires approval; replaced when approved and when used. */
  get approval(): ApprovalGrant | undefined {
    return this.grant;
  }

  get approvedAt(): string | null {
    return this.approvedAtIso;
  }

  /** The command started from this plan, once it executed. */
  get commandId(): string | null {
    return this.startedCommand?.id ?? null;
  }

  get requiresApproval(): boolean {
    return this.decision.verdict === 'approval_required';
  }

  /** Its command runs (or is paused): it cannot be retried, and is never forgotten. */
  get isLive(): boolean {
    return this.startedCommand !== null && this.finalStatus === null;
  }

  /** Approving is allowed only from `planned`; a blocked plan says so with its reasons. */
  assertApprovable(): void {
    const status = this.status;
    if (status === 'blocked') throw new PlanBlocked(this.id, 'approved', this.decision.reasons);
    if (status !== 'planned') throw new InvalidPlanTransition(this.id, status, 'approve');
  }

  /** Approved at `nowMs` through `via`: its grant (if it has one) is replaced by the approved one; an expired one refuses. */
  approve(nowMs: number, via: ApprovalChannel): void {
    this.assertApprovable();
    if (this.grant) this.grant = approvedGrant(this.grant, via, nowMs);
    this.unstartedStatus = 'approved';
    this.approvedAtIso = new Date(nowMs).toISOString();
  }

  /**
   * Seed order, except that a plan that already ran reports "cannot execute from <status>" even when it needed
   * approval (the seed says "requires explicit approval", which sends the model to approve a finished plan).
   * `approvalNextStep` says what to do about a missing approval (it depends on who may approve).
   */
  assertExecutable(approvalNextStep: () => string): void {
    const status = this.status;
    if (status === 'blocked') throw new PlanBlocked(this.id, 'executed', this.decision.reasons);
    if (status !== 'planned' && status !== 'approved') throw new InvalidPlanTransition(this.id, status, 'execute');
    if (this.requiresApproval && status !== 'approved') {
      throw new ApprovalRequired(this.id, this.sessionId, this.grant?.id, approvalNextStep());
    }
  }

  /** The plan's command has started at `nowMs`: from now on its live status is the command's; its approval is used. */
  start(command: PlanCommand, nowMs: number, approvalNextStep: () => string): void {
    this.assertExecutable(approvalNextStep);
    this.startedCommand = command;
    if (this.grant) this.grant = consumedGrant(this.grant, nowMs);
  }

  /** The command ended: the plan takes the receipt's status. Only a started plan finishes. */
  finish(status: FinalPlanStatus): void {
    if (!this.isLive) throw new InvalidPlanTransition(this.id, this.status, 'finish');
    this.finalStatus = status;
  }

  assertRetryable(): void {
    if (this.isLive) throw new PlanRunning(this.id, this.status);
  }
}
