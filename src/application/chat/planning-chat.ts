import { ChatNotConfigured } from '../../domain/chat/chat-errors.js';
import type { ChatMessage, ChatModel } from '../../domain/chat/chat-model.js';
import { DomainError } from '../../domain/errors.js';
import { SessionNotFound } from '../../domain/execution/execution-errors.js';
import type { ChatRequest } from './chat-request.js';
import type { ChatSessions, CommandPlanner, PlannedCommand } from './command-planner.js';
import { extractSuggestedCommands } from './suggested-commands.js';

/** Seed §9 system prompt, plus where to put suggestions so they can be planned (never run). */
export const PLANNING_SYSTEM_PROMPT =
  'You are a terminal planning assistant. Never claim a command ran and never emit hidden execution markers. ' +
  'Explain what should be planned through the explicit terminal tools. ' +
  'Put each command you suggest on its own line inside a ```sh block; it will be planned and shown to the user, never run.';

export interface PlanningChatOptions {
  readonly model: ChatModel;
  readonly planner: CommandPlanner;
  readonly sessions: ChatSessions;
  /** Messages of history sent with each turn, besides the system prompt (seed: 40). */
  readonly maxHistoryMessages?: number;
  /** Suggested commands planned per reply. */
  readonly maxSuggestedCommands?: number;
}

export interface ChatTurn {
  readonly message: string;
  readonly sessionId: string;
  /** The commands the reply suggested, each planned by the policy and never run. */
  readonly plans: readonly PlannedCommand[];
}

/**
 * The optional planning chat: one conversation per execution session. The model's reply is text for a human;
 * the commands it suggests go through the `terminal_plan` logic, so the user sees the policy's verdict and must
 * still approve and execute them with the terminal tools.
 */
export class PlanningChat {
  private readonly conversations = new Map<string, ChatMessage[]>();
  private readonly maxHistory: number;
  private readonly maxSuggestions: number;

  constructor(private readonly options: PlanningChatOptions) {
    this.maxHistory = options.maxHistoryMessages ?? 40;
    this.maxSuggestions = options.maxSuggestedCommands ?? 5;
  }

  get available(): boolean {
    return this.options.model.available;
  }

  async send(request: ChatRequest, signal: AbortSignal): Promise<ChatTurn> {
    // Checked before a session is created, so a chat without a model leaves nothing behind.
    if (!this.options.model.available) throw new ChatNotConfigured();
    const sessionId = this.resolveSession(request.session_id);
    this.forgetClosedSessions();
    const history = this.conversations.get(sessionId) ?? [];
    const user: ChatMessage = { role: 'user', content: request.message };
    const sent = [...history, user].slice(-this.maxHistory);
    const reply = await this.options.model.complete(
      [{ role: 'system', content: PLANNING_SYSTEM_PROMPT }, ...sent],
      signal,
    );
    // Only a completed exchange joins the history: a failed turn is simply retried by the user.
    const answer: ChatMessage = { role: 'assistant', content: reply };
    this.conversations.set(sessionId, [...sent, answer].slice(-this.maxHistory));
    const plans = await this.planSuggestions(sessionId, reply);
    return { message: reply, sessionId, plans };
  }

  /** Drops the conversation of a closed session. */
  forget(sessionId: string): void {
    this.conversations.delete(sessionId);
  }

  private resolveSession(sessionId: string | undefined): string {
    if (sessionId === undefined) return this.options.sessions.create();
    if (!this.options.sessions.exists(sessionId)) throw new SessionNotFound(sessionId);
    return sessionId;
  }

  private forgetClosedSessions(): void {
    for (const sessionId of this.conversations.keys()) {
      if (!this.options.sessions.exists(sessionId)) this.conversations.delete(sessionId);
    }
  }

  private async planSuggestions(sessionId: string, reply: string): Promise<PlannedCommand[]> {
    const plans: PlannedCommand[] = [];
    for (const command of extractSuggestedCommands(reply, this.maxSuggestions)) {
      plans.push(await this.planOne(sessionId, command));
    }
    return plans;
  }

  /** A suggestion the planner refuses outright (too long, bad cwd...) is shown as blocked, with the reason. */
  private async planOne(sessionId: string, command: string): Promise<PlannedCommand> {
    try {
      return await this.options.planner.plan(sessionId, command);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return {
        command,
        planId: undefined,
        status: 'blocked',
        verdict: 'deny',
        risk: 'blocked',
        requiresApproval: false,
        reasons: [error.message],
      };
    }
  }
}
