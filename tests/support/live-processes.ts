import { readdirSync, readFileSync } from 'node:fs';

/** Pids of live (non-zombie) processes whose command line is exactly `argv` (read from /proc). */
export function livePidsRunning(argv: string[]): number[] {
  const wanted = `${argv.join('\0')}\0`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') !== wanted) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** Polls until `condition` holds; fails with `description` after `timeoutMs` (generous: the machine may be loaded). */
export async function pollUntil(
  condition: () => boolean | Promise<boolean>,
  description: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
