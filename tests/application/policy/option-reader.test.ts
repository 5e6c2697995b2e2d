import { readOptions, resolveLongOption } from '../../../src/application/policy/options/option-reader';
import { optionTableFor } from '../../../src/application/policy/options/program-options';
import type { OptionTable } from '../../../src/application/policy/options/option-table';
import { parseShellCommand } from '../../../src/application/shell/shell-parser';
import type { SimpleCommand } from '../../../src/application/shell/shell-ast';

/** The words after the program name of a one-command line, as the parser gives them. */
function argsOf(line: string) {
  const command = parseShellCommand(line).list.items[0]?.pipeline.commands[0] as SimpleCommand;
  return command.words.slice(1);
}

function table(program: string): OptionTable {
  const found = optionTableFor(program);
  if (!found) throw new Error(`no table for ${program}`);
  return found;
}

function read(line: string): string[] | string {
  const words = argsOf(line);
  const reading = readOptions(table(line.split(' ')[0] as string), words);
  return reading.kind === 'read' ? reading.words.map((word) => word.value) : `${reading.rule}: ${reading.reason}`;
}

describe('option reader: arguments as the program reads them', () => {
  it('writes abbreviations out, in both value forms', () => {
    expect(read('sort -S 1 --compress-prog=python3 f')).toEqual(['-S1', '--compress-program=python3', 'f']);
    expect(read('sort --o x f')).toEqual(['--output=x', 'f']);
    expect(read('sort --out=x f')).toEqual(['--output=x', 'f']);
    expect(read('date --f=x')).toEqual(['--file=x']);
  });

  it('splits clusters and keeps a value with the letter that takes it', () => {
    expect(read('sort -nrk2 f')).toEqual(['-n', '-r', '-k2', 'f']);
    expect(read('sort -nro out f')).toEqual(['-n', '-r', '-oout', 'f']);
    expect(read('sort -oFILE -- -n')).toEqual(['-oFILE', '--', '-n']);
    expect(read('date -Iseconds')).toEqual(['-Iseconds']);
    expect(read('date -I')).toEqual(['-I']);
  });

  it('takes a value that looks like an option as the value', () => {
    expect(read('grep -e --files0-from=x f')).toEqual(['-e--files0-from=x', 'f']);
    expect(read('sort --key --compress-program=x f')).toEqual(['--key=--compress-program=x', 'f']);
  });

  it('reads options after operands (getopt permutes) and nothing after --', () => {
    expect(read('sort f --rev')).toEqual(['f', '--reverse']);
    expect(read('sort -- --rev -')).toEqual(['--', '--rev', '-']);
  });

  it('refuses ambiguous, unknown and valueless forms with a reason', () => {
    expect(read('ls --deref x')).toMatch(
      /^ambiguous_option: ls --deref is ambiguous \(--dereference, --dereference-command-line/,
    );
    expect(read('cat --zz')).toBe('unknown_option: cat has no option --zz');
    expect(read('cat -L')).toBe('unknown_option: cat has no option -L');
    expect(read('cat --number=3')).toBe('unknown_option: cat --number takes no value');
    expect(read('sort -o')).toBe('unknown_option: sort -o needs a value');
    expect(read('rg --fol x')).toBe(
      'unknown_option: rg has no option --fol (it takes long options only written out in full)',
    );
  });

  it('treats synonyms as one option and an exact name as itself', () => {
    expect(resolveLongOption(table('grep'), 'col')).toEqual({ kind: 'option', name: 'color', argument: 'optional' });
    expect(resolveLongOption(table('cat'), 'number')).toEqual({ kind: 'option', name: 'number', argument: 'none' });
    expect(resolveLongOption(table('cat'), 'num')).toEqual({
      kind: 'ambiguous',
      candidates: ['number', 'number-nonblank'],
    });
  });

  it('refuses an option whose name comes from a substitution, and keeps chmod modes as operands', () => {
    expect(read('sort --$(echo output)=x f')).toMatch(/^dynamic_option: /);
    expect(read('chmod -x,u+r f')).toEqual(['-x,u+r', 'f']);
    expect(read('chmod -R --ref=a f')).toEqual(['-R', '--reference=a', 'f']);
  });
});
