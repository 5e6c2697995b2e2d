import { extractSuggestedCommands } from '../../../src/application/chat/suggested-commands';

describe('extractSuggestedCommands', () => {
  it('takes the lines of sh, bash and shell blocks and ignores other languages and prose', () => {
    const reply = [
      'Run `rm -rf /` never. Try:',
      '```sh',
      'ls -la',
      '```',
      '```python',
      'print("not a command")',
      '```',
      '```bash',
      'git status',
      '```',
      '```shell',
      'pwd',
      '```',
    ].join('\n');
    expect(extractSuggestedCommands(reply, 10)).toEqual(['ls -la', 'git status', 'pwd']);
  });

  it('drops prompts, comments, blank lines and duplicates, and joins backslash continuations', () => {
    const reply = '```bash\n# list first\n$ ls -la\n\nls -la\ngrep -rn \\\n  TODO src\n```';
    expect(extractSuggestedCommands(reply, 10)).toEqual(['ls -la', 'grep -rn    TODO src']);
  });

  it('stops at the limit', () => {
    expect(extractSuggestedCommands('```sh\na\nb\nc\n```', 2)).toEqual(['a', 'b']);
  });

  it('finds nothing in a reply without a shell block', () => {
    expect(extractSuggestedCommands('CMD: touch model-created.txt', 5)).toEqual([]);
  });
});
