import type { ConfinementSummary } from '../execution/command-confinement.js';
import type { TerminalSize } from '../execution/interactive-terminal.js';
import type { PolicyDecision, PolicyMode } from '../policy/policy-types.js';
import type { ApprovalGrant } from './approval-types.js';
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

/**
 * One command judged by the policy in one session (seed §3.3), and the only place its status changes:
 *   planned -> approved -> running <-> paused -> succeeded | failed | cancelled | timed_out; blocked is final.
 * Each transition checks the current status and refuses with the seed's error (planning never executes anything;
 * a plan executes at most once).
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
  readonly approval: ApprovalGrant | undefined;
  readonly terminal: TerminalSize | undefined;
  private currentStatus: PlanStatus;
  private approvedAtIso: string | null = null;
  private startedCommandId: string | null = null;

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
    this.approval = facts.approval;
    this.terminal = facts.terminal;
    this.currentStatus = facts.decision.verdict === 'deny' ? 'blocked' : 'planned';
  }

  get status(): PlanStatus {
    return this.currentStatus;
  }

  get approvedAt(): string | null {
    return this.approvedAtIso;
  }

  /** The command started from this plan, once it executed. */
  get commandId(): string | null {
    return this.startedCommandId;
  }

  get requiresApproval(): boolean {
    return this.decision.verdict === 'approval_required';
  }

  /** Its command runs (or is paused): it cannot be retried, and is never forgotten. */
  get isLive(): boolean {
    return this.currentStatus === 'running' || this.currentStatus === 'paused';
  }

  /** Approving is allowed only from `planned`; a blocked plan says so with its reasons. */
  assertApprovable(): void {
    if (this.currentStatus === 'blocked') throw new PlanBlocked(this.id, 'approved', this.decision.reasons);
    if (this.currentStatus !== 'planned') throw new InvalidPlanTransition(this.id, this.currentStatus, 'approve');
  }

  approve(at: string): void {
    this.assertApprovable();
    this.currentStatus = 'approved';
    this.approvedAtIso = at;
  }

  /**
   * Seed order, except that a plan that already ran reports "cannot execute from <status>" even when it needed
   * approval (the seed says "requires explicit approval", which sends the model to approve a finished plan).
   * `approvalNextStep` says what to do about a missing approval (it depends on who may approve).
   */
  assertExecutable(approvalNextStep: () => string): void {
    if (this.currentStatus === 'blocked') throw new PlanBlocked(this.id, 'executed', this.decision.reasons);
    if (this.currentStatus !== 'planned' && this.currentStatus !== 'approved') throw new InvalidPlanTransition(this.id, this.currentStatus, 'execute');
    if (this.requiresApproval && this.currentStatus !== 'approved') {
      throw new ApprovalRequired(this.id, this.sessionId, this.approval?.id, approvalNextStep());
    }
  }

  /** The plan's command has started. */
  start(commandId: string, approvalNextStep: () => string): void {
    this.assertExecutable(approvalNextStep);
    this.currentStatus = 'running';
    this.startedCommandId = commandId;
  }

  /** Seed `{paused}`: false (and no change) unless the plan is running. */
  pause(): boolean {
    if (this.currentStatus !== 'running') return false;
    this.currentStatus = 'paused';
    return true;
  }

  /** Seed `{resumed}`: false (and no change) unless the plan is paused. */
  resume(): boolean {
    if (this.currentStatus !== 'paused') return false;
    this.currentStatus = 'running';
    return true;
  }

  /** The command ended: the plan takes the receipt's status. Only a started plan finishes. */
  finish(status: FinalPlanStatus): void {
    if (!this.isLive) throw new InvalidPlanTransition(this.id, this.currentStatus, 'finish');
    this.currentStatus = status;
  }

  assertRetryable(): void {
    if (this.isLive) throw new PlanRunning(this.id, this.currentStatus);
  }
}
