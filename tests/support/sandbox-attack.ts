import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * The attack of issue 16: a repository whose own git config names a program that `git status` runs: a clean filter
 * (`filter.<driver>.clean`, selected by the repository's `.gitattributes`), which git runs to hash a tracked file
 * whose content changed. The policy lets `git status` run (with approval in inspect and confirm, without in trusted;
 * it says it executes project code), so the program is what the sandbox alone must hold. It tries everything the
 * sandbox must stop and reports on stderr (git passes the filter's stderr through), while the tests check the host
 * side directly.
 */

/** The planted program's file name (a forked sh keeps it, cut to 15 characters, as its process name). */
export const PLANTED_PROGRAM = 'planted-hook.sh';

/** A directory outside the workspace and outside /tmp (which is private inside the sandbox anyway). */
export function makeOutsideDir(prefix: string): { root: string; remove(): void } {
  const root = mkdtempSync(path.join('/var/tmp', prefix));
  chmodSync(root, 0o777);
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** A TCP listener on 127.0.0.1 (random port) that counts connections. */
export async function openListener(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { port, connections: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * `git init` in the workspace with one committed file, then `.gitattributes` and the repository config naming `hook`
 * (a shell script body) as that file's clean filter, and the file changed without changing its size: `git status`
 * must then run the filter to hash it.
 */
export function plantCleanFilterRepository(
  workspace: string,
  hookBody: string,
): { hookPath: string; gitConfig: string } {
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: workspace,
      stdio: 'ignore',
      env: { PATH: '/usr/bin:/bin', HOME: workspace },
    });
  };
  git('init', '-q', '.');
  const tracked = path.join(workspace, 'README');
  writeFileSync(tracked, 'hello\n');
  git('add', 'README');
  git('commit', '-q', '-m', 'init');
  const hookPath = path.join(workspace, PLANTED_PROGRAM);
  writeFileSync(hookPath, `#!/bin/sh\n${hookBody}\n`);
  chmodSync(hookPath, 0o755);
  writeFileSync(path.join(workspace, '.gitattributes'), 'README filter=planted\n');
  git('config', 'filter.planted.clean', hookPath);
  // Same size, later mtime: git cannot tell from the index that it is unchanged, so it cleans and hashes it.
  writeFileSync(tracked, 'HELLO\n');
  const later = new Date(Date.now() + 10_000);
  utimesSync(tracked, later, later);
  mkdirSync(path.join(workspace, '.git', 'hooks'), { recursive: true });
  chmodSync(workspace, 0o777);
  return { hookPath, gitConfig: readFileSync(path.join(workspace, '.git', 'config'), 'utf8') };
}

/** The unprivileged user every sandbox attack is also run as (`setpriv`), when the tests run as root. */
export const NOBODY = 65534;
export const RUNNING_AS_ROOT = process.getuid?.() === 0;

/** The server's launcher for `who`: nothing for root, setpriv down to nobody otherwise (tests run as root). */
export function serverUserLauncher(who: 'root' | 'nobody'): string[] {
  return who === 'nobody' ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'] : [];
}

/**
 * 36 common credential files (issue 26: the old denylist missed 26 of them), relative to a home: tokens of git, the
 * agent hosts, the clouds, registries and package managers, `.env`, shell and REPL histories.
 */
export const CREDENTIAL_FILES = [
  '.ssh/id_rsa',
  '.ssh/id_ed25519',
  '.aws/credentials',
  '.aws/config',
  '.config/git/credentials',
  '.git-credentials',
  '.claude/.credentials.json',
  '.codex/auth.json',
  '.config/github-copilot/hosts.json',
  '.config/gh/hosts.yml',
  '.config/containers/auth.json',
  '.docker/config.json',
  '.yarnrc.yml',
  '.npmrc',
  '.pip/pip.conf',
  '.config/pip/pip.conf',
  '.pypirc',
  '.gradle/gradle.properties',
  '.m2/settings.xml',
  '.config/rclone/rclone.conf',
  '.s3cfg',
  '.boto',
  '.terraformrc',
  '.terraform.d/credentials.tfrc.json',
  '.env',
  '.bash_history',
  '.zsh_history',
  '.python_history',
  '.node_repl_history',
  '.psql_history',
  '.mysql_history',
  '.netrc',
  '.kube/config',
  '.gnupg/private-keys-v1.d/k.key',
  '.config/gcloud/credentials.db',
  '.cargo/credentials.toml',
] as const;

/** Fills `home` with every credential file (content `home-secret-<n>`) and one toolchain binary on the allow list. */
export function plantHome(
  home: string,
  owner?: number,
): { secretOf: (index: number) => string; toolchainFile: string } {
  const secretOf = (index: number): string => `home-secret-${index}-${process.pid}`;
  CREDENTIAL_FILES.forEach((relative, index) => {
    const file = path.join(home, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${secretOf(index)}\n`, { mode: 0o600 });
  });
  const toolchainFile = path.join(home, '.cargo', 'bin', 'toolchain-binary');
  mkdirSync(path.dirname(toolchainFile), { recursive: true });
  writeFileSync(toolchainFile, 'toolchain-readable\n', { mode: 0o755 });
  if (owner !== undefined) execFileSync('chown', ['-R', `${owner}:${owner}`, home]);
  return { secretOf, toolchainFile };
}

/** add_key and keyctl, by number (perl's syscall): the machine's table. */
const KEY_SYSCALLS = process.arch === 'arm64' ? { addKey: 217, keyctl: 219 } : { addKey: 248, keyctl: 250 };

/**
 * A perl program (perl is on every machine git is) that joins a new session keyring, adds a `user` key holding
 * `secret` to it, and execs the rest of its arguments: the server then inherits that keyring, as it would inherit
 * root's session keyring from its launcher.
 */
export function keyringPlanterScript(secret: string): string {
  return [
    `my $name = "term-mcp-test-session"; syscall(${KEY_SYSCALLS.keyctl}, 1, $name) >= 0 or die "join: $!";`,
    `my ($type, $desc, $value) = ("user", "term-mcp-test-key", "${secret}");`,
    `syscall(${KEY_SYSCALLS.addKey}, $type, $desc, $value, length($value), -3) >= 0 or die "add_key: $!";`,
    'exec @ARGV or die "exec: $!";',
  ].join('\n');
}

/** Shell lines (through perl) that search the session keyring for the planted key and print it. */
export const KEYRING_READ_LINES = [
  `perl -e 'my ($t, $d) = ("user", "term-mcp-test-key"); my $id = syscall(${KEY_SYSCALLS.keyctl}, 10, -3, $t, $d, 0);` +
    ` if ($id < 0) { print "KEYRING-SEARCH-FAILED $!\\n"; exit } my $b = "\\0" x 200; my $n = syscall(${KEY_SYSCALLS.keyctl}, 11, $id, $b, 200);` +
    ` print $n < 0 ? "KEYRING-READ-FAILED $!\\n" : "KEYRING-READ " . substr($b, 0, $n) . "\\n"'`,
];
