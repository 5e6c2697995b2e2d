// file 5.44 (Debian 12): getopt_long.
import { NONE, REQUIRED, options } from '../option-table-syntax.js';
import type { OptionTable } from '../option-table.js';

export const FILE_OPTIONS: OptionTable = {
  program: 'file',
  abbreviation: 'unique_prefix',
  short: '0bcde:f:hiklm:nprsvzCEF:LNP:SZ',
  long: {
    ...options(
      NONE,
      'apple brief checking-printout compile debug dereference extension help keep-going list mime mime-encoding mime-type no-buffer no-dereference no-pad no-sandbox preserve-date print0 raw special-files uncompress uncompress-noreport version',
    ),
    ...options(REQUIRED, 'exclude exclude-quiet files-from magic-file parameter separator'),
  },
};
