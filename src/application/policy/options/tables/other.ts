// Programs without getopt_long that the catalogue holds. `which` is debianutils' shell script (getopts `as`, no long
// options). tree parses its own long options and takes them only written out in full; tree 2.1 is not installed on
// the machine the tables were checked on, so this table follows its manual and the checking test says it skipped it.
import { NONE, REQUIRED, options } from '../option-table-syntax.js';
import type { OptionTable } from '../option-table.js';

export const WHICH_OPTIONS: OptionTable = {
  program: 'which',
  abbreviation: 'exact',
  short: 'as',
  long: {},
};

export const TREE_OPTIONS: OptionTable = {
  program: 'tree',
  abbreviation: 'exact',
  short: 'adlfxL:RP:I:o:iqNQpugshDFvtcUrCnASJXH:T:',
  long: {
    ...options(
      NONE,
      'help version noreport dirsfirst filesfirst gitignore prune si du inodes device matchdirs ignore-case nolinks fromfile fromtabfile metafirst info fflinks',
    ),
    ...options(REQUIRED, 'charset filelimit timefmt sort gitfile infofile hintro houtro'),
  },
};
