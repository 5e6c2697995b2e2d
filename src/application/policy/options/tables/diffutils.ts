// GNU diffutils 3.8 (Debian 12): getopt_long. `-NUM` is obsolete context syntax, so digits are options.
import { NONE, REQUIRED, OPTIONAL, options } from '../option-table-syntax.js';
import type { OptionTable } from '../option-table.js';

export const DIFF_OPTIONS: OptionTable = {
  program: 'diff',
  abbreviation: 'unique_prefix',
  short: '0123456789abcdefhilnpqrstuvwx:yBC:D:EF:HI:L:NPS:TU:W:X:Z',
  long: {
    ...options(
      NONE,
      'brief ed expand-tabs help ignore-all-space ignore-blank-lines ignore-case ignore-file-name-case ignore-space-change ignore-tab-expansion ignore-trailing-space initial-tab left-column minimal new-file no-dereference no-ignore-file-name-case normal paginate rcs recursive report-identical-files show-c-function side-by-side speed-large-files strip-trailing-cr suppress-blank-empty suppress-common-lines text unidirectional-new-file version',
    ),
    ...options(
      REQUIRED,
      'changed-group-format exclude exclude-from from-file horizon-lines ifdef ignore-matching-lines label line-format new-group-format new-line-format old-group-format old-line-format palette show-function-line starting-file tabsize to-file unchanged-group-format unchanged-line-format width',
    ),
    ...options(OPTIONAL, 'color context unified'),
  },
};

export const CMP_OPTIONS: OptionTable = {
  program: 'cmp',
  abbreviation: 'unique_prefix',
  short: 'bci:ln:sv',
  long: {
    ...options(NONE, 'help print-bytes quiet silent verbose version'),
    ...options(REQUIRED, 'bytes ignore-initial'),
  },
};
