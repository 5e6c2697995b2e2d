import type { ExecutionSession } from '../../domain/execution/execution-session.js';
import { isLiveStatus, type CommandOutcome } from '../../domain/execution/execution-types.js';
import type { PlanStatus } from '../../domain/terminal/plan-types.js';
import type { SessionRegistry } from '../sessions/session-registry.js';
import type { SecretRedactor } from './secret-redactor.js';
import type { SessionLedgers } from './session-ledger.js';
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
  readonly registry: SessionRegistry;
  readonly ledgers: SessionLedgers;
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
    const owned = this.options.registry.entries().filter((entry) => entry.owner === principal && entry.ordinal > after);
    const page = owned.slice(0, this.options.pageSize);
    const last = page.at(-1);
    const sessions = page.map((entry) => this.summarize(entry.session));
    return owned.length > page.length && last ? { sessions, nextCursor: encodeCursor(String(last.ordinal)) } : { sessions };
  }

  /** Kills the session's commands and forgets it, its plans and its receipts. */
  async close(sessionId: string): Promise<void> {
    await this.options.registry.close(sessionId);
  }

  private summarize(session: ExecutionSession): SessionSummary {
    const ledger = this.options.ledgers.find(session.id);
    const planCounts = { ...NO_PLANS };
    for (const plan of ledger?.plans() ?? []) planCounts[plan.status] += 1;
    const live = [...session.commands()].reverse().find((command) => isLiveStatus(command.outcome().status));
    const plan = live ? ledger?.planOfCommand(live.id) : undefined;
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
      receipts: ledger?.receiptCount() ?? 0,
    };
  }
}

function decodeRank(cursor: string): number {
  const after = decodeCursor(cursor);
  if (!/^[1-9][0-9]{0,15}$/.test(after)) throw new InvalidCursor();
  return Number(after);
}
