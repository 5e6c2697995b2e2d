/**
 * A program's options as its own parser reads them. Declarative: the tables in this directory are data, read by
 * `option-reader.ts`, checked against the installed programs by tests/application/policy/option-tables.test.ts.
 */

/** Whether an option takes a value: never, always (`-oFILE`, `-o FILE`, `--out=F`, `--out F`), or only glued. */
export type OptionArgument = 'none' | 'required' | 'optional';

/**
 * How the program reads a long option it was given only in part. `unique_prefix`: glibc `getopt_long` (GNU tools),
 * any unambiguous prefix stands for the option. `exact`: the name must be written out (ripgrep's clap, tree, find).
 */
export type AbbreviationRule = 'unique_prefix' | 'exact';

export interface OptionTable {
  readonly program: string;
  readonly abbreviation: AbbreviationRule;
  /**
   * Short options in getopt optstring form: a letter alone takes no value, `x:` requires one, `x::` takes one
   * only glued (`-Iseconds`).
   */
  readonly short: string;
  /** Long options without their dashes. */
  readonly long: Readonly<Record<string, OptionArgument>>;
  /**
   * chmod: a word like `-x` or `-rw` is a mode, not an option, so short words the table does not know stay operands
   * (`judgeChmod` reads them).
   */
  readonly unknownShortIsOperand?: boolean;
  /**
   * Long options that are one option to getopt_long (same argument, same meaning: grep's `--color`/`--colour`): a
   * prefix of several of them is not ambiguous.
   */
  readonly synonyms?: readonly (readonly string[])[];
}

/** The short options of a table as a map: letter to argument kind. */
export function shortOptions(table: OptionTable): ReadonlyMap<string, OptionArgument> {
  const options = new Map<string, OptionArgument>();
  const spec = table.short;
  for (let index = 0; index < spec.length; index += 1) {
    const letter = spec[index] as string;
    if (spec[index + 1] === ':' && spec[index + 2] === ':') {
      options.set(letter, 'optional');
      index += 2;
    } else if (spec[index + 1] === ':') {
      options.set(letter, 'required');
      index += 1;
    } else {
      options.set(letter, 'none');
    }
  }
  return options;
}
