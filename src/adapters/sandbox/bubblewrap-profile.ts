import { lstatSync, statSync } from 'node:fs';
import type { ConfinementReadiness } from '../../domain/execution/command-confinement.js';
import { FIXED_SHELL } from '../../domain/execution/trusted-launch.js';
import { isAtOrBelow } from '../../domain/workspace/path-containment.js';

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
  /** Size of the private /tmp tmpfs: what a command can pin in memory there, whatever its address-space limit. */
  readonly tmpBytes: number;
  /** Size of the private /dev/shm tmpfs (the rest of /dev is read-only). */
  readonly shmBytes: number;
}

/**
 * ALLOW_NETWORK: the sandbox keeps its own network namespace (loopback only) and reaches out only through the
 * server's filtering proxy, whose unix socket is bound in and bridged to 127.0.0.1:3128 by socat inside.
 */
export interface FilteredNetwork {
  readonly socatPath: string;
  /** The proxy's socket on the host. */
  readonly proxySocketPath: string;
  readonly allowedDomains: readonly string[];
  /** Whether the proxy is still listening; asked before every command (a proxy that stopped fails closed). */
  readonly proxyReadiness: () => ConfinementReadiness;
  /**
   * A socket of the proxy for one command, with its own connection cap (one command cannot starve the others); bound
   * in instead of `proxySocketPath`, and closed when the command ends.
   */
  readonly openChannel?: () => { readonly socketPath: string; close(): void };
}

/**
 * Where the proxy's socket appears inside the sandbox, and the port the bridge listens on. In the sandbox's own /dev
 * (a tmpfs bwrap makes), because no workspace can lie there: under /tmp a workspace at /tmp would be bound over it.
 */
export const SANDBOX_PROXY_SOCKET = '/dev/term-mcp-proxy.sock';
export const SANDBOX_PROXY_PORT = 3128;

/** What every command is confined to; fixed at start-up. */
export interface BubblewrapProfile {
  readonly bwrapPath: string;
  readonly prlimitPath: string;
  readonly workspaceRoot: string;
  /** Confirm and trusted (and workspace-write): true; inspect: false. */
  readonly workspaceWritable: boolean;
  /** Off: loopback only. Filtered: loopback plus the proxy bridge. Never the host's network. */
  readonly network: 'off' | FilteredNetwork;
  /** Unreadable from inside: credentials, the policy file, the audit log, the server's installation. */
  readonly hiddenPaths: readonly string[];
  /**
   * Home directories replaced by an empty read-only tmpfs (the server user's, $HOME, /root, other users'), fixed at
   * start-up; the workspace and `homeAllowList` are bound back inside them.
   */
  readonly hiddenHomes: readonly string[];
  /** Toolchain directories inside hidden homes that stay readable (read-only). */
  readonly homeAllowList: readonly string[];
  /**
   * Files and directories that only root (or a group of root's) may read, masked when the server runs as root; or how
   * to find them (asked at every command, so a walk is best memoized and made on first use).
   */
  readonly rootOnlyReadable: readonly MaskedEntry[] | (() => readonly MaskedEntry[]);
  /** The seccomp program bwrap loads for the command (refuses the kernel keyring calls); undefined: none for this CPU. */
  readonly seccompProgram: Uint8Array | undefined;
  readonly limits: SandboxLimits;
}

/** A path to mask: a directory gets an empty read-only tmpfs, anything else /dev/null. */
export interface MaskedEntry {
  readonly path: string;
  readonly directory: boolean;
}

/** bwrap reads the seccomp program from this descriptor (the launch's `setupInput`), before the command starts. */
export const SECCOMP_DESCRIPTOR = 3;

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

/** The host, read-only: first, so that the ancestor pins (workspace-protection.ts) go on the real directories. */
export const ROOT_ARGUMENTS = Object.freeze(['--ro-bind', '/', '/']);

/**
 * The rest of /dev read-only (nothing but the sized /dev/shm to fill with files): after the base arguments and after
 * the command's own proxy channel, whose socket is bound into /dev.
 */
export const DEV_READ_ONLY = Object.freeze(['--remount-ro', '/dev']);

function kindOf(target: string): 'dir' | 'file' | undefined {
  try {
    return statSync(target).isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

/**
 * The bwrap arguments that do not change between commands, after ROOT_ARGUMENTS and the pins: a fresh /dev, /proc
 * of a new PID namespace, a private sized /tmp, the namespaces (a user namespace of its own, every capability dropped),
 * hidden homes, then the workspace. Computed once. DEV_READ_ONLY follows them and the command's own proxy channel.
 */
export function baseArguments(profile: BubblewrapProfile): string[] {
  const { tmpBytes, shmBytes } = profile.limits;
  return [
    '--dev',
    '/dev',
    // Sized, so a command cannot pin more memory there than this (tmpfs pages are not counted by RLIMIT_AS).
    '--size',
    String(shmBytes),
    '--tmpfs',
    '/dev/shm',
    '--proc',
    '/proc',
    // Private per command; the workspace is bound again below in case it lives under /tmp.
    '--size',
    String(tmpBytes),
    '--tmpfs',
    '/tmp',
    // A user namespace of its own whoever runs the server (as root, bwrap would otherwise keep root's full capability
    // set), with every capability dropped and no further user namespace: mount, umount, remount, unshare and setns
    // all fail, also for a server run as root (docs/security.md).
    '--unshare-user',
    '--disable-userns',
    '--cap-drop',
    'ALL',
    // A new PID namespace: the server's processes (and their environments in /proc) are invisible, and when the
    // command's first process exits, the kernel kills every process left in it (setsid and double forks included).
    // The command is its PID 1 (no bwrap init in between): bwrap reaps it itself, so no bwrap process is ever left
    // for the server to reap, which matters when the server is PID 1 of a container and nobody else would.
    '--unshare-pid',
    '--as-pid-1',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    // Always a network namespace of its own: with ALLOW_NETWORK the only way out is the proxy socket bound here.
    '--unshare-net',
    ...(profile.network === 'off' || profile.network.openChannel
      ? []
      : ['--bind', profile.network.proxySocketPath, SANDBOX_PROXY_SOCKET]),
    ...(profile.seccompProgram === undefined ? [] : ['--seccomp', String(SECCOMP_DESCRIPTOR)]),
    // The sandbox dies with the bwrap process the server spawned (timeout, cancel, session close, shutdown). No
    // --new-session: the command must stay in the process group the server pauses, resumes and kills; it has no
    // controlling terminal to inject keystrokes into (the server spawns it detached, with pipes).
    '--die-with-parent',
    ...hiddenHomeArguments(profile),
    profile.workspaceWritable ? '--bind' : '--ro-bind',
    profile.workspaceRoot,
    profile.workspaceRoot,
    // Read-only again once the allow list and the workspace are bound inside them (a writable tmpfs pins memory).
    ...profile.hiddenHomes.flatMap((home) => ['--remount-ro', home]),
  ];
}

/** Each hidden home becomes an empty tmpfs (writable until the end of set-up), with the allow list bound back read-only. */
function hiddenHomeArguments(profile: BubblewrapProfile): string[] {
  const args: string[] = [];
  for (const home of profile.hiddenHomes) {
    args.push('--perms', '0755', '--size', String(EMPTY_TMPFS_BYTES), '--tmpfs', home);
    for (const allowed of profile.homeAllowList) {
      if (isAtOrBelow(home, allowed) && kindOf(allowed) !== undefined) args.push('--ro-bind', allowed, allowed);
    }
  }
  return args;
}

/** Hidden homes and masked directories: enough for the mount points bound inside; read-only once set up. */
const EMPTY_TMPFS_BYTES = 1024 * 1024;

function maskArguments(target: string, directory: boolean): string[] {
  return directory
    ? ['--perms', '0755', '--size', String(EMPTY_TMPFS_BYTES), '--tmpfs', target, '--remount-ro', target]
    : ['--ro-bind', '/dev/null', target];
}

/** The masked entry still exists, as what it was (not replaced by a link, which the mount would follow). */
function stillThere(entry: MaskedEntry): boolean {
  try {
    const stats = lstatSync(entry.path);
    return entry.directory ? stats.isDirectory() : stats.isFile();
  } catch {
    return false;
  }
}

/** Under a hidden home and neither the workspace nor on the allow list: already invisible, no mask needed. */
function insideHiddenHome(profile: BubblewrapProfile, target: string): boolean {
  if (!profile.hiddenHomes.some((home) => isAtOrBelow(home, target))) return false;
  if (isAtOrBelow(profile.workspaceRoot, target) || isAtOrBelow(target, profile.workspaceRoot)) return false;
  return !profile.homeAllowList.some((allowed) => isAtOrBelow(allowed, target));
}

/**
 * The hidden paths, as they exist right now (a few stat calls). The protected run-on-open files of a writable workspace
 * are planned per command too, by workspace-protection.ts.
 */
export function currentArguments(profile: BubblewrapProfile): string[] {
  const args: string[] = [];
  // Found at start-up; one removed since (a directory of /var/tmp, say) must not break every later command's set-up.
  const rootOnly =
    typeof profile.rootOnlyReadable === 'function' ? profile.rootOnlyReadable() : profile.rootOnlyReadable;
  for (const entry of rootOnly) {
    if (stillThere(entry)) args.push(...maskArguments(entry.path, entry.directory));
  }
  for (const hidden of profile.hiddenPaths) {
    // A hidden path that holds the workspace (the server run from its own checkout) cannot be hidden without hiding
    // the workspace; main leaves such paths out and logs it.
    if (isAtOrBelow(hidden, profile.workspaceRoot) || insideHiddenHome(profile, hidden)) continue;
    const kind = kindOf(hidden);
    if (kind === 'dir') args.push('--tmpfs', hidden, '--remount-ro', hidden);
    else if (kind === 'file') args.push('--ro-bind', '/dev/null', hidden);
  }
  return args;
}

export function limitArguments(profile: BubblewrapProfile): string[] {
  const { memoryBytes, processes, fileSizeBytes, cpuSeconds } = profile.limits;
  return [
    profile.prlimitPath,
    `--as=${memoryBytes}`,
    `--nproc=${processes}`,
    `--fsize=${fileSizeBytes}`,
    `--cpu=${cpuSeconds}`,
    '--',
  ];
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/**
 * With a filtered network, the command is started by a small /bin/sh script that first runs socat (in the command's
 * own process group and PID namespace, so it pauses, resumes and dies with it) bridging 127.0.0.1:3128 to the proxy
 * socket, waits until the listening socket exists (the TCP count of /proc/net/sockstat, shell built-ins only, at most
 * 3 s), then execs the command with its own argv. As @anthropic-ai/sandbox-runtime does on Linux.
 */
export function networkBridgeArguments(profile: BubblewrapProfile): string[] {
  if (profile.network === 'off') return [];
  const script = [
    `${shellQuote(profile.network.socatPath)} TCP4-LISTEN:${SANDBOX_PROXY_PORT},bind=127.0.0.1,fork,reuseaddr,backlog=4096 ` +
      `UNIX-CONNECT:${SANDBOX_PROXY_SOCKET} </dev/null >/dev/null 2>&1 &`,
    'read -r _t _r < /proc/uptime; _end=$((1${_t%.*}${_t#*.} + 300))',
    'while :; do',
    '  _up=0',
    '  while read -r _k _r _n _r; do case "$_k" in TCP:) _up=$_n; break ;; esac; done < /proc/net/sockstat',
    '  [ "$_up" -lt 1 ] || break',
    '  read -r _t _r < /proc/uptime; [ "1${_t%.*}${_t#*.}" -lt "$_end" ] || break',
    'done',
    'unset _t _r _end _up _k _n',
    'exec "$@"',
  ].join('\n');
  return [FIXED_SHELL, '-c', script, 'term-mcp-network'];
}

/** The proxy settings most tools read (curl, git, pip, npm, cargo, go...), in both cases. */
export function proxyEnvironment(profile: BubblewrapProfile): Record<string, string> {
  if (profile.network === 'off') return {};
  const url = `http://127.0.0.1:${SANDBOX_PROXY_PORT}`;
  const names = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY'];
  return Object.fromEntries(
    names.flatMap((name) => [
      [name, url],
      [name.toLowerCase(), url],
    ]),
  );
}
