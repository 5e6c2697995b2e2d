/** A call waiting for room; `place` takes the room when there is some (undefined: still no room for it). */
interface Waiter<T> {
  readonly owner: string | undefined;
  readonly place: () => T | undefined;
  readonly resolve: (placed: T) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * While calls wait, room is looked for again this often, besides at once whenever the store says room may have come
 * back (`serveSoon`): a command that finishes in a kept session makes that session evictable without telling anyone.
 */
const WAITING_RETRY_MS = 50;

/**
 * The calls waiting for room for a new session (the store's `createWhenRoom`): served in arrival order, each only when
 * its own `place` finds room (so each owner stays within its share); bounded server-wide and per owner.
 */
export class RoomQueue<T> {
  private readonly waiters: Array<Waiter<T>> = [];
  private retry: NodeJS.Timeout | undefined;

  /** `beforeServing`: runs before each round (the store ends idle sessions, which may make room). */
  constructor(
    readonly maxWaiting: number,
    readonly maxWaitingPerOwner: number,
    private readonly beforeServing: () => void,
  ) {}

  get size(): number {
    return this.waiters.length;
  }

  /** Someone of this owner already waits (a newcomer of that owner queues behind them). */
  hasWaiting(owner: string | undefined): boolean {
    return this.waiters.some((waiter) => waiter.owner === owner);
  }

  /** The queue, or this owner's half of it, is full. */
  isFull(owner: string | undefined): boolean {
    const ofOwner = this.waiters.filter((waiter) => waiter.owner === owner).length;
    return this.waiters.length >= this.maxWaiting || ofOwner >= this.maxWaitingPerOwner;
  }

  /** Waits until `place` succeeds in a round; an aborted `signal` leaves the queue with the signal's reason. */
  wait(owner: string | undefined, place: () => T | undefined, signal: AbortSignal | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const leave = (): void => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(signal?.reason);
      };
      const waiter: Waiter<T> = {
        owner,
        place,
        resolve: (placed) => {
          signal?.removeEventListener('abort', leave);
          resolve(placed);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', leave);
          reject(error);
        },
      };
      signal?.addEventListener('abort', leave, { once: true });
      this.waiters.push(waiter);
      this.armRetry();
    });
  }

  /** After the current turn (a removal may be part of a larger change), gives room to waiting calls. */
  serveSoon(): void {
    if (this.waiters.length > 0) queueMicrotask(() => this.serve());
  }

  /** Refuses every waiting call (the server is closing). */
  rejectAll(error: unknown): void {
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
    this.disarmRetry();
  }

  /** Each waiting call, oldest first, that fits now gets its room; the others keep their place. */
  private serve(): void {
    this.beforeServing();
    for (const waiter of [...this.waiters]) {
      if (!this.waiters.includes(waiter)) continue;
      let placed: T | undefined;
      try {
        placed = waiter.place();
      } catch (error) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.reject(error);
        continue;
      }
      if (placed === undefined) continue;
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(placed);
    }
    if (this.waiters.length === 0) this.disarmRetry();
  }

  private armRetry(): void {
    if (this.retry) return;
    this.retry = setInterval(() => this.serve(), WAITING_RETRY_MS);
    this.retry.unref();
  }

  private disarmRetry(): void {
    clearInterval(this.retry);
    this.retry = undefined;
  }
}
