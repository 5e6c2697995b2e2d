import { ERROR_CODES } from '../../domain/protocol/versions.js';
import type { Clock } from '../terminal/clock.js';
import { isoAt } from '../terminal/clock.js';
import type { TaskOutcome, TaskWork } from './task-work.js';

/** SEP-2663 task statuses; `input_required` is never entered here (no tool of ours asks for input mid-task). */
export type TaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';

/** The wire form of a task (`Task` of the ext-tasks draft): what `CreateTaskResult` and `tasks/get` carry. */
export interface TaskInfo {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
}

/** `tasks/get`'s `DetailedTask`: the task, with the tool result inlined once completed or the error once failed. */
export type DetailedTask = TaskInfo & {
  readonly result?: Record<string, unknown>;
  readonly error?: { code: number; message: string };
};

export interface TaskStoreOptions {
  /** A fresh, unguessable id: at least 128 random bits (docs/security.md). */
  readonly newTaskId: () => string;
  readonly now: Clock;
  /** How long a task stays readable once it has ended (SEP-2663 `ttlMs`: never expired earlier). */
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** Bound on the tasks kept at once: ended tasks are dropped oldest first to make room; working ones never. */
  readonly maxTasks: number;
}

interface TaskRecord {
  readonly id: string;
  /** Who created it: the HTTP auth subject, or undefined for the stdio parent. Only they can see it. */
  readonly principal: string | undefined;
  readonly createdAt: number;
  readonly work: TaskWork;
  lastUpdatedAt: number;
  status: TaskStatus;
  outcome: TaskOutcome | undefined;
  cancelRequested: boolean;
  endedAt: number | undefined;
}

/**
 * The tasks of this server process, each bound to the principal that created it: a lookup by another principal
 * finds nothing, exactly as an unknown id does, so a task's existence does not leak across principals.
 */
export class TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();

  constructor(private readonly options: TaskStoreOptions) {}

  /** Registers the work as a working task and returns its wire form (the `CreateTaskResult` body). */
  create(principal: string | undefined, work: TaskWork): TaskInfo {
    this.sweep();
    const now = this.options.now();
    const record: TaskRecord = {
      id: this.options.newTaskId(),
      principal,
      createdAt: now,
      work,
      lastUpdatedAt: now,
      status: 'working',
      outcome: undefined,
      cancelRequested: false,
      endedAt: undefined,
    };
    this.tasks.set(record.id, record);
    // Work must not reject; if it does anyway, the task fails as a protocol error instead of hanging in `working`.
    void work.outcome.then(
      (outcome) => this.settle(record, outcome),
      () =>
        this.settle(record, {
          status: 'failed',
          error: { code: ERROR_CODES.internalError, message: 'Internal error' },
        }),
    );
    return this.info(record, undefined);
  }

  /** The task as `tasks/get` shows it; undefined when unknown, expired, or another principal's. */
  async get(principal: string | undefined, taskId: string): Promise<DetailedTask | undefined> {
    const record = this.find(principal, taskId);
    if (record === undefined) return undefined;
    if (record.status !== 'working') return this.detailed(record);
    const statusMessage = record.cancelRequested
      ? 'cancelling: the process group is being terminated'
      : await record.work.statusMessage();
    // The work may have ended while its status message was read: show the ended state, not a stale one.
    return record.status === 'working' ? this.info(record, statusMessage) : this.detailed(record);
  }

  /** True when the task exists for this principal (tasks/update: nothing of ours waits for input). */
  has(principal: string | undefined, taskId: string): boolean {
    return this.find(principal, taskId) !== undefined;
  }

  /** Asks a working task to stop; a task that has ended is left as it is (idempotent). False when unknown. */
  cancel(principal: string | undefined, taskId: string): boolean {
    const record = this.find(principal, taskId);
    if (record === undefined) return false;
    if (record.status === 'working' && !record.cancelRequested) {
      record.cancelRequested = true;
      record.lastUpdatedAt = this.options.now();
      record.work.cancel();
    }
    return true;
  }

  private find(principal: string | undefined, taskId: string): TaskRecord | undefined {
    this.sweep();
    const record = this.tasks.get(taskId);
    return record !== undefined && record.principal === principal ? record : undefined;
  }

  private settle(record: TaskRecord, outcome: TaskOutcome): void {
    const now = this.options.now();
    record.status = record.cancelRequested ? 'cancelled' : outcome.status;
    record.outcome = outcome;
    record.lastUpdatedAt = now;
    record.endedAt = now;
  }

  /** Drops ended tasks past their ttl, then the oldest ended ones while the store is over its bound. */
  private sweep(): void {
    const now = this.options.now();
    for (const [id, record] of this.tasks) {
      if (record.endedAt !== undefined && now - record.endedAt >= this.options.ttlMs) this.tasks.delete(id);
    }
    if (this.tasks.size < this.options.maxTasks) return;
    for (const [id, record] of this.tasks) {
      if (this.tasks.size < this.options.maxTasks) break;
      if (record.endedAt !== undefined) this.tasks.delete(id);
    }
  }

  private info(record: TaskRecord, statusMessage: string | undefined): TaskInfo {
    return {
      taskId: record.id,
      status: record.status,
      ...(statusMessage === undefined ? {} : { statusMessage }),
      createdAt: isoAt(record.createdAt),
      lastUpdatedAt: isoAt(record.lastUpdatedAt),
      ttlMs: this.options.ttlMs,
      pollIntervalMs: this.options.pollIntervalMs,
    };
  }

  private detailed(record: TaskRecord): DetailedTask {
    const { outcome } = record;
    const base = this.info(
      record,
      record.status === 'cancelled' ? 'cancelled by the client; the process group was terminated' : undefined,
    );
    if (record.status === 'completed' && outcome?.status === 'completed') return { ...base, result: outcome.result };
    if (record.status === 'failed' && outcome?.status === 'failed') return { ...base, error: { ...outcome.error } };
    return base;
  }
}
