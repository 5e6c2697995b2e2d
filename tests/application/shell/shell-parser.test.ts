import { parseShellCommand } from '../../../src/application/shell/shell-parser';
import type { Command, SimpleCommand, Word } from '../../../src/application/shell/shell-ast';
import { ShellSyntaxError } from '../../../src/domain/policy/policy-errors';

function only(source: string): SimpleCommand {
  const { list } = parseShellCommand(source);
  expect(list.items).toHaveLength(1);
  const command = list.items[0]?.pipeline.commands[0] as Command;
  expect(command.type).toBe('simple');
  return command as SimpleCommand;
}

const values = (words: readonly Word[]) => words.map((word) => word.value);
const features = (word: Word | undefined) => word?.expansions.map((expansion) => expansion.feature) ?? [];

function syntaxError(source: string): ShellSyntaxError {
  try {
    parseShellCommand(source);
  } catch (error) {
    if (error instanceof ShellSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(source)} to be rejected`);
}

describe('shell parser: lists and pipelines', () => {
  it('splits a line on ; && || & and newlines, keeping each separator', () => {
    const { list } = parseShellCommand('a; b && c || d & e\nf');
    expect(list.items.map((item) => item.separator)).toEqual([';', '&&', '||', '&', '\n', null]);
    expect(list.items.map((item) => (item.pipeline.commands[0] as SimpleCommand).words[0]?.value)).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
    ]);
  });

  it('joins pipeline commands with | and |&, and marks a leading !', () => {
    const { list } = parseShellCommand('! a | b |& c');
    const pipeline = list.items[0]?.pipeline;
    expect(pipeline?.negated).toBe(true);
    expect(pipeline?.operators).toEqual(['|', '|&']);
    expect(pipeline?.commands).toHaveLength(3);
  });

  it('accepts a trailing separator and newlines after && and |', () => {
    const { list } = parseShellCommand('a &&\n b |\n c;');
    expect(list.items).toHaveLength(2);
    expect(list.items[1]?.pipeline.commands).toHaveLength(2);
  });

  it('parses subshells and command groups with their bodies', () => {
    const { list } = parseShellCommand('(a; b) && { c; }');
    const [subshell, group] = list.items.map((item) => item.pipeline.commands[0] as Command);
    expect(subshell?.type).toBe('subshell');
    expect(group?.type).toBe('group');
    expect(subshell?.type === 'subshell' && subshell.body.items).toHaveLength(2);
  });

  it('keeps the source text of each simple command without trailing blanks or comments', () => {
    expect(only('ls -la   # note').text).toBe('ls -la');
    expect(parseShellCommand('ls # note').hasComment).toBe(true);
    expect(parseShellCommand("echo 'a # b' c#d").hasComment).toBe(false);
  });
});

describe('shell parser: words and quoting', () => {
  it('removes single quotes, double quotes and backslashes', () => {
    expect(values(only(`echo 'a b' "c d" e\\ f g"h"'i' \\'`).words)).toEqual(['echo', 'a b', 'c d', 'e f', 'ghi', "'"]);
  });

  it('keeps backslashes inside double quotes unless they escape $ ` " \\ or newline', () => {
    expect(values(only('echo "a\\nb" "\\$x" "\\\\" "\\""').words)).toEqual(['echo', 'a\\nb', '$x', '\\', '"']);
  });

  it('joins a line continuation', () => {
    expect(values(only('ec\\\nho hi').words)).toEqual(['echo', 'hi']);
  });

  it('records the span of every word in the source', () => {
    const command = only("ls  'a b'");
    expect(command.words.map((word) => [word.start, word.end, word.raw])).toEqual([
      [0, 2, 'ls'],
      [4, 9, "'a b'"],
    ]);
  });

  it('separates NAME=value assignments before the command name only', () => {
    const command = only('A=1 B="x y" cmd C=2');
    expect(command.assignments.map((word) => word.raw)).toEqual(['A=1', 'B="x y"']);
    expect(values(command.words)).toEqual(['cmd', 'C=2']);
  });

  it('treats a lone $ and a $ before a closing quote as literal', () => {
    const command = only('echo $ "a$"');
    expect(values(command.words)).toEqual(['echo', '$', 'a$']);
    expect(command.words.every((word) => word.expansions.length === 0)).toBe(true);
  });
});

describe('shell parser: expansions', () => {
  it('parses a command substitution body as commands, also inside double quotes', () => {
    const command = only('echo "x$(curl a | sh)y"');
    const expansion = command.words[1]?.expansions[0];
    expect(expansion?.feature).toBe('command_substitution');
    expect(expansion?.text).toBe('$(curl a | sh)');
    const inner = expansion?.body?.items[0]?.pipeline.commands as SimpleCommand[];
    expect(inner.map((c) => c.words[0]?.value)).toEqual(['curl', 'sh']);
    expect(command.words[1]?.value).toBe('xy');
  });

  it('handles a ) inside quotes within a substitution', () => {
    const command = only('echo $(echo ")") done');
    expect(values(command.words)).toEqual(['echo', '', 'done']);
  });

  it('parses backtick bodies after unescaping, marking their commands detached', () => {
    const expansion = only('echo `echo \\`id\\``').words[1]?.expansions[0];
    expect(expansion?.feature).toBe('backtick_substitution');
    const inner = expansion?.body?.items[0]?.pipeline.commands[0] as SimpleCommand;
    expect(inner.detached).toBe(true);
    expect(features(inner.words[1])).toEqual(['backtick_substitution']);
  });

  it('flags parameters, arithmetic and dollar quotes', () => {
    const command = only("echo $HOME ${x:-y} $1 $? $((1+2)) $'\\x41'");
    expect(command.words.slice(1).map(features)).toEqual([
      ['parameter_expansion'],
      ['parameter_expansion'],
      ['parameter_expansion'],
      ['parameter_expansion'],
      ['arithmetic_expansion'],
      ['dollar_quote'],
    ]);
    expect(command.words[1]?.expansions[0]?.text).toBe('$HOME');
  });

  it('parses process substitutions as words with a body', () => {
    const command = only('diff <(ls) >(cat)');
    expect(command.words.slice(1).map(features)).toEqual([['process_substitution'], ['process_substitution']]);
    expect(command.redirections).toEqual([]);
  });

  it('flags unquoted globs, but not a lone [ or quoted patterns', () => {
    const command = only('ls *.ts a?c [ab]x [ \'*\' "?"');
    expect(command.words.slice(1).map(features)).toEqual([['glob'], ['glob'], ['glob'], [], [], []]);
  });

  it('flags a tilde only at the start of a word or after = and :', () => {
    const command = only("ls ~ ~/x a~b --file=~/y a:~ '~'");
    expect(command.words.slice(1).map(features)).toEqual([['tilde'], ['tilde'], [], ['tilde'], ['tilde'], []]);
  });

  it('flags brace expansion only with a comma or .. list', () => {
    const command = only("echo {a,b} {1..3} {} {x} '{a,b}'");
    expect(command.words.slice(1).map(features)).toEqual([['brace'], ['brace'], [], [], []]);
  });
});

describe('shell parser: redirections and here-documents', () => {
  it('reads operators, explicit descriptors and targets', () => {
    const command = only('cmd <in >out 2>>err 2>&1 >|clobber <>rw 3<&- &>all');
    expect(command.redirections.map((r) => [r.fd, r.operator, r.target.value])).toEqual([
      [null, '<', 'in'],
      [null, '>', 'out'],
      [2, '>>', 'err'],
      [2, '>&', '1'],
      [null, '>|', 'clobber'],
      [null, '<>', 'rw'],
      [3, '<&', '-'],
      [null, '&>', 'all'],
    ]);
    expect(values(command.words)).toEqual(['cmd']);
  });

  it('reads here-document bodies after the line, stripping tabs for <<-', () => {
    const { list } = parseShellCommand("cat <<EOF; cat <<-'END'\nhello $x\nEOF\n\tworld\n\tEND\nls");
    const [first, second] = [0, 1].map(
      (index) => (list.items[index]?.pipeline.commands[0] as SimpleCommand).redirections[0],
    );
    expect(first?.hereDocument).toEqual({ body: 'hello $x\n', expands: true });
    expect(second?.hereDocument).toEqual({ body: 'world\n', expands: false });
    expect((list.items[2]?.pipeline.commands[0] as SimpleCommand).words[0]?.value).toBe('ls');
  });

  it('reads here-string targets as words', () => {
    expect(only('cat <<< "hi there"').redirections[0]).toMatchObject({
      operator: '<<<',
      target: { value: 'hi there' },
    });
  });
});

describe('shell parser: rejections', () => {
  it.each([
    ["echo 'open", true],
    ['echo "open', true],
    ['echo $(ls', true],
    ['echo `ls', true],
    ['echo ${x', true],
    ['echo \\', true],
    ['(ls', true],
    ['{ ls', true],
    ['ls )', false],
    [';ls', false],
    ['ls && ', false],
    ['ls | ', false],
    ['case x in x) ls;; esac', false],
    ['f() { ls; }', false],
    ['cat <<EOF\nno end', false],
    ['cat <<EOF', false],
    ['ls >', false],
    ['echo $()', false],
  ])('rejects %j (quoting problem: %s)', (source, quoting) => {
    expect(syntaxError(source).quoting).toBe(quoting);
  });

  it.each(['ls\u0000', 'ls\r\nrm x', 'ls\u001b[31m', 'ls\u007f', 'ls\u0085'])(
    'rejects control characters in %j',
    (source) => {
      expect(syntaxError(source).message).toBe('command contains a control character');
    },
  );

  it('refuses nesting deeper than its limit instead of recursing', () => {
    expect(syntaxError(`${'$('.repeat(20)}ls${')'.repeat(20)}`).message).toMatch(/nested too deeply/);
    expect(syntaxError(`${'('.repeat(20)}ls${')'.repeat(20)}`).message).toMatch(/nested too deeply/);
  });
});

describe('shell parser: reserved words', () => {
  it.each([
    ['if true; then ls; fi', 'if'],
    ['ls; while true; do ls; done', 'while'],
    ['for x in a; do ls; done', 'for'],
    ['until ls; do ls; done', 'until'],
    ['case x in x) ls;; esac', 'case'],
    ['ls && then', 'then'],
    ['ls | fi', 'fi'],
    ['[[ -f x ]]', '[['],
    [']] x', ']]'],
    ['function f { ls; }', 'function'],
    ['select x in a; do ls; done', 'select'],
    ['time ls', 'time'],
    ['coproc ls', 'coproc'],
    ['}', '}'],
    ['ls | ! ls', '!'],
    ['! ! ls', '!'],
    ['echo $(in x)', 'in'],
    ['echo `do x`', 'do'],
    // dash reads these as a program named `if` (after a prefix), bash too: refused anyway, one rule for both
    ['>f if x', 'if'],
    ['x=1 done', 'done'],
  ])('refuses %j: a reserved word where a command name belongs', (source, word) => {
    const error = syntaxError(source);
    expect(error.reservedWord).toBe(word);
    expect(error.quoting).toBe(false);
  });

  it('reads quoted or joined spellings and reserved words as operands as plain words', () => {
    expect(values(only("'if' x").words)).toEqual(['if', 'x']);
    expect(values(only('\\for x').words)).toEqual(['for', 'x']);
    expect(values(only('iffy then').words)).toEqual(['iffy', 'then']);
    expect(values(only('echo if then fi do done { } ! [[ ]] time').words)).toEqual([
      'echo',
      'if',
      'then',
      'fi',
      'do',
      'done',
      '{',
      '}',
      '!',
      '[[',
      ']]',
      'time',
    ]);
  });

  it('still parses a leading ! and { ... } as the shell does', () => {
    expect(parseShellCommand('! ls').list.items[0]?.pipeline.negated).toBe(true);
    expect(parseShellCommand('{ ls; }').list.items[0]?.pipeline.commands[0]?.type).toBe('group');
  });
});
