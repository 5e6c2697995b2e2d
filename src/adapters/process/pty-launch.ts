import { execFile } from 'node:child_process';
import { readFileSync, readlinkSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import type { TerminalSize } from '../../domain/execution/interactive-terminal.js';
import { FIXED_SHELL } from '../../domain/execution/trusted-launch.js';
import type { LaunchForm } from '../../domain/policy/policy-types.js';

const runFile = promisify(execFile);

/** util-linux `script`: allocates the pseudo-terminal inside the sandbox, so the command keeps job control and Ctrl-C. */
export const SCRIPT_PATH = '/usr/bin/script';
const STTY_PATH = '/bin/stty';
/** The terminal the emulator answers as. */
export const TERMINAL_TYPE = 'xterm-256color';

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The launch as a shell line for `script -c` (which runs it through $SHELL, fixed to /bin/sh). */
function commandLine(launch: LaunchForm): string {
  return launch.kind === 'shell'
    ? `exec ${FIXED_SHELL} -c ${shellQuote(launch.script)}`
    : `exec ${launch.argv.map(shellQuote).join(' ')}`;
}

/**
 * The launch run on a pseudo-terminal that `script` opens inside the confinement: `-q` no banner, `-f` flush at once,
 * `-e` its exit status is the command's, `-c` the command; the typescript goes to /dev/null (we keep the output).
 * The terminal gets its size before the command starts (a pipe-fed `script` has none), then the command replaces
 * that shell: the program is the terminal's foreground process, so Ctrl-C reaches it and only it.
 */
export function scriptLaunch(launch: LaunchForm, size: TerminalSize): LaunchForm {
  const line = `${STTY_PATH} cols ${String(size.cols)} rows ${String(size.rows)} 2>/dev/null; ${commandLine(launch)}`;
  return { kind: 'argv', argv: [SCRIPT_PATH, '-qfec', line, '/dev/null'] };
}

/** The environment a terminal program expects on top of the command's own. */
export function terminalEnvironment(): Record<string, string> {
  return { TERM: TERMINAL_TYPE, SHELL: FIXED_SHELL };
}

/** Children of a process, from /proc (CONFIG_PROC_CHILDREN). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${String(pid)}/task/${String(pid)}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function processName(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${String(pid)}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** A descriptor of `pid` open on a pseudo-terminal's secondary side (`/dev/pts/N`), as a /proc path. */
function terminalDescriptor(pid: number): string | undefined {
  try {
    for (const fd of readdirSync(`/proc/${String(pid)}/fd`)) {
      const target = readlinkSync(`/proc/${String(pid)}/fd/${fd}`);
      if (/^\/dev\/pts\/\d+$/.test(target)) return `/proc/${String(pid)}/fd/${fd}`;
    }
  } catch {
    // Gone, or not ours to look at.
  }
  return undefined;
}

/**
 * The sandbox's terminal, reached from outside through /proc: `script`, a few levels under the bwrap the server
 * spawned, keeps the terminal's secondary side open for the whole session.
 */
export function findTerminal(leaderPid: number): string | undefined {
  let level = [leaderPid];
  for (let depth = 0; depth < 4 && level.length > 0; depth += 1) {
    const next: number[] = [];
    for (const pid of level) {
      for (const child of childrenOf(pid)) {
        if (processName(child) === 'script') return terminalDescriptor(child);
        next.push(child);
      }
    }
    level = next;
  }
  return undefined;
}

/** Sets the terminal's size (TIOCSWINSZ): the kernel sends SIGWINCH to its foreground process group. */
export async function resizeTerminal(leaderPid: number, size: TerminalSize): Promise<boolean> {
  const device = findTerminal(leaderPid);
  if (device === undefined) return false;
  try {
    await runFile(STTY_PATH, ['-F', device, 'cols', String(size.cols), 'rows', String(size.rows)], { timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}
