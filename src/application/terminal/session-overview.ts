import { isLiveStatus, type CommandOutcome } from '../../domain/execution/execution-types.js';
import type { PlanStatus } from '../../domain/terminal/plan-types.js';
import type { TerminalSession } from '../../domain/terminal/terminal-session.js';
import type { SecretRedactor } from './secret-redactor.js';
import type { TerminalSessionStore } from './terminal-session-store.js';
import { isoAt } from './clock.js';
import { decodeCursor, encodeCursor } from '../pagination/cursor.js';
import { InvalidCursor } from '../../domain/errors.js';

export interface SessionSummary {
  readonly sessionId: string;
  readonly cwd: string;
  readonly createdAt: string;
  readonly lastActivityAt: string;
  readonly runningCommand: {
    readonly commandId: string;
    readonly planId: string | null;
    readonly command: string;
    readonly status: CommandOutcome['status'];
    readonly startedAt: string;
  } | null;
  readonly planCounts: Readonly<Record<PlanStatus, number>>;
  readonly receipts: number;
}

const NO_PLANS: Readonly<Record<PlanStatus, number>> = Object.freeze({
  planned: 0,
  blocked: 0,
  approved: 0,
  running: 0,
  paused: 0,
  succeeded: 0,
  failed: 0,
  cancelled: 0,
  timed_out: 0,
});

export interface SessionOverviewOptions {
  readonly sessions: TerminalSessionStore;
  readonly redactor: SecretRedactor;
  /** Sessions per `terminal_sessions` page (TERM_MCP_PAGE_SIZE). */
  readonly pageSize: number;
}

export interface SessionPage {
  readonly sessions: SessionSummary[];
  /** Present when more sessions follow: pass it back as `cursor`. */
  readonly nextCursor?: string;
}

/** `terminal_sessions` and `terminal_session_close`. */
export class SessionOverview {
  constructor(private readonly options: SessionOverviewOptions) {}

  /**
   * One page of the live sessions the caller owns: those created by the same principal (on stdio, where there is no
   * principal, those created without one), oldest first. Session ids are capabilities, so one caller never learns
   * another caller's. The cursor names the creation rank of the last session served, so sessions that end between
   * two pages do not invalidate it.
   */
  list(principal: string | undefined, cursor?: string): SessionPage {
    const after = cursor === undefined ? 0 : decodeRank(cursor);
    const owned = this.options.sessions.entries().filter((entry) => entry.owner === principal && entry.ordinal > after);
    const page = owned.slice(0, this.options.pageSize);
    const last = page.at(-1);
    const sessions = page.map((entry) => this.summarize(entry.terminal));
    return owned.length > page.length && last
      ? { sessions, nextCursor: encodeCursor(String(last.ordinal)) }
      : { sessions };
  }

  /** Kills the session's commands and forgets it, its plans and its receipts. */
  async close(sessionId: string): Promise<void> {
    await this.options.sessions.close(sessionId);
  }

  private summarize(terminal: TerminalSession): SessionSummary {
    const session = terminal.execution;
    const planCounts = { ...NO_PLANS };
    for (const plan of terminal.plans()) planCounts[plan.status] += 1;
    const live = [...session.commands()].reverse().find((command) => isLiveStatus(command.outcome().status));
    const plan = live ? terminal.planOfCommand(live.id) : undefined;
    return {
      sessionId: session.id,
      cwd: session.cwd,
      createdAt: session.createdAt,
      lastActivityAt: isoAt(session.lastActivityMs()),
      runningCommand: live
        ? {
            commandId: live.id,
            planId: plan?.id ?? null,
            command: this.options.redactor.redact(plan?.command ?? ''),
            status: live.outcome().status,
            startedAt: live.outcome().startedAt,
          }
        : null,
      planCounts,
      receipts: terminal.receiptCount(),
    };
  }
}

function decodeRank(cursor: string): number {
  const after = decodeCursor(cursor);
  if (!/^[1-9][0-9]{0,15}$/.test(after)) throw new InvalidCursor();
  return Number(after);
}
