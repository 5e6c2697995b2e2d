import type { Word } from '../../shell/shell-ast.js';
import { shortOptions, type OptionArgument, type OptionTable } from './option-table.js';

/**
 * The arguments as the program reads them, rewritten into one canonical spelling the rules can match exactly:
 * every long option written out in full (`--compress-prog=x` → `--compress-program=x`, `--out x` →
 * `--output=x`), every short cluster split (`-nrk2` → `-n`, `-r`, `-k2`), a value kept glued to its option, `--`
 * and the operands unchanged. Or the reason the program's reading cannot be known.
 */
export type OptionReading =
  | { readonly kind: 'read'; readonly words: readonly Word[] }
  | {
      readonly kind: 'refused';
      readonly rule: 'ambiguous_option' | 'unknown_option' | 'dynamic_option';
      readonly reason: string;
    };

/** The long option a written name stands for under the table's abbreviation rule. */
export type LongResolution =
  | { readonly kind: 'option'; readonly name: string; readonly argument: OptionArgument }
  | { readonly kind: 'ambiguous'; readonly candidates: readonly string[] }
  | { readonly kind: 'unknown' };

export function resolveLongOption(table: OptionTable, written: string): LongResolution {
  const exact = table.long[written];
  if (exact !== undefined) return { kind: 'option', name: written, argument: exact };
  if (table.abbreviation === 'exact' || written === '') return { kind: 'unknown' };
  const candidates = Object.keys(table.long).filter((name) => name.startsWith(written));
  if (candidates.length === 0) return { kind: 'unknown' };
  const oneOption = table.synonyms?.some((group) => candidates.every((name) => group.includes(name))) ?? false;
  if (candidates.length > 1 && !oneOption) return { kind: 'ambiguous', candidates };
  const name = candidates[0] as string;
  return { kind: 'option', name, argument: table.long[name] as OptionArgument };
}

const shortCache = new WeakMap<OptionTable, ReadonlyMap<string, OptionArgument>>();

function shortsOf(table: OptionTable): ReadonlyMap<string, OptionArgument> {
  let shorts = shortCache.get(table);
  if (!shorts) {
    shorts = shortOptions(table);
    shortCache.set(table, shorts);
  }
  return shorts;
}

function rewritten(word: Word, value: string, end: Word = word): Word {
  const expansions = end === word ? word.expansions : [...word.expansions, ...end.expansions];
  return { raw: word.raw, start: word.start, end: end.end, value, expansions };
}

/** `-x` with its value glued, marking where the value starts. */
function withShortValue(word: Word, letter: string, optionValue: string, end: Word = word): Word {
  return { ...rewritten(word, `-${letter}${optionValue}`, end), optionValueStart: 2 };
}

function refused(rule: 'ambiguous_option' | 'unknown_option' | 'dynamic_option', reason: string): OptionReading {
  return { kind: 'refused', rule, reason };
}

/**
 * Reads `args` the way `table.program` does (GNU getopt_long with permutation: options may follow operands until
 * `--`). An ambiguous or unknown long option, an unknown short one, or an option whose name comes from an expansion
 * is refused: the program would either reject it or do something the policy did not judge.
 */
export function readOptions(table: OptionTable, args: readonly Word[]): OptionReading {
  const words: Word[] = [];
  let endOfOptions = false;
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index] as Word;
    const value = word.value;
    if (endOfOptions || value === '-' || !value.startsWith('-')) {
      words.push(word);
      continue;
    }
    if (value === '--') {
      endOfOptions = true;
      words.push(word);
      continue;
    }
    const next = args[index + 1];
    const read = value.startsWith('--') ? readLong(table, word, next) : readShortCluster(table, word, next);
    if ('kind' in read) return read;
    words.push(...read.words);
    if (read.consumedNext) index += 1;
  }
  return { kind: 'read', words };
}

interface WordsRead {
  readonly words: readonly Word[];
  readonly consumedNext: boolean;
}

function readLong(table: OptionTable, word: Word, next: Word | undefined): WordsRead | OptionReading {
  const value = word.value;
  const equals = value.indexOf('=');
  const written = value.slice(2, equals < 0 ? undefined : equals);
  const nameSpelled = value.slice(0, equals < 0 ? undefined : equals + 1);
  if (word.expansions.length > 0 && !word.raw.startsWith(nameSpelled)) {
    return refused('dynamic_option', `an option whose name comes from an expansion cannot be judged: ${word.raw}`);
  }
  const resolution = resolveLongOption(table, written);
  if (resolution.kind === 'ambiguous') {
    const shown = resolution.candidates
      .slice(0, 6)
      .map((name) => `--${name}`)
      .join(', ');
    return refused(
      'ambiguous_option',
      `${table.program} --${written} is ambiguous (${shown}); write the option out in full`,
    );
  }
  if (resolution.kind === 'unknown') {
    const rule = table.abbreviation === 'exact' ? ' (it takes long options only written out in full)' : '';
    return refused('unknown_option', `${table.program} has no option --${written}${rule}`);
  }
  const full = `--${resolution.name}`;
  if (equals >= 0) {
    if (resolution.argument === 'none') return refused('unknown_option', `${table.program} ${full} takes no value`);
    return { words: [rewritten(word, `${full}=${value.slice(equals + 1)}`)], consumedNext: false };
  }
  if (resolution.argument === 'required') {
    if (next === undefined) return refused('unknown_option', `${table.program} ${full} needs a value`);
    return { words: [rewritten(word, `${full}=${next.value}`, next)], consumedNext: true };
  }
  return { words: [rewritten(word, full)], consumedNext: false };
}

function readShortCluster(table: OptionTable, word: Word, next: Word | undefined): WordsRead | OptionReading {
  const value = word.value;
  const shorts = shortsOf(table);
  const words: Word[] = [];
  for (let position = 1; position < value.length; position += 1) {
    const letter = value[position] as string;
    const argument = shorts.get(letter);
    if (argument === undefined) {
      if (table.unknownShortIsOperand && position === 1) return { words: [word], consumedNext: false };
      return refused('unknown_option', `${table.program} has no option -${letter}`);
    }
    if (argument === 'none') {
      words.push(rewritten(word, `-${letter}`));
      continue;
    }
    if (word.expansions.length > 0 && !word.raw.startsWith(value.slice(0, position + 1))) {
      return refused('dynamic_option', `an option whose name comes from an expansion cannot be judged: ${word.raw}`);
    }
    const glued = value.slice(position + 1);
    if (glued !== '' || argument === 'optional') {
      words.push(withShortValue(word, letter, glued));
      return finishCluster(word, words);
    }
    if (next === undefined) return refused('unknown_option', `${table.program} -${letter} needs a value`);
    words.push(withShortValue(word, letter, next.value, next));
    return { ...finishCluster(word, words), consumedNext: true };
  }
  return finishCluster(word, words);
}

function finishCluster(word: Word, words: readonly Word[]): WordsRead | OptionReading {
  // A cluster built by an expansion (`-$x`) has letters the policy cannot see.
  const literal = word.expansions.length === 0 || words.every((part) => word.raw.includes(part.value.slice(0, 2)));
  if (!literal)
    return refused('dynamic_option', `an option whose name comes from an expansion cannot be judged: ${word.raw}`);
  return { words, consumedNext: false };
}
