import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

const POLL_INTERVAL_MS = 20;
/** SIGKILL cannot be ignored; this only bounds the wait for a process stuck in the kernel (D state). */
const KILL_WAIT_MS = 2000;

/** Sends a signal to every process of the group. False when the group is gone (or not ours to signal). */
export function signalGroup(groupId: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-groupId, signal);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH' || code === 'EPERM') return false;
    throw error;
  }
}

/**
 * True while some process of the group can still run. Zombies do not count: a killed background process whose
 * parent died is re-parented to PID 1, and when PID 1 does not reap (containers without an init, some VMs) it stays
 * a zombie in the group for ever, although it is dead. Linux tells them apart through /proc; elsewhere any member
 * counts as alive.
 */
export async function groupIsAlive(groupId: number): Promise<boolean> {
  if (!signalGroup(groupId, 0)) return false;
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return true;
  }
  const states = await Promise.all(entries.filter((entry) => /^\d+$/.test(entry)).map(readProcessState));
  return states.some((state) => state !== undefined && state.groupId === groupId && state.state !== 'Z');
}

async function readProcessState(pid: string): Promise<{ state: string; groupId: number } | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ')'.
    const [state, , groupId] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return state === undefined ? undefined : { state, groupId: Number(groupId) };
  } catch {
    return undefined;
  }
}

async function waitUntilGone(groupId: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!(await groupIsAlive(groupId))) return true;
    if (Date.now() >= deadline) return false;
    await delay(POLL_INTERVAL_MS);
  }
}

/**
 * Ends every process of the group: SIGCONT first (a stopped process would not act on SIGTERM), SIGTERM, and SIGKILL
 * for whatever is still alive after `graceMs`. Resolves true once the group is gone, false if a process survived a
 * bounded wait after SIGKILL (stuck in the kernel).
 */
export async function terminateGroup(groupId: number, graceMs: number): Promise<boolean> {
  signalGroup(groupId, 'SIGCONT');
  if (!signalGroup(groupId, 'SIGTERM')) return true;
  if (await waitUntilGone(groupId, graceMs)) return true;
  signalGroup(groupId, 'SIGKILL');
  return waitUntilGone(groupId, KILL_WAIT_MS);
}
