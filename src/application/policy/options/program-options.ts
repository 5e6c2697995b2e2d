import type { OptionTable } from './option-table.js';
import * as coreutils from './tables/coreutils.js';
import { CMP_OPTIONS, DIFF_OPTIONS } from './tables/diffutils.js';
import { FILE_OPTIONS } from './tables/file.js';
import { GREP_OPTIONS } from './tables/grep.js';
import { TREE_OPTIONS, WHICH_OPTIONS } from './tables/other.js';
import { RG_OPTIONS } from './tables/ripgrep.js';
import { REV_OPTIONS } from './tables/util-linux.js';

/** Every catalogued program whose options the policy reads through a table, by name. */
export const OPTION_TABLES: ReadonlyMap<string, OptionTable> = new Map(
  [
    ...Object.values(coreutils),
    CMP_OPTIONS,
    DIFF_OPTIONS,
    FILE_OPTIONS,
    GREP_OPTIONS,
    TREE_OPTIONS,
    WHICH_OPTIONS,
    RG_OPTIONS,
    REV_OPTIONS,
  ].map((table) => [table.program, table]),
);

/**
 * Catalogued programs read without a table, and why. Their words are judged by their own rule instead.
 */
export const PROGRAMS_WITHOUT_TABLE: Readonly<Record<string, string>> = {
  echo: 'its arguments are text; it reads no file and runs nothing whatever they say',
  printf: 'its arguments are a format and text; it reads no file and runs nothing',
  true: 'ignores its arguments',
  false: 'ignores its arguments',
  test: 'its arguments are an expression over names; it opens no file and runs nothing',
  '[': 'its arguments are an expression over names; it opens no file and runs nothing',
  find: 'an expression language, not getopt: its primaries are matched whole by the find rule (find rejects abbreviations)',
  git: 'subcommands with their own parsers: judged by the git rule, which allows listed subcommands and options only',
};

export function optionTableFor(program: string): OptionTable | undefined {
  return OPTION_TABLES.get(program);
}
