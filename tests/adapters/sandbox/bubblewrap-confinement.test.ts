import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChildProcessSessionFactory } from '../../../src/adapters/process/child-process-session-factory';
import { PROTECTED_CONFIGURATION, currentArguments } from '../../../src/adapters/sandbox/bubblewrap-profile';
import { SandboxUnavailable } from '../../../src/domain/execution/execution-errors';
import type { ExecutionSession } from '../../../src/domain/execution/execution-session';
import type { CommandLaunch } from '../../../src/domain/execution/execution-types';
import { REPO_ROOT } from '../../support/workspace';
import { TEST_LIMITS, sandboxFor } from '../../support/sandbox';

let workspace: string;
const sessions: ExecutionSession[] = [];

function shell(script: string): CommandLaunch {
  return { launch: { kind: 'shell', script }, cwd: workspace, timeoutMs: 20_000, maxOutputBytes: 100_000 };
}

function sessionWith(confinement: ReturnType<typeof sandboxFor>): ExecutionSession {
  const session = new ChildProcessSessionFactory({ confinement, killGraceMs: 200 }).create({
    id: `s${sessions.length}`,
    cwd: workspace,
  });
  sessions.push(session);
  return session;
}

beforeEach(() => {
  workspace = mkdtempSync(path.join(os.tmpdir(), 'term-mcp-bwrap-'));
});

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
  rmSync(workspace, { recursive: true, force: true });
});

describe('BubblewrapConfinement', () => {
  it('refuses to confine when bubblewrap is missing, saying why and how to fix it', () => {
    const confinement = sandboxFor(workspace, { bwrapPath: path.join(workspace, 'no-bwrap') });
    expect(confinement.readiness()).toMatchObject({
      ready: false,
      reason: expect.stringContaining('not found'),
      fix: expect.stringContaining('apt-get install bubblewrap'),
    });
    expect(() =>
      confinement.confine({ launch: { kind: 'argv', argv: ['/bin/true'] }, cwd: workspace, environment: {} }),
    ).toThrow(SandboxUnavailable);
    expect(() => sessionWith(confinement).start(shell('true'), 'true')).toThrow(SandboxUnavailable);
  });

  it('reports a bwrap that cannot start a sandbox as unavailable', () => {
    const confinement = sandboxFor(workspace, { bwrapPath: '/bin/false' });
    expect(confinement.readiness()).toMatchObject({ ready: false, reason: expect.stringContaining('failed to start') });
  });

  it('stops a file at the file size limit', async () => {
    const session = sessionWith(sandboxFor(workspace, { limits: { ...TEST_LIMITS, fileSizeBytes: 1024 * 1024 } }));
    const command = session.start(shell('head -c 3000000 /dev/zero > big'), 'big file');
    const outcome = await command.finished();
    expect(outcome.status).toBe('failed');
    expect(statSync(path.join(workspace, 'big')).size).toBeLessThanOrEqual(1024 * 1024);
  });

  it('stops a CPU spinner at the CPU time limit, well before its timeout', async () => {
    const session = sessionWith(sandboxFor(workspace, { limits: { ...TEST_LIMITS, cpuSeconds: 1 } }));
    const command = session.start(shell('while :; do :; done'), 'spin');
    const outcome = await command.finished();
    expect(outcome.status).toBe('failed');
    expect(outcome.durationMs).toBeLessThan(15_000);
  });

  it("keeps the repository's git config and hooks and the protected dotfiles read-only in a writable workspace", async () => {
    mkdirSync(path.join(workspace, '.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(workspace, '.git', 'config'), '[core]\n');
    writeFileSync(path.join(workspace, '.bashrc'), '# mine\n');
    const session = sessionWith(sandboxFor(workspace));
    const command = session.start(
      shell('echo x >> .git/config; echo x > .git/hooks/post-checkout; echo x >> .bashrc; echo ok > allowed.txt'),
      'writes',
    );
    await command.finished();
    expect(existsSync(path.join(workspace, 'allowed.txt'))).toBe(true);
    expect(existsSync(path.join(workspace, '.git', 'hooks', 'post-checkout'))).toBe(false);
    expect(
      execFileSync('cat', [path.join(workspace, '.git', 'config'), path.join(workspace, '.bashrc')], {
        encoding: 'utf8',
      }),
    ).toBe('[core]\n# mine\n');
  });

  it('hides files and directories, but not a path that holds the workspace (the server run from its checkout)', () => {
    writeFileSync(path.join(workspace, 'secret'), 'x');
    mkdirSync(path.join(workspace, 'private'));
    const args = currentArguments({
      bwrapPath: '/usr/bin/bwrap',
      prlimitPath: '/usr/bin/prlimit',
      workspaceRoot: workspace,
      workspaceWritable: false,
      network: 'off',
      hiddenPaths: [
        path.dirname(workspace),
        path.join(workspace, 'secret'),
        path.join(workspace, 'private'),
        path.join(workspace, 'absent'),
      ],
      hiddenHomes: [],
      homeAllowList: [],
      rootOnlyReadable: [],
      seccompProgram: undefined,
      limits: TEST_LIMITS,
    });
    expect(args).toEqual([
      '--ro-bind',
      '/dev/null',
      path.join(workspace, 'secret'),
      '--tmpfs',
      path.join(workspace, 'private'),
      '--remount-ro',
      path.join(workspace, 'private'),
    ]);
  });
});

describe('root-only masks', () => {
  it('masks the entries found at start-up that are still what they were; a removed or replaced one is skipped (it would fail every set-up)', () => {
    const kept = path.join(workspace, 'kept-dir');
    const keptFile = path.join(workspace, 'kept-file');
    mkdirSync(kept);
    writeFileSync(keptFile, 'x');
    symlinkSync(kept, path.join(workspace, 'replaced-by-link'));
    const args = currentArguments({
      bwrapPath: '/usr/bin/bwrap',
      prlimitPath: '/usr/bin/prlimit',
      workspaceRoot: path.join(workspace, 'ws'),
      workspaceWritable: false,
      network: 'off',
      hiddenPaths: [],
      hiddenHomes: [],
      homeAllowList: [],
      rootOnlyReadable: [
        { path: kept, directory: true },
        { path: keptFile, directory: false },
        { path: path.join(workspace, 'removed'), directory: false },
        { path: path.join(workspace, 'replaced-by-link'), directory: true },
      ],
      seccompProgram: undefined,
      limits: TEST_LIMITS,
    });
    expect(args).toEqual([
      '--perms',
      '0755',
      '--size',
      String(1024 * 1024),
      '--tmpfs',
      kept,
      '--remount-ro',
      kept,
      '--ro-bind',
      '/dev/null',
      keptFile,
    ]);
  });
});

describe('PROTECTED_CONFIGURATION', () => {
  it('is the list @anthropic-ai/sandbox-runtime protects', () => {
    const script =
      "import('@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js').then((m) => " +
      'console.log(JSON.stringify([...m.DANGEROUS_FILES, ...m.getDangerousDirectories()])))';
    const fromLibrary = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' }),
    ) as string[];
    expect([...PROTECTED_CONFIGURATION]).toEqual(fromLibrary);
  });
});
