import type { SessionEndReason } from '../execution/execution-errors.js';
import type { ExecutionSession, RunningCommand } from '../execution/execution-session.js';
import { isLiveStatus, type CommandLaunch, type ExecutionEvent } from '../execution/execution-types.js';
import type { ApprovalChannel } from './approval-types.js';
import type { ExecutionReceipt } from './receipt-types.js';
import { PlanNotFound } from './terminal-errors.js';
import type { TerminalPlan } from './terminal-plan.js';

/** Bounds memory per session; the oldest idle plans and receipts are forgotten first. */
const MAX_PLANS_PER_SESSION = 200;
const MAX_RECEIPTS_PER_SESSION = 50;

/** The plan and approval events a terminal session records, handed to whoever publishes them (its store). */
export type TerminalEventRecorder = (event: ExecutionEvent) => void;

/**
 * One terminal session (seed `SessionState`): the aggregate that owns its execution session, its plans (with their
 * approval grants), its receipts and its retention clock. Every change goes through its lifecycle methods (plan,
 * approve, start, finish, pause, resume, close), which check the transition and record the domain events. No I/O of
 * its own: processes are the execution session's (a port), timestamps come from the caller.
 */
export class TerminalSession {
  private readonly plansById = new Map<string, TerminalPlan>();
  /** By plan id, in the order the commands finished: the last one is the latest receipt. */
  private readonly receiptsByPlan = new Map<string, ExecutionReceipt>();
  private readonly pendingReceipts = new Map<string, Promise<ExecutionReceipt>>();
  private ended: { readonly atMs: number; readonly reason: SessionEndReason | 'closed' } | undefined;

  constructor(
    /** Its processes: cwd, environment and running commands. */
    readonly execution: ExecutionSession,
    private readonly record: TerminalEventRecorder,
  ) {}

  get id(): string {
    return this.execution.id;
  }

  get cwd(): string {
    return this.execution.cwd;
  }

  /** When it ended (closed, expired, evicted, one-shot finished); undefined while it is live. Retention counts from it. */
  get endedAtMs(): number | undefined {
    return this.ended?.atMs;
  }

  /** Why it ended; undefined while it is live. */
  get endReason(): SessionEndReason | 'closed' | undefined {
    return this.ended?.reason;
  }

  /** Records a plan the policy judged in this session (seed `plan`): the policy decision and the plan events. */
  plan(plan: TerminalPlan): void {
    this.plansById.set(plan.id, plan);
    this.forgetOldPlans();
    this.record({
      type: 'policy_decision',
      sessionId: this.id,
      command: plan.command,
      verdict: plan.decision.verdict,
      reasons: plan.decision.reasons,
      at: plan.createdAt,
    });
    this.record({ type: 'plan', sessionId: this.id, planId: plan.id, at: plan.createdAt });
  }

  /** A plan of this session (`plan_not_found` when there is none). */
  planById(planId: string): TerminalPlan {
    const plan = this.plansById.get(planId);
    if (!plan) throw new PlanNotFound(this.id, planId);
    return plan;
  }

  plans(): readonly TerminalPlan[] {
    return [...this.plansById.values()];
  }

  planOfCommand(commandId: string): TerminalPlan | undefined {
    return this.plans().find((plan) => plan.commandId === commandId);
  }

  /** The plan that was issued this approval id, if any. */
  planWithApproval(approvalId: string): TerminalPlan | undefined {
    return this.plans().find((plan) => plan.approval?.id === approvalId);
  }

  /** Approves a plan at `nowMs` through `via` (its grant is replaced by the approved one) and records `approved`. */
  approve(plan: TerminalPlan, via: ApprovalChannel, nowMs: number): void {
    plan.approve(nowMs, via);
    this.record({
      type: 'approved',
      sessionId: this.id,
      planId: plan.id,
      at: plan.approvedAt ?? new Date(nowMs).toISOString(),
    });
  }

  /**
   * Starts a plan's command in the execution session (the command publishes `command_started`); the plan's approval
   * is used from then on. When the command cannot start, the plan is unchanged.
   */
  start(plan: TerminalPlan, launch: CommandLaunch, nowMs: number, approvalNextStep: () => string): RunningCommand {
    plan.assertExecutable(approvalNextStep);
    const command = this.execution.start(launch, plan.command);
    plan.start(command, nowMs, approvalNextStep);
    return command;
  }

  /** Remembers the receipt a started command will produce, so callers can wait for it. */
  awaitReceipt(commandId: string, receipt: Promise<ExecutionReceipt>): void {
    this.pendingReceipts.set(commandId, receipt);
    void receipt.finally(() => this.pendingReceipts.delete(commandId)).catch(() => undefined);
  }

  /** The receipt of a command: pending while it runs, undefined once recorded (read it with `receiptOfPlan`). */
  pendingReceipt(commandId: string): Promise<ExecutionReceipt> | undefined {
    return this.pendingReceipts.get(commandId);
  }

  /** The plan's command ended with this signed receipt: the plan takes its status, the receipt is kept. */
  finish(plan: TerminalPlan, receipt: ExecutionReceipt): void {
    plan.finish(receipt.status);
    this.receiptsByPlan.delete(receipt.plan_id);
    this.receiptsByPlan.set(receipt.plan_id, receipt);
    while (this.receiptsByPlan.size > MAX_RECEIPTS_PER_SESSION) {
      const oldest = this.receiptsByPlan.keys().next().value;
      if (oldest === undefined) break;
      this.receiptsByPlan.delete(oldest);
    }
  }

  /** Seed `{paused}`: SIGSTOP to the command's group; false when it is not running. Its plan's status follows. */
  pause(command: RunningCommand): boolean {
    return command.pause();
  }

  /** Seed `{resumed}`: false when the command is not paused. */
  resume(command: RunningCommand): boolean {
    return command.resume();
  }

  /**
   * Waits for the receipts of commands that have ended and are still being recorded (their output is read back
   * before the receipt is signed), never for a running command: a client that saw its command end reads its receipt.
   */
  async recordingSettled(): Promise<void> {
    const ended = this.execution.commands().filter((command) => !isLiveStatus(command.outcome().status));
    const recording = ended.flatMap((command) => this.pendingReceipts.get(command.id) ?? []);
    await Promise.allSettled(recording);
  }

  latestReceipt(): ExecutionReceipt | undefined {
    return [...this.receiptsByPlan.values()].at(-1);
  }

  receiptOfPlan(planId: string): ExecutionReceipt | undefined {
    return this.receiptsByPlan.get(planId);
  }

  receiptCount(): number {
    return this.receiptsByPlan.size;
  }

  /** A running or paused command is activity, however long ago the session was last called. */
  hasLiveCommand(): boolean {
    return this.execution.commands().some((command) => isLiveStatus(command.outcome().status));
  }

  /**
   * Ends it at `nowMs` (the start of its retention clock); `reason` says why when it ended on its own. Its processes
   * are killed by closing the execution session, which the caller (its store) awaits. Closing again (a shutdown
   * hurrying a close under way) keeps the first end. `promptly`: see `ExecutionSession.close`.
   */
  close(
    nowMs: number,
    reason: SessionEndReason | 'closed',
    options: { readonly promptly?: boolean } = {},
  ): Promise<void> {
    this.ended ??= { atMs: nowMs, reason };
    return this.execution.close(options);
  }

  private forgetOldPlans(): void {
    for (const [id, plan] of this.plansById) {
      if (this.plansById.size <= MAX_PLANS_PER_SESSION) return;
      if (!plan.isLive) this.plansById.delete(id);
    }
  }
}
