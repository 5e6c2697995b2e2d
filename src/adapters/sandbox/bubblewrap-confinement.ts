import { spawnSync } from 'node:child_process';
import { accessSync, closeSync, constants, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  CommandConfinement,
  ConfinementReadiness,
  ConfinedLaunch,
  ConfinementSummary,
  LaunchRequest,
} from '../../domain/execution/command-confinement.js';
import { SandboxUnavailable } from '../../domain/execution/execution-errors.js';
import { commandArgv } from '../../domain/execution/trusted-launch.js';
import {
  baseArguments,
  currentArguments,
  DEV_READ_ONLY,
  ROOT_ARGUMENTS,
  SANDBOX_PROXY_SOCKET,
  limitArguments,
  networkBridgeArguments,
  proxyEnvironment,
  type BubblewrapProfile,
} from './bubblewrap-profile.js';
import { PlaceholderRegistry } from './placeholder-registry.js';
import { findRepositories } from './run-on-open-paths.js';
import { snapshotSurface, surfaceChanges } from './run-on-open-surface.js';
import { planProtection, type PlaceholderSources } from './workspace-protection.js';

const PROBE_TIMEOUT_MS = 5000;

/** Private directories removed when the process exits: one exit listener for all (an embedder may build many). */
const removedAtExit = new Set<string>();
function removeAtExit(dir: string): void {
  if (removedAtExit.size === 0) {
    process.once('exit', () => {
      for (const each of removedAtExit) rmSync(each, { recursive: true, force: true });
    });
  }
  removedAtExit.add(dir);
}

/** `finish` runs once, whoever calls it first (the command's end, a failed start). */
function once<T>(run: () => T): () => T {
  let result: { value: T } | undefined;
  return () => {
    result ??= { value: run() };
    return result.value;
  };
}
const INSTALL_HINT =
  'Install bubblewrap and util-linux (Debian/Ubuntu: apt-get install bubblewrap util-linux), make sure user namespaces ' +
  'are enabled (sysctl kernel.unprivileged_userns_clone=1, or run the server as root), point TERM_MCP_BWRAP at bwrap ' +
  'if it is elsewhere, then restart the server. `term-mcp doctor` checks it. TERM_MCP_SANDBOX=off runs commands ' +
  'without a sandbox (not recommended).';
const SOCAT_HINT =
  'Install socat (Debian/Ubuntu: apt-get install socat), or turn ALLOW_NETWORK off, then restart the server.';

/** Where bwrap writes its JSON status (`--json-status-fd`). */
export const SETUP_STATUS_DESCRIPTOR = 4;

/**
 * bwrap's JSON status: `{ "child-pid": ... }` once it cloned, `{ "exit-code": N }` when the command it started has
 * exited. No exit code means it failed before starting the command (a mount it could not make), or was killed.
 */
export function setupCompletedFromStatus(report: string): boolean {
  return /"exit-code"\s*:/.test(report);
}

/**
 * Runs `run` with the set-up input (the seccomp program) readable on descriptor 3, for a synchronous spawn: from a
 * private temporary file, since spawnSync can only feed stdin.
 */
export function withSetupInput<T>(input: Uint8Array | undefined, run: (descriptor: number[]) => T): T {
  if (input === undefined) return run([]);
  const directory = mkdtempSync(path.join(os.tmpdir(), 'term-mcp-setup-'));
  const file = path.join(directory, 'input');
  writeFileSync(file, input, { mode: 0o600 });
  const descriptor = openSync(file, 'r');
  try {
    return run([descriptor]);
  } finally {
    closeSync(descriptor);
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * Launches every command inside its own bubblewrap sandbox, with the profile's argv built once (a bare bwrap launch
 * costs a few ms, where the library's per-command `wrapWithSandbox` costs ~15-25 ms to build plus a shell; see
 * docs/performance-notes.md). Whether bwrap can start here is probed on the first command, and kept once it succeeds;
 * while it cannot, every command is refused with `sandbox_unavailable` (fail closed).
 */
export class BubblewrapConfinement implements CommandConfinement {
  private readonly fixedArguments: readonly string[];
  private readonly bridgeArguments: readonly string[];
  private readonly proxyEnvironment: Readonly<Record<string, string>>;
  private probed: ConfinementReadiness | undefined;
  /** Placeholders of absent protected paths, shared by the commands running at once (removed by the last one). */
  private readonly placeholders = new PlaceholderRegistry();
  private sources: PlaceholderSources | undefined;

  constructor(private readonly profile: BubblewrapProfile) {
    this.fixedArguments = baseArguments(profile);
    this.bridgeArguments = networkBridgeArguments(profile);
    this.proxyEnvironment = proxyEnvironment(profile);
  }

  confine(request: LaunchRequest): ConfinedLaunch {
    const readiness = this.readiness();
    if (!readiness.ready) throw new SandboxUnavailable(readiness.reason, readiness.fix);
    // The proxy is asked every time: one that stopped after start-up must not leave commands without their network
    // silently, nor with any other.
    const proxy = this.profile.network === 'off' ? readiness : this.profile.network.proxyReadiness();
    if (!proxy.ready) throw new SandboxUnavailable(proxy.reason, proxy.fix);
    const { mounts, finish } = this.workspaceMounts();
    return {
      file: this.profile.bwrapPath,
      args: [
        ...mounts,
        // Says whether the set-up completed: bwrap writes an exit code there only for a command it started.
        '--json-status-fd',
        String(SETUP_STATUS_DESCRIPTOR),
        '--chdir',
        request.cwd,
        '--',
        ...limitArguments(this.profile),
        ...this.bridgeArguments,
        ...commandArgv(request.launch),
      ],
      // bwrap enters the command's directory itself (--chdir, inside the sandbox). Spawned there, a directory the
      // server's user cannot enter would be a spawn error ("spawn bwrap EACCES") instead of that command's set-up failure.
      cwd: '/',
      // Only the private /tmp is writable outside the workspace.
      environment: { ...request.environment, ...this.proxyEnvironment, TMPDIR: '/tmp' },
      ...(this.profile.seccompProgram === undefined ? {} : { setupInput: this.profile.seccompProgram }),
      setupCompleted: setupCompletedFromStatus,
      ...(finish ? { finish } : {}),
    };
  }

  /**
   * The mounts of one command. In a writable workspace they protect the run-on-open surface as it is now (pins,
   * read-only binds, placeholders: workspace-protection.ts), and `finish` releases the placeholders and names what
   * changed in that surface all the same (defence in depth, for what a mount cannot hold: a repository created at a
   * new depth, a link the user made replaced).
   */
  private workspaceMounts(): { mounts: string[]; finish?: () => readonly string[] } {
    const channel = this.profile.network === 'off' ? undefined : this.profile.network.openChannel?.();
    const channelMount = channel ? ['--bind', channel.socketPath, SANDBOX_PROXY_SOCKET] : [];
    if (!this.profile.workspaceWritable) {
      const mounts = [
        ...ROOT_ARGUMENTS,
        ...this.fixedArguments,
        ...channelMount,
        ...DEV_READ_ONLY,
        ...currentArguments(this.profile),
      ];
      return channel ? { mounts, finish: once(() => (channel.close(), [])) } : { mounts };
    }
    const root = this.profile.workspaceRoot;
    const own = this.placeholders.known();
    // A placeholder .git of ours is not a repository.
    const found = findRepositories(root);
    const layout = { ...found, gitDirs: found.gitDirs.filter((dir) => !own.has(dir)) };
    const before = snapshotSurface(root, layout);
    const plan = planProtection(root, layout, this.placeholderSources(), own);
    // Other commands' placeholders come and go while this one runs: not changes of the surface.
    const othersHeld = this.placeholders.heldPaths();
    const held = this.placeholders.hold(plan.placeholders);
    const mounts = [
      ...ROOT_ARGUMENTS,
      ...plan.pins,
      ...this.fixedArguments,
      ...channelMount,
      ...DEV_READ_ONLY,
      ...plan.binds,
      ...currentArguments(this.profile),
    ];
    const finish = once(() => {
      channel?.close();
      this.placeholders.release(held);
      const placeholders = new Set(
        [...othersHeld, ...this.placeholders.heldPaths()].map((target) => path.relative(root, target)),
      );
      return surfaceChanges(before, snapshotSurface(root), placeholders);
    });
    return { mounts, finish };
  }

  summary(): ConfinementSummary {
    const { limits, network } = this.profile;
    return {
      sandbox: 'bubblewrap',
      writable_roots: this.profile.workspaceWritable ? [this.profile.workspaceRoot, '/tmp'] : ['/tmp'],
      ...(network === 'off'
        ? { network: 'off' as const }
        : { network: 'filtered' as const, allowed_domains: [...network.allowedDomains] }),
      limits: {
        memory_bytes: limits.memoryBytes,
        processes: limits.processes,
        file_size_bytes: limits.fileSizeBytes,
        cpu_seconds: limits.cpuSeconds,
      },
    };
  }

  /** Made once, in a private directory outside the workspace (removed when the server exits). */
  private placeholderSources(): PlaceholderSources {
    if (this.sources) return this.sources;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'term-mcp-placeholders-'));
    removeAtExit(dir);
    const commondir = path.join(dir, 'commondir');
    writeFileSync(commondir, '.\n', { mode: 0o444, flag: 'wx' });
    const emptyDir = path.join(dir, 'empty');
    mkdirSync(emptyDir, { mode: 0o555 });
    this.sources = { commondir, emptyDir };
    return this.sources;
  }

  /** Starts one sandbox with the real profile running `true`: the answer for every later command. */
  /** A sandbox that started is remembered; a failure is probed again next time (it may have been transient). */
  readiness(): ConfinementReadiness {
    if (this.probed?.ready) return this.probed;
    this.probed = this.startProbe();
    return this.probed;
  }

  private startProbe(): ConfinementReadiness {
    if (this.profile.network !== 'off') {
      const proxy = this.profile.network.proxyReadiness();
      if (!proxy.ready) return proxy;
      try {
        accessSync(this.profile.network.socatPath, constants.X_OK);
      } catch {
        return {
          ready: false,
          reason: `socat (needed by ALLOW_NETWORK) not found at ${this.profile.network.socatPath}`,
          fix: SOCAT_HINT,
        };
      }
    }
    // The fixed arguments only: what a command's workspace holds (a planted link) must not make the sandbox look
    // unavailable; such a failure is that command's own (sandbox_setup_failed).
    const args = [
      ...ROOT_ARGUMENTS,
      ...this.fixedArguments,
      ...DEV_READ_ONLY,
      '--',
      ...limitArguments(this.profile),
      ...this.bridgeArguments,
      '/bin/true',
    ];
    const result = withSetupInput(this.profile.seccompProgram, (descriptor) =>
      spawnSync(this.profile.bwrapPath, args, {
        stdio: ['ignore', 'ignore', 'pipe', ...descriptor],
        timeout: PROBE_TIMEOUT_MS,
        encoding: 'utf8',
      }),
    );
    if (result.error) {
      const code = (result.error as NodeJS.ErrnoException).code;
      const reason =
        code === 'ENOENT'
          ? `bubblewrap not found at ${this.profile.bwrapPath}`
          : `cannot run ${this.profile.bwrapPath}: ${result.error.message}`;
      return { ready: false, reason, fix: INSTALL_HINT };
    }
    if (result.status !== 0) {
      const detail = result.stderr.trim().split('\n').slice(-1)[0] ?? '';
      return {
        ready: false,
        reason: `bubblewrap failed to start a sandbox (exit ${String(result.status ?? result.signal)}): ${detail}`,
        fix: INSTALL_HINT,
      };
    }
    return { ready: true };
  }
}
