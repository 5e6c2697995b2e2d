import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Waits between cheap `kill(-group, 0)` checks while a group ends: short at first, because the usual straggler is
 * gone within a millisecond or two (after bubblewrap exits, its PID-namespace init stays a member of the group for
 * about 1 ms), then at most every 20 ms.
 */
const MAX_CHECK_DELAY_MS = 20;
const CHECK_DELAYS_MS = [1, 2, 4, 8, 16, MAX_CHECK_DELAY_MS];
/**
 * How long a group must keep a member before /proc is scanned to tell zombies from live members, and how often the
 * scan is repeated while waiting. The scan reads /proc/N/stat of every process on the host, so its cost grows with
 * the machine's process count; it is kept off the common path (a group that ends within this time).
 */
const ZOMBIE_SCAN_AFTER_MS = 50;
const ZOMBIE_SCAN_INTERVAL_MS = 200;
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
 * True while some process of the group can still run. Checked with `kill(-group, 0)` (one syscall) until the group
 * has had members for `ZOMBIE_SCAN_AFTER_MS`; only then is /proc scanned, because zombies do not count: a killed
 * background process whose parent died is re-parented to PID 1, and when PID 1 does not reap (containers without an
 * init, some VMs) it stays a zombie in the group for ever, although it is dead.
 */
export async function groupIsAlive(groupId: number): Promise<boolean> {
  return !(await waitUntilGone(groupId, ZOMBIE_SCAN_AFTER_MS));
}

/**
 * True when some member of the group is not a zombie, from /proc (Linux); elsewhere (no /proc) any member counts
 * as alive.
 */
async function groupHasLiveMember(groupId: number): Promise<boolean> {
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

/**
 * Resolves true once no process of the group can run, false if one still can after `timeoutMs`. The check is
 * `kill(-group, 0)`, whose cost does not depend on the host; /proc is scanned (for a group of zombies only) after
 * `ZOMBIE_SCAN_AFTER_MS`, then every `ZOMBIE_SCAN_INTERVAL_MS`, and once more at the deadline.
 */
async function waitUntilGone(groupId: number, timeoutMs: number): Promise<boolean> {
  const started = Date.now();
  let nextScanAt = started + ZOMBIE_SCAN_AFTER_MS;
  for (let check = 0; ; check += 1) {
    if (!signalGroup(groupId, 0)) return true;
    const now = Date.now();
    const atDeadline = now - started >= timeoutMs;
    if (now >= nextScanAt || atDeadline) {
      if (!(await groupHasLiveMember(groupId))) return true;
      nextScanAt = Date.now() + ZOMBIE_SCAN_INTERVAL_MS;
    }
    if (atDeadline) return false;
    const wait = CHECK_DELAYS_MS[Math.min(check, CHECK_DELAYS_MS.length - 1)] ?? MAX_CHECK_DELAY_MS;
    await delay(Math.min(wait, Math.max(1, started + timeoutMs - Date.now())));
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
