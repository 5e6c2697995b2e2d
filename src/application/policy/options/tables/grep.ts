// GNU grep 3.8 (Debian 12): getopt_long; `-NUM` is `--context=NUM`, so digits are options.
import { NONE, REQUIRED, OPTIONAL, options } from '../option-table-syntax.js';
import type { OptionTable } from '../option-table.js';

export const GREP_OPTIONS: OptionTable = {
  program: 'grep',
  abbreviation: 'unique_prefix',
  short: '0123456789abcd:e:f:hilm:noqrsuvwxyzA:B:C:D:EFGHILPRTUVX:Z',
  long: {
    ...options(
      NONE,
      'basic-regexp binary byte-offset count dereference-recursive extended-regexp files-with-matches files-without-match fixed-strings help ignore-case initial-tab invert-match line-buffered line-number line-regexp no-filename no-group-separator no-ignore-case no-messages null null-data only-matching perl-regexp quiet recursive silent text version with-filename word-regexp',
    ),
    ...options(
      REQUIRED,
      'after-context before-context binary-files context devices directories exclude exclude-dir exclude-from file group-separator include label max-count regexp',
    ),
    ...options(OPTIONAL, 'color colour'),
  },
  synonyms: [['color', 'colour']],
};
