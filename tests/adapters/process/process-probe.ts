import { readFileSync } from 'node:fs';

/** Single-letter state from /proc (R, S, T stopped, Z zombie...), or undefined when the process is gone. */
export function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/**
 * True while the process can still run. `kill(pid, 0)` alone is not enough here: PID 1 of this kind of VM or
 * container does not reap orphans, so a killed background process stays a zombie (dead, state Z) for ever.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
  return processState(pid) !== 'Z';
}

/** Polls until the condition holds; fails the test with `description` after `timeoutMs`. */
export async function waitFor(condition: () => boolean, description: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
