import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { pythonWithMcp } from '../support/python-mcp-venv';
import { CLI_PATH, makeTempWorkspace, REPO_ROOT } from '../support/workspace';
import { TOKEN, startTestServer, type TestServer } from './http-harness';

const run = promisify(execFile);
const DRIVER = path.join(REPO_ROOT, 'tests', 'e2e', 'python', 'drive_term_mcp.py');
const ERAS = [
  { mode: 'legacy', version: '2025-11-25' },
  { mode: '2026-07-28', version: '2026-07-28' },
] as const;

interface DriverReport {
  protocol_version: string;
  tools: string[];
  execute: { is_error: boolean; structured: Record<string, unknown> };
  resource: Array<Record<string, unknown>>;
}

/**
 * The official Python SDK client (`mcp`, the seed's own client) against the real server: over STDIO (the built CLI)
 * and Streamable HTTP, in both eras. The SDK validates each structuredContent against the tool's outputSchema, so a
 * schema it cannot use fails here. The virtual environment is made on the first run (tests/support/python-mcp-venv.ts).
 */
describe('the official Python MCP SDK as a client', () => {
  let python: string;
  let workspace: ReturnType<typeof makeTempWorkspace>;
  let server: TestServer | undefined;

  beforeAll(() => {
    // First run only: a venv and ~25 wheels from PyPI (seconds with PyPI in reach; the bound is for slow mirrors).
    python = pythonWithMcp();
  }, 600_000);

  beforeEach(() => {
    workspace = makeTempWorkspace('term-mcp-python-');
  });

  afterEach(async () => {
    await server?.stop();
    server = undefined;
    workspace.remove();
  });

  async function drive(args: string[]): Promise<DriverReport> {
    try {
      const { stdout } = await run(python, [DRIVER, ...args], { timeout: 60_000 });
      return JSON.parse(stdout) as DriverReport;
    } catch (error) {
      const failed = error as { stderr?: string; message: string };
      throw new Error(
        `the Python client failed: ${(failed.stderr ?? failed.message).trim().split('\n').slice(-4).join(' | ')}`,
        { cause: error },
      );
    }
  }

  function expectWorked(report: DriverReport, version: string, workspaceRoot: string): void {
    expect(report.protocol_version).toBe(version);
    expect(report.tools).toHaveLength(14);
    expect(report.tools).toContain('terminal_execute');
    expect(report.execute).toMatchObject({
      is_error: false,
      structured: { status: 'succeeded', exit_code: 0, stdout: 'from-python-sdk\n', cwd: workspaceRoot },
    });
    expect(report.resource).toEqual([expect.objectContaining({ uri: 'workspace:///hello.txt', text: 'hello\n' })]);
  }

  test.each(ERAS)(
    'over STDIO, $mode: lists tools, executes a command, reads a resource',
    async ({ mode, version }) => {
      writeFileSync(path.join(workspace.root, 'hello.txt'), 'hello\n');
      const report = await drive(['stdio', mode, process.execPath, CLI_PATH, workspace.root]);
      expectWorked(report, version, workspace.root);
    },
    90_000,
  );

  test.each(ERAS)(
    'over Streamable HTTP, $mode: lists tools, executes a command, reads a resource',
    async ({ mode, version }) => {
      server = await startTestServer();
      writeFileSync(path.join(server.workspaceRoot, 'hello.txt'), 'hello\n');
      const report = await drive(['http', mode, server.url, TOKEN]);
      expectWorked(report, version, server.workspaceRoot);
    },
    90_000,
  );
});
