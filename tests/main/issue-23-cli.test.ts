import { CLI_COMMANDS } from '../../src/adapters/cli/cli-commands';
import { runCli } from '../../src/adapters/cli/run-cli';
import { CLI_SERVICES } from '../../src/main/cli-services';
import { HTTP_LISTEN_SETTINGS, loadConfig } from '../../src/main/config';
import { broadWorkspaceProblem } from '../../src/main/workspace-warning';
import { makeTempWorkspace } from '../support/workspace';

/** Issue 23 item 9: the smaller CLI findings, each as a new user met it. */
function capture() {
  let stdout = '';
  let stderr = '';
  return {
    environment: {
      env: {},
      cwd: '/',
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      services: CLI_SERVICES,
    },
    out: () => stdout,
    err: () => stderr,
  };
}

describe('the CLI on an 80-column terminal', () => {
  test.each([[['--help']], ...Object.keys(CLI_COMMANDS).map((name) => [[name, '--help']])])(
    '%j fits in 80 columns',
    async (argv) => {
      const io = capture();
      expect(await runCli(argv, io.environment)).toBe(0);
      const tooLong = io
        .out()
        .split('\n')
        .filter((line) => line.length > 80);
      expect(tooLong).toEqual([]);
    },
  );

  test('receipt --help explains each subcommand and its exit codes', async () => {
    const io = capture();
    expect(await runCli(['receipt', '--help'], io.environment)).toBe(0);
    expect(io.out()).toMatch(/validate <file> +check the receipt against schema 1\.0 and its signature/);
    expect(io.out()).toMatch(/show <file> +summarise it/);
    expect(io.out()).toMatch(/redact <file> +print the copy redacted for sharing/);
    expect(io.out()).toContain('exit 0 valid, 1 invalid, 2 unreadable');
  });

  test("demo --help speaks of this server's UI, not the seed", async () => {
    const io = capture();
    expect(await runCli(['demo', '--help'], io.environment)).toBe(0);
    expect(io.out()).not.toMatch(/seed/i);
    expect(io.out()).toContain('demo scenarios the web UI offers');
  });

  test("the seed's serve command points to http", async () => {
    const io = capture();
    expect(await runCli(['serve'], io.environment)).toBe(2);
    expect(io.err().split('\n')[0]).toBe("term-mcp: unknown command: serve (the seed's serve is term-mcp http here)");
  });
});

describe('PORT', () => {
  let workspace: ReturnType<typeof makeTempWorkspace>;
  beforeEach(() => {
    workspace = makeTempWorkspace();
  });
  afterEach(() => workspace.remove());

  test('PORT=abc is refused in words that name the variable and the value', () => {
    expect(() => loadConfig({ WORKSPACE_ROOT: workspace.root, PORT: 'abc' })).toThrow(
      'PORT: must be a number, not "abc"',
    );
  });

  test('a bad PORT does not stop a server that never binds it (stdio)', () => {
    const config = loadConfig(
      { WORKSPACE_ROOT: workspace.root, PORT: 'abc', HOST: '' },
      {},
      workspace.root,
      HTTP_LISTEN_SETTINGS,
    );
    expect(config.port).toBe(8000);
    expect(() =>
      loadConfig(
        { WORKSPACE_ROOT: workspace.root, PORT: 'abc', COMMAND_TIMEOUT: 'x' },
        {},
        workspace.root,
        HTTP_LISTEN_SETTINGS,
      ),
    ).toThrow('COMMAND_TIMEOUT');
  });
});

describe('a broad workspace is said, not taken silently', () => {
  test('/ and the home directory are named; a project folder is not', () => {
    expect(broadWorkspaceProblem('/', '/home/me')).toContain('filesystem root');
    expect(broadWorkspaceProblem('/home/me/', '/home/me')).toContain('home directory');
    expect(broadWorkspaceProblem('/home/me/project', '/home/me')).toBeUndefined();
  });
});
