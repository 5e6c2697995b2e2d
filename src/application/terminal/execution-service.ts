import { SandboxSetupFailed } from '../../domain/execution/execution-errors.js';
import type { RunningCommand } from '../../domain/execution/execution-session.js';
import type { PolicyEngine } from '../../domain/policy/policy-engine.js';
import type { LaunchForm } from '../../domain/policy/policy-types.js';
import type { TerminalPlan } from '../../domain/terminal/terminal-plan.js';
import type { ExecutionReceipt } from '../../domain/terminal/receipt-types.js';
import { ApprovalRequired, PolicyChanged, PolicyDenied, CwdChanged } from '../../domain/terminal/terminal-errors.js';
import type { WorkspaceFS } from '../../domain/workspace/workspace-fs.js';
import { within } from '../timing/within.js';
import type { ApprovalService } from './approval-service.js';
import type { PlanRequest, PlanService } from './plan-service.js';
import { isStricter, sameLaunch } from './policy-summary.js';
import { approvalNextStep } from './approval-next-step.js';
import { receiptsRecorded } from './recorded-receipts.js';
import { reportProgress } from './execution-progress.js';
import type { ProgressReporter } from '../tools/tool-definition.js';
import type { ReceiptRecorder, RecordingOptions } from './receipt-recorder.js';
import type { TerminalSession } from '../../domain/terminal/terminal-session.js';
import type { Clock } from './clock.js';
import type { TerminalSessionStore } from './terminal-session-store.js';

export interface ExecuteOptions {
  /**
   * How long to wait for the command before answering: undefined waits until it finishes (seed), 0 answers at once
   * (the caller polls `terminal_read`).
   */
  readonly waitSeconds?: number;
  /** Keep stdin open for `terminal_input`; otherwise it is closed at start (seed: stdin is /dev/null). */
  readonly openStdin?: boolean;
  /** The tool call's abort signal: a cancelled call cancels the command it started. */
  readonly signal?: AbortSignal;
  /** How much output the receipt shows, and who may read the whole output afterwards (issue 24). */
  readonly recording?: RecordingOptions;
  /** The call asked for progress: reported while it waits for the command (issue 25). */
  readonly progress?: ProgressReporter;
}

/** The command finished (its signed receipt), or still runs when the wait ended. */
export type ExecutionResult =
  | { readonly kind: 'finished'; readonly receipt: ExecutionReceipt }
  | {
      readonly kind: 'running';
      readonly plan: TerminalPlan;
      readonly command: RunningCommand;
      /** Resolves once the command has ended and its receipt is recorded (a task's result: application/tasks). */
      readonly receipt: Promise<ExecutionReceipt>;
    };

export interface ExecutionServiceOptions {
  readonly sessions: TerminalSessionStore;
  readonly policy: PolicyEngine;
  readonly workspace: WorkspaceFS;
  readonly plans: PlanService;
  readonly approvals: ApprovalService;
  readonly recorder: ReceiptRecorder;
  /** When a plan's approval is used (its command started). */
  readonly now: Clock;
}

/**
 * `terminal_execute`: runs a plan exactly once, after checking at execute time everything the plan relied on (its
 * state, its approval, its directory and the policy decision, since the file system may have changed).
 */
export class ExecutionService {
  constructor(private readonly options: ExecutionServiceOptions) {}

  async execute(sessionId: string, planId: string, options: ExecuteOptions = {}): Promise<ExecutionResult> {
    const { terminal, plan } = this.options.sessions.plan(sessionId, planId);
    return this.run(terminal, plan, options);
  }

  /**
   * Seed `latest_receipt`, or the receipt of one plan; undefined when there is none (yet). Also readable for a while
   * after a one-shot session ended.
   */
  async receipt(sessionId: string, planId?: string): Promise<ExecutionReceipt | undefined> {
    const terminal = this.options.sessions.readable(sessionId);
    await receiptsRecorded(terminal);
    if (planId === undefined) return terminal.latestReceipt();
    return terminal.receiptOfPlan(terminal.planById(planId).id);
  }

  /**
   * Plans and executes in one call, for commands that need no approval. Without a session_id this is a one-shot
   * session: it ends as soon as its command's receipt is recorded (or at once when the command cannot start), so
   * one-shot calls never pile up against the session cap; the receipt stays readable for a while (`receipt`).
   * A command that needs approval keeps its session: the client approves and executes the plan in it.
   */
  async planAndExecute(request: PlanRequest, options: ExecuteOptions = {}): Promise<ExecutionResult> {
    const oneShot = request.sessionId === undefined;
    // A one-shot session ends with its command, so a one-shot call at a cap waits for room instead of failing.
    const plan = await this.options.plans.plan({
      ...request,
      pinNewSession: oneShot,
      waitForRoom: oneShot ? { signal: options.signal } : undefined,
    });
    const { sessions } = this.options;
    try {
      if (plan.status === 'blocked') throw new PolicyDenied(plan.id, plan.sessionId, plan.decision.reasons);
      if (plan.requiresApproval) {
        throw new ApprovalRequired(
          plan.id,
          plan.sessionId,
          plan.approval?.id,
          approvalNextStep(plan, this.options.approvals.channel),
        );
      }
      return await this.run(sessions.get(plan.sessionId), plan, options, { oneShot, judgedNow: true });
    } catch (error) {
      const terminal = sessions.find(plan.sessionId);
      if (oneShot && terminal && !(error instanceof ApprovalRequired) && plan.commandId === null)
        this.endOneShot(terminal);
      throw error;
    } finally {
      if (oneShot) sessions.unpin(plan.sessionId);
    }
  }

  /** Ends a one-shot session, keeping it readable; unless the client has planned more in it meanwhile. */
  private endOneShot(terminal: TerminalSession): void {
    if (terminal.plans().length > 1) return;
    this.options.sessions.endOneShot(terminal);
  }

  private async run(
    terminal: TerminalSession,
    plan: TerminalPlan,
    options: ExecuteOptions,
    { oneShot = false, judgedNow = false }: { oneShot?: boolean; judgedNow?: boolean } = {},
  ): Promise<ExecutionResult> {
    const nextStep = (): string => approvalNextStep(plan, this.options.approvals.channel);
    plan.assertExecutable(nextStep);
    const { cwd, launch } = judgedNow ? this.justJudged(plan) : await this.judgeAgain(terminal, plan, nextStep);
    const command = terminal.start(
      plan,
      {
        launch,
        cwd,
        timeoutMs: plan.limits.timeoutSeconds * 1000,
        maxOutputBytes: plan.limits.maxOutputBytes,
        stdin: options.openStdin ? 'open' : 'closed',
        ...(plan.terminal ? { terminal: plan.terminal } : {}),
      },
      this.options.now(),
      nextStep,
    );
    const receipt = this.options.recorder.track(terminal, plan, command, options.recording);
    // Registered before anyone awaits the receipt: the session has ended by the time the caller gets the receipt.
    if (oneShot)
      void receipt.then(
        () => this.endOneShot(terminal),
        () => this.endOneShot(terminal),
      );
    // A terminal session answers once it is open: it ends when its program does, or when it is closed.
    return this.waitFor(
      plan,
      command,
      receipt,
      plan.terminal ? { ...options, waitSeconds: options.waitSeconds ?? 0 } : options,
    );
  }

  /**
   * The execute-time re-check of a plan made earlier: its directory resolved again, its approval, and the policy
   * evaluated again (the file system may have changed since the plan), which must not be stricter nor launch otherwise.
   */
  private async judgeAgain(
    terminal: TerminalSession,
    plan: TerminalPlan,
    nextStep: () => string,
  ): Promise<{ cwd: string; launch: LaunchForm }> {
    const cwd = await this.currentDirectory(plan);
    // Checked again after the await; from here on nothing awaits until the command is started, so two calls cannot both pass the checks.
    plan.assertExecutable(nextStep);
    if (plan.approval) {
      this.options.approvals.assertUsable(plan, {
        sessionId: terminal.id,
        planId: plan.id,
        command: plan.command,
        cwd,
      });
    }
    const decision = this.options.plans.decide(plan.command, cwd, plan.terminal);
    if (
      isStricter(decision.verdict, plan.decision.verdict) ||
      !decision.launch ||
      !sameLaunch(decision.launch, plan.decision.launch)
    ) {
      throw new PolicyChanged(plan.id, plan.decision.verdict, decision.verdict, decision.reasons);
    }
    return { cwd, launch: decision.launch };
  }

  /**
   * `terminal_execute {command}`: the plan was judged in this very call, its directory resolved just before, and
   * nothing but promise continuations ran since (no I/O was awaited), so judging it again could only repeat the same
   * file-system lookups: the command starts on the launch the plan was judged to, like a re-checked plan does.
   */
  private justJudged(plan: TerminalPlan): { cwd: string; launch: LaunchForm } {
    const { launch } = plan.decision;
    if (!launch) throw new PolicyChanged(plan.id, plan.decision.verdict, plan.decision.verdict, plan.decision.reasons);
    return { cwd: plan.cwd, launch };
  }

  /** The plan's directory as it resolves now; it must still be the very directory that was planned. */
  private async currentDirectory(plan: TerminalPlan): Promise<string> {
    let cwd: string;
    try {
      cwd = await this.options.workspace.resolveDirectory(plan.cwd);
    } catch {
      throw new CwdChanged(plan.id, plan.cwd);
    }
    if (cwd !== plan.cwd) throw new CwdChanged(plan.id, plan.cwd);
    return cwd;
  }

  private async waitFor(
    plan: TerminalPlan,
    command: RunningCommand,
    receipt: Promise<ExecutionReceipt>,
    options: ExecuteOptions,
  ): Promise<ExecutionResult> {
    const { waitSeconds, signal } = options;
    if (waitSeconds === 0) return { kind: 'running', plan, command, receipt };
    const cancel = (): void => void command.cancel();
    if (signal?.aborted) cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    const { recorder } = this.options;
    const stopProgress = options.progress && reportProgress(command, options.progress, (text) => recorder.redact(text));
    try {
      const finished = await (waitSeconds === undefined ? receipt : within(receipt, waitSeconds * 1000));
      // The sandbox could not be set up for this command (its receipt, recorded all the same, says failed): an error
      // of its own, with the launcher's message, so the model does not read it as the command's own failure.
      const setupFailure = finished ? command.setupFailure() : undefined;
      if (setupFailure !== undefined) throw new SandboxSetupFailed(command.id, setupFailure);
      return finished ? { kind: 'finished', receipt: finished } : { kind: 'running', plan, command, receipt };
    } finally {
      stopProgress?.();
      signal?.removeEventListener('abort', cancel);
    }
  }
}
