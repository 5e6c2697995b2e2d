import { statSync } from 'node:fs';
import path from 'node:path';

/** Per-command resource limits (setrlimit, applied inside the sandbox with prlimit; soft = hard). */
export interface SandboxLimits {
  /** RLIMIT_AS, bytes of address space per process. */
  readonly memoryBytes: number;
  /** RLIMIT_NPROC: processes of the command's user (not enforced for root, see docs/security.md). */
  readonly processes: number;
  /** RLIMIT_FSIZE: largest file a process may write. */
  readonly fileSizeBytes: number;
  /** RLIMIT_CPU: CPU seconds per process. */
  readonly cpuSeconds: number;
}

/** What every command is confined to; fixed at start-up. */
export interface BubblewrapProfile {
  readonly bwrapPath: string;
  readonly prlimitPath: string;
  readonly workspaceRoot: string;
  /** Confirm and trusted (and workspace-write): true; inspect: false. */
  readonly workspaceWritable: boolean;
  readonly network: 'off' | 'on';
  /** Unreadable from inside: credentials, the policy file, the audit log, the server's installation. */
  readonly hiddenPaths: readonly string[];
  readonly limits: SandboxLimits;
}

/**
 * The shell and tool configuration files and directories that @anthropic-ai/sandbox-runtime 0.0.83 protects from writes
 * (its DANGEROUS_FILES and getDangerousDirectories()): each can make a later command, or the user's tools, run code.
 * Copied, because the package is ESM-only with no export for them (tests/adapters/sandbox checks they still match).
 */
export const PROTECTED_CONFIGURATION = Object.freeze([
  '.gitconfig',
  '.gitmodules',
  '.bashrc',
  '.bash_profile',
  '.zshrc',
  '.zprofile',
  '.profile',
  '.ripgreprc',
  '.mcp.json',
  '.vscode',
  '.idea',
  '.claude/commands',
  '.claude/agents',
]);

/** Inside the workspace, read-only even when it is writable: git's config and hooks name programs git runs. */
const WORKSPACE_READ_ONLY = ['.git/config', '.git/hooks', ...PROTECTED_CONFIGURATION];

type Kind = 'dir' | 'file' | undefined;

function kindOf(target: string): Kind {
  try {
    const stats = statSync(target);
    return stats.isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

function isAtOrUnder(target: string, dir: string): boolean {
  return target === dir || target.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}

/**
 * The bwrap arguments that do not change between commands: the host read-only, a fresh /dev, /proc of a new PID
 * namespace, a private /tmp, and the namespaces. Computed once.
 */
export function baseArguments(profile: BubblewrapProfile): string[] {
  return [
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    // Private per command; the workspace is bound again below in case it lives under /tmp.
    '--tmpfs', '/tmp',
    // A new PID namespace: the server's processes (and their environments in /proc) are invisible, and when the
    // command's first process exits, the kernel kills every process left in it (setsid and double forks included).
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(profile.network === 'off' ? ['--unshare-net'] : []),
    // The sandbox dies with the bwrap process the server spawned (timeout, cancel, session close, shutdown). No
    // --new-session: the command must stay in the process group the server pauses, resumes and kills; it has no
    // controlling terminal to inject keystrokes into (the server spawns it detached, with pipes).
    '--die-with-parent',
    profile.workspaceWritable ? '--bind' : '--ro-bind', profile.workspaceRoot, profile.workspaceRoot,
  ];
}

/**
 * The arguments that depend on what exists right now (a repository initialised after start-up gets its .git/config
 * protected at its first command): read-only protected files in the workspace, hidden paths. A few stat calls.
 */
export function currentArguments(profile: BubblewrapProfile): string[] {
  const args: string[] = [];
  if (profile.workspaceWritable) {
    for (const relative of WORKSPACE_READ_ONLY) {
      const target = path.join(profile.workspaceRoot, relative);
      if (kindOf(target) !== undefined) args.push('--ro-bind', target, target);
    }
  }
  for (const hidden of profile.hiddenPaths) {
    // A hidden path that holds the workspace (the server run from its own checkout) cannot be hidden without hiding
    // the workspace; main leaves such paths out and logs it.
    if (isAtOrUnder(profile.workspaceRoot, hidden)) continue;
    const kind = kindOf(hidden);
    if (kind === 'dir') args.push('--tmpfs', hidden, '--remount-ro', hidden);
    else if (kind === 'file') args.push('--ro-bind', '/dev/null', hidden);
  }
  return args;
}

export function limitArguments(profile: BubblewrapProfile): string[] {
  const { memoryBytes, processes, fileSizeBytes, cpuSeconds } = profile.limits;
  return [profile.prlimitPath, `--as=${memoryBytes}`, `--nproc=${processes}`, `--fsize=${fileSizeBytes}`, `--cpu=${cpuSeconds}`, '--'];
}
