import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { modern, StdioPeer } from '../support/stdio-peer';
import { CLI_PATH, makeTempWorkspace, REPO_ROOT } from '../support/workspace';

const TOKEN = 'first-start-token-that-is-longer-than-thirty-two-chars';

/** Issue 23 item 9, through the built CLI (the esbuild bundle): what a new user reads on the first start. */
describe('the built CLI at first start', () => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  beforeEach(() => {
    workspace = makeTempWorkspace();
  });
  afterEach(() => workspace.remove());

  test('term-mcp http names the UI URL in its listening line, and serves the UI there from the bundle', async () => {
    const child = spawn(process.execPath, [CLI_PATH, 'http', '--port', '0', '--workspace', workspace.root], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM_MCP_TOKEN: TOKEN },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`term-mcp http exited ${String(code)} before listening`)));
        createInterface({ input: child.stderr }).on('line', (line) => {
          const entry = JSON.parse(line) as Record<string, unknown>;
          if (entry.message === 'term-mcp http listening') resolve(entry);
        });
      });
      const url = new URL(String(listening.url));
      expect(listening.ui).toBe(`${url.origin}/`);
      const page = await fetch(String(listening.ui));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 60_000);

  test('doctor names the mode the server would run in, not "(policy default)"', () => {
    const result = spawnSync(process.execPath, [CLI_PATH, 'doctor', '--json', '--workspace', workspace.root], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeout: 60_000,
    });
    const report = JSON.parse(result.stdout) as { checks: { configuration: { detail: string } } };
    expect(report.checks.configuration.detail).toBe(`workspace ${workspace.root}, mode inspect`);
  });

  test('a workspace of / is started with a warning that says why', () => {
    const result = spawnSync(process.execPath, [CLI_PATH, 'stdio', '--workspace', '/'], {
      input: '',
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeout: 60_000,
    });
    expect(result.status).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.includes('"level":"warn"'));
    expect(warnings.some((line) => line.includes('the workspace is the filesystem root'))).toBe(true);
    // No server file may live in the workspace, and / holds every default place: no key is kept, and it says so.
    expect(
      warnings.some((line) => line.includes('the receipt key cannot be kept') && line.includes('inside the workspace')),
    ).toBe(true);
  });

  test('started from the clone, the warning about paths the sandbox cannot hide says why and what to do', () => {
    const result = spawnSync(process.execPath, [CLI_PATH, 'stdio', '--workspace', REPO_ROOT], {
      input: '',
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeout: 60_000,
    });
    const warning = result.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => String(entry.message).startsWith('the sandbox cannot hide these paths'));
    expect(warning).toMatchObject({
      level: 'warn',
      paths: [REPO_ROOT],
      why: expect.stringContaining('commands can read them'),
      fix: expect.stringContaining('outside'),
    });
  });
});

describe('terminal_plan where the sandbox cannot start (the built CLI over STDIO)', () => {
  test('an allowed plan says the sandbox is unavailable, not "call terminal_execute"', async () => {
    const workspace = makeTempWorkspace();
    const peer = new StdioPeer({
      WORKSPACE_ROOT: workspace.root,
      TERM_MCP_BWRAP: '/nonexistent/bwrap',
      LOG_LEVEL: 'error',
    });
    try {
      const reply = await peer.request(
        modern('tools/call', 1, { name: 'terminal_plan', arguments: { command: 'ls' } }),
        30_000,
      );
      const plan = (reply.result as { structuredContent: { status: string; next_step: string } }).structuredContent;
      expect(plan.status).toBe('planned');
      expect(plan.next_step).toMatch(
        /^The command sandbox is unavailable here \(.+\), so terminal_execute would refuse this plan with sandbox_unavailable\. Tell the user: .+/,
      );
      const executed = await peer.request(
        modern('tools/call', 2, { name: 'terminal_execute', arguments: { command: 'ls' } }),
        30_000,
      );
      expect(executed.result).toMatchObject({ isError: true, structuredContent: { code: 'sandbox_unavailable' } });
    } finally {
      await peer.end();
      workspace.remove();
    }
  });
});
