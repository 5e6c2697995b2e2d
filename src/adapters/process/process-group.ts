import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Waits between cheap `kill(-group, 0)` checks while a group ends: short at first, because a group usually empties
 * within a millisecond or two, then at most every 50 ms. The check costs one system call, whatever the host runs.
 */
const MAX_CHECK_DELAY_MS = 50;
const CHECK_DELAYS_MS = [1, 2, 4, 8, 16, 32, MAX_CHECK_DELAY_MS];
/**
 * How long a group may keep members after its leader exited before /proc is scanned to tell zombies from live
 * members. A sandboxed command leaves one straggler: bubblewrap's PID-namespace init, re-parented to PID 1 when bwrap
 * exits, which is a zombie until PID 1 reaps it: about 1 ms under a reaping init, about 1.2 s under this machine's
 * PID 1, never under none. The scan reads /proc/N/stat of every process on the host (its cost grows with the
 * machine's process count), so it only runs when the group outlasts this wait.
 */
const LEADER_GONE_PATIENCE_MS = 3000;
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
 * Whether some process of the group can still run, once its leader has exited: waits (cheap checks only) up to
 * `LEADER_GONE_PATIENCE_MS` for the group to empty, then scans /proc once, because zombies do not count: a killed
 * background process whose parent died is re-parented to PID 1, and when PID 1 does not reap (containers without an
 * init, some VMs) it stays a zombie in the group for ever, although it is dead.
 */
export async function groupIsAlive(groupId: number, settleNow?: AbortSignal): Promise<boolean> {
  return !(await waitUntilGone(groupId, LEADER_GONE_PATIENCE_MS, settleNow));
}

/**
 * True when some member of the group is not a zombie, from /proc (Linux); elsewhere (no /proc) any member counts
 * as alive.
 */
async function groupHasLiveMember(groupId: number): Promise<boolean> {
  const live = await freshScan();
  return live === undefined || live.has(groupId);
}

let scanning: Promise<ReadonlySet<number> | undefined> | undefined;
let queuedScan: Promise<ReadonlySet<number> | undefined> | undefined;

/**
 * The groups with a live member, from a scan that starts after this call: many groups asking at once (a shutdown
 * right after many commands) share one scan instead of each reading all of /proc.
 */
function freshScan(): Promise<ReadonlySet<number> | undefined> {
  if (queuedScan) return queuedScan;
  const start = (): Promise<ReadonlySet<number> | undefined> => {
    queuedScan = undefined;
    const run = groupsWithLiveMembers().finally(() => {
      if (scanning === run) scanning = undefined;
    });
    scanning = run;
    return run;
  };
  if (!scanning) return start();
  queuedScan = scanning.then(start, start);
  return queuedScan;
}

/** Process group ids that have a member that is not a zombie; undefined without /proc. */
async function groupsWithLiveMembers(): Promise<ReadonlySet<number> | undefined> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return undefined;
  }
  const states = await Promise.all(entries.filter((entry) => /^\d+$/.test(entry)).map(readProcessState));
  const live = new Set<number>();
  for (const state of states) if (state !== undefined && state.state !== 'Z') live.add(state.groupId);
  return live;
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
 * Resolves true once no process of the group can run, false if one still can after `timeoutMs`. Until the deadline
 * the check is `kill(-group, 0)`, whose cost does not depend on the host; at the deadline, or as soon as `settleNow`
 * aborts, one /proc scan decides: a group of zombies only counts as gone.
 */
async function waitUntilGone(groupId: number, timeoutMs: number, settleNow?: AbortSignal): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let check = 0; ; check += 1) {
    if (!signalGroup(groupId, 0)) return true;
    const remaining = deadline - Date.now();
    if (remaining <= 0 || settleNow?.aborted) return !(await groupHasLiveMember(groupId));
    const wait = CHECK_DELAYS_MS[Math.min(check, CHECK_DELAYS_MS.length - 1)] ?? MAX_CHECK_DELAY_MS;
    // An abort cuts the wait short; the next turn then scans.
    await delay(Math.min(wait, remaining), undefined, settleNow ? { signal: settleNow } : undefined).catch(
      () => undefined,
    );
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
