import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * The attack of issue 16: a repository whose own git config names a program (core.fsmonitor) that `git status`, a
 * command every mode allows without approval, runs. The program tries everything the sandbox must stop and reports
 * on stderr (git passes the hook's stderr through), while the test checks the host side directly.
 */

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

/** `git init` in the workspace with one committed file, and core.fsmonitor naming `hook` (a shell script body). */
export function plantFsmonitorRepository(workspace: string, hookBody: string): { hookPath: string; gitConfig: string } {
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: workspace, stdio: 'ignore', env: { PATH: '/usr/bin:/bin', HOME: workspace } });
  };
  git('init', '-q', '.');
  writeFileSync(path.join(workspace, 'README'), 'hello\n');
  git('add', 'README');
  git('commit', '-q', '-m', 'init');
  const hookPath = path.join(workspace, 'fsmonitor-hook.sh');
  writeFileSync(hookPath, `#!/bin/sh\n${hookBody}\n`);
  chmodSync(hookPath, 0o755);
  git('config', 'core.fsmonitor', hookPath);
  mkdirSync(path.join(workspace, '.git', 'hooks'), { recursive: true });
  chmodSync(workspace, 0o777);
  return { hookPath, gitConfig: readFileSync(path.join(workspace, '.git', 'config'), 'utf8') };
}

/** Pids of live (non-zombie) processes whose command line is exactly `argv`. */
export function livePidsRunning(argv: string[]): number[] {
  const wanted = `${argv.join('\0')}\0`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') !== wanted) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}
