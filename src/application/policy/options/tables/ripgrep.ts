// ripgrep 13.0.0 (Debian 12): clap 2, which takes long options only written out in full.
import { NONE, REQUIRED, options } from '../option-table-syntax.js';
import type { OptionTable } from '../option-table.js';

export const RG_OPTIONS: OptionTable = {
  program: 'rg',
  abbreviation: 'exact',
  short: '0A:B:bsC:cE:f:lFLg:h.ivnxM:m:UINoPpqe:r:zSaj:t:T:uVHw',
  long: {
    ...options(NONE, 'auto-hybrid-regex binary block-buffered byte-offset case-sensitive column count count-matches crlf debug files files-with-matches files-without-match fixed-strings follow glob-case-insensitive heading help hidden ignore-case ignore-file-case-insensitive include-zero invert-match json line-buffered line-number line-regexp max-columns-preview mmap multiline multiline-dotall no-config no-filename no-heading no-ignore no-ignore-dot no-ignore-exclude no-ignore-files no-ignore-global no-ignore-messages no-ignore-parent no-ignore-vcs no-line-number no-messages no-mmap no-pcre2-unicode no-require-git no-unicode null null-data one-file-system only-matching passthru pcre2 pcre2-version pretty quiet search-zip smart-case stats text trim type-list unrestricted version vimgrep with-filename word-regexp'),
    ...options(REQUIRED, 'after-context before-context color colors context context-separator dfa-size-limit encoding engine field-context-separator field-match-separator file glob iglob ignore-file max-columns max-count max-depth max-filesize path-separator pre pre-glob regex-size-limit regexp replace sort sortr threads type type-add type-clear type-not'),
  },
};
