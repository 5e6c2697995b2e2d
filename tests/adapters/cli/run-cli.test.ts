import { CliUsageError } from '../../../src/adapters/cli/cli-args';
import { CLI_COMMANDS, type CliCommand } from '../../../src/adapters/cli/cli-commands';
import type { CliContext } from '../../../src/adapters/cli/cli-context';
import { runCli } from '../../../src/adapters/cli/run-cli';
import { CLI_SERVICES } from '../../../src/main/cli-services';
import { TERM_MCP_VERSION } from '../../../src/main/server-info';

/** The dispatcher in-process, with a command table of its own where a test needs to see what a command receives. */
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

describe('runCli', () => {
  test.each([['--help'], ['-h'], ['help']])('%s prints the general usage on stdout and exits 0', async (flag) => {
    const io = capture();
    expect(await runCli([flag], io.environment)).toBe(0);
    expect(io.out()).toMatch(/^Usage: term-mcp \[command\] \[flags\]/);
    for (const name of Object.keys(CLI_COMMANDS)) expect(io.out()).toContain(`  ${name}`);
    expect(io.out()).toContain('--workspace DIR');
    expect(io.err()).toBe('');
  });

  test.each([['--version'], ['-v'], ['version']])('%s prints the version and exits 0', async (flag) => {
    const io = capture();
    expect(await runCli([flag], io.environment)).toBe(0);
    expect(io.out()).toBe(`${TERM_MCP_VERSION}\n`);
  });

  test("<command> --help and help <command> print that command's usage", async () => {
    const viaFlag = capture();
    const viaHelp = capture();
    expect(await runCli(['http', '--port', '1', '--help'], viaFlag.environment)).toBe(0);
    expect(await runCli(['help', 'http'], viaHelp.environment)).toBe(0);
    expect(viaFlag.out()).toMatch(/^Usage: term-mcp http \[flags\]/);
    expect(viaFlag.out()).toContain('--port PORT');
    expect(viaHelp.out()).toBe(viaFlag.out());
  });

  test('an unknown command exits 2 with one line, a suggestion and the usage', async () => {
    const io = capture();
    expect(await runCli(['htpp'], io.environment)).toBe(2);
    const [first, blank, usage] = io.err().split('\n');
    expect(first).toBe('term-mcp: unknown command: htpp (did you mean http?)');
    expect(blank).toBe('');
    expect(usage).toBe('Usage: term-mcp [command] [flags]');
    expect(io.out()).toBe('');
  });

  test("a flag of another command is refused with that command's usage", async () => {
    const io = capture();
    expect(await runCli(['stdio', '--port', '9000'], io.environment)).toBe(2);
    expect(io.err()).toMatch(/^term-mcp stdio: unknown flag --port\n\nUsage: term-mcp stdio \[flags\]\n/);
  });

  test('hands a new command its argv and parsed arguments, loading its module only when the arguments are valid', async () => {
    const received: CliContext[] = [];
    let loads = 0;
    const receipt: CliCommand = {
      summary: 'check a receipt file',
      synopsis: 'validate|show <file> [--structure-only]',
      flags: [{ name: 'structure-only', description: 'check the structure only' }],
      maxPositionals: 2,
      load: () => {
        loads += 1;
        return Promise.resolve({
          run: (context: CliContext) => {
            received.push(context);
            if (context.args.positionals[0] !== 'validate')
              return Promise.reject(new CliUsageError('unknown action', context.name));
            return Promise.resolve(0);
          },
        });
      },
    };
    const commands = { ...CLI_COMMANDS, receipt };
    const ok = capture();
    const bad = capture();
    const refused = capture();

    expect(await runCli(['receipt', 'validate', 'r.json', '--structure-only'], ok.environment, commands)).toBe(0);
    expect(await runCli(['receipt', 'explode', 'r.json'], bad.environment, commands)).toBe(2);
    expect(await runCli(['receipt', 'validate', 'r.json', '--json'], refused.environment, commands)).toBe(2);

    expect(loads).toBe(2);
    expect(received[0]?.argv).toEqual(['validate', 'r.json', '--structure-only']);
    expect(received[0]?.args.switches.has('structure-only')).toBe(true);
    expect(bad.err()).toMatch(
      /^term-mcp receipt: unknown action\n\nUsage: term-mcp receipt validate\|show <file> \[--structure-only\]\n/,
    );
    expect(refused.err().split('\n')[0]).toBe('term-mcp receipt: unknown flag --json');
  });

  test('a failure of a running command exits 1 with one line naming the command', async () => {
    const failing: CliCommand = {
      summary: 'fails',
      synopsis: '',
      flags: [],
      load: () => Promise.resolve({ run: () => Promise.reject(new Error('boom')) }),
    };
    const io = capture();
    expect(await runCli(['failing'], io.environment, { failing })).toBe(1);
    expect(io.err()).toBe('term-mcp failing: boom\n');
  });
});

describe('runCli help <command>', () => {
  test('an unknown topic exits 2 with a suggestion', async () => {
    const io = capture();
    expect(await runCli(['help', 'toke'], io.environment)).toBe(2);
    expect(io.err().split('\n')[0]).toBe('term-mcp: unknown command: toke (did you mean token?)');
  });
});
