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
export function plantCleanFilterRepository(workspace: string, hookBody: string): { hookPath: string; gitConfig: string } {
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: workspace, stdio: 'ignore', env: { PATH: '/usr/bin:/bin', HOME: workspace } });
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
