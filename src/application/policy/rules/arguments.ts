import type { Word } from '../../shell/shell-ast.js';

/** Arguments split the GNU/POSIX way: options before `--`, everything else operands. */
export interface SplitArguments {
  /** Option words (start with `-`, are not `-`, come before `--`). */
  readonly options: readonly string[];
  readonly operands: readonly Word[];
}

export function splitArguments(args: readonly Word[]): SplitArguments {
  const options: string[] = [];
  const operands: Word[] = [];
  let endOfOptions = false;
  for (const word of args) {
    if (!endOfOptions && word.value === '--') endOfOptions = true;
    else if (!endOfOptions && isOption(word.value)) options.push(word.value);
    else operands.push(word);
  }
  return { options, operands };
}

function isOption(value: string): boolean {
  return value.startsWith('-') && value !== '-';
}

/**
 * True when an option is present in arguments read through the program's option table (options/option-reader.ts):
 * a long name exactly or as `--name=value`, or a short letter as `-x` or `-xVALUE` (clusters are already split).
 */
export function hasOption(options: readonly string[], spec: { short?: string; long?: readonly string[] }): boolean {
  return options.some((option) => {
    if (option.startsWith('--')) {
      const name = option.split('=', 1)[0] as string;
      return spec.long?.includes(name) ?? false;
    }
    return spec.short !== undefined && option.length >= 2 && spec.short.includes(option[1] as string);
  });
}

/** The word following the first occurrence of one of `names`, or the value of `--name=value`. */
export function optionValues(args: readonly Word[], names: readonly string[]): string[] {
  const values: string[] = [];
  for (const [index, word] of args.entries()) {
    if (word.value === '--') break;
    const equals = word.value.indexOf('=');
    if (word.value.startsWith('--') && equals > 0 && names.includes(word.value.slice(0, equals))) {
      values.push(word.value.slice(equals + 1));
    } else if (names.includes(word.value)) {
      const next = args[index + 1];
      if (next) values.push(next.value);
    } else if (!word.value.startsWith('--')) {
      const attached = names.find((name) => name.length === 2 && word.value.startsWith(name) && word.value.length > 2);
      if (attached) values.push(word.value.slice(2));
    }
  }
  return values;
}
