// util-linux 2.38.1 (Debian 12): getopt_long.
import { NONE, options } from '../option-table-syntax.js';
import type { OptionTable } from '../option-table.js';

export const REV_OPTIONS: OptionTable = {
  program: 'rev',
  abbreviation: 'unique_prefix',
  short: 'hV',
  long: {
    ...options(NONE, 'help version'),
  },
};
