import { existsSync } from 'node:fs';
import path from 'node:path';
import type { PolicySettings } from '../application/policy/policy-settings.js';
import { BubblewrapConfinement } from '../adapters/sandbox/bubblewrap-confinement.js';
import type { BubblewrapProfile, FilteredNetwork, MaskedEntry } from '../adapters/sandbox/bubblewrap-profile.js';
import { FilteringProxy, type ProxyDecision } from '../adapters/sandbox/filtering-proxy.js';
import { homesToHide } from '../adapters/sandbox/host-homes.js';
import { findRootOnlyReadable, ROOT_ONLY_SCAN_TREES } from '../adapters/sandbox/root-only-files.js';
import { keyringSeccompProgram } from '../adapters/sandbox/seccomp-filter.js';
import { UnconfinedLaunch } from '../adapters/sandbox/unconfined-launch.js';
import { installationDirectory } from './package-root.js';
import type { CommandConfinement } from '../domain/execution/command-confinement.js';
import { NetworkAllowlist } from '../domain/execution/network-allowlist.js';
import { isAtOrBelow } from '../domain/workspace/path-containment.js';
import type { Config } from './config.js';

/** setrlimit from inside the sandbox (util-linux, next to bwrap on every Linux that has it). */
const PRLIMIT_PATH = '/usr/bin/prlimit';
const MIB = 1024 * 1024;

/** The server user's credentials and tool tokens, relative to their home: unreadable from inside the sandbox. */
const CREDENTIAL_PATHS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.config/hub',
  '.config/gcloud',
  '.azure',
  '.kube',
  '.docker',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.terraform.d',
  '.vault-token',
  '.pgpass',
  '.password-store',
  '.local/share/keyrings',
  '.m2/settings.xml',
  '.gem/credentials',
];

/** The paths the sandbox hides; a path holding the workspace cannot be hidden and is skipped (and reported). */
export function hiddenPaths(config: Config): { hidden: string[]; notHidden: string[] } {
  const home = config.homeDir;
  const installation = installationDirectory();
  const candidates = [
    ...(home === undefined ? [] : CREDENTIAL_PATHS.map((relative) => path.join(home, relative))),
    ...(config.policyFile === undefined ? [] : [path.resolve(config.policyFile)]),
    ...(config.auditLog === undefined ? [] : [path.resolve(config.auditLog)]),
    // The server's state: the persistent receipt key would let a command sign receipts.
    ...(config.stateDir === undefined ? [] : [config.stateDir]),
    ...(installation === undefined ? [] : [installation]),
  ];
  const holdsWorkspace = (candidate: string): boolean => isAtOrBelow(candidate, config.workspaceRoot);
  return { hidden: candidates.filter((c) => !holdsWorkspace(c)), notHidden: candidates.filter(holdsWorkspace) };
}

/**
 * What the sandbox hides beyond the hidden paths, fixed at start-up: every home (the server user's from passwd, $HOME,
 * /root, other users'), but the allow list inside them; and, for a server run as root, every file and directory only
 * root may read under the system trees (uid 0 keeps reading those as their owner, capabilities or not).
 */
export function hiddenHomeProfile(
  config: Config,
): Pick<BubblewrapProfile, 'hiddenHomes' | 'homeAllowList' | 'rootOnlyReadable'> {
  const hiddenHomes = homesToHide(config.homeDir, config.workspaceRoot);
  const homeAllowList = hiddenHomes.flatMap((home) =>
    config.sandboxHomeAllow.map((relative) => path.join(home, relative)),
  );
  const asRoot = process.getuid?.() === 0;
  // The walk of the system trees (~70-120 ms) runs when the first command is confined, not at start-up: a client's
  // first tools/list does not wait for it (issue 22, cold start), and no command runs without the masks.
  let found: readonly MaskedEntry[] | undefined;
  const rootOnlyReadable = (): readonly MaskedEntry[] =>
    (found ??= asRoot
      ? findRootOnlyReadable(ROOT_ONLY_SCAN_TREES, [config.workspaceRoot, ...hiddenHomes], {
          uid: 0,
          groups: process.getgroups?.() ?? [0],
        }).entries
      : []);
  return { hiddenHomes, homeAllowList, rootOnlyReadable };
}

export function sandboxProfile(
  config: Config,
  policy: PolicySettings,
  network: 'off' | FilteredNetwork = 'off',
): BubblewrapProfile {
  const { hiddenHomes, homeAllowList, rootOnlyReadable } = hiddenHomeProfile(config);
  return {
    bwrapPath: config.bwrapPath,
    prlimitPath: PRLIMIT_PATH,
    workspaceRoot: config.workspaceRoot,
    // Inspect only reads; confirm and trusted may change the workspace (after approval where the policy says so).
    workspaceWritable: policy.mode !== 'inspect',
    network,
    hiddenPaths: hiddenPaths(config).hidden,
    hiddenHomes,
    homeAllowList,
    rootOnlyReadable,
    seccompProgram: keyringSeccompProgram(process.arch),
    limits: {
      memoryBytes: config.sandboxMemoryMb * MIB,
      processes: config.sandboxProcesses,
      fileSizeBytes: config.sandboxFileSizeMb * MIB,
      cpuSeconds: config.sandboxCpuSeconds,
      tmpBytes: config.sandboxTmpMb * MIB,
      shmBytes: config.sandboxShmMb * MIB,
    },
  };
}

/**
 * With ALLOW_NETWORK and the sandbox on: the filtering proxy commands reach the network through, listening from
 * start-up. If it cannot listen, `proxy.readiness()` says why and the confinement refuses every command with
 * sandbox_unavailable (never the host network, nor silently none). Undefined when commands get no network.
 */
export function startFilteringProxy(
  config: Config,
  policy: PolicySettings,
  onDecision?: (decision: ProxyDecision) => void,
): FilteringProxy | undefined {
  if (!config.sandboxEnabled || !policy.allowNetwork) return undefined;
  const proxy = new FilteringProxy({
    allowlist: new NetworkAllowlist(config.allowedDomains),
    loopbackPorts: config.proxyLoopbackPorts,
    onDecision,
  });
  try {
    proxy.listen();
  } catch {
    // proxy.readiness() now says why; the confinement refuses every command with it.
  }
  return proxy;
}

/**
 * TERM_MCP_SANDBOX=off is the only way to run commands unconfined; otherwise bubblewrap or nothing (fail closed),
 * with the network off, or filtered through `proxy` when there is one.
 */
export function buildConfinement(config: Config, policy: PolicySettings, proxy?: FilteringProxy): CommandConfinement {
  if (!config.sandboxEnabled) return new UnconfinedLaunch();
  if (proxy === undefined) return new BubblewrapConfinement(sandboxProfile(config, policy));
  const network: FilteredNetwork = {
    socatPath: config.socatPath,
    proxySocketPath: proxy.socketPath ?? '/nonexistent/term-mcp-proxy.sock',
    allowedDomains: config.allowedDomains,
    proxyReadiness: () => proxy.readiness(),
    openChannel: () => proxy.openChannel(),
  };
  return new BubblewrapConfinement(sandboxProfile(config, policy, network));
}

/** Whether util-linux's prlimit is where the profile expects it (doctor). */
export function prlimitInstalled(): boolean {
  return existsSync(PRLIMIT_PATH);
}
