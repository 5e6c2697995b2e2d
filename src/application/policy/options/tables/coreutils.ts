// GNU coreutils 9.1 (Debian 12): getopt_long, so any unique prefix of a long option stands for it. Generated from `--help`
// and by probing every letter and long option (`-x` alone: "requires an argument" or not), then read by hand.
import { NONE, REQUIRED, OPTIONAL, options } from '../option-table-syntax.js';
import type { OptionTable } from '../option-table.js';

export const CAT_OPTIONS: OptionTable = {
  program: 'cat',
  abbreviation: 'unique_prefix',
  short: 'benstuvAET',
  long: {
    ...options(NONE, 'help number number-nonblank show-all show-ends show-nonprinting show-tabs squeeze-blank version'),
  },
};

export const DF_OPTIONS: OptionTable = {
  program: 'df',
  abbreviation: 'unique_prefix',
  short: 'ahiklmt:vx:B:F:HPT',
  long: {
    ...options(NONE, 'all help human-readable inodes local no-sync portability print-type si sync total version'),
    ...options(REQUIRED, 'block-size exclude-type type'),
    ...options(OPTIONAL, 'output'),
  },
};

export const DU_OPTIONS: OptionTable = {
  program: 'du',
  abbreviation: 'unique_prefix',
  short: '0abcd:hklmst:xB:DHLPSX:',
  long: {
    ...options(
      NONE,
      'all apparent-size bytes count-links dereference dereference-args help human-readable inodes no-dereference null one-file-system separate-dirs si summarize total version',
    ),
    ...options(REQUIRED, 'block-size exclude exclude-from files0-from max-depth threshold time-style'),
    ...options(OPTIONAL, 'time'),
  },
};

export const HEAD_OPTIONS: OptionTable = {
  program: 'head',
  abbreviation: 'unique_prefix',
  short: '0123456789c:n:qvz',
  long: {
    ...options(NONE, 'help quiet silent verbose version zero-terminated'),
    ...options(REQUIRED, 'bytes lines'),
  },
};

export const LS_OPTIONS: OptionTable = {
  program: 'ls',
  abbreviation: 'unique_prefix',
  short: '1abcdfghiklmnopqrstuvw:xABCDFGHI:LNQRST:UXZ',
  long: {
    ...options(
      NONE,
      'all almost-all author context dereference dereference-command-line dereference-command-line-symlink-to-dir directory dired escape file-type full-time group-directories-first help hide-control-chars human-readable ignore-backups inode kibibytes literal no-group numeric-uid-gid quote-name recursive reverse show-control-chars si size version zero',
    ),
    ...options(
      REQUIRED,
      'block-size format hide ignore indicator-style quoting-style sort tabsize time time-style width',
    ),
    ...options(OPTIONAL, 'classify color hyperlink'),
  },
};

export const PWD_OPTIONS: OptionTable = {
  program: 'pwd',
  abbreviation: 'unique_prefix',
  short: 'LP',
  long: {
    ...options(NONE, 'help logical physical version'),
  },
};

export const STAT_OPTIONS: OptionTable = {
  program: 'stat',
  abbreviation: 'unique_prefix',
  short: 'c:ftL',
  long: {
    ...options(NONE, 'dereference file-system help terse version'),
    ...options(REQUIRED, 'cached format printf'),
  },
};

export const TAIL_OPTIONS: OptionTable = {
  program: 'tail',
  abbreviation: 'unique_prefix',
  short: '0123456789bc:fln:qs:vzF',
  long: {
    ...options(NONE, 'help quiet retry silent verbose version zero-terminated'),
    ...options(REQUIRED, 'bytes lines max-unchanged-stats pid sleep-interval'),
    ...options(OPTIONAL, 'follow'),
  },
};

export const WC_OPTIONS: OptionTable = {
  program: 'wc',
  abbreviation: 'unique_prefix',
  short: 'clmwL',
  long: {
    ...options(NONE, 'bytes chars help lines max-line-length version words'),
    ...options(REQUIRED, 'files0-from'),
  },
};

export const SORT_OPTIONS: OptionTable = {
  program: 'sort',
  abbreviation: 'unique_prefix',
  short: 'bcdfghik:mno:rst:uy:zCMRS:T:V',
  long: {
    ...options(
      NONE,
      'debug dictionary-order general-numeric-sort help human-numeric-sort ignore-case ignore-leading-blanks ignore-nonprinting merge month-sort numeric-sort random-sort reverse stable unique version version-sort zero-terminated',
    ),
    ...options(
      REQUIRED,
      'batch-size buffer-size compress-program field-separator files0-from key output parallel random-source sort temporary-directory',
    ),
    ...options(OPTIONAL, 'check'),
  },
};

export const UNIQ_OPTIONS: OptionTable = {
  program: 'uniq',
  abbreviation: 'unique_prefix',
  short: '0123456789cdf:is:uw:zD',
  long: {
    ...options(NONE, 'count help ignore-case repeated unique version zero-terminated'),
    ...options(REQUIRED, 'check-chars skip-chars skip-fields'),
    ...options(OPTIONAL, 'all-repeated group'),
  },
};

export const CUT_OPTIONS: OptionTable = {
  program: 'cut',
  abbreviation: 'unique_prefix',
  short: 'b:c:d:f:nsz',
  long: {
    ...options(NONE, 'complement help only-delimited version zero-terminated'),
    ...options(REQUIRED, 'bytes characters delimiter fields output-delimiter'),
  },
};

export const TR_OPTIONS: OptionTable = {
  program: 'tr',
  abbreviation: 'unique_prefix',
  short: 'cdstAC',
  long: {
    ...options(NONE, 'complement delete help squeeze-repeats truncate-set1 version'),
  },
};

export const BASENAME_OPTIONS: OptionTable = {
  program: 'basename',
  abbreviation: 'unique_prefix',
  short: 'as:z',
  long: {
    ...options(NONE, 'help multiple version zero'),
    ...options(REQUIRED, 'suffix'),
  },
};

export const DIRNAME_OPTIONS: OptionTable = {
  program: 'dirname',
  abbreviation: 'unique_prefix',
  short: 'z',
  long: {
    ...options(NONE, 'help version zero'),
  },
};

export const DATE_OPTIONS: OptionTable = {
  program: 'date',
  abbreviation: 'unique_prefix',
  short: 'd:f:r:s:uI::R',
  long: {
    ...options(NONE, 'debug help resolution rfc-email universal utc version'),
    ...options(REQUIRED, 'date file reference rfc-3339 set'),
    ...options(OPTIONAL, 'iso-8601'),
  },
};

export const WHOAMI_OPTIONS: OptionTable = {
  program: 'whoami',
  abbreviation: 'unique_prefix',
  short: '',
  long: {
    ...options(NONE, 'help version'),
  },
};

export const ID_OPTIONS: OptionTable = {
  program: 'id',
  abbreviation: 'unique_prefix',
  short: 'agnruzGZ',
  long: {
    ...options(NONE, 'context group groups help name real user version zero'),
  },
};

export const UNAME_OPTIONS: OptionTable = {
  program: 'uname',
  abbreviation: 'unique_prefix',
  short: 'aimnoprsv',
  long: {
    ...options(
      NONE,
      'all hardware-platform help kernel-name kernel-release kernel-version machine nodename operating-system processor version',
    ),
  },
};

export const NL_OPTIONS: OptionTable = {
  program: 'nl',
  abbreviation: 'unique_prefix',
  short: 'b:d:f:h:i:l:n:ps:v:w:',
  long: {
    ...options(NONE, 'help no-renumber version'),
    ...options(
      REQUIRED,
      'body-numbering footer-numbering header-numbering join-blank-lines line-increment number-format number-separator number-width section-delimiter starting-line-number',
    ),
  },
};

export const TAC_OPTIONS: OptionTable = {
  program: 'tac',
  abbreviation: 'unique_prefix',
  short: 'brs:',
  long: {
    ...options(NONE, 'before help regex version'),
    ...options(REQUIRED, 'separator'),
  },
};

export const SHA256SUM_OPTIONS: OptionTable = {
  program: 'sha256sum',
  abbreviation: 'unique_prefix',
  short: 'bctwz',
  long: {
    ...options(NONE, 'binary check help ignore-missing quiet status strict tag text version warn zero'),
  },
};

export const MD5SUM_OPTIONS: OptionTable = {
  program: 'md5sum',
  abbreviation: 'unique_prefix',
  short: 'bctwz',
  long: {
    ...options(NONE, 'binary check help ignore-missing quiet status strict tag text version warn zero'),
  },
};

export const CP_OPTIONS: OptionTable = {
  program: 'cp',
  abbreviation: 'unique_prefix',
  short: 'abdfilnprst:uvxHLPRS:TZ',
  long: {
    ...options(
      NONE,
      'archive attributes-only copy-contents dereference force help interactive link no-clobber no-dereference no-target-directory one-file-system parents recursive remove-destination strip-trailing-slashes symbolic-link update verbose version',
    ),
    ...options(REQUIRED, 'no-preserve sparse suffix target-directory'),
    ...options(OPTIONAL, 'backup context preserve reflink'),
  },
};

export const MKDIR_OPTIONS: OptionTable = {
  program: 'mkdir',
  abbreviation: 'unique_prefix',
  short: 'm:pvZ',
  long: {
    ...options(NONE, 'help parents verbose version'),
    ...options(REQUIRED, 'mode'),
    ...options(OPTIONAL, 'context'),
  },
};

export const MV_OPTIONS: OptionTable = {
  program: 'mv',
  abbreviation: 'unique_prefix',
  short: 'bfint:uvS:TZ',
  long: {
    ...options(
      NONE,
      'context force help interactive no-clobber no-target-directory strip-trailing-slashes update verbose version',
    ),
    ...options(REQUIRED, 'suffix target-directory'),
    ...options(OPTIONAL, 'backup'),
  },
};

export const RM_OPTIONS: OptionTable = {
  program: 'rm',
  abbreviation: 'unique_prefix',
  short: 'dfirvIR',
  long: {
    ...options(NONE, 'dir force help no-preserve-root one-file-system recursive verbose version'),
    ...options(OPTIONAL, 'interactive preserve-root'),
  },
};

export const TOUCH_OPTIONS: OptionTable = {
  program: 'touch',
  abbreviation: 'unique_prefix',
  short: 'acd:fhmr:t:',
  long: {
    ...options(NONE, 'help no-create no-dereference version'),
    ...options(REQUIRED, 'date reference time'),
  },
};

export const TEE_OPTIONS: OptionTable = {
  program: 'tee',
  abbreviation: 'unique_prefix',
  short: 'aip',
  long: {
    ...options(NONE, 'append help ignore-interrupts version'),
    ...options(OPTIONAL, 'output-error'),
  },
};

export const LN_OPTIONS: OptionTable = {
  program: 'ln',
  abbreviation: 'unique_prefix',
  short: 'bdfinrst:vFLPS:T',
  long: {
    ...options(
      NONE,
      'directory force help interactive logical no-dereference no-target-directory physical relative symbolic verbose version',
    ),
    ...options(REQUIRED, 'suffix target-directory'),
    ...options(OPTIONAL, 'backup'),
  },
};

export const CHMOD_OPTIONS: OptionTable = {
  program: 'chmod',
  abbreviation: 'unique_prefix',
  short: 'Rcfv',
  long: {
    ...options(NONE, 'changes help no-preserve-root preserve-root quiet recursive silent verbose version'),
    ...options(REQUIRED, 'reference'),
  },
  unknownShortIsOperand: true,
};

export const SLEEP_OPTIONS: OptionTable = {
  program: 'sleep',
  abbreviation: 'unique_prefix',
  short: '',
  long: {
    ...options(NONE, 'help version'),
  },
};
