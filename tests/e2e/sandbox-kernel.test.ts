import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import {
  CREDENTIAL_FILES,
  KEYRING_READ_LINES,
  keyringPlanterScript,
  makeOutsideDir,
  NOBODY,
  plantCleanFilterRepository,
  plantHome,
  RUNNING_AS_ROOT,
  serverUserLauncher,
} from '../support/sandbox-attack';
import { waitFor } from '../adapters/process/process-probe';
import { modern, StdioPeer } from '../support/stdio-peer';
import { makeTempWorkspace } from '../support/workspace';

/*
 * Issue 26, the kernel side, against the built server over STDIO in the real sandbox, with the server as root and as
 * nobody: a workspace script (sandboxed mode runs it at once) tries what a command run by a root server could do
 * before: use root's capabilities (umount the masks, remount / read-write, unshare), read the server's session
 * keyring, the server user's home (36 credential files, whatever HOME says), /root, files only root may read, write
 * or read through descriptors the server inherited, and fill /tmp, /dev/shm and /dev without bound. Each claim of
 * docs/security.md "No capabilities, a user namespace of its own" and after names a test here.
 */

jest.setTimeout(90_000);

const KEY_SECRET = `keyring-secret-${process.pid}`;
const FD_SECRET = `inherited-fd-secret-${process.pid}`;
const ROOT_HOME_SECRET = `root-home-secret-${process.pid}`;
const ROOT_ONLY_SECRET = `root-only-secret-${process.pid}`;
const TMP_MB = 16;
const SHM_MB = 8;

interface Scene {
  workspace: { root: string; remove(): void };
  outside: { root: string; remove(): void };
  home: string;
  rootHomeDir: string;
  rootOnlyFile: string;
  fdSecretFile: string;
  fdOutsideFile: string;
  secretOf: (index: number) => string;
}

/** `unconfined`: for the control run without the sandbox, which must not unmount or mount anything on the host. */
function attackScript(scene: Scene, unconfined = false): string {
  const { home, outside } = scene;
  const mountLines = [
    `umount '${home}' 2>/dev/null && echo UMOUNT-OK`,
    `umount -l '${home}' 2>/dev/null && echo UMOUNT-LAZY-OK`,
    'mount -o remount,bind,rw / 2>/dev/null && echo REMOUNT-OK',
    `mount -t tmpfs none '${outside.root}' 2>/dev/null && echo MOUNT-OK`,
  ];
  return [
    'echo SCRIPT-RAN',
    "grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb):' /proc/self/status",
    'echo "USERNS $(readlink /proc/self/ns/user)"',
    'echo "UID $(id -u)"',
    // Root's capabilities: unmount a mask, remount the host read-write and write outside, new namespaces.
    ...(unconfined ? [] : mountLines),
    `echo pwned > '${outside.root}/written-outside' 2>/dev/null && echo WRITE-OUTSIDE-OK`,
    ...(unconfined
      ? []
      : [
          'unshare -U true 2>/dev/null && echo UNSHARE-USER-OK',
          'unshare -m true 2>/dev/null && echo UNSHARE-MOUNT-OK',
          'unshare -Ur sh -c "umount /proc" 2>/dev/null && echo NESTED-UMOUNT-OK',
          'nsenter -t 1 -m true 2>/dev/null && echo SETNS-OK',
        ]),
    // The session keyring the server inherited.
    ...KEYRING_READ_LINES,
    // The home, by its $HOME path (the launcher's) and root's passwd home.
    ...CREDENTIAL_FILES.map((relative) => `cat '${path.join(home, relative)}' 2>/dev/null`),
    `grep -rh home-secret '${home}' 2>/dev/null`,
    `echo "HOME-ENTRIES $(ls -A '${home}' 2>/dev/null | tr '\\n' ' ')"`,
    `cat '${path.join(home, '.cargo', 'bin', 'toolchain-binary')}' 2>/dev/null`,
    `cat '${path.join(scene.rootHomeDir, 'secret')}' 2>/dev/null`,
    // Files only root may read.
    `cat '${scene.rootOnlyFile}' /etc/shadow /etc/gshadow 2>/dev/null`,
    // Descriptors the server inherited from its launcher.
    // bash: dash has no descriptors above 9.
    "bash -c 'cat <&30' 2>/dev/null",
    "bash -c 'echo written-through-fd >&31' 2>/dev/null && echo FD-WRITE-OK",
    "ls /proc/self/fd | sed 's/^/FD /'",
    // Sized tmpfs: write past each size, report what stayed.
    `head -c ${2 * TMP_MB}M /dev/zero > /tmp/fill 2>/dev/null; echo "TMP-BYTES $(stat -c %s /tmp/fill)"`,
    `head -c ${2 * SHM_MB}M /dev/zero > /dev/shm/fill 2>/dev/null; echo "SHM-BYTES $(stat -c %s /dev/shm/fill)"`,
    'echo x > /dev/planted 2>/dev/null && echo DEV-WRITE-OK',
    'echo "TMP-SIZE $(df -k /tmp | tail -1 | tr -s " " | cut -d" " -f2)"',
    'echo SCRIPT-END',
  ].join('\n');
}

function setUp(who: 'root' | 'nobody', unconfined = false): Scene {
  const workspace = makeTempWorkspace('term-mcp-kernel-');
  const outside = makeOutsideDir('term-mcp-kernel-canary-');
  const owner = who === 'nobody' ? NOBODY : undefined;
  const home = path.join(outside.root, 'home');
  const { secretOf } = plantHome(home, owner);
  // World-readable, in /root: only hiding root's home (passwd) keeps it from a root server's commands.
  const rootHomeDir = path.join('/root', `.term-mcp-kernel-test-${process.pid}-${who}`);
  mkdirSync(rootHomeDir, { recursive: true, mode: 0o755 });
  writeFileSync(path.join(rootHomeDir, 'secret'), `${ROOT_HOME_SECRET}\n`, { mode: 0o644 });
  // Owned by root, readable by root only, outside every home: the start-up scan must find and mask it.
  const rootOnlyFile = path.join(outside.root, 'root-only');
  writeFileSync(rootOnlyFile, `${ROOT_ONLY_SECRET}\n`, { mode: 0o600 });
  const fdSecretFile = path.join(outside.root, 'fd-secret');
  writeFileSync(fdSecretFile, `${FD_SECRET}\n`, { mode: 0o600 });
  const fdOutsideFile = path.join(outside.root, 'fd-outside');
  writeFileSync(fdOutsideFile, 'untouched\n', { mode: 0o600 });
  const scene: Scene = { workspace, outside, home, rootHomeDir, rootOnlyFile, fdSecretFile, fdOutsideFile, secretOf };
  writeFileSync(path.join(workspace.root, 'attack.sh'), `${attackScript(scene, unconfined)}\n`);
  chmodSync(workspace.root, 0o777);
  if (owner !== undefined) execFileSync('chown', ['-R', `${owner}:${owner}`, workspace.root]);
  writeFileSync(path.join(outside.root, 'plant-key.pl'), keyringPlanterScript(KEY_SECRET));
  return scene;
}

function tearDown(scene: Scene): void {
  scene.workspace.remove();
  scene.outside.remove();
  rmSync(scene.rootHomeDir, { recursive: true, force: true });
}

/**
 * The server as `who`, launched the way a careless launcher would: a session keyring holding a key, and descriptors
 * 30 (a secret, read) and 31 (a file outside, append) left open without close-on-exec.
 */
function startServer(scene: Scene, who: 'root' | 'nobody', env: Record<string, string> = {}): StdioPeer {
  const launcher = [
    'perl',
    path.join(scene.outside.root, 'plant-key.pl'),
    'bash',
    '-c',
    'exec 30<"$1" 31>>"$2"; shift 2; exec "$@"',
    'bash',
    scene.fdSecretFile,
    scene.fdOutsideFile,
    ...serverUserLauncher(who),
  ];
  return new StdioPeer(
    {
      WORKSPACE_ROOT: scene.workspace.root,
      HOME: scene.home,
      APPROVAL_MODE: 'sandboxed',
      TERM_MCP_SANDBOX_TMP_MB: String(TMP_MB),
      TERM_MCP_SANDBOX_SHM_MB: String(SHM_MB),
      ...env,
    },
    ['stdio'],
    launcher,
  );
}

async function runAttack(peer: StdioPeer): Promise<string> {
  const answer = await peer.request(
    modern('tools/call', 'attack', {
      name: 'terminal_execute',
      arguments: { command: 'sh attack.sh', timeout_seconds: 60 },
    }),
    60_000,
  );
  const receipt = (answer.result as { structuredContent: Record<string, unknown> }).structuredContent;
  const stdout = String(receipt.stdout ?? '');
  if (!stdout.includes('SCRIPT-END'))
    throw new Error(`the attack did not run to its end: ${JSON.stringify(receipt)}\n${peer.stderr}`);
  return stdout;
}

function capabilityLines(stdout: string): Record<string, string> {
  return Object.fromEntries(
    [...stdout.matchAll(/^Cap(\w+):\s*([0-9a-f]+)$/gm)].map((match) => [match[1] ?? '', match[2] ?? '']),
  );
}

const users = RUNNING_AS_ROOT ? (['root', 'nobody'] as const) : (['nobody'] as const);

describe.each(users)('the server run as %s: a command in the sandbox', (who) => {
  let scene: Scene;
  let peer: StdioPeer;
  let stdout: string;
  let serverUserNamespace: string;

  beforeAll(async () => {
    scene = setUp(who);
    peer = startServer(scene, who);
    stdout = await runAttack(peer);
    // perl, bash and setpriv all exec: the spawned pid is the server's.
    serverUserNamespace = readlinkSync(`/proc/${String(peer.child.pid)}/ns/user`);
  });

  afterAll(async () => {
    await peer.end();
    tearDown(scene);
  });

  it('has an empty capability set, in a user namespace of its own', () => {
    expect(capabilityLines(stdout)).toEqual({
      Inh: '0000000000000000',
      Prm: '0000000000000000',
      Eff: '0000000000000000',
      Bnd: '0000000000000000',
      Amb: '0000000000000000',
    });
    const inside = /^USERNS (.*)$/m.exec(stdout)?.[1];
    expect(inside).toMatch(/^user:\[\d+\]$/);
    expect(inside).not.toBe(serverUserNamespace);
  });

  it('cannot umount a mask, remount the host read-write, mount, unshare or setns', () => {
    for (const marker of [
      'UMOUNT-OK',
      'UMOUNT-LAZY-OK',
      'REMOUNT-OK',
      'MOUNT-OK',
      'WRITE-OUTSIDE-OK',
      'UNSHARE-USER-OK',
      'UNSHARE-MOUNT-OK',
      'NESTED-UMOUNT-OK',
      'SETNS-OK',
    ]) {
      expect(stdout).not.toContain(marker);
    }
    expect(existsSync(path.join(scene.outside.root, 'written-outside'))).toBe(false);
  });

  it('cannot read the session keyring the server inherited (the keyring calls are refused)', () => {
    expect(stdout).not.toContain(KEY_SECRET);
    expect(stdout).toMatch(/^KEYRING-SEARCH-FAILED Operation not permitted$/m);
  });

  it('cannot read any of 36 credential files in the home, nor list it: only the allow-listed toolchain shows', () => {
    CREDENTIAL_FILES.forEach((_, index) => expect(stdout).not.toContain(scene.secretOf(index)));
    expect(stdout).not.toContain('home-secret');
    expect(/^HOME-ENTRIES (.*)$/m.exec(stdout)?.[1]?.trim()).toBe('.cargo');
    expect(stdout).toContain('toolchain-readable');
  });

  it("cannot read root's home (from the passwd database, whatever HOME says) nor the files only root may read", () => {
    expect(stdout).not.toContain(ROOT_HOME_SECRET);
    expect(stdout).not.toContain(ROOT_ONLY_SECRET);
    expect(stdout).not.toMatch(/^root:/m);
  });

  it('gets only stdin, stdout and stderr: descriptors the server inherited do not reach it', () => {
    expect(stdout).not.toContain(FD_SECRET);
    expect(stdout).not.toContain('FD-WRITE-OK');
    expect(readFileSync(scene.fdOutsideFile, 'utf8')).toBe('untouched\n');
    // 0, 1, 2, and the descriptor of the /proc/self/fd directory ls reads.
    const descriptors = [...stdout.matchAll(/^FD (\d+)$/gm)].map((match) => Number(match[1]));
    expect(descriptors.filter((fd) => fd > 3)).toEqual([]);
  });

  it('cannot pin more than the sized /tmp and /dev/shm, and cannot write the rest of /dev', () => {
    expect(Number(/^TMP-BYTES (\d+)$/m.exec(stdout)?.[1])).toBeLessThanOrEqual(TMP_MB * 1024 * 1024);
    expect(Number(/^SHM-BYTES (\d+)$/m.exec(stdout)?.[1])).toBeLessThanOrEqual(SHM_MB * 1024 * 1024);
    expect(Number(/^TMP-SIZE (\d+)$/m.exec(stdout)?.[1])).toBe(TMP_MB * 1024);
    expect(stdout).not.toContain('DEV-WRITE-OK');
  });
});

(RUNNING_AS_ROOT ? describe : describe.skip)(
  'TERM_MCP_SANDBOX=off, server as root (the same attack then succeeds)',
  () => {
    it('reads the keyring, the home, /root and root-only files with root capabilities; inherited descriptors are closed at start-up all the same', async () => {
      const scene = setUp('root', true);
      // Shells are refused outside sandboxed mode, which refuses to start without the sandbox: the attack runs as the
      // clean filter `git status` runs (trusted mode, no approval), its report on stderr.
      plantCleanFilterRepository(scene.workspace.root, 'sh attack.sh >&2');
      const peer = startServer(scene, 'root', { TERM_MCP_SANDBOX: 'off', APPROVAL_MODE: 'trusted' });
      try {
        const executed = await peer.request(
          modern('tools/call', 'run', { name: 'terminal_execute', arguments: { command: 'git status' } }),
          60_000,
        );
        const stderr = String(
          (executed.result as { structuredContent: Record<string, unknown> }).structuredContent.stderr,
        );
        expect(stderr).toContain('SCRIPT-END');
        expect(stderr).toContain(`KEYRING-READ ${KEY_SECRET}`);
        expect(stderr).toContain(scene.secretOf(0));
        expect(stderr).toContain(ROOT_HOME_SECRET);
        expect(stderr).toContain(ROOT_ONLY_SECRET);
        expect(capabilityLines(stderr).Eff).not.toBe('0000000000000000');
        // Closed by the server at start-up, sandbox or not.
        expect(stderr).not.toContain(FD_SECRET);
        expect(readFileSync(scene.fdOutsideFile, 'utf8')).toBe('untouched\n');
      } finally {
        await peer.end();
        tearDown(scene);
      }
    });
  },
);

/** Zombies whose parent is `parentPid` (host PIDs). */
function zombieChildren(parentPid: number): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z' && Number(parent) === parentPid) count += 1;
    } catch {
      // Gone while we looked.
    }
  }
  return count;
}

/** The host PID of the one child of `pid` (the server that `unshare --fork` started as PID 1 of its namespace). */
function onlyChild(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter((entry) => entry !== '');
  if (children.length !== 1) throw new Error(`expected one child of ${pid}, found ${children.join(', ') || 'none'}`);
  return Number(children[0]);
}

(RUNNING_AS_ROOT ? describe.each(users) : describe.skip.each(users))(
  'the server as PID 1 of its own PID namespace, run as %s (a container without an init)',
  (who) => {
    const COMMANDS = 8;
    let workspace: { root: string; remove(): void };
    let outside: { root: string; remove(): void };

    beforeEach(() => {
      workspace = makeTempWorkspace('term-mcp-pid1-');
      outside = makeOutsideDir('term-mcp-pid1-');
      chmodSync(workspace.root, 0o777);
    });

    afterEach(() => {
      workspace.remove();
      outside.remove();
    });

    async function runCommands(env: Record<string, string>): Promise<{ peer: StdioPeer; serverPid: number }> {
      const peer = new StdioPeer(
        { WORKSPACE_ROOT: workspace.root, APPROVAL_MODE: 'trusted', ...env },
        ['stdio'],
        ['unshare', '--pid', '--fork', '--mount-proc', ...serverUserLauncher(who)],
      );
      for (let index = 0; index < COMMANDS; index += 1) {
        const answer = await peer.request(
          modern('tools/call', `echo-${index}`, {
            name: 'terminal_execute',
            arguments: { command: `echo run-${index}` },
          }),
          30_000,
        );
        expect(answer.result).toMatchObject({
          isError: false,
          structuredContent: { status: 'succeeded', stdout: `run-${index}\n` },
        });
      }
      return { peer, serverPid: onlyChild(peer.child.pid ?? 0) };
    }

    it(`leaves no zombie after ${COMMANDS} commands: every bwrap process is reaped`, async () => {
      const { peer, serverPid } = await runCommands({});
      try {
        expect(readFileSync(`/proc/${serverPid}/status`, 'utf8')).toMatch(/^NSpid:\s+\d+\s+1$/m);
        expect(zombieChildren(serverPid)).toBe(0);
      } finally {
        await peer.end();
      }
    });

    it('control: with a bwrap init between the server and the command (no --as-pid-1), zombies pile up', async () => {
      const withInit = path.join(outside.root, 'bwrap-with-init');
      writeFileSync(
        withInit,
        '#!/bin/sh\nfor a do shift; [ "$a" = --as-pid-1 ] || set -- "$@" "$a"; done\nexec /usr/bin/bwrap "$@"\n',
        { mode: 0o755 },
      );
      const { peer, serverPid } = await runCommands({ TERM_MCP_BWRAP: withInit });
      try {
        await waitFor(() => zombieChildren(serverPid) > 0, 'a bwrap init left unreaped', 30_000);
      } finally {
        await peer.end();
      }
    });
  },
);

describe.each(users)('a command whose sandbox cannot be set up, server as %s', (who) => {
  it('fails with sandbox_setup_failed and bwrap\'s own message; a planted link does not; a command that only prints "bwrap:" is its own failure', async () => {
    const workspace = makeTempWorkspace('term-mcp-setup-');
    // A link where the sandbox protects a path no longer breaks its set-up (the target is protected, or left alone).
    symlinkSync('/etc/hostname', path.join(workspace.root, '.mcp.json'));
    // A working directory nobody may enter: the server (root with its capabilities, or its owner) resolves it, but
    // bwrap's chdir inside the sandbox, with no capability left, is refused: a real set-up failure of that command.
    const locked = path.join(workspace.root, 'locked');
    mkdirSync(locked);
    chmodSync(workspace.root, 0o777);
    if (who === 'nobody') execFileSync('chown', ['-R', '-h', `${NOBODY}:${NOBODY}`, workspace.root]);
    chmodSync(locked, 0o000);
    const peer = new StdioPeer(
      { WORKSPACE_ROOT: workspace.root, APPROVAL_MODE: 'sandboxed' },
      ['stdio'],
      serverUserLauncher(who),
    );
    try {
      const linked = await peer.request(
        modern('tools/call', 'linked', { name: 'terminal_execute', arguments: { command: 'echo ran > linked.txt' } }),
        30_000,
      );
      expect(linked.result).toMatchObject({ structuredContent: { status: 'succeeded', exit_code: 0 } });
      expect(existsSync(path.join(workspace.root, 'linked.txt'))).toBe(true);
      const planted = await peer.request(
        modern('tools/call', 'planted', {
          name: 'terminal_execute',
          arguments: { command: 'echo ran > ../ran.txt', cwd: 'locked' },
        }),
        30_000,
      );
      expect(planted.result).toMatchObject({
        isError: true,
        structuredContent: {
          code: 'sandbox_setup_failed',
          message: expect.stringMatching(/bwrap: .*locked/),
          next_step: expect.stringContaining('terminal_retry'),
        },
      });
      expect(existsSync(path.join(workspace.root, 'ran.txt'))).toBe(false);
      // The bwrap message printed by a command that ran is that command's failure, not a set-up failure.
      rmSync(path.join(workspace.root, '.mcp.json'));
      const faked = await peer.request(
        modern('tools/call', 'faked', {
          name: 'terminal_execute',
          arguments: { command: "echo 'bwrap: Can not create file' >&2; exit 1" },
        }),
        30_000,
      );
      // A receipt (a failed command is a tool error with its receipt), not the set-up error.
      const receipt = (faked.result as { structuredContent: Record<string, unknown> }).structuredContent;
      expect(receipt).toMatchObject({ status: 'failed', exit_code: 1, stderr: 'bwrap: Can not create file\n' });
      expect(receipt.code).toBeUndefined();
    } finally {
      await peer.end();
      workspace.remove();
    }
  });
});
