import { readdirSync, readFileSync } from 'node:fs';

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

function statusField(pid: string, field: string): string | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return status
      .split('\n')
      .find((line) => line.startsWith(`${field}:`))
      ?.slice(field.length + 1)
      .trim();
  } catch {
    return undefined;
  }
}

function descendsFrom(pid: number, ancestor: number): boolean {
  for (let current = pid, hops = 0; current > 1 && hops < 64; hops += 1) {
    if (current === ancestor) return true;
    current = Number(statusField(String(current), 'PPid') ?? 0);
  }
  return false;
}

/**
 * The host pid of a process that printed its own pid (`$$`, `$!`) from inside a sandboxed command: inside its PID
 * namespace it sees other numbers. Found through /proc/<pid>/status NSpid (host pid first, innermost last) among the
 * descendants of the command's leader (the bwrap process the server spawned). Unsandboxed, the pid is the pid.
 */
export function hostPidOf(innerPid: number, leaderPid: number): number {
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const nsPids = statusField(entry, 'NSpid')?.split(/\s+/).map(Number) ?? [];
    if (nsPids.at(-1) === innerPid && descendsFrom(Number(entry), leaderPid)) return Number(entry);
  }
  throw new Error(`no process ${innerPid} under ${leaderPid}`);
}
