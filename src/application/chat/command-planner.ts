import type { PolicyVerdict, RiskLevel } from '../../domain/policy/policy-types.js';

/** A command planned (never run) the way `terminal_plan` plans it, with the policy's judgement. */
export interface PlannedCommand {
  readonly command: string;
  /** Absent when no plan could be created (the command was refused before planning). */
  readonly planId: string | undefined;
  readonly status: string;
  readonly verdict: PolicyVerdict;
  readonly risk: RiskLevel;
  readonly requiresApproval: boolean;
  readonly reasons: readonly string[];
}

/** Port: the `terminal_plan` logic. Plans only; nothing here can start a process. */
export interface CommandPlanner {
  plan(sessionId: string, command: string): Promise<PlannedCommand>;
}

/** Port: the execution sessions a chat conversation is attached to. */
export interface ChatSessions {
  /** Creates an execution session and returns its id. */
  create(): string;
  exists(sessionId: string): boolean;
}
