/** How a piece of work that outlived its request ended: a tool result, or a protocol error (SEP-2663 `failed`). */
export type TaskOutcome =
  | { readonly status: 'completed'; readonly result: Record<string, unknown> }
  | { readonly status: 'failed'; readonly error: { readonly code: number; readonly message: string } };

/** Work a tool hands over to become a task: what it says while it runs, how it ends, and how to stop it. */
export interface TaskWork {
  /** A short, redacted account of the work now (the output tail of a command). */
  statusMessage(): Promise<string | undefined>;
  /** Settles once: the task's terminal state. Never rejects. */
  readonly outcome: Promise<TaskOutcome>;
  /** Asks the work to stop (cooperative: the task turns `cancelled` once it has). */
  cancel(): void;
}

/**
 * Offered to a tool when its caller declared the tasks extension: a tool whose work does not end within
 * `waitSeconds` may hand it over with `create`, and the call then answers with the task instead of the result.
 */
export interface TaskOffer {
  readonly waitSeconds: number;
  create(work: TaskWork): void;
}
