import {
  asksForHelp,
  closestName,
  CliUsageError,
  parseArguments,
  type CliArgumentSpec,
} from '../../../src/adapters/cli/cli-args';

const SERVE: CliArgumentSpec = {
  command: 'stdio',
  flags: [
    { name: 'workspace', value: 'DIR', description: 'the workspace' },
    { name: 'mode', value: 'MODE', description: 'the mode' },
  ],
};
const RECEIPT: CliArgumentSpec = {
  command: 'receipt',
  flags: [{ name: 'structure-only', description: 'a switch' }],
  maxPositionals: 2,
};

function usageErrorOf(argv: string[], spec: CliArgumentSpec): CliUsageError {
  try {
    parseArguments(argv, spec);
  } catch (error) {
    if (error instanceof CliUsageError) return error;
    throw error;
  }
  throw new Error(`expected a usage error for ${JSON.stringify(argv)}`);
}

describe('parseArguments', () => {
  test('reads the --flag value and --flag=value forms', () => {
    expect(parseArguments(['--workspace', '/w', '--mode=confirm'], SERVE)).toEqual({
      values: { workspace: '/w', mode: 'confirm' },
      switches: new Set(),
      positionals: [],
    });
  });

  test('keeps an = inside a value given with =', () => {
    expect(parseArguments(['--workspace=/a=b'], SERVE).values).toEqual({ workspace: '/a=b' });
  });

  test('reads switches and positionals, and takes everything after -- as positional', () => {
    expect(parseArguments(['show', '--structure-only', '--', '--not-a-flag'], RECEIPT)).toEqual({
      values: {},
      switches: new Set(['structure-only']),
      positionals: ['show', '--not-a-flag'],
    });
  });

  test('refuses an unknown flag, suggesting the one a typo meant', () => {
    const error = usageErrorOf(['--worksapce', '/x'], SERVE);
    expect(error.message).toBe('unknown flag --worksapce (did you mean --workspace?)');
    expect(error.command).toBe('stdio');
  });

  test('refuses an unknown flag that resembles nothing without a suggestion', () => {
    expect(usageErrorOf(['--port', '9000'], SERVE).message).toBe('unknown flag --port');
  });

  test('refuses short flags it does not know', () => {
    expect(usageErrorOf(['-w', '/x'], SERVE).message).toBe('unknown flag -w');
  });

  test.each([[['--workspace']], [['--workspace', '--mode', 'confirm']], [['--workspace=']], [['--workspace', '']]])(
    'refuses a flag missing its value: %j',
    (argv) => {
      expect(usageErrorOf(argv, SERVE).message).toBe('--workspace needs a value (DIR)');
    },
  );

  test('refuses a value given to a switch', () => {
    expect(usageErrorOf(['--structure-only=yes'], RECEIPT).message).toBe('--structure-only takes no value');
  });

  test('refuses a flag given twice rather than guessing which one was meant', () => {
    expect(usageErrorOf(['--workspace', '/a', '--workspace', '/b'], SERVE).message).toBe(
      '--workspace is given more than once',
    );
  });

  test('refuses a stray positional argument, and one too many', () => {
    expect(usageErrorOf(['extra'], SERVE).message).toBe('unexpected argument: extra');
    expect(usageErrorOf(['validate', 'a.json', 'b.json'], RECEIPT).message).toBe(
      'too many arguments (at most 2): b.json',
    );
  });
});

describe('asksForHelp', () => {
  test('finds --help or -h among the flags, but not after --', () => {
    expect(asksForHelp(['--workspace', '/w', '--help'])).toBe(true);
    expect(asksForHelp(['-h'])).toBe(true);
    expect(asksForHelp(['--', '-h'])).toBe(false);
    expect(asksForHelp(['ls -h'])).toBe(false);
  });
});

describe('closestName', () => {
  test('suggests a near miss, and nothing for a distant word', () => {
    expect(closestName('htpp', ['stdio', 'http', 'token'])).toBe('http');
    expect(closestName('serve', ['stdio', 'http', 'token'])).toBeUndefined();
  });
});
