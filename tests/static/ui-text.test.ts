/** static/ansi.js, static/markdown.js and static/command-history.js are browser modules without type declarations. */
interface AnsiModule {
  stripAnsi(text: string): string;
  ansiSegments(text: string): Array<{ text: string; bold: boolean; colour: string }>;
}
interface MarkdownModule {
  markdownBlocks(source: string): Array<Record<string, unknown>>;
  inlineRuns(text: string): Array<{ type: string; text: string }>;
}
interface HistoryModule {
  CommandHistory: new () => {
    record(command: string): void;
    older(current: string): string | undefined;
    newer(): string | undefined;
  };
}

const { stripAnsi, ansiSegments } = jest.requireActual<AnsiModule>('../../static/ansi.js');
const { markdownBlocks, inlineRuns } = jest.requireActual<MarkdownModule>('../../static/markdown.js');
const { CommandHistory } = jest.requireActual<HistoryModule>('../../static/command-history.js');

describe('static/ansi.js', () => {
  it('drops every escape sequence and control character, keeping the words, tabs and newlines', () => {
    expect(stripAnsi('\u001b[31mred\u001b[0m\t\u001b]0;title\u0007plain\u001b[2K\r\nnext\u0000\u0008\u001bc')).toBe(
      'red\tplain\nnext',
    );
  });

  it('keeps SGR bold and the 16 foreground colours as runs, and nothing else', () => {
    expect(ansiSegments('a\u001b[1;31mB\u001b[22mc\u001b[38;5;200md\u001b[39m\u001b[92me\u001b[0mf')).toEqual([
      { text: 'a', bold: false, colour: '' },
      { text: 'B', bold: true, colour: 'red' },
      { text: 'cd', bold: false, colour: 'red' },
      { text: 'e', bold: false, colour: 'bright-green' },
      { text: 'f', bold: false, colour: '' },
    ]);
  });
});

describe('static/markdown.js', () => {
  it('splits a reply into paragraphs, lists, headings and fenced code, keeping code verbatim', () => {
    const source =
      '# Plan\nFirst line\nsame paragraph\n\n- one\n- **two**\n\n1. a\n2) b\n\n```sh\nls -la\n  <b>x</b>\n```\nafter';
    expect(markdownBlocks(source)).toEqual([
      { type: 'h', text: 'Plan' },
      { type: 'p', text: 'First line\nsame paragraph' },
      { type: 'ul', items: ['one', '**two**'] },
      { type: 'ol', items: ['a', 'b'] },
      { type: 'code', language: 'sh', text: 'ls -la\n  <b>x</b>' },
      { type: 'p', text: 'after' },
    ]);
  });

  it('an unclosed fence runs to the end, as code', () => {
    expect(markdownBlocks('```\n<script>x</script>')).toEqual([
      { type: 'code', language: '', text: '<script>x</script>' },
    ]);
  });

  it('marks inline code, bold and italic, and leaves HTML and snake_case as text', () => {
    expect(inlineRuns('use `rm -i` **carefully**, *not* <img src=x> on my_file_name')).toEqual([
      { type: 'text', text: 'use ' },
      { type: 'code', text: 'rm -i' },
      { type: 'text', text: ' ' },
      { type: 'strong', text: 'carefully' },
      { type: 'text', text: ', ' },
      { type: 'em', text: 'not' },
      { type: 'text', text: ' <img src=x> on my_file_name' },
    ]);
  });
});

describe('static/command-history.js', () => {
  it('walks back with ↑, forward with ↓ to the draft, and keeps a repeated command once', () => {
    const history = new CommandHistory();
    history.record('ls');
    history.record('pwd');
    history.record('pwd');
    expect(history.older('dra')).toBe('pwd');
    expect(history.older('pwd')).toBe('ls');
    expect(history.older('ls')).toBeUndefined();
    expect(history.newer()).toBe('pwd');
    expect(history.newer()).toBe('dra');
    expect(history.newer()).toBeUndefined();
  });
});
