import { parseShellCommand } from '../../../src/application/shell/shell-parser';
import type { Command, SimpleCommand, Word } from '../../../src/application/shell/shell-ast';
import { wordParts, type WordPart } from '../../../src/application/shell/word-parts';

/** The words of a line holding one simple command, as the parser reads them. */
function wordsOf(source: string): readonly Word[] {
  const { list } = parseShellCommand(source);
  const command = list.items[0]?.pipeline.commands[0] as Command;
  expect(command.type).toBe('simple');
  return (command as SimpleCommand).words;
}

function wordAt(source: string, index: number): Word {
  return wordsOf(source)[index] as Word;
}

/** Each part as [kind or feature, text], so a sequence reads like the word. */
const shown = (parts: readonly WordPart[]) =>
  parts.map((part) =>
    part.kind === 'literal' ? ['literal', part.text] : [part.expansion.feature, part.expansion.text],
  );

/** The literal parts joined with `placeholder(expansion)` where each expansion stands. */
const layout = (parts: readonly WordPart[], placeholder: (text: string) => string) =>
  parts.map((part) => (part.kind === 'literal' ? part.text : placeholder(part.expansion.text))).join('');

/** The parts rebuild `value` (expansions contribute nothing) and each expansion sits at its `at`. */
function expectLayoutOf(word: Word): void {
  const parts = wordParts(word);
  expect(layout(parts, () => '')).toBe(word.value);
  let offset = 0;
  for (const part of parts) {
    if (part.kind === 'literal') offset += part.text.length;
    else expect(part.expansion.at).toBe(offset);
  }
  const inserted = word.expansions.filter((expansion) => expansion.at !== undefined);
  expect(parts.flatMap((part) => (part.kind === 'expansion' ? [part.expansion] : []))).toEqual(inserted);
}

describe('word parts: the word as ordered literal text and expansions', () => {
  it('reads a"$x"b$(c)d as literal, parameter, literal, command substitution, literal', () => {
    const word = wordAt('echo a"$x"b$(c)d', 1);
    expect(word.value).toBe('abd');
    expect(shown(wordParts(word))).toEqual([
      ['literal', 'a'],
      ['parameter_expansion', '$x'],
      ['literal', 'b'],
      ['command_substitution', '$(c)'],
      ['literal', 'd'],
    ]);
    expect(layout(wordParts(word), (text) => `<${text}>`)).toBe('a<$x>b<$(c)>d');
    expectLayoutOf(word);
  });

  it('keeps single-quoted, double-quoted and plain text in order around an expansion', () => {
    const word = wordAt(`echo 'single $x'"double $y"plain`, 1);
    expect(shown(wordParts(word))).toEqual([
      ['literal', 'single $xdouble '],
      ['parameter_expansion', '$y'],
      ['literal', 'plain'],
    ]);
    expectLayoutOf(word);
  });

  it('places a $( ) inside double quotes, whose own quotes and expansions belong to the inner command', () => {
    const word = wordAt('echo "pre $(echo "in $y" `date`) post"', 1);
    const parts = wordParts(word);
    expect(shown(parts)).toEqual([
      ['literal', 'pre '],
      ['command_substitution', '$(echo "in $y" `date`)'],
      ['literal', ' post'],
    ]);
    const inner = parts[1]?.kind === 'expansion' ? parts[1].expansion.body : undefined;
    const innerWord = (inner?.items[0]?.pipeline.commands[0] as SimpleCommand).words[1] as Word;
    expect(shown(wordParts(innerWord))).toEqual([
      ['literal', 'in '],
      ['parameter_expansion', '$y'],
    ]);
    expectLayoutOf(word);
  });

  it('reads ${x:-y} and $((...)) as one expansion each', () => {
    const word = wordAt('echo pre${x:-y}mid$((1 + 2))post', 1);
    expect(shown(wordParts(word))).toEqual([
      ['literal', 'pre'],
      ['parameter_expansion', '${x:-y}'],
      ['literal', 'mid'],
      ['arithmetic_expansion', '$((1 + 2))'],
      ['literal', 'post'],
    ]);
    expectLayoutOf(word);
  });

  it('places backticks outside and inside double quotes', () => {
    const word = wordAt('echo a`date`b"c`pwd`d"', 1);
    expect(shown(wordParts(word))).toEqual([
      ['literal', 'a'],
      ['backtick_substitution', '`date`'],
      ['literal', 'bc'],
      ['backtick_substitution', '`pwd`'],
      ['literal', 'd'],
    ]);
    expectLayoutOf(word);
  });

  it('reads $\'...\' as an insertion, and the text of $"..." as literal with its expansions in place', () => {
    const ansi = wordAt("echo a$'\\n'b", 1);
    expect(shown(wordParts(ansi))).toEqual([
      ['literal', 'a'],
      ['dollar_quote', "$'\\n'"],
      ['literal', 'b'],
    ]);
    expectLayoutOf(ansi);
    const translated = wordAt('echo x$"hi $u!"', 1);
    expect(translated.expansions.map((expansion) => expansion.feature)).toEqual([
      'parameter_expansion',
      'dollar_quote',
    ]);
    expect(shown(wordParts(translated))).toEqual([
      ['literal', 'xhi '],
      ['parameter_expansion', '$u'],
      ['literal', '!'],
    ]);
    expectLayoutOf(translated);
  });

  it('reads a process substitution alone and after literal text', () => {
    const words = wordsOf('diff <(ls a) --file=>(cat)');
    expect(shown(wordParts(words[1] as Word))).toEqual([['process_substitution', '<(ls a)']]);
    expect(shown(wordParts(words[2] as Word))).toEqual([
      ['literal', '--file='],
      ['process_substitution', '>(cat)'],
    ]);
    expectLayoutOf(words[1] as Word);
    expectLayoutOf(words[2] as Word);
  });

  it('gives adjacent expansions no empty literal between them', () => {
    const word = wordAt('echo $a$b${c}', 1);
    expect(shown(wordParts(word))).toEqual([
      ['parameter_expansion', '$a'],
      ['parameter_expansion', '$b'],
      ['parameter_expansion', '${c}'],
    ]);
    expect(word.expansions.map((expansion) => expansion.at)).toEqual([0, 0, 0]);
    expectLayoutOf(word);
  });

  it('reads an escaped \\$ and a lone $ as literal text', () => {
    const word = wordAt('echo \\$HOME"\\$x"$', 1);
    expect(word.expansions).toHaveLength(0);
    expect(shown(wordParts(word))).toEqual([['literal', '$HOME$x$']]);
    expectLayoutOf(word);
  });

  it('reads a word with no expansion, or with flags only, as one literal part', () => {
    const words = wordsOf("ls plain ~/src/*.{ts,js} ''");
    expect(shown(wordParts(words[1] as Word))).toEqual([['literal', 'plain']]);
    const flagged = words[2] as Word;
    expect(flagged.expansions.map((expansion) => [expansion.feature, expansion.at])).toEqual([
      ['tilde', undefined],
      ['glob', undefined],
      ['brace', undefined],
    ]);
    expect(shown(wordParts(flagged))).toEqual([['literal', '~/src/*.{ts,js}']]);
    expect(shown(wordParts(words[3] as Word))).toEqual([['literal', '']]);
    for (const word of words) expectLayoutOf(word);
  });

  it('drops empty quotes around an expansion', () => {
    const words = wordsOf('echo ""$x"" "$y"""z');
    expect(shown(wordParts(words[1] as Word))).toEqual([['parameter_expansion', '$x']]);
    expect(shown(wordParts(words[2] as Word))).toEqual([
      ['parameter_expansion', '$y'],
      ['literal', 'z'],
    ]);
    expectLayoutOf(words[1] as Word);
    expectLayoutOf(words[2] as Word);
  });

  it('places expansions in assignments and redirection targets too', () => {
    const command = parseShellCommand('A=x$HOME/y cat > out.$n.log').list.items[0]?.pipeline
      .commands[0] as SimpleCommand;
    expect(shown(wordParts(command.assignments[0] as Word))).toEqual([
      ['literal', 'A=x'],
      ['parameter_expansion', '$HOME'],
      ['literal', '/y'],
    ]);
    expect(shown(wordParts(command.redirections[0]?.target as Word))).toEqual([
      ['literal', 'out.'],
      ['parameter_expansion', '$n'],
      ['literal', '.log'],
    ]);
  });
});
