import { execFile } from 'node:child_process';
import path from 'node:path';
import { CLI_PATH, makeTempWorkspace, REPO_ROOT } from '../support/workspace';
import { startTestServer, TOKEN, type TestServer } from './http-harness';

/**
 * The MCP Inspector CLI 2.12.0 (`mcp-inspector --cli`, from node_modules: no network at run time) against the built
 * `term-mcp stdio` and a real HTTP server, in both eras. It validates structured results against the declared outputSchema: before refusals
 * conformed it exited 1 (USAGE) with "Structured content does not match", hiding the refusal. Exit codes are the
 * Inspector's own: 0 OK, 5 TOOL_ERROR ("the tool returned isError:true", the result printed in full).
 */
const INSPECTOR = path.join(REPO_ROOT, 'node_modules', '.bin', 'mcp-inspector');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the Inspector CLI with a private HOME (it keeps a catalog there) and collects its exit code and output. */
function runInspector(argv: string[], home: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      INSPECTOR,
      argv,
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function resultOf(run: Run): Record<string, unknown> {
  return (JSON.parse(run.stdout) as { result: Record<string, unknown> }).result;
}

/** The denied execute: the refusal printed in full, exit 5 (TOOL_ERROR), and no schema-mismatch error. */
function expectDeniedExecute(denied: Run): void {
  expect(denied.code).toBe(5);
  expect(resultOf(denied)).toMatchObject({
    isError: true,
    structuredContent: {
      code: 'policy_denied',
      message: expect.stringContaining('/etc/passwd'),
      next_step: expect.any(String),
    },
    content: [{ type: 'text', text: expect.stringMatching(/^Error policy_denied: /) }],
  });
  expect(denied.stderr).toContain('tool_is_error');
  expect(denied.stderr).not.toContain('does not match');
}

describe.each(['legacy', 'modern'])('Inspector CLI 2.12.0 over stdio (--protocol-era %s)', (era) => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  let home: ReturnType<typeof makeTempWorkspace>;

  beforeAll(() => {
    workspace = makeTempWorkspace();
    home = makeTempWorkspace('term-mcp-inspector-home-');
  });

  afterAll(() => {
    workspace.remove();
    home.remove();
  });

  function inspect(...args: string[]): Promise<Run> {
    return runInspector(
      [
        '--cli',
        process.execPath,
        CLI_PATH,
        'stdio',
        '-e',
        `WORKSPACE_ROOT=${workspace.root}`,
        '--protocol-era',
        era,
        '--format',
        'json',
        '-q',
        ...args,
      ],
      home.root,
    );
  }

  test('tools/list --strict, terminal_plan of pwd and of a denied command exit 0; a denied execute is a tool error with the refusal in full', async () => {
    const [list, planned, blocked, denied] = await Promise.all([
      // --strict: exit 6 if any tool schema has an error-severity portability problem (warnings are allowed).
      inspect('--method', 'tools/list', '--strict'),
      inspect('--method', 'tools/call', '--tool-name', 'terminal_plan', '--tool-args-json', '{"command":"pwd"}'),
      inspect(
        '--method',
        'tools/call',
        '--tool-name',
        'terminal_plan',
        '--tool-args-json',
        '{"command":"cat /etc/passwd"}',
      ),
      inspect(
        '--method',
        'tools/call',
        '--tool-name',
        'terminal_execute',
        '--tool-args-json',
        '{"command":"cat /etc/passwd"}',
      ),
    ]);

    expect(list.code).toBe(0);
    expect((resultOf(list).tools as Array<{ name: string }>).map((tool) => tool.name)).toContain('terminal_plan');
    // The portability check finds nothing at all (it printed 22 "Warning: tool" findings before issue 23).
    expect(list.stderr).not.toMatch(/Warning: tool|Schema portability/);

    expect(planned.code).toBe(0);
    expect(resultOf(planned)).toMatchObject({
      isError: false,
      structuredContent: { status: 'planned', command: 'pwd' },
    });

    expect(blocked.code).toBe(0);
    expect(resultOf(blocked)).toMatchObject({
      isError: false,
      structuredContent: { status: 'blocked', policy: { verdict: 'deny' } },
    });

    expectDeniedExecute(denied);
  }, 180_000);
});

describe.each(['legacy', 'modern'])(
  'Inspector CLI 2.12.0 over Streamable HTTP with a bearer token (--protocol-era %s)',
  (era) => {
    let server: TestServer;
    let home: ReturnType<typeof makeTempWorkspace>;

    beforeAll(async () => {
      server = await startTestServer();
      home = makeTempWorkspace('term-mcp-inspector-home-');
    });

    afterAll(async () => {
      await server.stop();
      home.remove();
    });

    function inspect(...args: string[]): Promise<Run> {
      const target = ['--server-url', server.url, '--transport', 'http', '--header', `Authorization: Bearer ${TOKEN}`];
      return runInspector(['--cli', ...target, '--protocol-era', era, '--format', 'json', '-q', ...args], home.root);
    }

    test('terminal_plan of pwd exits 0; a denied execute is a tool error with the refusal in full', async () => {
      const [planned, denied] = await Promise.all([
        inspect('--method', 'tools/call', '--tool-name', 'terminal_plan', '--tool-args-json', '{"command":"pwd"}'),
        inspect(
          '--method',
          'tools/call',
          '--tool-name',
          'terminal_execute',
          '--tool-args-json',
          '{"command":"cat /etc/passwd"}',
        ),
      ]);

      expect(planned.code).toBe(0);
      expect(resultOf(planned)).toMatchObject({
        isError: false,
        structuredContent: { status: 'planned', command: 'pwd' },
      });
      expectDeniedExecute(denied);
    }, 180_000);
  },
);
