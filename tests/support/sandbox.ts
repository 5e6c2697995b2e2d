import { BubblewrapConfinement } from '../../src/adapters/sandbox/bubblewrap-confinement';
import { keyringSeccompProgram } from '../../src/adapters/sandbox/seccomp-filter';
import type { BubblewrapProfile, SandboxLimits } from '../../src/adapters/sandbox/bubblewrap-profile';

/** Limits loose enough for any test command, tight enough to stop a runaway one. */
export const TEST_LIMITS: SandboxLimits = Object.freeze({
  memoryBytes: 2 * 1024 ** 3,
  processes: 1024,
  fileSizeBytes: 256 * 1024 ** 2,
  cpuSeconds: 120,
  tmpBytes: 256 * 1024 ** 2,
  shmBytes: 64 * 1024 ** 2,
});

/** The real bubblewrap sandbox (the default of the server) for a test workspace; writable unless said otherwise. */
export function sandboxFor(workspaceRoot: string, overrides: Partial<BubblewrapProfile> = {}): BubblewrapConfinement {
  return new BubblewrapConfinement({
    bwrapPath: '/usr/bin/bwrap',
    prlimitPath: '/usr/bin/prlimit',
    workspaceRoot,
    workspaceWritable: true,
    network: 'off',
    hiddenPaths: [],
    hiddenHomes: [],
    homeAllowList: [],
    rootOnlyReadable: [],
    seccompProgram: keyringSeccompProgram(process.arch),
    limits: TEST_LIMITS,
    ...overrides,
  });
}
