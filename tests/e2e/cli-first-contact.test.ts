import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { TERM_MCP_VERSION } from '../../src/main/server-info';
import { CLI_PATH, makeTempWorkspace } from '../support/workspace';

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The process never got past start-up if it exits on its own while its stdin is still open (a server would wait). */
const EXIT_DEADLINE_MS = 20_000;
const NOBODY = { uid: 65534, gid: 65534 };

/**
 * Runs the built `term-mcp` with stdin left open and a clean environment (no WORKSPACE_ROOT or token inherited),
 * and waits for it to exit. `asUser` runs it through setpriv under another uid.
 */
function runTermMcp(
  args: string[],
  options: { cwd?: string; asUser?: typeof NOBODY; endStdin?: boolean } = {},
): Promise<Exit> {
  const command = [process.execPath, CLI_PATH, ...args];
  const [file, ...argv] = options.asUser
    ? ['setpriv', `--reuid=${options.asUser.uid}`, `--regid=${options.asUser.gid}`, '--clear-groups', ...command]
    : command;
  const child = spawn(file as string, argv, {
    cwd: options.cwd ?? '/',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  if (options.endStdin) child.stdin.end();
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`term-mcp ${args.join(' ')} did not exit: it started instead of refusing. stderr: ${stderr}`));
    }, EXIT_DEADLINE_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(deadline);
      child.stdin.destroy();
      resolve({ code, stdout, stderr });
    });
  });
}

/** A usage error: exit 2, nothing on stdout, the one-line problem, a blank line, then the usage. */
function expectUsageError(result: Exit, firstLine: string, usageLine: string): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  const [first, blank, usage] = result.stderr.split('\n');
  expect(first).toBe(firstLine);
  expect(blank).toBe('');
  expect(usage).toBe(usageLine);
  expect(result.stderr).not.toContain('ready');
}

const runningAsRoot = process.getuid?.() === 0;
const setprivAvailable = spawnSync('setpriv', ['--version']).status === 0;

describe('term-mcp at first contact (the built CLI)', () => {
  let workspace: ReturnType<typeof makeTempWorkspace>;

  beforeEach(() => {
    workspace = makeTempWorkspace('term-mcp-cli-');
  });

  afterEach(() => {
    chmodSync(workspace.root, 0o700);
    workspace.remove();
  });

  describe('usage errors exit 2 with one line and the usage, and start nothing', () => {
    test('a misspelt flag (--worksapce) is refused instead of serving the current directory', async () => {
      const result = await runTermMcp(['stdio', '--worksapce', workspace.root], { cwd: workspace.root });
      expectUsageError(
        result,
        'term-mcp stdio: unknown flag --worksapce (did you mean --workspace?)',
        'Usage: term-mcp stdio [flags]',
      );
    });

    test('a flag that belongs to another command is refused', async () => {
      const result = await runTermMcp(['stdio', '--port', '9000']);
      expectUsageError(result, 'term-mcp stdio: unknown flag --port', 'Usage: term-mcp stdio [flags]');
    });

    test('an unknown flag of the default command is refused', async () => {
      const result = await runTermMcp(['--verbose']);
      expectUsageError(result, 'term-mcp stdio: unknown flag --verbose', 'Usage: term-mcp stdio [flags]');
    });

    test('an unknown subcommand is refused with the general usage', async () => {
      const result = await runTermMcp(['serve']);
      expectUsageError(
        result,
        "term-mcp: unknown command: serve (the seed's serve is term-mcp http here)",
        'Usage: term-mcp [command] [flags]',
      );
    });

    test('a flag missing its value is refused', async () => {
      const result = await runTermMcp(['http', '--port']);
      expectUsageError(result, 'term-mcp http: --port needs a value (PORT)', 'Usage: term-mcp http [flags]');
    });

    test('a flag whose value is forgotten before the next flag is refused', async () => {
      const result = await runTermMcp(['stdio', '--workspace', '--mode', 'confirm']);
      expectUsageError(result, 'term-mcp stdio: --workspace needs a value (DIR)', 'Usage: term-mcp stdio [flags]');
    });

    test('a stray argument is refused', async () => {
      const result = await runTermMcp(['stdio', workspace.root]);
      expectUsageError(
        result,
        `term-mcp stdio: unexpected argument: ${workspace.root}`,
        'Usage: term-mcp stdio [flags]',
      );
    });
  });

  describe('help and version print and exit 0', () => {
    test.each([['--help'], ['-h'], ['help']])('%s prints the usage on stdout', async (flag) => {
      const result = await runTermMcp([flag]);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^Usage: term-mcp \[command\] \[flags\]\n/);
      expect(result.stdout).toContain('Default mode: inspect (read-only)');
    });

    test.each([['--version'], ['-v'], ['version']])('%s prints the version', async (flag) => {
      expect(await runTermMcp([flag])).toEqual({ code: 0, stdout: `${TERM_MCP_VERSION}\n`, stderr: '' });
    });

    test.each([['stdio'], ['http']])("%s --help prints that command's usage and serves nothing", async (command) => {
      const result = await runTermMcp([command, '--help']);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(new RegExp(`^Usage: term-mcp ${command} \\[flags\\]\\n`));
      expect(result.stdout).toContain('--workspace DIR');
    });
  });

  describe('the workspace is checked at start-up (exit 2, one line)', () => {
    test('a workspace that does not exist is refused, naming the flag', async () => {
      const missing = path.join(workspace.root, 'missing');
      const result = await runTermMcp(['stdio', '--workspace', missing]);
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: `term-mcp stdio: configuration error: --workspace: does not exist: ${missing}\n`,
      });
    });

    test('a file given as the workspace is refused', async () => {
      const file = path.join(workspace.root, 'notes.md');
      writeFileSync(file, '# notes\n');
      const result = await runTermMcp(['http', '--workspace', file]);
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: `term-mcp http: configuration error: --workspace: is not a directory: ${file}\n`,
      });
    });

    // Root ignores permission bits (and so would the commands it runs), so as root the refusal is shown for the
    // user nobody, through setpriv; the same user then starts with a readable workspace, proving the check is the cause.
    (runningAsRoot && !setprivAvailable ? test.skip : test).each([
      ['the workspace itself', ''],
      ['a parent of the workspace', 'inner'],
    ])('a workspace this user cannot read or enter is refused (%s is closed)', async (_closed, inner) => {
      const asUser = runningAsRoot ? NOBODY : undefined;
      const target = path.join(workspace.root, inner);
      mkdirSync(target, { recursive: true, mode: 0o755 });
      chmodSync(workspace.root, runningAsRoot ? 0o700 : 0o000);

      const refused = await runTermMcp(['stdio', '--workspace', target], { asUser });

      expect(refused).toEqual({
        code: 2,
        stdout: '',
        stderr: `term-mcp stdio: configuration error: --workspace: cannot be read or entered by this user (permission denied): ${target}\n`,
      });
      chmodSync(workspace.root, 0o755);
      const started = await runTermMcp(['stdio', '--workspace', target], { asUser, endStdin: true });
      expect(started.code).toBe(0);
      expect(started.stderr).toContain('term-mcp stdio ready');
    });
  });

  describe('http when the port is taken', () => {
    let blocker: Server;

    beforeEach(async () => {
      blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    });

    afterEach(async () => {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    });

    test('fails with exit 1 and one line, before any token is generated and printed', async () => {
      const { port } = blocker.address() as AddressInfo;

      const result = await runTermMcp(['http', '--workspace', workspace.root, '--port', String(port)]);

      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr: `term-mcp http: cannot listen on 127.0.0.1:${port}: the port is already in use (EADDRINUSE); choose another with --host/--port or HOST/PORT\n`,
      });
    });
  });
});
