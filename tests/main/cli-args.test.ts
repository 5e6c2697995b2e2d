import { CliUsageError, parseCliArguments } from '../../src/main/cli-args';

describe('parseCliArguments', () => {
  test('defaults to the stdio command', () => {
    expect(parseCliArguments([])).toEqual({ command: 'stdio', flags: {} });
    expect(parseCliArguments(['--workspace', '/w'])).toEqual({ command: 'stdio', flags: { workspace: '/w' } });
  });

  test('reads --flag value and --flag=value forms', () => {
    expect(parseCliArguments(['http', '--port', '9000', '--host=0.0.0.0'])).toEqual({
      command: 'http',
      flags: { port: '9000', host: '0.0.0.0' },
    });
  });

  test('rejects stray positional arguments', () => {
    expect(() => parseCliArguments(['stdio', 'extra'])).toThrow(CliUsageError);
  });
});
