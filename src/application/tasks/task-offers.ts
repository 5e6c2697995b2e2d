import type { ProtocolEra } from '../../domain/protocol/versions.js';
import { declaresTasks } from './task-extension.js';
import type { TaskInfo, TaskStore } from './task-store.js';
import type { TaskOffer, TaskWork } from './task-work.js';

/** One `tools/call`'s offer: the task its tool created, if it did. */
export interface CallTaskOffer extends TaskOffer {
  created(): TaskInfo | undefined;
}

/**
 * Makes the offer for a `tools/call` whose client declared the tasks extension on that very request (modern era
 * only); undefined otherwise, and the tool answers as it always did.
 */
export class TaskOffers {
  constructor(
    private readonly store: TaskStore,
    /** How long a tool waits for its work before answering with a task, when the call names no wait of its own. */
    private readonly waitSeconds: number,
  ) {}

  offer(
    params: Record<string, unknown> | undefined,
    era: ProtocolEra,
    principal: string | undefined,
  ): CallTaskOffer | undefined {
    if (era !== 'modern' || !declaresTasks(params)) return undefined;
    const { store } = this;
    let created: TaskInfo | undefined;
    return {
      waitSeconds: this.waitSeconds,
      create(work: TaskWork): void {
        if (created !== undefined) throw new Error('a tool call creates at most one task');
        created = store.create(principal, work);
      },
      created: () => created,
    };
  }
}
