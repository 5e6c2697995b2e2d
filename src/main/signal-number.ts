import { constants as osConstants } from 'node:os';

/** Number of a signal name on this platform (`SIGTERM` -> 15), null when unknown: what receipts and reads report. */
export function signalNumber(name: string): number | null {
  return (osConstants.signals as Record<string, number | undefined>)[name] ?? null;
}
