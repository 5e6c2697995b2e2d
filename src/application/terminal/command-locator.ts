import type { ExecutionSession, RunningCommand } from '../../domain/execution/execution-session.js';
import { isLiveStatus } from '../../domain/execution/execution-types.js';
import { CommandNotFound } from '../../domain/execution/execution-errors.js';
import type { TerminalPlan } from '../../domain/terminal/terminal-plan.js';
import { NoCommand, PlanNotStarted } from '../../domain/terminal/terminal-errors.js';
import type { TerminalSession } from '../../domain/terminal/terminal-session.js';
import type { TerminalSessionStore } from './terminal-session-store.js';

/** Which command of a session: by id, by the plan that started it, or (neither) the latest one. */
export interface CommandSelector {
  readonly sessionId: string;
  readonly commandId?: string;
  readonly planId?: string;
}

/** A command found in its execution session, with the terminal session (plans, receipts) it belongs to. */
export interface LocatedCommand {
  readonly session: ExecutionSession;
  readonly terminal: TerminalSession;
  readonly command: RunningCommand;
}

/** Finds the command a tool call means; the one lookup path from a session id to a command (and its plan). */
export class CommandLocator {
  constructor(private readonly sessions: TerminalSessionStore) {}

  /** The selected command of a live session. */
  find(selector: CommandSelector): LocatedCommand {
    const terminal = this.sessions.get(selector.sessionId);
    return { session: terminal.execution, terminal, command: select(terminal, selector) };
  }

  /** Like `find`, also in a one-shot session that has ended, while it is retained (reads only). */
  findReadable(selector: CommandSelector): LocatedCommand {
    const terminal = this.sessions.readable(selector.sessionId);
    return { session: terminal.execution, terminal, command: select(terminal, selector) };
  }

  /**
   * For pause, resume and cancel: the selected command, or without a selector the latest one still alive; undefined
   * when there is none. With its plan, whose status follows the command's.
   */
  findLive(selector: CommandSelector): (LocatedCommand & { readonly plan: TerminalPlan | undefined }) | undefined {
    const terminal = this.sessions.get(selector.sessionId);
    const session = terminal.execution;
    const command =
      selector.commandId === undefined && selector.planId === undefined
        ? [...session.commands()].reverse().find((candidate) => isLiveStatus(candidate.outcome().status))
        : select(terminal, selector);
    return command ? { session, terminal, command, plan: terminal.planOfCommand(command.id) } : undefined;
  }
}

function select(terminal: TerminalSession, selector: CommandSelector): RunningCommand {
  const session = terminal.execution;
  if (selector.commandId !== undefined) {
    const command = session.command(selector.commandId);
    if (!command) throw new CommandNotFound(selector.commandId);
    return command;
  }
  if (selector.planId !== undefined) {
    const plan = terminal.planById(selector.planId);
    if (plan.commandId === null) throw new PlanNotStarted(plan.id, plan.status);
    const command = session.command(plan.commandId);
    if (!command) throw new CommandNotFound(plan.commandId);
    return command;
  }
  const latest = session.commands().at(-1);
  if (!latest) throw new NoCommand(session.id);
  return latest;
}
