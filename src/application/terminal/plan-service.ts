import { InvalidArgument } from '../../domain/errors.js';
import type { PolicyEngine } from '../../domain/policy/policy-engine.js';
import type { PolicyDecision } from '../../domain/policy/policy-types.js';
import { judgeTerminalSession } from './interactive/terminal-session-judge.js';
import type { TerminalSize } from '../../domain/execution/interactive-terminal.js';
import { TerminalPlan } from '../../domain/terminal/terminal-plan.js';
import type { WorkspaceFS } from '../../domain/workspace/workspace-fs.js';
import type { ApprovalService } from './approval-service.js';
import { isoAt, type Clock } from './clock.js';
import type { TerminalSession } from '../../domain/terminal/terminal-session.js';
import type { TerminalSessionStore } from './terminal-session-store.js';
import type { TerminalSettings } from './terminal-settings.js';

export interface PlanRequest {
  /** Omitted: a new execution session is created for the plan (seed). */
  readonly sessionId?: string;
  readonly command: string;
  /** Relative to the workspace root, or absolute inside it; default: the session's directory. */
  readonly cwd?: string;
  readonly timeoutSeconds?: number;
  /** The principal creating the session, recorded as its owner. */
  readonly owner?: string;
  /** A new session stays pinned (never evicted) until the store is told otherwise: a command is about to start in it. */
  readonly pinNewSession?: boolean;
  /**
   * A new session waits for room at a cap instead of failing (a one-shot execute, whose session ends with its
   * command); the wait ends with the call's abort signal.
   */
  readonly waitForRoom?: { readonly signal?: AbortSignal };
  /** A terminal session: judged as one (interactive/terminal-session-judge.ts), run on a terminal of this size. */
  readonly terminal?: TerminalSize;
}

export interface PlanServiceOptions {
  readonly sessions: TerminalSessionStore;
  readonly policy: PolicyEngine;
  readonly workspace: WorkspaceFS;
  readonly approvals: ApprovalService;
  readonly settings: TerminalSettings;
  readonly now: Clock;
  readonly newPlanId: () => string;
}

/** `terminal_plan` and `terminal_retry`: judge a command and record a non-executing plan (seed `plan` / `replan`). */
export class PlanService {
  constructor(private readonly options: PlanServiceOptions) {}

  async plan(request: PlanRequest): Promise<TerminalPlan> {
    const { sessions, workspace, settings } = this.options;
    const timeoutSeconds = request.timeoutSeconds ?? settings.defaultTimeoutSeconds;
    if (!(timeoutSeconds > 0 && timeoutSeconds <= settings.maxTimeoutSeconds)) {
      throw new InvalidArgument(
        `timeout_seconds must be greater than 0 and at most ${settings.maxTimeoutSeconds}`,
        { timeoutSeconds, maxTimeoutSeconds: settings.maxTimeoutSeconds },
        'Choose a timeout within the configured maximum.',
      );
    }
    const existing = request.sessionId === undefined ? undefined : sessions.get(request.sessionId);
    // The directory is resolved before a session is created, so a bad cwd leaves nothing behind.
    let cwd = await workspace.resolveDirectory(request.cwd ?? existing?.cwd);
    let terminal = existing;
    if (!terminal && request.waitForRoom) {
      const opened = await sessions.createWhenRoom(workspace.root, request.owner, {
        pinned: request.pinNewSession,
        signal: request.waitForRoom.signal,
      });
      terminal = opened.terminal;
      // After a wait the directory may have changed: it is resolved again, so the plan is judged on what is there now.
      if (opened.waited) cwd = await this.resolveAgain(terminal, request.cwd);
    }
    terminal ??= sessions.create(workspace.root, request.owner, { pinned: request.pinNewSession });
    const plan = this.judge(terminal.id, request.command, cwd, timeoutSeconds, request.terminal);
    terminal.plan(plan);
    return plan;
  }

  /** The directory resolved again in a session opened for this request; a failure closes that session. */
  private async resolveAgain(terminal: TerminalSession, cwd: string | undefined): Promise<string> {
    try {
      return await this.options.workspace.resolveDirectory(cwd);
    } catch (error) {
      this.options.sessions.unpin(terminal.id);
      await this.options.sessions.end(terminal.id, 'one_shot_finished');
      throw error;
    }
  }

  /** A brand-new plan of an earlier plan's command, judged again; it needs approval again if the policy says so. */
  async retry(sessionId: string, planId: string): Promise<TerminalPlan> {
    const { plan: previous } = this.options.sessions.plan(sessionId, planId);
    previous.assertRetryable();
    return this.plan({
      sessionId,
      command: previous.command,
      cwd: previous.cwd,
      timeoutSeconds: previous.limits.timeoutSeconds,
      terminal: previous.terminal,
    });
  }

  /** The policy's decision on a plan's line: a terminal session is judged as one. */
  decide(command: string, cwd: string, terminal: TerminalSize | undefined): PolicyDecision {
    const { settings, policy } = this.options;
    return terminal
      ? judgeTerminalSession(command, settings.mode, settings.confinement)
      : policy.evaluate({ command, cwd });
  }

  private judge(
    sessionId: string,
    command: string,
    cwd: string,
    timeoutSeconds: number,
    terminal?: TerminalSize,
  ): TerminalPlan {
    const { settings, approvals, now, newPlanId } = this.options;
    const id = newPlanId();
    const decision = this.decide(command, cwd, terminal);
    const approval =
      decision.verdict === 'approval_required' ? approvals.issue({ sessionId, planId: id, command, cwd }) : undefined;
    return new TerminalPlan({
      id,
      sessionId,
      command,
      cwd,
      mode: settings.mode,
      createdAt: isoAt(now()),
      decision,
      limits: {
        timeoutSeconds,
        maxOutputBytes: settings.maxOutputBytes,
        maxProcessesPerSession: settings.maxProcessesPerSession,
      },
      confinement: settings.confinement,
      approval,
      ...(terminal ? { terminal } : {}),
    });
  }
}
