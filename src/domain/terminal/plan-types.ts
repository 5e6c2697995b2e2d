/** Seed §3.3: the life of a plan. `blocked` plans never leave it; a plan executes at most once. */
export type PlanStatus =
  'planned' | 'blocked' | 'approved' | 'running' | 'paused' | 'succeeded' | 'failed' | 'cancelled' | 'timed_out';

/** Where a started plan ends: its receipt's status. */
export type FinalPlanStatus = Extract<PlanStatus, 'succeeded' | 'failed' | 'cancelled' | 'timed_out'>;

/** The bounds a plan will run under, fixed when it is planned. */
export interface PlanLimits {
  readonly timeoutSeconds: number;
  /** Per output stream. */
  readonly maxOutputBytes: number;
  readonly maxProcessesPerSession: number;
}
