import { z } from 'zod';

/** Seed: every supplied string argument must be non-empty after trimming (the value itself is kept as sent). */
export function nonEmptyString(description: string): z.ZodString {
  return z
    .string()
    .min(1)
    .describe(description)
    .refine((value) => value.trim().length > 0, 'must be a non-empty string');
}

export const sessionIdField = nonEmptyString('Execution session id returned by terminal_plan.');
export const planIdField = nonEmptyString('Plan id returned by terminal_plan or terminal_retry.');
export const commandIdField = nonEmptyString(
  'Command id returned by terminal_execute; default: the latest command of the session.',
);

/** Seconds a call may wait, bounded by the configured maximum command timeout. */
export function waitSecondsField(maxSeconds: number, description: string): z.ZodOptional<z.ZodNumber> {
  return z.number().min(0).max(maxSeconds).optional().describe(description);
}
