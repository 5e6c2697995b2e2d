import { TaskStore } from '../../../src/application/tasks/task-store';
import type { TaskOutcome, TaskWork } from '../../../src/application/tasks/task-work';

/** Work whose end the test decides, and which records whether it was asked to stop. */
function controllableWork(
  message = 'working on it',
): TaskWork & { finish(outcome: TaskOutcome): void; cancelled: number } {
  let finish: (outcome: TaskOutcome) => void = () => undefined;
  const outcome = new Promise<TaskOutcome>((resolve) => {
    finish = resolve;
  });
  const work = {
    cancelled: 0,
    statusMessage: async () => message,
    outcome,
    cancel: () => {
      work.cancelled += 1;
    },
    finish: (value: TaskOutcome) => finish(value),
  };
  return work;
}

const RESULT = { content: [{ type: 'text', text: '{}' }], structuredContent: {}, isError: true };

describe('TaskStore', () => {
  let now: number;
  let ids: number;
  const store = (maxTasks = 100): TaskStore =>
    new TaskStore({
      newTaskId: () => `task-${(ids += 1)}`,
      now: () => now,
      ttlMs: 60_000,
      pollIntervalMs: 1000,
      maxTasks,
    });

  beforeEach(() => {
    now = Date.parse('2026-12-03T10:00:00.000Z');
    ids = 0;
  });

  it("creates a working task with its timestamps, ttlMs and pollIntervalMs, and shows the work's status message", async () => {
    const tasks = store();
    const created = tasks.create('alice', controllableWork('tail of the output'));
    expect(created).toEqual({
      taskId: 'task-1',
      status: 'working',
      createdAt: '2026-12-03T10:00:00.000Z',
      lastUpdatedAt: '2026-12-03T10:00:00.000Z',
      ttlMs: 60_000,
      pollIntervalMs: 1000,
    });
    expect(await tasks.get('alice', 'task-1')).toMatchObject({
      status: 'working',
      statusMessage: 'tail of the output',
    });
  });

  it('inlines the result once completed, and the error (never a result) once failed', async () => {
    const tasks = store();
    const succeeded = controllableWork();
    const broken = controllableWork();
    tasks.create('alice', succeeded);
    tasks.create('alice', broken);
    now += 5000;
    succeeded.finish({ status: 'completed', result: RESULT });
    broken.finish({ status: 'failed', error: { code: -32603, message: 'Internal error' } });
    await Promise.resolve();
    expect(await tasks.get('alice', 'task-1')).toMatchObject({
      status: 'completed',
      result: RESULT,
      lastUpdatedAt: '2026-12-03T10:00:05.000Z',
    });
    const failed = await tasks.get('alice', 'task-2');
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'Internal error' } });
    expect(failed).not.toHaveProperty('result');
  });

  it('is bound to its principal: another principal, and the stdio parent, find nothing, as for an unknown id', async () => {
    const tasks = store();
    const work = controllableWork();
    tasks.create('alice', work);
    expect(await tasks.get('mallory', 'task-1')).toBeUndefined();
    expect(await tasks.get(undefined, 'task-1')).toBeUndefined();
    expect(tasks.has('mallory', 'task-1')).toBe(false);
    expect(tasks.cancel('mallory', 'task-1')).toBe(false);
    expect(work.cancelled).toBe(0);
    expect(await tasks.get('alice', 'task-1')).toMatchObject({ status: 'working' });
  });

  it('cancels cooperatively: asks the work once, stays working until it has stopped, then is cancelled without a result', async () => {
    const tasks = store();
    const work = controllableWork();
    tasks.create('alice', work);
    expect(tasks.cancel('alice', 'task-1')).toBe(true);
    expect(tasks.cancel('alice', 'task-1')).toBe(true);
    expect(work.cancelled).toBe(1);
    expect(await tasks.get('alice', 'task-1')).toMatchObject({
      status: 'working',
      statusMessage: expect.stringContaining('cancelling'),
    });
    work.finish({ status: 'completed', result: RESULT });
    await Promise.resolve();
    const cancelled = await tasks.get('alice', 'task-1');
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    expect(cancelled).not.toHaveProperty('result');
    expect(tasks.cancel('alice', 'task-1')).toBe(true);
    expect(work.cancelled).toBe(1);
  });

  it('keeps an ended task for its whole ttl after it ended, then forgets it; a working task is never expired', async () => {
    const tasks = store();
    const ended = controllableWork();
    tasks.create('alice', ended);
    tasks.create('alice', controllableWork());
    now += 10 * 60_000;
    ended.finish({ status: 'completed', result: RESULT });
    await Promise.resolve();
    now += 59_999;
    expect(await tasks.get('alice', 'task-1')).toMatchObject({ status: 'completed' });
    now += 1;
    expect(await tasks.get('alice', 'task-1')).toBeUndefined();
    expect(await tasks.get('alice', 'task-2')).toMatchObject({ status: 'working' });
  });

  it('drops the oldest ended tasks when full, never a working one', async () => {
    const tasks = store(2);
    const first = controllableWork();
    tasks.create('alice', first);
    tasks.create('alice', controllableWork());
    first.finish({ status: 'completed', result: RESULT });
    await Promise.resolve();
    tasks.create('alice', controllableWork());
    expect(await tasks.get('alice', 'task-1')).toBeUndefined();
    expect(await tasks.get('alice', 'task-2')).toMatchObject({ status: 'working' });
    expect(await tasks.get('alice', 'task-3')).toMatchObject({ status: 'working' });
  });
});

describe('TaskStore with work that breaks its contract', () => {
  it('fails the task as a protocol error (no result) when the work rejects, instead of leaving it working', async () => {
    const tasks = new TaskStore({
      newTaskId: () => 'task-x',
      now: () => 0,
      ttlMs: 60_000,
      pollIntervalMs: 1000,
      maxTasks: 10,
    });
    const work: TaskWork = {
      statusMessage: async () => undefined,
      outcome: Promise.reject(new Error('boom')),
      cancel: () => undefined,
    };
    tasks.create('alice', work);
    await new Promise((resolve) => setImmediate(resolve));
    const failed = await tasks.get('alice', 'task-x');
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'Internal error' } });
    expect(failed).not.toHaveProperty('result');
  });
});
